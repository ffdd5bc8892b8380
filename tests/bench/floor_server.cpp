#include "floor_server.h"

#include <google/protobuf/arena.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdint>
#include <unordered_map>

#include "kubemq.grpc.pb.h"

namespace qs::bench {

namespace {

// The broker's default gRPC message-size limit (BrokerOptions::maxMessageBytes).
constexpr int kMaxMessageBytes = 104857600;
constexpr const char* kNoTransaction = "transaction is completed or transaction id not found";
// A Get's largest answer: enough for any benchmark, and a bound on what a stray
// request makes the floor allocate.
constexpr int kMaxItemsPerGet = 100000;

std::int64_t unixNanos() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

using DownstreamStream =
    grpc::ServerReaderWriter<kubemq::QueuesDownstreamResponse, kubemq::QueuesDownstreamRequest>;

// One QueuesDownstream stream: hands out copies of `prototype` and remembers only
// which transactions are open (their first sequence and size).
class FloorDownstream {
public:
    FloorDownstream(const kubemq::QueueMessage& prototype, DownstreamStream& stream)
        : prototype_(prototype), stream_(stream) {}

    void run() {
        kubemq::QueuesDownstreamRequest request;
        while (stream_.Read(&request)) {
            if (!handle(request))
                return;
        }
    }

private:
    struct OpenTransaction {
        std::int64_t firstSequence = 0;
        int count = 0;
    };

    // False when the client went away.
    bool handle(const kubemq::QueuesDownstreamRequest& request) {
        switch (request.requesttypedata()) {
            case kubemq::Get:
                return get(request);
            case kubemq::ActiveOffsets:
                return activeOffsets(request);
            case kubemq::AckAll:
            case kubemq::AckRange:
            case kubemq::NAckAll:
            case kubemq::NAckRange:
            case kubemq::ReQueueAll:
            case kubemq::ReQueueRange:
            case kubemq::CloseByClient:
                return settle(request);
            default:
                return replyError(request, request.reftransactionid(),
                                  "request type not served by the gRPC floor");
        }
    }

    bool get(const kubemq::QueuesDownstreamRequest& request) {
        const std::string transactionId = "floor-" + std::to_string(nextTransaction_++);
        if (request.maxitems() <= 0 || request.maxitems() > kMaxItemsPerGet) {
            return replyError(request, transactionId,
                              "the gRPC floor serves MaxItems 1 to 100000 per Get");
        }
        // One arena for the whole response, as the broker's Get does.
        google::protobuf::Arena arena;
        auto& response =
            *google::protobuf::Arena::CreateMessage<kubemq::QueuesDownstreamResponse>(&arena);
        response.set_transactionid(transactionId);
        response.set_refrequestid(request.requestid());
        response.set_requesttypedata(kubemq::Get);
        response.mutable_messages()->Reserve(request.maxitems());
        const OpenTransaction transaction{nextSequence_, request.maxitems()};
        for (int i = 0; i < request.maxitems(); ++i) {
            kubemq::QueueMessage* message = response.add_messages();
            *message = prototype_;
            message->set_channel(request.channel());
            message->mutable_attributes()->set_sequence(
                static_cast<std::uint64_t>(nextSequence_++));
        }
        open_.emplace(transactionId, transaction);
        return stream_.Write(response);
    }

    // Any settlement closes the whole transaction: the floor keeps no per-message state.
    bool settle(const kubemq::QueuesDownstreamRequest& request) {
        if (open_.erase(request.reftransactionid()) == 0)
            return replyError(request, request.reftransactionid(), kNoTransaction);
        return true;  // success is not answered (spec §2.8.3)
    }

    bool activeOffsets(const kubemq::QueuesDownstreamRequest& request) {
        const auto it = open_.find(request.reftransactionid());
        if (it == open_.end())
            return replyError(request, request.reftransactionid(), kNoTransaction);
        kubemq::QueuesDownstreamResponse response;
        response.set_transactionid(request.reftransactionid());
        response.set_refrequestid(request.requestid());
        response.set_requesttypedata(kubemq::ActiveOffsets);
        for (int i = 0; i < it->second.count; ++i)
            response.add_activeoffsets(it->second.firstSequence + i);
        return stream_.Write(response);
    }

