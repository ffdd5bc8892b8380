// Fuzz target for the broker's stream state machines: the input decodes into
// a sequence of requests on up to two QueuesDownstream streams (Get, AckAll,
// AckRange, NAckAll, NAckRange, ReQueueAll, ReQueueRange, ActiveOffsets,
// CloseByClient, an unknown type, closing the stream) and up to two v1
// StreamQueueMessage streams (receive, ack, reject, visibility, resend,
// send-modified, closing the stream), sent over gRPC to a real broker on
// 127.0.0.1 (ephemeral port) in this process. A model of where each message
// is (ready in a channel, held by a transaction or a v1 stream, acked) is
// checked against every answer: nothing is handed out that is held or acked,
// a settlement settles only what it names, and at the end every message not
// acked is delivered exactly once by a final drain and nothing else is left.
// Each input sends at most 9 messages and 48 requests; a receive or Get only
// asks for what the model says is ready, so no request waits for a timer.
// Built as a libFuzzer target with -DQUEUESCOPE_FUZZ=ON and clang, otherwise
// linked with fuzz_driver.cpp for the bounded ctest run.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "broker/broker.h"
#include "kubemq.grpc.pb.h"

namespace {

constexpr const char* kMain = "fz";
constexpr const char* kRequeue = "fz-rq";
constexpr int kMaxMessages = 9;
constexpr int kMaxRequests = 48;

void require(bool condition, const std::string& what) {
    if (!condition) {
        std::fprintf(stderr, "fuzz_broker_sequences: %s\n", what.c_str());
        std::abort();
    }
}

// One broker for the whole run. Function statics: at exit the client goes
// first, then the broker stops and joins its threads, before LeakSanitizer
// looks (gRPC's server threads left running show up as leaks).
kubemq::kubemq::Stub& stub() {
    static const auto broker = [] {
        qs::broker::BrokerOptions options;
        options.port = 0;
        auto started = std::make_unique<qs::broker::Broker>(options);
        std::string error;
        require(started->start(&error), "the broker did not start: " + error);
        return started;
    }();
    static const auto channel =
        grpc::CreateChannel(broker->address(), grpc::InsecureChannelCredentials());
    static const auto made = kubemq::kubemq::NewStub(channel);
    return *made;
}

// Where the model says a message is.
struct Place {
    enum Kind { Ready, Held, Acked } kind = Ready;
    std::string channel;  // Ready: its channel; Held: the channel it came from
};

// The messages of one input by body ("m0".."m8").
class Model {
public:
    std::map<std::string, Place> places;

    int readyIn(const std::string& channel) const {
        return static_cast<int>(std::count_if(places.begin(), places.end(), [&](const auto& entry) {
            return entry.second.kind == Place::Ready && entry.second.channel == channel;
        }));
    }

    // A hand-out: the message must be ready in that channel.
    void handOut(const std::string& body, const std::string& channel, bool acked) {
        auto it = places.find(body);
        require(it != places.end(), "a message that was never sent was handed out: " + body);
        require(it->second.kind == Place::Ready && it->second.channel == channel,
                "handed out while " +
                    std::string(it->second.kind == Place::Acked ? "acked" : "held or elsewhere") +
                    ": " + body);
        it->second = {acked ? Place::Acked : Place::Held, channel};
    }

    void settle(const std::string& body, Place::Kind kind, const std::string& channel) {
        auto& place = places.at(body);
        require(place.kind == Place::Held, "settled while not held: " + body);
        place = {kind, channel};
    }
};

// The input as a stream of bytes (zero once it is used up).
class Bytes {
public:
    explicit Bytes(std::string_view data) : data_(data) {}
    bool empty() const { return data_.empty(); }
    std::uint8_t next() {
        if (data_.empty())
            return 0;
        const auto byte = static_cast<std::uint8_t>(data_.front());
        data_.remove_prefix(1);
        return byte;
    }

private:
    std::string_view data_;
};

// One open downstream transaction: the sequences it holds, each a body.
struct Transaction {
    std::string channel;
    std::map<std::int64_t, std::string> held;
};

class Downstream {
public:
    using Stream = grpc::ClientReaderWriter<kubemq::QueuesDownstreamRequest,
                                            kubemq::QueuesDownstreamResponse>;

