#include "conformance_rpc.h"

#include <grpcpp/generic/generic_stub.h>

#include <atomic>
#include <cstdio>
#include <future>
#include <random>
#include <thread>

namespace qs::test::conf {

namespace {

std::chrono::system_clock::time_point deadlineAfter(int waitSeconds) {
    // Waits outside the spec's range are what some cases send on purpose; the
    // broker rejects them at once, so they get no extra deadline.
    const int wait = waitSeconds > 0 && waitSeconds < 600 ? waitSeconds : 0;
    return std::chrono::system_clock::now() + std::chrono::seconds(wait) + kExtraDeadline;
}

// Replies with an in-band error field get the transport failure folded in.
template <typename Reply>
void foldFailure(const grpc::Status& status, Reply& reply) {
    if (status.ok())
        return;
    reply.Clear();
    if constexpr (requires { reply.set_iserror(true); })
        reply.set_iserror(true);
    reply.set_error("rpc " + describe(status));
}

template <typename Reply, typename Call>
Rpc<Reply> timedCall(int waitSeconds, Call&& call) {
    Rpc<Reply> result;
    grpc::ClientContext context;
    context.set_deadline(deadlineAfter(waitSeconds));
    Stopwatch watch;
    result.status = call(&context, &result.reply);
    result.seconds = watch.seconds();
    if constexpr (requires { result.reply.set_error(std::string()); })
        foldFailure(result.status, result.reply);
    return result;
}

}  // namespace

std::string uniqueChannel(std::string_view tag) {
    static std::atomic<unsigned> counter{0};
    static const std::uint64_t seed = [] {
        std::random_device device;
        return (std::uint64_t{device()} << 32) ^ device();
    }();
    std::mt19937_64 engine(seed + counter.fetch_add(1));
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "%012llx",
                  static_cast<unsigned long long>(engine() & 0xffffffffffffULL));
    return "conf-" + std::string(tag) + "-" + suffix;
}

std::int64_t nowUnixNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::int64_t nowUnixSeconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

double Stopwatch::seconds() const {
    return secondsBetween(start_, Clock::now());
}

void Stopwatch::sleepUntil(double offsetSeconds) const {
    std::this_thread::sleep_until(start_ + std::chrono::duration_cast<Clock::duration>(
                                               std::chrono::duration<double>(offsetSeconds)));
}

