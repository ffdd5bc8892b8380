#pragma once

// Private: one QueuesUpstream stream with its reader thread.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "client/client_core.h"
#include "client/queue_message.h"
#include "client/result.h"
#include "kubemq.grpc.pb.h"

namespace qs::client::detail {

// Owns the current stream of one QueueUpstream and re-opens it after failures.
class UpstreamSession {
public:
    explicit UpstreamSession(std::shared_ptr<ClientCore> core);
    ~UpstreamSession();

    Result<std::vector<SendResult>> send(std::vector<QueueMessage> messages,
                                         std::chrono::milliseconds timeout);
    // Cancels the current stream; abandon = no new stream until the next send.
    void cancel();
    void close();  // cancel and refuse further sends

private:
    struct Stream;
    std::shared_ptr<Stream> current(Error* error);

    std::shared_ptr<ClientCore> core_;
    std::mutex mutex_;
    std::shared_ptr<Stream> stream_;
    bool closed_ = false;
};

}  // namespace qs::client::detail
