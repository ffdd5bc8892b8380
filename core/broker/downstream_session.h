#pragma once

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>

#include "broker/service_context.h"
#include "kubemq.grpc.pb.h"

namespace qs::broker {

// One QueuesDownstream stream (spec §2.8): requests are handled one at a time
// in arrival order on the gRPC handler thread; each Get opens a transaction
// that lives as long as the stream. When the stream ends (cancel, disconnect,
// half-close or broker stop) every unsettled message goes back to its
// original position, unchanged (§2.8.5, §6 item 1).
class DownstreamSession {
public:
    using Stream =
        grpc::ServerReaderWriter<kubemq::QueuesDownstreamResponse, kubemq::QueuesDownstreamRequest>;

    DownstreamSession(ServiceContext& context, grpc::ServerContext& server, Stream& stream);
    ~DownstreamSession();
    DownstreamSession(const DownstreamSession&) = delete;
    DownstreamSession& operator=(const DownstreamSession&) = delete;

    grpc::Status run();

private:
    struct Transaction {
        std::shared_ptr<QueueChannel> channel;
        std::set<std::uint64_t> unsettled;
        std::string clientId;
        bool closed = false;
    };

    void handle(const kubemq::QueuesDownstreamRequest& request);
    void get(const kubemq::QueuesDownstreamRequest& request);
    void settle(const kubemq::QueuesDownstreamRequest& request);
    void closeTransaction(const std::string& id, Transaction& transaction);
    void closeAll();
    void sendError(const kubemq::QueuesDownstreamRequest& request, const std::string& transactionId,
                   kubemq::QueuesDownstreamRequestType type, std::string_view error);
    void write(const kubemq::QueuesDownstreamResponse& response);

    ServiceContext& context_;
    grpc::ServerContext& server_;
    Stream& stream_;
    std::unordered_map<std::string, Transaction> transactions_;
    std::string clientId_;
    bool broken_ = false;
};

}  // namespace qs::broker