    Downstream(Model& model, int index) : model_(model), index_(index) {}

    bool open() const { return stream_ != nullptr; }

    void get(Bytes& bytes) {
        const std::uint8_t flags = bytes.next();
        const std::string channel = (flags & 1) ? kRequeue : kMain;
        const int ready = model_.readyIn(channel);
        const bool invalid = (flags & 0x30) == 0x30;  // empty client id or a bad channel name
        if (ready == 0 && !invalid)
            return;
        kubemq::QueuesDownstreamRequest request = base(kubemq::Get);
        request.set_channel(channel);
        request.set_maxitems(1 + bytes.next() % std::max(ready, 1));
        request.set_waittimeout(1000);
        request.set_autoack((flags & 2) != 0);
        if (invalid) {
            if (flags & 4)
                request.clear_clientid();
            else
                request.set_channel("bad channel");
        }
        send(request);
        const auto response = readUntil(request.requestid());
        if (invalid) {
            require(response.iserror(), "an invalid Get was served");
            return;
        }
        require(!response.iserror(), "a Get of ready messages failed: " + response.error());
        require(response.messages_size() == request.maxitems(),
                "a Get of " + std::to_string(request.maxitems()) + " ready messages gave " +
                    std::to_string(response.messages_size()));
        Transaction transaction{channel, {}};
        for (const auto& message : response.messages()) {
            require(message.channel() == channel, "a Get gave a message of another channel");
            model_.handOut(message.body(), channel, request.autoack());
            if (!request.autoack()) {
                const auto sequence = static_cast<std::int64_t>(message.attributes().sequence());
                require(transaction.held.emplace(sequence, message.body()).second,
                        "two messages of one Get share a sequence");
            }
        }
        transactions_.emplace_back(response.transactionid(), std::move(transaction));
    }

    // A settlement of one of this stream's transactions (or of an unknown id),
    // followed by ActiveOffsets to learn what it really settled.
    void settle(kubemq::QueuesDownstreamRequestType type, Bytes& bytes) {
        const std::uint8_t pick = bytes.next();
        const std::uint8_t rangeBits = bytes.next();
        if (transactions_.empty() || pick == 0xff) {
            kubemq::QueuesDownstreamRequest request = base(type);
            request.set_reftransactionid("no-such-transaction");
            request.add_sequencerange(1);
            request.set_requeuechannel(kRequeue);
            send(request);
            require(readUntil(request.requestid()).iserror(), "an unknown transaction settled");
            return;
        }
        auto& [id, transaction] = transactions_[pick % transactions_.size()];
        kubemq::QueuesDownstreamRequest request = base(type);
        request.set_reftransactionid(id);
        request.set_requeuechannel((rangeBits & 0x80) ? "" : kRequeue);
        std::set<std::int64_t> named;
        int bit = 0;
        for (const auto& [sequence, body] : transaction.held) {
            if (rangeBits & (1 << (bit++ % 5))) {
                request.add_sequencerange(sequence);
                named.insert(sequence);
            }
        }
        if (rangeBits & 0x20)
            request.add_sequencerange((rangeBits & 0x40) ? -1 : 1000000);  // never held
        send(request);
        const std::string settleId = request.requestid();

        kubemq::QueuesDownstreamRequest offsets = base(kubemq::ActiveOffsets);
        offsets.set_reftransactionid(id);
        send(offsets);
        kubemq::QueuesDownstreamResponse answer;
        bool settleFailed = false;
        while (true) {
            answer = read();
            if (answer.refrequestid() == offsets.requestid())
                break;
            require(answer.refrequestid() == settleId, "an answer to no request");
            // Only ActiveOffsets answers when it succeeds; a settlement answers errors.
            require(answer.iserror() || type == kubemq::ActiveOffsets,
                    "a settlement answered with something but an error");
            settleFailed = settleFailed || answer.iserror();
        }
        std::set<std::int64_t> still;
        if (!answer.iserror())
            still.insert(answer.activeoffsets().begin(), answer.activeoffsets().end());
        apply(type, transaction, named, still, settleFailed);
    }

