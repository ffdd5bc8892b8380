#include "broker/queue_channel.h"

#include <algorithm>

#include "broker/durable_log.h"
#include "broker/waiter.h"
#include "common/clock.h"

namespace qs::broker {

QueueChannel::QueueChannel(std::string name, DurableLog* log) : name_(std::move(name)), log_(log) {
    stats_.lastActivityMs = unixNanos() / 1000000;
}

std::uint64_t QueueChannel::append(StoredMessage message, std::int64_t nowNs,
                                   const RecordOrigin& origin) {
    std::lock_guard lock(mutex_);
    lastTimestamp_ = std::max(lastTimestamp_, nowNs);
    const std::uint64_t sequence = nextSequence_++;
    message.sequence = sequence;
    message.timestamp = lastTimestamp_;
    if (log_ != nullptr && !deleted_)
        log_->put(name_, message, origin);
    const std::size_t bytes = message.content.size();
    slots_.push_back(Slot{std::move(message), SlotState::Ready});
    ++stats_.sentMessages;
    stats_.sentBytes += bytes;
    ++stats_.readyMessages;
    ++stats_.storedMessages;
    stats_.storedBytes += bytes;
    touchLocked();
    // Only the first ready message wakes the waiting consumers: a consumer
    // sleeps only after a collect that left nothing ready, so while messages
    // are ready every sleeper has a wake-up pending already. Waking all of
    // them on every append made a burst of sends cost a futex wake per
    // waiter per message.
    if (stats_.readyMessages == 1)
        signalLocked();
    return sequence;
}

std::size_t QueueChannel::reserve(std::size_t max, std::vector<StoredMessage>& out) {
    std::lock_guard lock(mutex_);
    std::size_t taken = 0;
    if (max == 0 || stats_.readyMessages == 0)
        return 0;
    std::uint64_t sequence = std::max(cursor_, base_);
    for (; sequence < nextSequence_ && taken < max; ++sequence) {
        Slot& slot = slots_[sequence - base_];
        if (slot.state != SlotState::Ready)
            continue;
        slot.state = SlotState::Reserved;
        out.push_back(slot.message);
        ++taken;
    }
    cursor_ = sequence;
    stats_.readyMessages -= taken;
    if (taken > 0)
        touchLocked();
    return taken;
}

std::optional<StoredMessage> QueueChannel::removeReserved(std::uint64_t sequence, bool recorded) {
    std::lock_guard lock(mutex_);
    Slot* slot = slotLocked(sequence);
    if (slot == nullptr || slot->state != SlotState::Reserved)
        return std::nullopt;
    if (log_ != nullptr) {
        if (recorded)
            log_->remove(name_, sequence, storedFootprint(name_, slot->message));
        else
            log_->forget(storedFootprint(name_, slot->message));
    }
    slot->state = SlotState::Gone;
    std::optional<StoredMessage> removed(std::move(slot->message));
    slot->message = StoredMessage{};
    --stats_.storedMessages;
    stats_.storedBytes -= removed->content.size();
    trimFrontLocked();
    touchLocked();
    return removed;
}

void QueueChannel::recordRemoved(const StoredMessage& message) {
    std::lock_guard lock(mutex_);
    if (log_ != nullptr && !deleted_)
        log_->remove(name_, message.sequence, 0);  // forgotten by removeReserved
}

bool QueueChannel::unreserve(std::uint64_t sequence) {
    std::lock_guard lock(mutex_);
    Slot* slot = slotLocked(sequence);
    if (slot == nullptr || slot->state != SlotState::Reserved)
        return false;
    slot->state = SlotState::Ready;
    ++stats_.readyMessages;
    cursor_ = std::min(cursor_, sequence);
    touchLocked();
    signalLocked();
    return true;
}

std::vector<StoredMessage> QueueChannel::removeAllReady() {
    std::lock_guard lock(mutex_);
    std::vector<StoredMessage> removed;
    if (stats_.readyMessages == 0)
        return removed;
    for (std::uint64_t sequence = std::max(cursor_, base_); sequence < nextSequence_; ++sequence) {
        Slot& slot = slots_[sequence - base_];
        if (slot.state != SlotState::Ready)
            continue;
        slot.state = SlotState::Gone;
        if (log_ != nullptr)
            log_->remove(name_, sequence, storedFootprint(name_, slot.message));
        stats_.storedBytes -= slot.message.content.size();
        --stats_.storedMessages;
        removed.push_back(std::move(slot.message));
        slot.message = StoredMessage{};
    }
    cursor_ = nextSequence_;
    stats_.readyMessages = 0;
    trimFrontLocked();
    touchLocked();
    return removed;
}

void QueueChannel::clear() {
    std::lock_guard lock(mutex_);
    if (log_ != nullptr && !deleted_) {
        std::size_t footprint = 0;
        for (const Slot& slot : slots_) {
            if (slot.state != SlotState::Gone)
                footprint += storedFootprint(name_, slot.message);
        }
        log_->channelDeleted(name_);
        log_->forget(footprint);
    }
    deleted_ = true;
    slots_.clear();
    base_ = nextSequence_;
    cursor_ = nextSequence_;
    stats_.readyMessages = 0;
    stats_.storedMessages = 0;
    stats_.storedBytes = 0;
    signalLocked();
}

bool QueueChannel::deleted() const {
    std::lock_guard lock(mutex_);
    return deleted_;
}

void QueueChannel::restore(RecoveredChannel recovered) {
    std::lock_guard lock(mutex_);
    nextSequence_ = recovered.nextSequence;
    lastTimestamp_ = recovered.lastTimestamp;
    base_ = recovered.messages.empty() ? nextSequence_ : recovered.messages.firstSequence();
    cursor_ = base_;
    slots_.clear();
    for (StoredMessage& message : recovered.messages.takeSlots()) {
        if (message.sequence == 0) {
            slots_.push_back(Slot{StoredMessage{}, SlotState::Gone});
            continue;
        }
        const std::size_t bytes = message.content.size();
        slots_.push_back(Slot{std::move(message), SlotState::Ready});
        ++stats_.readyMessages;
        ++stats_.storedMessages;
        stats_.storedBytes += bytes;
    }
    // Slots cover [base_, nextSequence_) as at run time: messages acked after
    // the last live one leave gone slots behind it.
    while (base_ + slots_.size() < nextSequence_)
        slots_.push_back(Slot{StoredMessage{}, SlotState::Gone});
}

void QueueChannel::snapshot(std::string& frames,
                            const std::function<void(std::string&)>& flush) const {
    constexpr std::size_t kChunkBytes = 1 << 20;
    std::lock_guard lock(mutex_);
    if (deleted_)
        return;
    appendChannelFrame(frames, name_, nextSequence_, lastTimestamp_);
    for (const Slot& slot : slots_) {
        if (slot.state == SlotState::Gone)
            continue;
        appendPutFrame(frames, name_, slot.message, {});
        if (frames.size() >= kChunkBytes) {
            flush(frames);
            frames.clear();
        }
    }
}

void QueueChannel::addWaiter(Waiter* waiter) {
    std::lock_guard lock(mutex_);
    waiters_.push_back(waiter);
}

void QueueChannel::removeWaiter(Waiter* waiter) {
    std::lock_guard lock(mutex_);
    std::erase(waiters_, waiter);
}

void QueueChannel::signalWaiters() {
    std::lock_guard lock(mutex_);
    signalLocked();
}

void QueueChannel::noteDelivered(std::size_t count, std::size_t bytes) {
    std::lock_guard lock(mutex_);
    stats_.deliveredMessages += count;
    stats_.deliveredBytes += bytes;
}

void QueueChannel::noteExpired(std::size_t count) {
    std::lock_guard lock(mutex_);
    stats_.expiredMessages += count;
}

void QueueChannel::noteAccepted() {
    std::lock_guard lock(mutex_);
    ++stats_.acceptedMessages;
}

void QueueChannel::noteHandedOut(std::size_t count) {
    std::lock_guard lock(mutex_);
    stats_.handedOutMessages += count;
}

void QueueChannel::noteAcked() {
    std::lock_guard lock(mutex_);
    ++stats_.ackedMessages;
}

void QueueChannel::noteRejected() {
    std::lock_guard lock(mutex_);
    ++stats_.rejectedMessages;
}

void QueueChannel::noteDeadLettered() {
    std::lock_guard lock(mutex_);
    ++stats_.deadLetteredMessages;
}

void QueueChannel::notePurged(std::size_t count) {
    std::lock_guard lock(mutex_);
    stats_.purgedMessages += count;
}

void QueueChannel::addDelayed(int delta) {
    std::lock_guard lock(mutex_);
    stats_.delayedMessages = static_cast<std::uint64_t>(
        std::max<std::int64_t>(0, static_cast<std::int64_t>(stats_.delayedMessages) + delta));
    touchLocked();
}

void QueueChannel::addConsumer(int delta) {
    std::lock_guard lock(mutex_);
    stats_.consumers += delta;
    touchLocked();
}

ChannelStats QueueChannel::stats() const {
    std::lock_guard lock(mutex_);
    ChannelStats copy = stats_;
    copy.firstSequence = base_;
    copy.lastSequence = nextSequence_ - 1;
    return copy;
}

QueueChannel::Slot* QueueChannel::slotLocked(std::uint64_t sequence) {
    if (sequence < base_ || sequence >= nextSequence_)
        return nullptr;
    return &slots_[sequence - base_];
}

void QueueChannel::trimFrontLocked() {
    while (!slots_.empty() && slots_.front().state == SlotState::Gone) {
        slots_.pop_front();
        ++base_;
    }
}

void QueueChannel::touchLocked() {
    stats_.lastActivityMs = unixNanos() / 1000000;
}

void QueueChannel::signalLocked() {
    for (Waiter* waiter : waiters_)
        waiter->signal();
}

}  // namespace qs::broker
