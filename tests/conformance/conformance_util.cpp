#include "conformance_util.h"

#include <grpcpp/generic/generic_stub.h>

#include <atomic>
#include <cstdio>
#include <future>
#include <random>

namespace qs::test::conf {

namespace {

std::chrono::system_clock::time_point deadlineAfter(int waitSeconds) {
    return std::chrono::system_clock::now() +
           std::chrono::seconds(waitSeconds > 0 ? waitSeconds : 0) + kExtraDeadline;
}

template <typename Reply, typename Call>
Rpc<Reply> timedCall(int waitSeconds, Call&& call) {
    Rpc<Reply> result;
    grpc::ClientContext context;
    context.set_deadline(deadlineAfter(waitSeconds));
    Stopwatch watch;
    result.status = call(&context, &result.reply);
    result.seconds = watch.seconds();
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
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Stopwatch::sleepUntil(double offsetSeconds) const {
    std::this_thread::sleep_until(start_ +
                                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      std::chrono::duration<double>(offsetSeconds)));
}

void sleepSeconds(double seconds) {
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

kubemq::QueueMessage makeMessage(const std::string& channel, const std::string& body,
                                 std::string_view clientId) {
    kubemq::QueueMessage message;
    message.set_clientid(std::string(clientId));
    message.set_channel(channel);
    message.set_body(body);
    return message;
}

kubemq::ReceiveQueueMessagesRequest receiveRequest(const std::string& channel, int maxMessages,
                                                   int waitSeconds, bool peek,
                                                   const std::string& requestId,
                                                   std::string_view clientId) {
    kubemq::ReceiveQueueMessagesRequest request;
    request.set_requestid(requestId);
    request.set_clientid(std::string(clientId));
    request.set_channel(channel);
    request.set_maxnumberofmessages(maxMessages);
    request.set_waittimeseconds(waitSeconds);
    request.set_ispeak(peek);
    return request;
}

kubemq::AckAllQueueMessagesRequest ackAllRequest(const std::string& channel, int waitSeconds,
                                                 std::string_view clientId) {
    kubemq::AckAllQueueMessagesRequest request;
    request.set_clientid(std::string(clientId));
    request.set_channel(channel);
    request.set_waittimeseconds(waitSeconds);
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
    return receive(stub, receiveRequest(channel, maxMessages, waitSeconds, false));
}

Rpc<kubemq::ReceiveQueueMessagesResponse> peek(Stub& stub, const std::string& channel,
                                               int maxMessages, int waitSeconds) {
    return receive(stub, receiveRequest(channel, maxMessages, waitSeconds, true));
}

Rpc<kubemq::AckAllQueueMessagesResponse> ackAll(Stub& stub,
                                                const kubemq::AckAllQueueMessagesRequest& request) {
    return timedCall<kubemq::AckAllQueueMessagesResponse>(
        request.waittimeseconds(),
        [&](grpc::ClientContext* context, kubemq::AckAllQueueMessagesResponse* reply) {
            return stub.AckAllQueueMessages(context, request, reply);
        });
}

std::string describe(const grpc::Status& status) {
    return "gRPC " + std::to_string(int(status.error_code())) + ": " + status.error_message();
}

std::string sendMany(Stub& stub, const std::string& channel, int count,
                     const std::string& bodyPrefix) {
    for (int i = 1; i <= count; ++i) {
        auto result = send(stub, makeMessage(channel, bodyPrefix + std::to_string(i)));
        if (!result.ok())
            return "send " + std::to_string(i) + ": " + describe(result.status);
        if (result.reply.iserror())
            return "send " + std::to_string(i) + ": " + result.reply.error();
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
                                             const std::string& requestId,
                                             std::string_view clientId) {
    kubemq::StreamQueueMessagesRequest request;
    request.set_requestid(requestId);
    request.set_clientid(std::string(clientId));
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

V1Stream::V1Stream(Stub& stub, std::chrono::seconds deadline) {
    context_.set_deadline(std::chrono::system_clock::now() + deadline);
    call_ = stub.StreamQueueMessage(&context_);
    reader_ = std::thread([this] { readLoop(); });
}

V1Stream::~V1Stream() {
    if (!ended())
        context_.TryCancel();
    if (reader_.joinable())
        reader_.join();
    finish();
}

void V1Stream::readLoop() {
    kubemq::StreamQueueMessagesResponse response;
    while (call_->Read(&response)) {
        std::lock_guard lock(mutex_);
        pending_.push_back(response);
        changed_.notify_all();
    }
    std::lock_guard lock(mutex_);
    ended_ = true;
    changed_.notify_all();
}

bool V1Stream::write(const kubemq::StreamQueueMessagesRequest& request) {
    if (writesDone_)
        return false;
    return call_->Write(request);
}

void V1Stream::writesDone() {
    if (writesDone_)
        return;
    writesDone_ = true;
    call_->WritesDone();
}

std::optional<kubemq::StreamQueueMessagesResponse> V1Stream::read(
    std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, timeout, [this] { return !pending_.empty() || ended_; });
    if (pending_.empty())
        return std::nullopt;
    auto response = std::move(pending_.front());
    pending_.pop_front();
    return response;
}

bool V1Stream::waitForEnd(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [this] { return ended_; });
}

bool V1Stream::ended() const {
    std::lock_guard lock(mutex_);
    return ended_;
}

grpc::Status V1Stream::finish() {
    if (status_)
        return *status_;
    if (!ended())
        return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, "stream still open");
    if (reader_.joinable())
        reader_.join();
    status_ = call_->Finish();
    return *status_;
}

void V1Stream::cancel() {
    context_.TryCancel();
    waitForEnd(std::chrono::seconds(30));
}

}  // namespace qs::test::conf