    void close() {
        if (!stream_)
            return;
        stream_->WritesDone();
        kubemq::QueuesDownstreamResponse extra;
        require(!stream_->Read(&extra), "an answer after the stream was closed");
        require(stream_->Finish().ok(), "a closed downstream stream ended with an error");
        stream_.reset();
        context_.reset();
        for (auto& [id, transaction] : transactions_)
            for (const auto& [sequence, body] : transaction.held)
                model_.settle(body, Place::Ready, transaction.channel);
        transactions_.clear();
    }

private:
    kubemq::QueuesDownstreamRequest base(kubemq::QueuesDownstreamRequestType type) {
        kubemq::QueuesDownstreamRequest request;
        request.set_requestid("d" + std::to_string(index_) + "-" + std::to_string(++requests_));
        request.set_clientid("fuzz-downstream-" + std::to_string(index_));
        request.set_requesttypedata(type);
        return request;
    }

    void send(const kubemq::QueuesDownstreamRequest& request) {
        if (!stream_) {
            context_ = std::make_unique<grpc::ClientContext>();
            stream_ = stub().QueuesDownstream(context_.get());
        }
        require(stream_->Write(request), "a downstream write failed");
    }

    kubemq::QueuesDownstreamResponse read() {
        kubemq::QueuesDownstreamResponse response;
        require(stream_->Read(&response), "the downstream stream ended unasked");
        return response;
    }

    kubemq::QueuesDownstreamResponse readUntil(const std::string& requestId) {
        auto response = read();
        require(response.refrequestid() == requestId, "answers out of order");
        return response;
    }

    // What a settlement may have done: `still` is what ActiveOffsets says the
    // transaction holds now, a subset of what it held.
    void apply(kubemq::QueuesDownstreamRequestType type, Transaction& transaction,
               const std::set<std::int64_t>& named, const std::set<std::int64_t>& still,
               bool failed) {
        for (auto sequence : still)
            require(transaction.held.contains(sequence), "a transaction gained a message");
        const bool all = type == kubemq::AckAll || type == kubemq::NAckAll ||
                         type == kubemq::ReQueueAll || type == kubemq::CloseByClient;
        const bool settles = all || type == kubemq::AckRange || type == kubemq::NAckRange ||
                             type == kubemq::ReQueueRange;
        for (auto it = transaction.held.begin(); it != transaction.held.end();) {
            if (still.contains(it->first)) {
                ++it;
                continue;
            }
            // Settled by this request (or the transaction was already closed).
            require(settles, "a request that settles nothing settled a message");
            require(all || named.contains(it->first), "a range settled a message it did not name");
            switch (type) {
                case kubemq::AckAll:
                case kubemq::AckRange:
                    model_.settle(it->second, Place::Acked, transaction.channel);
                    break;
                case kubemq::ReQueueAll:
                case kubemq::ReQueueRange:
                    model_.settle(it->second, Place::Ready, kRequeue);
                    break;
                default:  // NAck* and CloseByClient: back to its channel
                    model_.settle(it->second, Place::Ready, transaction.channel);
                    break;
            }
            it = transaction.held.erase(it);
        }
        if (!failed && all)
            require(transaction.held.empty(), "a settle-all that succeeded left messages held");
    }

    Model& model_;
    int index_;
    int requests_ = 0;
    std::unique_ptr<grpc::ClientContext> context_;
    std::unique_ptr<Stream> stream_;
    std::vector<std::pair<std::string, Transaction>> transactions_;
};

// One v1 StreamQueueMessage stream at a time per slot: at most one message.
class StreamV1 {
public:
    using Stream = grpc::ClientReaderWriter<kubemq::StreamQueueMessagesRequest,
                                            kubemq::StreamQueueMessagesResponse>;

    StreamV1(Model& model, int index) : model_(model), index_(index) {}

    void receive(Bytes& bytes) {
        const std::uint8_t flags = bytes.next();
        const std::string channel = (flags & 1) ? kRequeue : kMain;
        auto request = base(kubemq::ReceiveMessage);
        request.set_channel(channel);
        request.set_waittimeseconds(1);
        // Visibility: the default (60 s) or 30 s and more, never due within an
        // input; sometimes out of range (refused).
        const int choice = (flags >> 1) & 3;
        request.set_visibilityseconds(choice == 0 ? 0 : choice == 3 ? -1 : 30 + bytes.next());
        const bool refused = choice == 3 || subscribed_;
        if (!refused && model_.readyIn(channel) == 0)
            return;  // it would wait for its timer
        send(request);
        const auto response = read();
        require(response.requestid() == request.requestid(), "a v1 answer to another request");
        if (refused) {
            require(response.iserror(), "a refused v1 receive was served");
            return;
        }
        require(!response.iserror(), "a v1 receive of a ready message failed: " + response.error());
        require(response.message().channel() == channel, "a v1 receive from another channel");
        model_.handOut(response.message().body(), channel, false);
        subscribed_ = true;
        held_ = response.message().body();
        heldChannel_ = channel;
        sequence_ = response.message().attributes().sequence();
    }

