#include "broker/stream_message_session.h"

#include <algorithm>
#include <vector>

#include "broker/channel_name.h"
#include "broker/kubemq_errors.h"
#include "broker/message_codec.h"
#include "common/ids.h"
#include "common/protocol_limits.h"

namespace qs::broker {

namespace {
using Clock = std::chrono::steady_clock;
constexpr auto kPoll = std::chrono::milliseconds(100);
}  // namespace

StreamMessageSession::StreamMessageSession(ServiceContext& context,
                                           grpc::CallbackServerContext* server)
    : context_(context), server_(server), peer_(server->peer()) {
    grpc::Status status = context_.authorize(*server);
    if (status.ok() && context_.engine.stopping())
        status = grpc::Status(grpc::StatusCode::UNAVAILABLE, errors::kShutdown);
    if (!status.ok()) {
        selfDelete_ = true;
        finished_ = true;
        Finish(status);
        return;
    }
    StartRead(&readBuffer_);
    context_.threads.spawn([this] { work(); });
}

void StreamMessageSession::OnReadDone(bool ok) {
    auto shared = shared_;
    if (ok) {
        {
            std::lock_guard lock(shared->mutex);
            shared->requests.push_back(std::move(readBuffer_));
        }
        readBuffer_.Clear();
        std::lock_guard ops(opsMutex_);
        if (!finished_)
            StartRead(&readBuffer_);
    } else {
        std::lock_guard lock(shared->mutex);
        shared->readEnded = true;
    }
    shared->waiter.signal();
}

void StreamMessageSession::OnWriteDone(bool ok) {
    auto shared = shared_;
    {
        std::lock_guard lock(shared->mutex);
        shared->writeDone = true;
        if (!ok)
            shared->writeFailed = true;
    }
    shared->waiter.signal();
}

void StreamMessageSession::OnCancel() {
    auto shared = shared_;
    {
        std::lock_guard lock(shared->mutex);
        shared->cancelled = true;
    }
    shared->waiter.signal();
}

void StreamMessageSession::OnDone() {
    if (selfDelete_) {
        delete this;
        return;
    }
    // After `done` is set the worker may delete this reactor: only the local
    // copy of the shared state is touched from here on.
    auto shared = shared_;
    {
        std::lock_guard lock(shared->mutex);
        shared->done = true;
    }
    shared->waiter.signal();
}

void StreamMessageSession::work() {
    grpc::Status status = grpc::Status::OK;
    while (!end_) {
        std::deque<kubemq::StreamQueueMessagesRequest> batch;
        bool readEnded = false;
        bool cancelled = false;
        {
            std::lock_guard lock(shared_->mutex);
            batch.swap(shared_->requests);
            readEnded = shared_->readEnded;
            cancelled = shared_->cancelled || shared_->writeFailed;
        }
        for (auto& request : batch) {
            if (end_ || cancelled)
                break;
            handle(request);
            std::lock_guard lock(shared_->mutex);
            cancelled = shared_->cancelled || shared_->writeFailed;
        }
        if (end_)
            break;
        if (cancelled || readEnded || context_.engine.stopping()) {
            // A client that goes away with a message in hand rejects it.
            nackHeld();
            if (cancelled)
                status = grpc::Status(grpc::StatusCode::CANCELLED, "client cancelled");
            break;
        }
        deliverIfAvailable();
        if (end_)
            break;
        const auto now = Clock::now();
        if (subscribed_ && !held_ && now >= waitDeadline_) {
            kubemq::StreamQueueMessagesResponse response;
            response.set_requestid(lastRequestId_);
            response.set_streamrequesttypedata(kubemq::ReceiveMessage);
            response.set_iserror(true);
            response.set_error(errors::kNoNewMessage);
            if (!endingAnswerLost())
                respond(response);
            break;
        }
        if (visibilityActive_ && now >= visibilityDeadline_) {
            kubemq::StreamQueueMessagesResponse response;
            response.set_requestid(lastRequestId_);
            response.set_streamrequesttypedata(lastType_);
            response.set_iserror(true);
            response.set_error(errors::kVisibilityExpired);
            if (!endingAnswerLost())
                respond(response);
            nackHeld(kNackReasonVisibilityExpired);
            break;
        }
        auto wake = now + kPoll;
        if (subscribed_ && !held_)
            wake = std::min(wake, waitDeadline_);
        if (visibilityActive_)
            wake = std::min(wake, visibilityDeadline_);
        shared_->waiter.waitUntil(wake);
    }
    if (subscribed_) {
        channel_->removeWaiter(&shared_->waiter);
        channel_->addConsumer(-1);
    }
    if (announced_)
        context_.clientEvent(false, clientId_, peer_, "StreamQueueMessage");
    finishAndWait(status);
    delete this;
}

void StreamMessageSession::handle(kubemq::StreamQueueMessagesRequest& request) {
    if (request.requestid().empty())
        request.set_requestid(newNuid());
    lastRequestId_ = request.requestid();
    lastType_ = request.streamrequesttypedata();
    if (request.clientid().empty())
        return respondError(request, errors::kClientId);
    if (!announced_) {
        announced_ = true;
        clientId_ = request.clientid();
        context_.clientEvent(true, clientId_, peer_, "StreamQueueMessage");
    }
    QueueEngine& engine = context_.engine;
    const Actor actor{clientId_, holdRequestId_};
    switch (request.streamrequesttypedata()) {
        case kubemq::ReceiveMessage:
            return receive(request);
        case kubemq::AckMessage:
            if (request.refsequence() == 0)
                return respondError(request, errors::kAckSequence);
            if (!held_)
                return respondError(request, errors::kNoActiveToAck);
            if (request.refsequence() != held_->sequence)
                return respondError(request, errors::kAckSequence);
            engine.ack(*channel_, held_->sequence, actor);
            held_.reset();
            return settledAndEnd(request);
        case kubemq::RejectMessage:
            if (request.refsequence() == 0)
                return respondError(request, errors::kAckSequence);
            if (!held_)
                return respondError(request, errors::kNoActiveToReject);
            if (request.refsequence() != held_->sequence)
                return respondError(request, errors::kAckSequence);
            nackHeld();
            return settledAndEnd(request);
        case kubemq::ModifyVisibility: {
            int seconds = 0;
            if (!visibilityFrom(request, &seconds))
                return respondError(request, errors::kVisibility);
            visibilityDeadline_ = Clock::now() + std::chrono::seconds(seconds);
            visibilityActive_ = true;
            return respondSuccess(request);
        }
        case kubemq::ResendMessage: {
            if (checkChannelName(request.channel()) == ChannelNameCheck::Invalid)
                return respondError(request, errors::kQueueName);
            if (!held_)
                return respondError(request, errors::kNoActiveToSend);
            if (engine.requeue(*channel_, held_->sequence, request.channel(), actor))
                return respondError(request, errors::kSendFailed);
            held_.reset();
            return settledAndEnd(request);
        }
        case kubemq::SendModifiedMessage: {
            if (!request.has_modifiedmessage())
                return respondError(request, errors::kInvalidQueueMessage);
            const auto& modified = request.modifiedmessage();
            const std::string_view invalid = MessageSender::validate(modified);
            if (!invalid.empty())
                return respondError(request, invalid);
            int seconds = 0;
            if (!visibilityFrom(request, &seconds))
                return respondError(request, errors::kVisibility);
            if (!held_)
                return respondError(request, errors::kNoActiveToAck);
            const std::string id = modified.messageid().empty() ? newNuid() : modified.messageid();
            QueueEngine::DeferredCommit commit(engine);  // a send: answered once stored
            const auto refused = engine.replace(*channel_, held_->sequence, modified.channel(),
                                                MessageSender::toStored(modified, id), actor);
            if (!engine.commit(commit.take()) || refused)
                return respondError(request, errors::kSendFailed);  // or the store failed
            held_.reset();
            return settledAndEnd(request);
        }
        default:
            return respondError(request, errors::kStreamRequestType);
    }
}

void StreamMessageSession::receive(const kubemq::StreamQueueMessagesRequest& request) {
    if (subscribed_)
        return respondError(request, errors::kAlreadySubscribed);
    const auto nameCheck = checkChannelName(request.channel());
    if (nameCheck == ChannelNameCheck::Invalid)
        return respondError(request, errors::kQueueName);
    int visibility = 0;
    if (!visibilityFrom(request, &visibility))
        return respondError(request, errors::kVisibility);
    int wait = request.waittimeseconds();
    if (!protocol::kWaitTimeSeconds.contains(wait))
        return respondError(request, errors::kWaitTimeout);
    if (wait == 0)
        wait = protocol::kWaitTimeSeconds.defaultValue;
    if (nameCheck != ChannelNameCheck::Valid)
        return respondError(request, errors::kSubscribe);
    channel_ = context_.engine.channel(request.channel());
    channel_->addWaiter(&shared_->waiter);
    channel_->addConsumer(1);
    subscribed_ = true;
    visibilitySeconds_ = visibility;
    holdRequestId_ = request.requestid();
    waitDeadline_ = Clock::now() + std::chrono::seconds(wait);
}

void StreamMessageSession::deliverIfAvailable() {
    if (!subscribed_ || held_)
        return;
    std::vector<StoredMessage> out;
    context_.engine.collect(*channel_, 1, CollectOptions{CheckOrder::PolicyFirst, false}, out,
                            Actor{clientId_, holdRequestId_});
    if (out.empty())
        return;
    held_ = std::move(out.front());
    visibilityDeadline_ = Clock::now() + std::chrono::seconds(visibilitySeconds_);
    visibilityActive_ = true;
    kubemq::StreamQueueMessagesResponse response;
    response.set_requestid(lastRequestId_);
    response.set_streamrequesttypedata(kubemq::ReceiveMessage);
    decodeMessage(*held_, channel_->name(), response.mutable_message());
    respond(response);
}

bool StreamMessageSession::visibilityFrom(const kubemq::StreamQueueMessagesRequest& request,
                                          int* seconds) {
    const int value = request.visibilityseconds();
    if (!protocol::kVisibilitySeconds.contains(value))
        return false;
    *seconds = value == 0 ? protocol::kVisibilitySeconds.defaultValue : value;
    return true;
}

void StreamMessageSession::nackHeld(std::string_view reason) {
    if (!held_)
        return;
    context_.engine.nack(*channel_, held_->sequence, Actor{clientId_, holdRequestId_}, reason);
    held_.reset();
}

void StreamMessageSession::respondError(const kubemq::StreamQueueMessagesRequest& request,
                                        std::string_view error) {
    kubemq::StreamQueueMessagesResponse response;
    response.set_requestid(request.requestid());
    response.set_streamrequesttypedata(request.streamrequesttypedata());
    response.set_iserror(true);
    response.set_error(std::string(error));
    context_.logError("StreamQueueMessage", request.clientid(), error);
    respond(response);
}

void StreamMessageSession::settledAndEnd(const kubemq::StreamQueueMessagesRequest& request) {
    end_ = true;
    if (!endingAnswerLost())
        respondSuccess(request);
}

bool StreamMessageSession::endingAnswerLost() const {
    const auto& lose = context_.options.loseEndingV1Answer;
    return lose && lose();
}

void StreamMessageSession::respondSuccess(const kubemq::StreamQueueMessagesRequest& request) {
    kubemq::StreamQueueMessagesResponse response;
    response.set_requestid(request.requestid());
    response.set_streamrequesttypedata(request.streamrequesttypedata());
    respond(response);
}

void StreamMessageSession::respond(kubemq::StreamQueueMessagesResponse& response) {
    {
        std::lock_guard ops(opsMutex_);
        if (finished_)
            return;
        {
            std::lock_guard lock(shared_->mutex);
            if (shared_->cancelled || shared_->writeFailed)
                return;
            shared_->writeDone = false;
        }
        writeBuffer_.Swap(&response);
        StartWrite(&writeBuffer_);
    }
    // The waiter also wakes the work loop (a request, the client's half-close,
    // a message in the channel): a signal consumed here is passed on, or the
    // loop would sleep a whole kPoll before noticing it.
    bool consumed = false;
    while (true) {
        {
            std::lock_guard lock(shared_->mutex);
            if (shared_->writeDone || shared_->done)
                break;
        }
        consumed = shared_->waiter.waitUntil(Clock::now() + kPoll) || consumed;
    }
    if (consumed)
        shared_->waiter.signal();
}

void StreamMessageSession::finishAndWait(const grpc::Status& status) {
    {
        std::lock_guard ops(opsMutex_);
        finished_ = true;
        Finish(status);
    }
    while (true) {
        {
            std::lock_guard lock(shared_->mutex);
            if (shared_->done)
                return;
        }
        shared_->waiter.waitUntil(Clock::now() + kPoll);
    }
}

}  // namespace qs::broker