    bool replyError(const kubemq::QueuesDownstreamRequest& request,
                    const std::string& transactionId, const char* error) {
        kubemq::QueuesDownstreamResponse response;
        response.set_transactionid(transactionId);
        response.set_refrequestid(request.requestid());
        response.set_requesttypedata(request.requesttypedata());
        response.set_iserror(true);
        response.set_error(error);
        return stream_.Write(response);
    }

    const kubemq::QueueMessage& prototype_;
    DownstreamStream& stream_;
    std::unordered_map<std::string, OpenTransaction> open_;
    std::int64_t nextSequence_ = 1;
    std::uint64_t nextTransaction_ = 1;
};

// Synchronous API, like the broker's KubemqService for every RPC the benchmarks use.
class FloorService final : public kubemq::kubemq::Service {
public:
    explicit FloorService(int bodyBytes) {
        prototype_.set_messageid("floor");
        prototype_.set_clientid("bench_grpc_floor");
        prototype_.set_body(std::string(static_cast<std::size_t>(bodyBytes), 'x'));
        prototype_.mutable_attributes()->set_timestamp(unixNanos());
        prototype_.mutable_attributes()->set_receivecount(1);
    }

    grpc::Status Ping(grpc::ServerContext*, const kubemq::Empty*,
                      kubemq::PingResult* reply) override {
        reply->set_host("queuescope-grpc-floor");
        reply->set_version("floor");
        return grpc::Status::OK;
    }

    grpc::Status SendQueueMessage(grpc::ServerContext*, const kubemq::QueueMessage* request,
                                  kubemq::SendQueueMessageResult* reply) override {
        accept(*request, reply);
        return grpc::Status::OK;
    }

    grpc::Status QueuesUpstream(
        grpc::ServerContext*,
        grpc::ServerReaderWriter<kubemq::QueuesUpstreamResponse, kubemq::QueuesUpstreamRequest>*
            stream) override {
        kubemq::QueuesUpstreamRequest request;
        kubemq::QueuesUpstreamResponse response;
        while (stream->Read(&request)) {
            response.Clear();
            response.set_refrequestid(request.requestid());
            if (request.messages().empty()) {
                response.set_iserror(true);
                response.set_error("no messages to send");
            }
            response.mutable_results()->Reserve(request.messages_size());
            for (const auto& message : request.messages())
                accept(message, response.add_results());
            if (!stream->Write(response))
                break;
        }
        return grpc::Status::OK;
    }

    grpc::Status QueuesDownstream(grpc::ServerContext*, DownstreamStream* stream) override {
        FloorDownstream(prototype_, *stream).run();
        return grpc::Status::OK;
    }

private:
    static void accept(const kubemq::QueueMessage& message,
                       kubemq::SendQueueMessageResult* result) {
        result->set_messageid(message.messageid());
        result->set_sentat(unixNanos());
    }

    kubemq::QueueMessage prototype_;
};

}  // namespace

struct FloorServer::Impl {
    explicit Impl(int bodyBytes) : service(bodyBytes) {}
    FloorService service;
    std::unique_ptr<grpc::Server> server;
    int port = 0;
};

FloorServer::FloorServer(int bodyBytes) : impl_(std::make_unique<Impl>(bodyBytes)) {}

FloorServer::~FloorServer() {
    stop();
}

bool FloorServer::start(std::string* error) {
    if (impl_->server)
        return true;
    grpc::ServerBuilder builder;
    int bound = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &bound);
    builder.RegisterService(&impl_->service);
    builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
    builder.SetMaxSendMessageSize(kMaxMessageBytes);
    // The broker's settings: one handler thread per open stream or call.
    grpc::ResourceQuota quota("queuescope-grpc-floor");
    quota.SetMaxThreads(4096);
    builder.SetResourceQuota(quota);
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    impl_->server = builder.BuildAndStart();
    if (!impl_->server || bound == 0) {
        stop();
        *error = "cannot listen on 127.0.0.1 (no ephemeral port)";
        return false;
    }
    impl_->port = bound;
    return true;
}

void FloorServer::stop() {
    if (!impl_->server)
        return;
    impl_->server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(500));
    impl_->server->Wait();
    impl_->server.reset();
    impl_->port = 0;
}

std::string FloorServer::address() const {
    return "127.0.0.1:" + std::to_string(impl_->port);
}

}  // namespace qs::bench