    void settle(kubemq::StreamRequestType type, Bytes& bytes) {
        if (!stream_)
            return;  // a fresh stream would only be told "no active message"
        const std::uint8_t flags = bytes.next();
        auto request = base(type);
        request.set_refsequence((flags & 1) && sequence_ != 0 ? sequence_ + 1 : sequence_);
        request.set_channel((flags & 2) ? "bad channel" : kRequeue);
        if (type == kubemq::ModifyVisibility || type == kubemq::SendModifiedMessage)
            request.set_visibilityseconds((flags & 4) ? 43201 : 30 + bytes.next());
        if (type == kubemq::SendModifiedMessage && !(flags & 8) && !held_.empty()) {
            auto* modified = request.mutable_modifiedmessage();
            modified->set_clientid(request.clientid());
            modified->set_channel((flags & 2) ? "bad channel" : kRequeue);
            modified->set_body(held_);
        }
        send(request);
        const auto response = read();
        require(response.requestid() == request.requestid(), "a v1 answer to another request");
        if (response.iserror() || type == kubemq::ModifyVisibility)
            return;
        require(!held_.empty(), "a v1 settlement without a message succeeded");
        switch (type) {
            case kubemq::AckMessage:
                model_.settle(held_, Place::Acked, heldChannel_);
                break;
            case kubemq::RejectMessage:
                model_.settle(held_, Place::Ready, heldChannel_);
                break;
            default:  // ResendMessage, SendModifiedMessage: to the re-queue channel
                model_.settle(held_, Place::Ready, kRequeue);
                break;
        }
        held_.clear();
        // The stream ends after a settlement.
        kubemq::StreamQueueMessagesResponse extra;
        require(!stream_->Read(&extra), "a v1 stream went on after a settlement");
        finish();
    }

    void close() {
        if (!stream_)
            return;
        stream_->WritesDone();
        kubemq::StreamQueueMessagesResponse extra;
        require(!stream_->Read(&extra), "a v1 answer after the stream was closed");
        finish();
        if (!held_.empty())
            model_.settle(held_, Place::Ready, heldChannel_);  // a client that leaves rejects
        held_.clear();
    }

private:
    kubemq::StreamQueueMessagesRequest base(kubemq::StreamRequestType type) {
        kubemq::StreamQueueMessagesRequest request;
        request.set_requestid("v" + std::to_string(index_) + "-" + std::to_string(++requests_));
        request.set_clientid("fuzz-v1-" + std::to_string(index_));
        request.set_streamrequesttypedata(type);
        return request;
    }

    void send(const kubemq::StreamQueueMessagesRequest& request) {
        if (!stream_) {
            context_ = std::make_unique<grpc::ClientContext>();
            stream_ = stub().StreamQueueMessage(context_.get());
        }
        require(stream_->Write(request), "a v1 write failed");
    }

    kubemq::StreamQueueMessagesResponse read() {
        kubemq::StreamQueueMessagesResponse response;
        require(stream_->Read(&response), "the v1 stream ended unasked");
        return response;
    }

    void finish() {
        require(stream_->Finish().ok(), "a v1 stream ended with an error");
        stream_.reset();
        context_.reset();
        subscribed_ = false;
        sequence_ = 0;
    }

