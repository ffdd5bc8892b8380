#include "broker/queue_engine.h"

#include <chrono>

#include "broker/channel_name.h"
#include "broker/kubemq_errors.h"
#include "common/clock.h"

namespace qs::broker {

namespace {
constexpr std::int64_t kNanosPerSecond = 1000000000;

thread_local int commitScopeDepth = 0;

void describe(Event& event, const QueueChannel& channel, const StoredMessage& message,
              const Actor& actor) {
    event.actor.assign(actor.clientId);
    event.transaction = actor.transaction;
    event.channel = channel.name();
    event.messageId = messageIdOf(message.content);
    event.sequence = message.sequence;
    event.receiveCount = message.receiveCount;
}
}  // namespace

QueueEngine::QueueEngine(EventSink& events) : events_(events) {}

QueueEngine::~QueueEngine() {
    stop();
}

QueueEngine::CommitScope::CommitScope(QueueEngine& engine) : engine_(engine) {
    ++commitScopeDepth;
}

QueueEngine::CommitScope::~CommitScope() {
    if (--commitScopeDepth == 0)
        engine_.commit();
}

QueueEngine::DeferredCommit::DeferredCommit(QueueEngine& engine) : engine_(engine) {
    ++commitScopeDepth;
}

QueueEngine::DeferredCommit::~DeferredCommit() {
    if (!taken_)
        engine_.commit(take());
}

CommitTicket QueueEngine::DeferredCommit::take() {
    taken_ = true;
    --commitScopeDepth;
    if (engine_.log_ == nullptr || commitScopeDepth > 0)
        return {};  // nothing to wait for, or an outer scope commits
    return engine_.log_->thisThreadTicket();
}

bool QueueEngine::commit(const CommitTicket& ticket) {
    return log_ == nullptr || log_->commit(ticket);
}

bool QueueEngine::commitsWaitForDisk() const {
    return log_ != nullptr && log_->syncMode() == SyncMode::Always;
}

void QueueEngine::commit() {
    if (log_ != nullptr && commitScopeDepth == 0)
        log_->commitThisThread();
}

std::shared_lock<std::shared_mutex> QueueEngine::guardMove() {
    if (log_ == nullptr)
        return {};
    return std::shared_lock(moveGate_);
}

void QueueEngine::attachStore(DurableLog& log, RecoveredState state) {
    log_ = &log;
    {
        std::unique_lock lock(channelsMutex_);
        for (auto& [name, recovered] : state.channels) {
            auto restored = std::make_shared<QueueChannel>(name, log_);
            restored->restore(std::move(recovered));
            channels_.emplace(name, std::move(restored));
        }
    }
    for (auto& [id, entry] : state.delayed) {
        channel(entry.channel)->addDelayed(1);
        std::lock_guard lock(delayMutex_);
        const std::int64_t due = entry.message.delayedTo;
        delayed_.emplace(due, Delayed{id, std::move(entry.channel), std::move(entry.message)});
    }
    {
        std::lock_guard lock(delayMutex_);
        nextDelayId_ = state.nextDelayId;
    }
    log.startBackground([this](const DurableLog::FrameSink& sink) { writeSnapshot(sink); });
}

void QueueEngine::writeSnapshot(const DurableLog::FrameSink& sink) {
    const std::unique_lock gate(moveGate_);  // no message is between two records
    std::string frames;
    for (const auto& queue : channels())
        queue->snapshot(frames, sink);
    {
        std::lock_guard lock(delayMutex_);
        for (const auto& entry : delayed_)
            appendDelayFrame(frames, entry.second.id, entry.second.channel, entry.second.message,
                             {});
    }
    if (!frames.empty())
        sink(frames);
}

void QueueEngine::start() {
    std::lock_guard lock(delayMutex_);
    if (started_)
        return;
    started_ = true;
    stopping_ = false;
    delayThread_ = std::thread([this] { delayLoop(); });
}

void QueueEngine::stop() {
    {
        std::lock_guard lock(delayMutex_);
        stopping_ = true;
    }
    delayCv_.notify_all();
    if (delayThread_.joinable())
        delayThread_.join();
    for (const auto& channel : channels())
        channel->signalWaiters();
}

bool QueueEngine::stopping() const {
    return stopping_.load();
}

std::shared_ptr<QueueChannel> QueueEngine::channel(std::string_view name) {
    {
        std::shared_lock lock(channelsMutex_);
        auto it = channels_.find(name);
        if (it != channels_.end())
            return it->second;
    }
    std::unique_lock lock(channelsMutex_);
    auto it = channels_.find(name);
    if (it != channels_.end())
        return it->second;
    auto created = std::make_shared<QueueChannel>(std::string(name), log_);
    channels_.emplace(std::string(name), created);
    if (log_ != nullptr) {
        log_->channelCreated(name, 1, 0);
        lock.unlock();
        commit();
    }
    return created;
}

std::shared_ptr<QueueChannel> QueueEngine::findChannel(std::string_view name) const {
    std::shared_lock lock(channelsMutex_);
    auto it = channels_.find(name);
    return it == channels_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<QueueChannel>> QueueEngine::channels() const {
    std::shared_lock lock(channelsMutex_);
    std::vector<std::shared_ptr<QueueChannel>> all;
    all.reserve(channels_.size());
    for (const auto& entry : channels_)
        all.push_back(entry.second);
    return all;
}

bool QueueEngine::deleteChannel(std::string_view name) {
    std::shared_ptr<QueueChannel> removed;
    {
        std::unique_lock lock(channelsMutex_);
        auto it = channels_.find(name);
        if (it == channels_.end())
            return false;
        removed = it->second;
        channels_.erase(it);
        // Cleared (and recorded) before a channel of the same name can be
        // created again, so the log never deletes the new one.
        removed->clear();  // wakes its waiters, who then look the name up again
    }
    {
        std::lock_guard lock(delayMutex_);
        for (auto it = delayed_.begin(); it != delayed_.end();) {
            if (it->second.channel != name) {
                ++it;
                continue;
            }
            if (log_ != nullptr)
                log_->forget(storedFootprint(name, it->second.message));
            it = delayed_.erase(it);
        }
    }
    commit();
    return true;
}

std::string_view QueueEngine::publishError(std::string_view channel) {
    switch (checkChannelName(channel)) {
        case ChannelNameCheck::Invalid:
            return errors::kQueueName;
        case ChannelNameCheck::PublishRejected:
            return errors::kInvalidPublish;
        case ChannelNameCheck::Valid:
        case ChannelNameCheck::ReceiveRejected:
            break;
    }
    return {};
}

StoreResult QueueEngine::send(std::string_view channelName, StoredMessage message,
                              std::string_view clientId) {
    const StoreResult result = sendFrom(channelName, std::move(message), clientId, {});
    commit();
    return result;
}

StoreResult QueueEngine::sendFrom(std::string_view channelName, StoredMessage message,
                                  std::string_view clientId, const RecordOrigin& origin) {
    const std::int64_t now = unixNanos();
    StoreResult result;
    message.receiveCount = 0;
    message.reRouted = false;
    if (message.routing && !message.routing->reRoutedFromQueue.empty())
        message.setRouting(message.routing->maxReceiveQueue, {});
    if (message.expirationSeconds > 0)
        message.expirationAt =
            now + (static_cast<std::int64_t>(message.expirationSeconds) + message.delaySeconds) *
                      kNanosPerSecond;
    else
        message.expirationAt = 0;
    auto target = channel(channelName);
    target->noteAccepted();
    if (message.delaySeconds > 0) {
        message.delayedTo = now + static_cast<std::int64_t>(message.delaySeconds) * kNanosPerSecond;
        result.expirationAt = message.expirationAt;
        result.delayedTo = message.delayedTo;
        target->addDelayed(1);
        events_.emit(EventKind::BrokerDelayed, [&](Event& event) {
            describe(event, *target, message, Actor{clientId, {}});
            event.value = message.delaySeconds;
        });
        {
            std::lock_guard lock(delayMutex_);
            const bool first = delayed_.empty() || message.delayedTo < delayed_.begin()->first;
            const std::int64_t due = message.delayedTo;
            const std::uint64_t id = nextDelayId_++;
            if (log_ != nullptr)
                log_->delay(id, channelName, message, origin);
            delayed_.emplace(due, Delayed{id, std::string(channelName), std::move(message)});
            if (first)
                delayCv_.notify_all();
        }
        return result;
    }
    message.delayedTo = 0;
    result.expirationAt = message.expirationAt;
    result.sequence =
        storeNow(*target, std::move(message), clientId, EventKind::BrokerStored, origin);
    return result;
}

std::uint64_t QueueEngine::storeNow(QueueChannel& target, StoredMessage message,
                                    std::string_view clientId, EventKind kind,
                                    const RecordOrigin& origin) {
    ShortText messageId;  // captured before the move; inline, so no allocation
    const std::int32_t count = message.receiveCount;
    const bool listening = events_.listening();
    if (listening)
        messageId = messageIdOf(message.content);
    const std::uint64_t sequence = target.append(std::move(message), unixNanos(), origin);
    if (listening) {
        events_.emit(kind, [&](Event& event) {
            event.actor.assign(clientId);
            event.channel = target.name();
            event.messageId = messageId;
            event.sequence = sequence;
            event.receiveCount = count;
        });
    }
    return sequence;
}

CollectResult QueueEngine::collect(QueueChannel& channel, int max, const CollectOptions& options,
                                   std::vector<StoredMessage>& out, const Actor& actor) {
    const DurableLog::SettlementRecords settlement;  // expiries, dead letters
    const EventSink::Group group(events_);  // a batch's hand-outs reach the observer at once
    CollectResult result;
    std::vector<StoredMessage> batch;
    std::size_t deliveredBytes = 0;
    std::size_t delivered = 0;
    while (result.counted < max) {
        batch.clear();
        if (channel.reserve(static_cast<std::size_t>(max - result.counted), batch) == 0)
            break;
        const std::int64_t now = unixNanos();
        for (auto& message : batch) {
            const bool expired = message.expirationAt > 0 && now >= message.expirationAt;
            const bool overLimit =
                message.maxReceiveCount > 0 && message.receiveCount + 1 > message.maxReceiveCount;
            const bool expireIt =
                expired && (options.order == CheckOrder::ExpiryFirst || !overLimit);
            if (expireIt) {
                if (auto removed = channel.removeReserved(message.sequence)) {
                    ++result.expired;
                    channel.noteExpired(1);
                    events_.emit(EventKind::BrokerExpired,
                                 [&](Event& event) { describe(event, channel, *removed, actor); });
                }
                if (options.countDropped)
                    ++result.counted;
                continue;
            }
            if (overLimit) {
                const auto guard = guardMove();
                if (auto removed = channel.removeReserved(message.sequence, false))
                    deadLetter(channel, std::move(*removed), actor);
                if (options.countDropped)
                    ++result.counted;
                continue;
            }
            ++message.receiveCount;
            ++result.counted;
            ++delivered;
            deliveredBytes += message.content.size();
            events_.emit(options.peek ? EventKind::BrokerPeeked : EventKind::BrokerDelivered,
                         [&](Event& event) { describe(event, channel, message, actor); });
            out.push_back(std::move(message));
        }
    }
    if (delivered > 0) {
        channel.noteDelivered(delivered, deliveredBytes);
        if (!options.peek)
            channel.noteHandedOut(delivered);
    }
    commit();
    return result;
}

bool QueueEngine::ack(QueueChannel& channel, std::uint64_t sequence, const Actor& actor) {
    const DurableLog::SettlementRecords settlement;
    auto removed = channel.removeReserved(sequence);
    if (!removed)
        return false;
    channel.noteAcked();
    emitAcked(channel, *removed, actor);
    commit();
    return true;
}

void QueueEngine::emitAcked(const QueueChannel& channel, const StoredMessage& removed,
                            const Actor& actor) {
    events_.emit(EventKind::BrokerAcked, [&](Event& event) {
        describe(event, channel, removed, actor);
        event.receiveCount = removed.receiveCount + 1;
    });
}

bool QueueEngine::nack(QueueChannel& channel, std::uint64_t sequence, const Actor& actor,
                       std::string_view reason) {
    const DurableLog::SettlementRecords settlement;
    auto guard = guardMove();
    auto removed = channel.removeReserved(sequence, false);
    if (!removed)
        return false;
    channel.noteRejected();
    StoredMessage copy = std::move(*removed);
    // The hand-out showed c + 1; the copy is stored with c + 1 and would show
    // c + 2, which is checked now (spec §2.7).
    if (copy.maxReceiveCount > 0 && copy.receiveCount + 2 > copy.maxReceiveCount) {
        deadLetter(channel, std::move(copy), actor);
        guard = {};
        commit();
        return true;
    }
    const std::uint64_t oldSequence = copy.sequence;
    const std::int32_t shown = copy.receiveCount + 1;
    ShortText messageId;  // captured before the move; inline, so no allocation
    const bool listening = events_.listening();
    if (listening)
        messageId = messageIdOf(copy.content);
    ++copy.receiveCount;
    const std::uint64_t newSequence =
        channel.append(std::move(copy), unixNanos(), RecordOrigin{channel.name(), oldSequence, 0});
    guard = {};
    commit();
    if (listening) {
        events_.emit(EventKind::BrokerNacked, [&](Event& event) {
            event.actor.assign(actor.clientId);
            event.transaction = actor.transaction;
            event.channel = channel.name();
            event.messageId = messageId;
            event.sequence = oldSequence;
            event.receiveCount = shown;
            event.count2 = static_cast<std::int64_t>(newSequence);
            event.detail = reason;
        });
    }
    return true;
}

bool QueueEngine::giveBack(QueueChannel& channel, std::uint64_t sequence, const Actor& actor,
                           bool quiet) {
    if (!channel.unreserve(sequence))
        return false;
    if (!quiet) {
        events_.emit(EventKind::BrokerReturned, [&](Event& event) {
            event.actor.assign(actor.clientId);
            event.transaction = actor.transaction;
            event.channel = channel.name();
            event.sequence = sequence;
        });
    }
    return true;
}

std::optional<std::string> QueueEngine::requeue(QueueChannel& channel, std::uint64_t sequence,
                                                std::string_view destination, const Actor& actor) {
    const DurableLog::SettlementRecords settlement;
    const std::string_view error = publishError(destination);
    if (!error.empty())
        return std::string(error);
    auto guard = guardMove();
    auto removed = channel.removeReserved(sequence, false);
    if (!removed)
        return std::string("message not found");
    events_.emit(EventKind::BrokerRequeued, [&](Event& event) {
        describe(event, channel, *removed, actor);
        event.receiveCount = removed->receiveCount + 1;
        event.detail.assign(destination);
    });
    StoredMessage copy = std::move(*removed);
    copy.receiveCount = 0;
    copy.delayedTo = 0;
    sendFrom(destination, std::move(copy), actor.clientId,
             RecordOrigin{channel.name(), sequence, 0});
    guard = {};
    commit();
    return std::nullopt;
}

std::optional<std::string> QueueEngine::replace(QueueChannel& channel, std::uint64_t sequence,
                                                std::string_view destination,
                                                StoredMessage replacement, const Actor& actor) {
    const std::string_view error = publishError(destination);
    if (!error.empty())
        return std::string(error);
    auto guard = guardMove();
    auto removed = channel.removeReserved(sequence, false);
    if (!removed)
        return std::string("message not found");
    channel.noteAcked();
    emitAcked(channel, *removed, actor);
    sendFrom(destination, std::move(replacement), actor.clientId,
             RecordOrigin{channel.name(), sequence, 0});
    guard = {};
    commit();
    return std::nullopt;
}

std::size_t QueueEngine::purgeReady(QueueChannel& channel, const Actor& actor) {
    const EventSink::Group group(events_);  // one purge's events reach the observer at once
    auto removed = channel.removeAllReady();
    if (!removed.empty()) {
        channel.noteDelivered(removed.size(), 0);
        channel.notePurged(removed.size());
    }
    for (const auto& message : removed) {
        events_.emit(EventKind::BrokerPurged, [&](Event& event) {
            describe(event, channel, message, actor);
            event.receiveCount = message.receiveCount + 1;
        });
    }
    commit();
    return removed.size();
}

// `message` was removed unrecorded from `source`; its copy's record (or the
// drop's) records the removal.
void QueueEngine::deadLetter(QueueChannel& source, StoredMessage message, const Actor& actor) {
    const std::string destination = message.maxReceiveQueue();
    const std::uint64_t sourceSequence = message.sequence;
    source.noteDeadLettered();
    events_.emit(EventKind::BrokerDeadLettered, [&](Event& event) {
        event.actor.assign(actor.clientId);
        event.transaction = actor.transaction;
        event.channel = source.name();
        event.messageId = messageIdOf(message.content);
        event.sequence = message.sequence;
        event.receiveCount = message.receiveCount + 1;
        event.detail = destination;
    });
    if (destination.empty()) {
        source.recordRemoved(message);  // dropped
        return;
    }
    message.receiveCount = 0;
    message.reRouted = true;
    message.setRouting({}, source.name());
    message.expirationSeconds = 0;
    message.delaySeconds = 0;
    message.maxReceiveCount = 0;
    auto target = channel(destination);
    storeNow(*target, std::move(message), actor.clientId, EventKind::BrokerStored,
             RecordOrigin{source.name(), sourceSequence, 0});
}

std::size_t QueueEngine::delayedCount() const {
    std::lock_guard lock(delayMutex_);
    return delayed_.size();
}

void QueueEngine::delayLoop() {
    std::unique_lock lock(delayMutex_);
    while (!stopping_) {
        if (delayed_.empty()) {
            delayCv_.wait(lock);
            continue;
        }
        const std::int64_t due = delayed_.begin()->first;
        const std::int64_t now = unixNanos();
        if (due > now) {
            // Wall-clock due times; cap the sleep so clock steps are noticed.
            const auto sleep =
                std::chrono::nanoseconds(std::min<std::int64_t>(due - now, 200000000));
            delayCv_.wait_for(lock, sleep);
            continue;
        }
        // The gate is taken before the entries leave delayed_, so a snapshot
        // sees each one either there or in its channel.
        lock.unlock();
        auto guard = guardMove();
        lock.lock();
        std::vector<Delayed> ready;
        while (!delayed_.empty() && delayed_.begin()->first <= now) {
            ready.push_back(std::move(delayed_.begin()->second));
            delayed_.erase(delayed_.begin());
        }
        lock.unlock();
        for (auto& entry : ready) {
            StoredMessage message = std::move(entry.message);
            const std::int64_t releaseNow = unixNanos();
            message.delaySeconds = 0;
            message.delayedTo = 0;
            message.receiveCount = 0;
            message.expirationAt = message.expirationSeconds > 0
                                       ? releaseNow + message.expirationSeconds * kNanosPerSecond
                                       : 0;
            auto target = channel(entry.channel);
            target->addDelayed(-1);
            if (log_ != nullptr)
                log_->forget(storedFootprint(entry.channel, message));
            storeNow(*target, std::move(message), {}, EventKind::BrokerReleased,
                     RecordOrigin{{}, 0, entry.id});
        }
        guard = {};
        commit();
        lock.lock();
    }
}

}  // namespace qs::broker