void sleepSeconds(double seconds) {
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

double secondsBetween(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

kubemq::QueueMessage makeMessage(const std::string& channel, const std::string& body,
                                 const std::string& messageId) {
    kubemq::QueueMessage message;
    message.set_messageid(messageId);
    message.set_clientid(std::string(kClientId));
    message.set_channel(channel);
    message.set_body(body);
    return message;
}

kubemq::ReceiveQueueMessagesRequest receiveRequest(const std::string& channel, int maxMessages,
                                                   int waitSeconds, bool peek,
                                                   const std::string& requestId) {
    kubemq::ReceiveQueueMessagesRequest request;
    request.set_requestid(requestId);
    request.set_clientid(std::string(kClientId));
    request.set_channel(channel);
    request.set_maxnumberofmessages(maxMessages);
    request.set_waittimeseconds(waitSeconds);
    request.set_ispeak(peek);
    return request;
}

kubemq::AckAllQueueMessagesRequest ackAllRequest(const std::string& channel, int waitSeconds) {
    kubemq::AckAllQueueMessagesRequest request;
    request.set_clientid(std::string(kClientId));
    request.set_channel(channel);
    request.set_waittimeseconds(waitSeconds);
    return request;
}

kubemq::Request managementRequest(const std::string& operation,
                                  const std::vector<std::pair<std::string, std::string>>& tags) {
    kubemq::Request request;
    request.set_requestid("conf-mgmt-" + operation);
    request.set_requesttypedata(kubemq::Request::Query);
    request.set_clientid(std::string(kClientId));
    request.set_channel("kubemq.cluster.internal.requests");
    request.set_metadata(operation);
    request.set_timeout(10000);
    for (const auto& [key, value] : tags)
        (*request.mutable_tags())[key] = value;
    return request;
}

Rpc<kubemq::PingResult> ping(Stub& stub) {
    return timedCall<kubemq::PingResult>(
        0, [&](grpc::ClientContext* context, kubemq::PingResult* reply) {
            return stub.Ping(context, kubemq::Empty(), reply);
        });
}

Rpc<kubemq::SendQueueMessageResult> send(Stub& stub, const kubemq::QueueMessage& message) {
    return timedCall<kubemq::SendQueueMessageResult>(
        0, [&](grpc::ClientContext* context, kubemq::SendQueueMessageResult* reply) {
            return stub.SendQueueMessage(context, message, reply);
        });
}

Rpc<kubemq::QueueMessagesBatchResponse> sendBatch(
    Stub& stub, const kubemq::QueueMessagesBatchRequest& request) {
    return timedCall<kubemq::QueueMessagesBatchResponse>(
        0, [&](grpc::ClientContext* context, kubemq::QueueMessagesBatchResponse* reply) {
            return stub.SendQueueMessagesBatch(context, request, reply);
        });
}

Rpc<kubemq::ReceiveQueueMessagesResponse> receive(
    Stub& stub, const kubemq::ReceiveQueueMessagesRequest& request) {
    return timedCall<kubemq::ReceiveQueueMessagesResponse>(
        request.waittimeseconds(),
        [&](grpc::ClientContext* context, kubemq::ReceiveQueueMessagesResponse* reply) {
            return stub.ReceiveQueueMessages(context, request, reply);
        });
}

Rpc<kubemq::ReceiveQueueMessagesResponse> pull(Stub& stub, const std::string& channel,
                                               int maxMessages, int waitSeconds) {
    return receive(stub, receiveRequest(channel, maxMessages, waitSeconds, false, "conf-pull"));
}

Rpc<kubemq::ReceiveQueueMessagesResponse> peek(Stub& stub, const std::string& channel,
                                               int maxMessages, int waitSeconds) {
    return receive(stub, receiveRequest(channel, maxMessages, waitSeconds, true, "conf-peek"));
}

Rpc<kubemq::AckAllQueueMessagesResponse> ackAll(Stub& stub,
                                                const kubemq::AckAllQueueMessagesRequest& request) {
    return timedCall<kubemq::AckAllQueueMessagesResponse>(
        request.waittimeseconds(),
        [&](grpc::ClientContext* context, kubemq::AckAllQueueMessagesResponse* reply) {
            return stub.AckAllQueueMessages(context, request, reply);
        });
}

Rpc<kubemq::Response> sendRequest(Stub& stub, const kubemq::Request& request) {
    return timedCall<kubemq::Response>(0,
                                       [&](grpc::ClientContext* context, kubemq::Response* reply) {
                                           return stub.SendRequest(context, request, reply);
                                       });
}

std::optional<kubemq::QueuesInfo> queuesInfo(Stub& stub, const std::string& names) {
    kubemq::QueuesInfoRequest request;
    request.set_requestid("conf-info");
    request.set_queuename(names);
    const auto rpc = timedCall<kubemq::QueuesInfoResponse>(
        0, [&](grpc::ClientContext* context, kubemq::QueuesInfoResponse* reply) {
            return stub.QueuesInfo(context, request, reply);
        });
    if (!rpc.ok())
        return std::nullopt;
    return rpc.reply.info();
}

std::string statusCodeName(grpc::StatusCode code) {
    switch (code) {
        case grpc::OK:
            return "OK";
        case grpc::CANCELLED:
            return "CANCELLED";
        case grpc::UNKNOWN:
            return "UNKNOWN";
        case grpc::INVALID_ARGUMENT:
            return "INVALID_ARGUMENT";
        case grpc::DEADLINE_EXCEEDED:
            return "DEADLINE_EXCEEDED";
        case grpc::NOT_FOUND:
            return "NOT_FOUND";
        case grpc::ALREADY_EXISTS:
            return "ALREADY_EXISTS";
        case grpc::PERMISSION_DENIED:
            return "PERMISSION_DENIED";
        case grpc::UNAUTHENTICATED:
            return "UNAUTHENTICATED";
        case grpc::RESOURCE_EXHAUSTED:
            return "RESOURCE_EXHAUSTED";
        case grpc::FAILED_PRECONDITION:
            return "FAILED_PRECONDITION";
        case grpc::ABORTED:
            return "ABORTED";
        case grpc::OUT_OF_RANGE:
            return "OUT_OF_RANGE";
        case grpc::UNIMPLEMENTED:
            return "UNIMPLEMENTED";
        case grpc::INTERNAL:
            return "INTERNAL";
        case grpc::UNAVAILABLE:
            return "UNAVAILABLE";
        case grpc::DATA_LOSS:
            return "DATA_LOSS";
        default:
            return "CODE_" + std::to_string(static_cast<int>(code));
    }
}

std::string describe(const grpc::Status& status) {
    return statusCodeName(status.error_code()) + ": " + status.error_message();
}

std::string sendMany(Stub& stub, const std::string& channel, int count, const std::string& prefix) {
    for (int i = 1; i <= count; ++i) {
        const std::string name = prefix + "-" + std::to_string(i);
        const auto result = send(stub, makeMessage(channel, name, name));
        if (!result.ok())
            return "send " + name + ": " + describe(result.status);
        if (result.reply.iserror())
            return "send " + name + ": " + result.reply.error();
    }
    return {};
}

grpc::Status callUnaryByPath(const std::shared_ptr<grpc::Channel>& channel, const std::string& path,
                             const google::protobuf::Message& request, std::string* replyBytes) {
    grpc::GenericStub stub(channel);
    grpc::ClientContext context;
    context.set_deadline(deadlineAfter(0));
    const std::string bytes = request.SerializeAsString();
    grpc::Slice slice(bytes);
    grpc::ByteBuffer requestBuffer(&slice, 1);
    grpc::ByteBuffer replyBuffer;
    std::promise<grpc::Status> done;
    stub.UnaryCall(&context, path, grpc::StubOptions(), &requestBuffer, &replyBuffer,
                   [&done](grpc::Status status) { done.set_value(std::move(status)); });
    grpc::Status status = done.get_future().get();
    if (status.ok() && replyBytes) {
        std::vector<grpc::Slice> slices;
        replyBuffer.Dump(&slices);
        replyBytes->clear();
        for (const auto& s : slices)
            replyBytes->append(reinterpret_cast<const char*>(s.begin()), s.size());
    }
    return status;
}

kubemq::StreamQueueMessagesRequest v1Request(kubemq::StreamRequestType type,
                                             const std::string& requestId) {
    kubemq::StreamQueueMessagesRequest request;
    request.set_requestid(requestId);
    request.set_clientid(std::string(kClientId));
    request.set_streamrequesttypedata(type);
    return request;
}

kubemq::StreamQueueMessagesRequest v1Receive(const std::string& channel, int visibilitySeconds,
                                             int waitSeconds, const std::string& requestId) {
    auto request = v1Request(kubemq::ReceiveMessage, requestId);
    request.set_channel(channel);
    request.set_visibilityseconds(visibilitySeconds);
    request.set_waittimeseconds(waitSeconds);
    return request;
}

kubemq::StreamQueueMessagesRequest v1Ack(std::uint64_t refSequence) {
    auto request = v1Request(kubemq::AckMessage);
    request.set_refsequence(refSequence);
    return request;
}

kubemq::StreamQueueMessagesRequest v1Reject(std::uint64_t refSequence) {
    auto request = v1Request(kubemq::RejectMessage);
    request.set_refsequence(refSequence);
    return request;
}

kubemq::StreamQueueMessagesRequest v1ModifyVisibility(int visibilitySeconds) {
    auto request = v1Request(kubemq::ModifyVisibility);
    request.set_visibilityseconds(visibilitySeconds);
    return request;
}

kubemq::StreamQueueMessagesRequest v1Resend(const std::string& channel) {
    auto request = v1Request(kubemq::ResendMessage);
    request.set_channel(channel);
    return request;
}

kubemq::StreamQueueMessagesRequest v1SendModified(const kubemq::QueueMessage& message) {
    auto request = v1Request(kubemq::SendModifiedMessage);
    *request.mutable_modifiedmessage() = message;
    return request;
}

std::vector<std::uint64_t> sequencesOf(
    const google::protobuf::RepeatedPtrField<kubemq::QueueMessage>& messages) {
    std::vector<std::uint64_t> out;
    for (const auto& message : messages)
        out.push_back(message.attributes().sequence());
    return out;
}

std::vector<std::string> idsOf(
    const google::protobuf::RepeatedPtrField<kubemq::QueueMessage>& messages) {
    std::vector<std::string> out;
    for (const auto& message : messages)
        out.push_back(message.messageid());
    return out;
}

std::set<std::int64_t> offsetSet(const kubemq::QueuesDownstreamResponse& response) {
    return {response.activeoffsets().begin(), response.activeoffsets().end()};
}

}  // namespace qs::test::conf