    Model& model_;
    int index_;
    int requests_ = 0;
    std::unique_ptr<grpc::ClientContext> context_;
    std::unique_ptr<Stream> stream_;
    bool subscribed_ = false;
    std::string held_;
    std::string heldChannel_;
    std::uint64_t sequence_ = 0;
};

void sendMessages(Model& model, int count) {
    kubemq::QueueMessagesBatchRequest batch;
    batch.set_batchid("fuzz");
    for (int i = 0; i < count; ++i) {
        auto* message = batch.add_messages();
        message->set_clientid("fuzz-sender");
        message->set_channel(kMain);
        message->set_body("m" + std::to_string(i));
        model.places["m" + std::to_string(i)] = {Place::Ready, kMain};
    }
    grpc::ClientContext context;
    kubemq::QueueMessagesBatchResponse response;
    require(stub().SendQueueMessagesBatch(&context, batch, &response).ok(), "a send failed");
    require(!response.haveerrors(), "a valid message was refused");
}

// Every message not acked is taken once, and nothing else is left.
void drainAndCheck(const Model& model) {
    for (const std::string channel : {kMain, kRequeue}) {
        std::multiset<std::string> expected;
        for (const auto& [body, place] : model.places) {
            require(place.kind != Place::Held, "a message still held after every stream closed");
            if (place.kind == Place::Ready && place.channel == channel)
                expected.insert(body);
        }
        if (!expected.empty()) {
            grpc::ClientContext context;
            auto stream = stub().QueuesDownstream(&context);
            kubemq::QueuesDownstreamRequest request;
            request.set_requestid("drain");
            request.set_clientid("fuzz-drain");
            request.set_requesttypedata(kubemq::Get);
            request.set_channel(channel);
            request.set_maxitems(static_cast<int>(expected.size()));
            request.set_waittimeout(1000);
            request.set_autoack(true);
            require(stream->Write(request), "a drain write failed");
            kubemq::QueuesDownstreamResponse response;
            require(stream->Read(&response) && !response.iserror(), "a drain failed");
            std::multiset<std::string> got;
            for (const auto& message : response.messages())
                got.insert(message.body());
            require(got == expected, "after the streams closed, " + channel + " held " +
                                         std::to_string(got.size()) + " of the " +
                                         std::to_string(expected.size()) + " expected messages");
            stream->WritesDone();
            require(stream->Finish().ok(), "a drain stream ended with an error");
        }
        grpc::ClientContext context;
        kubemq::QueuesInfoRequest info;
        info.set_queuename(channel);
        kubemq::QueuesInfoResponse answer;
        require(stub().QueuesInfo(&context, info, &answer).ok(), "QueuesInfo failed");
        for (const auto& queue : answer.info().queues())
            require(queue.waiting() == 0, channel + " still has waiting messages after the drain");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    Bytes bytes(std::string_view(reinterpret_cast<const char*>(data), size));
    Model model;
    sendMessages(model, 1 + bytes.next() % kMaxMessages);
    {
        Downstream downstream[2] = {{model, 0}, {model, 1}};
        StreamV1 v1[2] = {{model, 0}, {model, 1}};
        for (int step = 0; step < kMaxRequests && !bytes.empty(); ++step) {
            const std::uint8_t op = bytes.next();
            Downstream& d = downstream[(op >> 7) & 1];
            StreamV1& v = v1[(op >> 7) & 1];
            switch (op % 18) {
                case 0: d.get(bytes); break;
                case 1: d.settle(kubemq::AckAll, bytes); break;
                case 2: d.settle(kubemq::AckRange, bytes); break;
                case 3: d.settle(kubemq::NAckAll, bytes); break;
                case 4: d.settle(kubemq::NAckRange, bytes); break;
                case 5: d.settle(kubemq::ReQueueAll, bytes); break;
                case 6: d.settle(kubemq::ReQueueRange, bytes); break;
                case 7: d.settle(kubemq::ActiveOffsets, bytes); break;
                case 8: d.settle(kubemq::CloseByClient, bytes); break;
                case 9: d.settle(kubemq::TransactionStatus, bytes); break;
                case 10: d.close(); break;
                case 11: v.receive(bytes); break;
                case 12: v.settle(kubemq::AckMessage, bytes); break;
                case 13: v.settle(kubemq::RejectMessage, bytes); break;
                case 14: v.settle(kubemq::ModifyVisibility, bytes); break;
                case 15: v.settle(kubemq::ResendMessage, bytes); break;
                case 16: v.settle(kubemq::SendModifiedMessage, bytes); break;
                default: v.close(); break;
            }
        }
        for (auto& stream : downstream)
            stream.close();
        for (auto& stream : v1)
            stream.close();
    }
    drainAndCheck(model);
    return 0;
}
