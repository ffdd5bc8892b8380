#include "events/ledger.h"

#include <algorithm>
#include <utility>

#include "common/enum_names.h"

namespace qs {
namespace {

constexpr auto kMessageStateNames = enumNames<MessageState>({
    {MessageState::Waiting, "waiting"},
    {MessageState::Delayed, "delayed"},
    {MessageState::InFlight, "in-flight"},
    {MessageState::Acked, "acked"},
    {MessageState::DeadLettered, "dead-lettered"},
    {MessageState::Dropped, "dropped"},
    {MessageState::Expired, "expired"},
    {MessageState::SendFailed, "send-failed"},
    {MessageState::Purged, "purged"},
});
static_assert(kMessageStateNames.size() == kMessageStateCount);

constexpr auto kDeliveryOutcomeNames = enumNames<DeliveryOutcome>({
    {DeliveryOutcome::Open, "open"},
    {DeliveryOutcome::Acked, "acked"},
    {DeliveryOutcome::Rejected, "rejected"},
    {DeliveryOutcome::Requeued, "requeued"},
    {DeliveryOutcome::Returned, "returned"},
    {DeliveryOutcome::Superseded, "superseded"},
});

// C++20 sets find by a view (a transparent hash) but erase only by key.
template <typename Set>
void eraseByView(Set& set, std::string_view key) {
    if (const auto it = set.find(key); it != set.end())
        set.erase(it);
}

bool compatible(std::string_view a, std::string_view b) {
    return a.empty() || b.empty() || a == b;
}

template <typename T>
bool compatibleNumber(T a, T b) {
    return a == 0 || b == 0 || a == b;
}

// Message-level kinds are keyed by MessageID; everything else is about a
// worker, the pool or the stream.
bool isMessageKind(EventKind kind) {
    switch (kind) {
        case EventKind::TaskSent:
        case EventKind::SendFailed:
        case EventKind::MessageAssigned:
        case EventKind::WorkStarted:
        case EventKind::WorkFinished:
        case EventKind::Acked:
        case EventKind::Rejected:
        case EventKind::Requeued:
        case EventKind::BrokerStored:
        case EventKind::BrokerDelayed:
        case EventKind::BrokerReleased:
        case EventKind::BrokerDelivered:
        case EventKind::BrokerAcked:
        case EventKind::BrokerNacked:
        case EventKind::BrokerRequeued:
        case EventKind::BrokerReturned:
        case EventKind::BrokerExpired:
        case EventKind::BrokerDeadLettered:
        case EventKind::BrokerPeeked:
        case EventKind::BrokerPurged:
        case EventKind::MessageRedriven:
        case EventKind::VisibilityExpired:
            return true;
        default:
            return false;
    }
}

// One purge request: a broker's BrokerPurged events and the client's
// ChannelPurged of the same AckAllQueueMessages share it.
std::string purgeKey(const Event& e) {
    std::string key(e.channel.view());
    key.push_back('\0');  // names cannot hold NUL
    key += e.actor.view();
    key.push_back('\0');
    key += e.transaction.view();
    return key;
}

std::string purgedBy(const Event& e) {
    return e.actor.empty() ? std::string("purged") : "purged by " + std::string(e.actor.view());
}

}  // namespace

std::string_view messageStateName(MessageState state) {
    return kMessageStateNames.name(state);
}

bool isTerminal(MessageState state) {
    switch (state) {
        case MessageState::Acked:
        case MessageState::DeadLettered:
        case MessageState::Dropped:
        case MessageState::Expired:
        case MessageState::SendFailed:
        case MessageState::Purged:
            return true;
        case MessageState::Waiting:
        case MessageState::Delayed:
        case MessageState::InFlight:
            return false;
    }
    return false;
}

bool deadLetteredInto(const MessageRecord& message, std::string_view channel) {
    return message.state == MessageState::DeadLettered &&
           (message.endDetail == channel ||
            (message.deadLetterInferred && message.endDetail.empty()));
}

std::string_view deliveryOutcomeName(DeliveryOutcome outcome) {
    return kDeliveryOutcomeNames.name(outcome);
}

Ledger::Ledger(LedgerOptions options)
    : options_(options),
      messages_(options.maxFinishedMessages),
      settleAll_(options.latencySampleCap),
      sendToAckAll_(options.latencySampleCap) {}

void Ledger::apply(std::span<const Event> events) {
    for (const Event& e : events)
        apply(e);
}

void Ledger::apply(const Event& e) {
    apply(e, 0);
}

void Ledger::apply(const Event& e, std::uint32_t messageKey) {
    applyEvent(e, messageKey);
    if (observer_.observer != nullptr && !observer_.changedWorkers.empty())
        reportChangedWorkers();
}

void Ledger::noteWorkerChanged(WorkerData& w) {
    std::vector<WorkerData*>& changed = observer_.changedWorkers;
    if (std::find(changed.begin(), changed.end(), &w) == changed.end())
        changed.push_back(&w);
}

void Ledger::reportChangedWorkers() {
    for (WorkerData* w : observer_.changedWorkers)
        observer_.observer->workerChanged(w->stats);
    observer_.changedWorkers.clear();
}

void Ledger::applyEvent(const Event& e, std::uint32_t messageKey) {
    ++summary_.eventsApplied;
    if (e.kind == EventKind::EventsDropped) {
        summary_.droppedEvents += static_cast<std::uint64_t>(std::max<std::int64_t>(e.value, 0));
        return;
    }
    if (e.kind == EventKind::TaskSent)
        ++summary_.sent;
    if (e.kind == EventKind::SendFailed)
        ++summary_.sendFailed;
    if (e.kind == EventKind::ChannelPeeked)
        return;  // a client's peek leaves every message as it was
    if (e.kind == EventKind::ChannelPurged) {
        applyChannelPurged(e);
        return;
    }
    if (e.kind == EventKind::Redelivered) {
        // Derived by this ledger, or reported by a worker: counted from the
        // hand-outs themselves either way, never from these events.
        if (e.source == EventSource::Worker)
            applyReportedRedelivery(e);
        return;
    }
    if (isMessageKind(e.kind)) {
        if (e.messageId.empty()) {
            const Entry* known = e.channel.empty() || e.sequence == 0
                                     ? nullptr
                                     : messages_.bySequence(e.channel, e.sequence);
            if (known == nullptr) {
                ++summary_.eventsWithoutMessageId;
                return;
            }
            Event keyed = e;
            keyed.messageId = known->rec.messageId;
            applyMessageEvent(keyed, known->key);
            return;
        }
        applyMessageEvent(e, messageKey);
    } else {
        applyWorkerEvent(e);
    }
}

Ledger::Entry& Ledger::entry(const Event& e, std::uint32_t messageKey, bool& created) {
    created = false;
    if (Entry* keyed = messages_.findByKey(messageKey))
        return *keyed;
    Entry* found = messages_.find(e.messageId.view());
    created = found == nullptr;
    if (created)
        found = &messages_.add(e.messageId.view());
    messages_.setKey(*found, messageKey);  // found by it next time
    if (created) {
        MessageRecord& rec = found->rec;
        rec.ordinal = summary_.messages;
        rec.channel = e.channel;
        rec.firstSeenNs = e.timeNs;
        rec.state = MessageState::Waiting;
        ++summary_.byState[static_cast<int>(MessageState::Waiting)];
        ++summary_.messages;
    }
    return *found;
}

Ledger::WorkerData* Ledger::knownWorker(Name name) {
    if (const auto cached = workersByName_.map.find(name); cached != workersByName_.map.end())
        return cached->second;
    const auto it = workers_.find(name.view());
    if (it == workers_.end())
        return nullptr;
    workersByName_.map.emplace(name, &it->second);
    return &it->second;
}

Ledger::WorkerData& Ledger::workerData(Name name) {
    WorkerData* w = knownWorker(name);
    if (w == nullptr) {
        const auto it =
            workers_.emplace(std::string(name.view()), WorkerData(options_.workerLatencySampleCap)).first;
        w = &it->second;
        w->stats.worker = name.view();
        workersByName_.map.emplace(name, w);
    }
    if (observer_.observer != nullptr)
        noteWorkerChanged(*w);
    return *w;
}

// Only ever called to change the worker it finds.
Ledger::WorkerData* Ledger::findWorker(Name name) {
    WorkerData* w = knownWorker(name);
    if (w != nullptr && observer_.observer != nullptr)
        noteWorkerChanged(*w);
    return w;
}

void Ledger::setState(MessageRecord& rec, MessageState state, std::int64_t timeNs) {
    if (rec.state == state)
        return;
    --summary_.byState[static_cast<int>(rec.state)];
    ++summary_.byState[static_cast<int>(state)];
    rec.state = state;
    if (isTerminal(state))
        rec.endedNs = timeNs;
}

void Ledger::refreshCounters(Entry& en) {
    const bool once = en.rec.state == MessageState::Acked && en.rec.deliveryCount == 1;
    if (once != en.countedExactlyOnce) {
        if (once) {
            ++summary_.exactlyOnce;
        } else {
            --summary_.exactlyOnce;
        }
        en.countedExactlyOnce = once;
    }
}

// Walks back from the newest delivery: the one a new report belongs to is the
// newest one this side has not reported yet (for assignments and settlements)
// whose worker, sequence, receive count and transaction do not contradict it.
DeliveryRecord* Ledger::findDelivery(MessageRecord& rec, const Event& e, Side side, Match match) {
    for (auto it = rec.deliveries.rbegin(); it != rec.deliveries.rend(); ++it) {
        DeliveryRecord& d = *it;
        if (match == Match::Assignment && (side == Side::Client ? d.seenByClient : d.seenByBroker))
            continue;
        if (match == Match::Settlement &&
            (side == Side::Client ? d.clientSettled : d.brokerSettled))
            continue;
        if (!compatible(d.worker, e.actor) || !compatibleNumber(d.sequence, e.sequence) ||
            !compatibleNumber(d.receiveCount, e.receiveCount) ||
            !compatible(d.transaction, e.transaction))
            continue;
        return &d;
    }
    return nullptr;
}

void Ledger::closeDelivery(MessageRecord& rec, DeliveryRecord& d, DeliveryOutcome outcome,
                           std::int64_t timeNs) {
    d.outcome = outcome;
    d.settledNs = timeNs;
    if (WorkerData* w = findWorker(d.worker))
        eraseByView(w->openMessages, rec.messageId);
}

DeliveryRecord& Ledger::beginDelivery(MessageRecord& rec, const Event& e, Side side,
                                      bool assignmentSeen) {
    const bool redelivery = rec.deliveryCount > 0;
    std::string previousWorker;
    if (!rec.deliveries.empty()) {
        DeliveryRecord& prev = rec.deliveries.back();
        previousWorker = prev.worker;
        if (prev.outcome == DeliveryOutcome::Open) {
            // The message came back without us seeing how (e.g. a dropped event).
            closeDelivery(rec, prev, DeliveryOutcome::Superseded, e.timeNs);
            if (WorkerData* w = findWorker(prev.worker))
                ++w->stats.returned;
        } else if (prev.outcome == DeliveryOutcome::Acked && !prev.brokerSettled && !prev.ackLost &&
                   compatibleNumber(prev.sequence, e.sequence)) {
            // The same stored copy handed out again after the worker acked it: the
            // ack never took effect (spec §6 item 7).
            prev.ackLost = true;
            ++summary_.acksLost;
            if (WorkerData* w = findWorker(prev.worker))
                ++w->stats.acksLost;
        }
    }

    DeliveryRecord d;
    d.worker = e.actor;
    d.channel = e.channel.empty() ? std::string_view(rec.channel) : e.channel.view();
    d.transaction = e.transaction;
    d.sequence = e.sequence;
    d.receiveCount = e.receiveCount;
    d.assignedNs = assignmentSeen ? e.timeNs : 0;
    d.redelivery = redelivery;
    d.seenByClient = side == Side::Client;
    d.seenByBroker = side == Side::Broker;
    rec.deliveries.push_back(std::move(d));
    const std::size_t kept = std::max<std::size_t>(options_.maxDeliveriesPerMessage, 1);
    if (rec.deliveries.size() > kept) {
        const std::size_t dropped = rec.deliveries.size() - kept;
        rec.deliveries.erase(rec.deliveries.begin(),
                             rec.deliveries.begin() + static_cast<std::ptrdiff_t>(dropped));
        rec.omittedDeliveries += static_cast<std::uint32_t>(dropped);
    }

    ++rec.deliveryCount;
    ++summary_.deliveries;
    if (redelivery) {
        ++summary_.redeliveries;
        if (rec.deliveryCount == 2)
            ++summary_.redelivered;
    }
    if (e.sequence != 0)
        rec.sequence = e.sequence;
    if (!e.channel.empty())
        rec.channel = e.channel;
    rec.deadLetterInferred = false;
    setState(rec, MessageState::InFlight, e.timeNs);

    DeliveryRecord& added = rec.deliveries.back();
    if (!added.worker.empty()) {
        WorkerData& w = workerData(added.worker);
        ++w.stats.received;
        if (redelivery)
            ++w.stats.redelivered;
        w.openMessages.insert(rec.messageId.str());
        w.stats.maxHeld = std::max<std::uint64_t>(w.stats.maxHeld, w.openMessages.size());
    }

    bool reported = false;
    if (redelivery && !reportedRedeliveries_.empty()) {
        std::string key = rec.messageId.str();
        key.push_back('\0');
        key += added.worker;
        reported = reportedRedeliveries_.erase(key) > 0;
    }
    if (redelivery && !reported && options_.maxPendingDerivedEvents > 0) {
        if (derived_.size() < options_.maxPendingDerivedEvents) {
            Event r;
            r.timeNs = e.timeNs;
            r.kind = EventKind::Redelivered;
            r.source = EventSource::Pool;
            r.actor = added.worker;
            r.channel = added.channel;
            r.messageId = rec.messageId;
            r.sequence = added.sequence;
            r.receiveCount = added.receiveCount;
            r.transaction = added.transaction;
            r.value = rec.deliveryCount;
            r.detail = previousWorker;
            derived_.push_back(std::move(r));
        } else {
            ++derivedDropped_;
        }
    }
    return added;
}

DeliveryRecord& Ledger::clientDelivery(MessageRecord& rec, const Event& e, Match match) {
    if (DeliveryRecord* d = findDelivery(rec, e, Side::Client, match)) {
        d->seenByClient = true;
        return *d;
    }
    // The assignment was not seen (ledger started late, or events dropped):
    // record the hand-out without an assignment time.
    return beginDelivery(rec, e, Side::Client, false);
}

// The broker makes a NAck's or a re-queue's new copy available before it reports
// the settlement, and the worker's own report comes later still, so the next
// hand-out can reach the stream first and supersede this delivery (counted then
// as returned for its worker). The late report says how it really ended; the
// message's state stays the later delivery's.
void Ledger::learnSupersededOutcome(DeliveryRecord& d, DeliveryOutcome outcome, WorkerData* w) {
    d.outcome = outcome;
    if (w == nullptr) {
        return;
    }
    if (w->stats.returned > 0) {
        --w->stats.returned;
    }
    if (outcome == DeliveryOutcome::Rejected) {
        ++(d.visibilityExpired ? w->stats.visibilityExpired : w->stats.rejected);
    } else {
        ++w->stats.requeued;
    }
}

// First settlement of a delivery (from either side) decides its outcome and is
// what the worker's counters and latencies record; a matching report from the
// other side only confirms it. Returns true for a first settlement.
bool Ledger::settle(MessageRecord& rec, DeliveryRecord& d, DeliveryOutcome outcome,
                    const Event& e) {
    WorkerData* w = d.worker.empty() ? nullptr : &workerData(d.worker);
    if (d.outcome == DeliveryOutcome::Superseded &&
        (outcome == DeliveryOutcome::Rejected || outcome == DeliveryOutcome::Requeued)) {
        learnSupersededOutcome(d, outcome, w);
        return false;
    }
    if (d.outcome != DeliveryOutcome::Open) {
        // A worker settling a delivery that already went back (crash, stream
        // end, handed to another worker): it did send it, and an ack is lost.
        const bool fromClient = e.source != EventSource::Broker;
        const bool gone =
            d.outcome == DeliveryOutcome::Returned || d.outcome == DeliveryOutcome::Superseded;
        if (fromClient && gone && w != nullptr) {
            if (outcome == DeliveryOutcome::Acked) {
                ++w->stats.acked;
                if (!d.ackLost) {
                    d.ackLost = true;
                    ++w->stats.acksLost;
                    ++summary_.acksLost;
                }
            } else if (outcome == DeliveryOutcome::Rejected && !d.visibilityExpired) {
                ++w->stats.rejected;
            } else if (outcome == DeliveryOutcome::Requeued) {
                ++w->stats.requeued;
            }
        }
        return false;
    }

    closeDelivery(rec, d, outcome, e.timeNs);
    if (w != nullptr) {
        const bool settledByWorker =
            outcome == DeliveryOutcome::Acked || outcome == DeliveryOutcome::Requeued ||
            (outcome == DeliveryOutcome::Rejected && !d.visibilityExpired);
        if (settledByWorker && d.assignedNs != 0) {
            const std::int64_t latency = e.timeNs - d.assignedNs;
            w->settle.add(latency);
            settleAll_.add(latency);
        }
        switch (outcome) {
            case DeliveryOutcome::Acked:
                ++w->stats.acked;
                if (rec.sentNs != 0) {
                    const std::int64_t latency = e.timeNs - rec.sentNs;
                    w->sendToAck.add(latency);
                    sendToAckAll_.add(latency);
                }
                break;
            case DeliveryOutcome::Rejected:
                ++(d.visibilityExpired ? w->stats.visibilityExpired : w->stats.rejected);
                break;
            case DeliveryOutcome::Requeued:
                ++w->stats.requeued;
                break;
            case DeliveryOutcome::Returned:
                ++w->stats.returned;
                break;
            case DeliveryOutcome::Open:
            case DeliveryOutcome::Superseded:
                break;
        }
    }

    switch (outcome) {
        case DeliveryOutcome::Acked:
            setState(rec, MessageState::Acked, e.timeNs);
            break;
        case DeliveryOutcome::Rejected:
            if (options_.maxReceiveCount > 0 && d.receiveCount >= options_.maxReceiveCount) {
                rec.deadLetterInferred = true;
                setState(rec, MessageState::DeadLettered, e.timeNs);
            } else {
                setState(rec, MessageState::Waiting, e.timeNs);
            }
            break;
        case DeliveryOutcome::Requeued:
            if (!e.detail.empty())
                rec.channel = e.detail;
            setState(rec, MessageState::Waiting, e.timeNs);
            break;
        case DeliveryOutcome::Returned:
        case DeliveryOutcome::Superseded:
        case DeliveryOutcome::Open:
            setState(rec, MessageState::Waiting, e.timeNs);
            break;
    }
    return true;
}

void Ledger::applyMessageEvent(const Event& e, std::uint32_t messageKey) {
    bool created = false;
    Entry& en = entry(e, messageKey, created);
    MessageRecord& rec = en.rec;
    const bool wasTerminal = isTerminal(rec.state);

    switch (e.kind) {
        case EventKind::TaskSent:
            if (rec.sentNs == 0)
                rec.sentNs = e.timeNs;
            if (created && e.value > 0)
                setState(rec, MessageState::Delayed, e.timeNs);
            break;
        case EventKind::SendFailed:
            if (rec.deliveryCount == 0 && rec.sequence == 0) {
                rec.endDetail = e.detail;
                setState(rec, MessageState::SendFailed, e.timeNs);
            }
            break;
        case EventKind::BrokerStored:
            if (e.sequence != 0)
                rec.sequence = e.sequence;
            if (!e.channel.empty())
                rec.channel = e.channel;
            if (rec.state == MessageState::SendFailed && rec.deliveryCount == 0)
                setState(rec, MessageState::Waiting, e.timeNs);
            break;
        case EventKind::BrokerDelayed:
            if (e.sequence != 0)
                rec.sequence = e.sequence;
            if (rec.state == MessageState::Waiting)
                setState(rec, MessageState::Delayed, e.timeNs);
            break;
        case EventKind::BrokerReleased:
            if (e.sequence != 0)
                rec.sequence = e.sequence;
            if (rec.state == MessageState::Delayed)
                setState(rec, MessageState::Waiting, e.timeNs);
            break;
        case EventKind::MessageAssigned:
        case EventKind::BrokerDelivered: {
            const Side side = e.kind == EventKind::MessageAssigned ? Side::Client : Side::Broker;
            if (DeliveryRecord* d = findDelivery(rec, e, side, Match::Assignment)) {
                // The other side's report of a hand-out we already have.
                (side == Side::Client ? d->seenByClient : d->seenByBroker) = true;
                if (d->worker.empty())
                    d->worker = e.actor;
                if (d->transaction.empty())
                    d->transaction = e.transaction;
                if (d->sequence == 0)
                    d->sequence = e.sequence;
                if (d->receiveCount == 0)
                    d->receiveCount = e.receiveCount;
                if (d->assignedNs == 0)
                    d->assignedNs = e.timeNs;
                indexDelivery(en, *d);
            } else {
                indexDelivery(en, beginDelivery(rec, e, side, true));
            }
            break;
        }
        case EventKind::WorkStarted: {
            DeliveryRecord& d = clientDelivery(rec, e, Match::Work);
            if (d.workStartNs == 0)
                d.workStartNs = e.timeNs;
            break;
        }
        case EventKind::WorkFinished: {
            DeliveryRecord& d = clientDelivery(rec, e, Match::Work);
            d.workEndNs = e.timeNs;
            const std::int64_t duration =
                e.value > 0 ? e.value : (d.workStartNs != 0 ? e.timeNs - d.workStartNs : 0);
            if (!d.worker.empty()) {
                WorkerData& w = workerData(d.worker);
                w.stats.busyNs += duration;
                ++w.stats.processed;
            }
            if (++rec.processedCount == 2)
                ++summary_.processedMoreThanOnce;
            break;
        }
        case EventKind::Acked:
        case EventKind::Rejected:
        case EventKind::Requeued: {
            DeliveryRecord& d = clientDelivery(rec, e, Match::Settlement);
            d.clientSettled = true;
            const DeliveryOutcome outcome = e.kind == EventKind::Acked ? DeliveryOutcome::Acked
                                            : e.kind == EventKind::Rejected
                                                ? DeliveryOutcome::Rejected
                                                : DeliveryOutcome::Requeued;
            settle(rec, d, outcome, e);
            break;
        }
        case EventKind::VisibilityExpired: {
            // The worker's late ack failed: its hand-out went back with receive
            // count + 1 (a server without an observer tells nothing else).
            DeliveryRecord& d = clientDelivery(rec, e, Match::Settlement);
            d.clientSettled = true;
            d.visibilityExpired = true;
            settle(rec, d, DeliveryOutcome::Rejected, e);
            break;
        }
        case EventKind::BrokerAcked: {
            DeliveryRecord* d = findDelivery(rec, e, Side::Broker, Match::Settlement);
            if (d == nullptr) {
                // Acked without a hand-out: AckAll on the queue purged it.
                if (rec.state == MessageState::Waiting || rec.state == MessageState::Delayed) {
                    rec.endDetail = "acked without a delivery (purged)";
                    setState(rec, MessageState::Acked, e.timeNs);
                } else {
                    ++summary_.unmatchedBrokerEvents;
                }
                break;
            }
            // An ack of a delivery settled otherwise is the broker retiring the
            // original after a NAck / re-queue copy: not a settlement.
            if (d->outcome == DeliveryOutcome::Open || d->outcome == DeliveryOutcome::Acked) {
                d->brokerSettled = true;
                settle(rec, *d, DeliveryOutcome::Acked, e);
            }
            break;
        }
        case EventKind::BrokerNacked:
        case EventKind::BrokerRequeued: {
            const bool nack = e.kind == EventKind::BrokerNacked;
            if (DeliveryRecord* d = findDelivery(rec, e, Side::Broker, Match::Settlement)) {
                d->brokerSettled = true;
                if (nack && e.detail == kNackReasonVisibilityExpired)
                    d->visibilityExpired = true;
                settle(rec, *d, nack ? DeliveryOutcome::Rejected : DeliveryOutcome::Requeued, e);
            } else {
                ++summary_.unmatchedBrokerEvents;
            }
            if (nack) {
                if (e.count2 > 0)
                    rec.sequence = static_cast<std::uint64_t>(e.count2);
                // The broker re-enqueued it: a dead-letter inferred from the
                // receive count was wrong (the policy differs from the option).
                if (rec.deadLetterInferred) {
                    rec.deadLetterInferred = false;
                    setState(rec, MessageState::Waiting, e.timeNs);
                }
            } else if (!e.detail.empty()) {
                rec.channel = e.detail;
            }
            break;
        }
        case EventKind::BrokerReturned: {
            DeliveryRecord* d = findDelivery(rec, e, Side::Broker, Match::Settlement);
            if (d == nullptr) {
                ++summary_.unmatchedBrokerEvents;
                break;
            }
            d->brokerSettled = true;
            // The broker makes a returned copy available before it reports the
            // return, so the next hand-out (to another consumer) can reach the
            // stream first. Then this delivery is no longer the latest one and
            // the message's state belongs to that later delivery.
            const bool latest = d == &rec.deliveries.back();
            if (d->outcome == DeliveryOutcome::Open) {
                settle(rec, *d, DeliveryOutcome::Returned, e);
                noteReturnedByBroker(rec, *d, e.timeNs);
            } else if (d->outcome == DeliveryOutcome::Superseded) {
                // Superseded by that next hand-out; now we know how it ended. Its
                // worker's `returned` was counted then; the end time stays the
                // next hand-out's (the return happened before it).
                d->outcome = DeliveryOutcome::Returned;
                noteReturnedByBroker(rec, *d, e.timeNs);
            } else if (d->outcome == DeliveryOutcome::Acked) {
                // The worker acked but the broker put it back: the ack was lost.
                if (!d->ackLost) {
                    d->ackLost = true;
                    ++summary_.acksLost;
                    if (WorkerData* w = findWorker(d->worker))
                        ++w->stats.acksLost;
                }
                if (latest && rec.state == MessageState::Acked)
                    setState(rec, MessageState::Waiting, e.timeNs);
            }
            break;
        }
        case EventKind::BrokerExpired:
            setState(rec, MessageState::Expired, e.timeNs);
            break;
        case EventKind::BrokerPeeked:
            // Seen and left in place: not a hand-out, nothing else changes.
            ++rec.peekCount;
            rec.lastPeekedNs = e.timeNs;
            ++summary_.peeks;
            break;
        case EventKind::BrokerPurged: {
            // The broker purges only ready messages: a hand-out still open
            // here went back first (its BrokerReturned may come later, and
            // then finds it settled).
            if (!rec.deliveries.empty() && rec.deliveries.back().outcome == DeliveryOutcome::Open)
                settle(rec, rec.deliveries.back(), DeliveryOutcome::Returned, e);
            if (!e.channel.empty())
                rec.channel = e.channel;
            rec.deadLetterInferred = false;
            rec.endDetail = purgedBy(e);
            setState(rec, MessageState::Purged, e.timeNs);
            notePurgedByBroker(e);
            break;
        }
        case EventKind::MessageRedriven:
            // Moved back (from a dead-letter queue, most often): it waits in
            // the target as a new copy, whatever it was before.
            rec.channel = e.channel;
            if (e.sequence != 0)
                rec.sequence = e.sequence;
            rec.deadLetterInferred = false;
            rec.endDetail.clear();
            ++summary_.redriven;
            setState(rec, MessageState::Waiting, e.timeNs);
            break;
        case EventKind::BrokerDeadLettered: {
            if (DeliveryRecord* d = findDelivery(rec, e, Side::Broker, Match::Settlement)) {
                if (d->outcome == DeliveryOutcome::Open ||
                    d->outcome == DeliveryOutcome::Rejected) {
                    d->brokerSettled = true;
                    settle(rec, *d, DeliveryOutcome::Rejected, e);
                }
            }
            rec.deadLetterInferred = false;
            rec.endDetail = e.detail;
            if (!e.detail.empty())
                rec.channel = e.detail;
            setState(rec, e.detail.empty() ? MessageState::Dropped : MessageState::DeadLettered,
                     e.timeNs);
            break;
        }
        default:
            break;
    }

    reportMessageChanged(en, wasTerminal);
}

// After an event changed `en`: the counters, the observer, and the finished
// list (which may forget other finished messages, never `en` itself unless
// the cap is 0).
void Ledger::reportMessageChanged(Entry& en, bool wasTerminal) {
    refreshCounters(en);
    if (observer_.observer != nullptr)
        observer_.observer->messageChanged(en.rec);
    if (!wasTerminal && isTerminal(en.rec.state)) {
        en.finishStamp = ++nextStamp_;
        messages_.noteFinished(en);
        ++finishedCount_;
        evictFinished();
    } else if (wasTerminal && !isTerminal(en.rec.state)) {
        // Reopened (an ack that did not take effect, a redrive): its entry in
        // finished-list entry is stale and no longer counts against the cap.
        en.finishStamp = 0;
        --finishedCount_;
    }
}

void Ledger::notePurgedByBroker(const Event& e) {
    // A bound against purges whose client never reports (no ChannelPurged):
    // forgetting them only matters if that client reports after all.
    constexpr std::size_t kMaxOpenPurges = 1024;
    if (brokerPurges_.size() >= kMaxOpenPurges)
        brokerPurges_.clear();
    ++brokerPurges_[purgeKey(e)];
}

// The client's report of a purge: value = AffectedMessages. What the broker
// already reported for the same request is not purged again; the rest are the
// oldest messages waiting in the channel (first seen first: the server
// consumes in queue order), as many as the server removed.
void Ledger::applyChannelPurged(const Event& e) {
    std::uint64_t remaining = static_cast<std::uint64_t>(std::max<std::int64_t>(e.value, 0));
    if (const auto it = brokerPurges_.find(purgeKey(e)); it != brokerPurges_.end()) {
        remaining -= std::min(remaining, it->second);
        brokerPurges_.erase(it);
    }
    if (remaining == 0 || e.channel.empty())
        return;
    std::vector<Entry*> waiting;
    messages_.forEach([&](Entry& en) {
        if (en.rec.state == MessageState::Waiting && en.rec.channel == e.channel.view())
            waiting.push_back(&en);
    });
    std::sort(waiting.begin(), waiting.end(),
              [](const Entry* a, const Entry* b) { return a->rec.ordinal < b->rec.ordinal; });
    const std::size_t count =
        static_cast<std::size_t>(std::min<std::uint64_t>(remaining, waiting.size()));
    summary_.purgedUnknown += remaining - count;
    // Only finished messages are forgotten, so the entries not yet ended here
    // stay where they are while the ones before them may go.
    for (std::size_t i = 0; i < count; ++i) {
        Entry& en = *waiting[i];
        en.rec.endDetail = purgedBy(e);
        setState(en.rec, MessageState::Purged, e.timeNs);
        reportMessageChanged(en, false);
    }
}

// Forgets the oldest finished messages beyond the cap. finishedCount_ counts
// the messages finished now; the finished list also holds stale entries of
// messages reopened since, skipped here (and dropped once they outnumber the
// live ones).
void Ledger::evictFinished() {
    if (messages_.finishedListSize() > 2 * finishedCount_ + 1024)
        messages_.dropStaleFinished();
    while (finishedCount_ > options_.maxFinishedMessages && !messages_.finishedListEmpty()) {
        const auto [oldest, stamp] = messages_.takeOldestFinished();
        Entry& en = *oldest;
        if (!isTerminal(en.rec.state) || en.finishStamp != stamp)
            continue;  // reopened since: a stale entry
        --finishedCount_;
        for (const DeliveryRecord& d : en.rec.deliveries) {
            if (d.outcome != DeliveryOutcome::Open)
                continue;
            if (WorkerData* w = findWorker(d.worker))
                eraseByView(w->openMessages, en.rec.messageId);
        }
        messages_.erase(en);
        ++summary_.evicted;
    }
}

void Ledger::indexDelivery(Entry& en, const DeliveryRecord& d) {
    if (d.sequence == 0 || d.channel.empty())
        return;
    messages_.indexSequence(en, Name(d.channel), d.sequence);
}

void Ledger::workerCrashed(Name worker, std::int64_t timeNs) {
    WorkerData* w = findWorker(worker);
    if (w == nullptr)
        return;
    // Its unsettled messages go back to the queue unchanged (spec §2.8.5).
    std::vector<std::string> open(w->openMessages.begin(), w->openMessages.end());
    for (const std::string& id : open) {
        Entry* found = messages_.find(id);
        if (found == nullptr)
            continue;
        Entry& en = *found;
        for (auto d = en.rec.deliveries.rbegin(); d != en.rec.deliveries.rend(); ++d) {
            if (d->outcome != DeliveryOutcome::Open || d->worker != worker)
                continue;
            d->workerCrashed = true;
            closeDelivery(en.rec, *d, DeliveryOutcome::Returned, timeNs);
            ++w->stats.returned;
            if (en.rec.state == MessageState::InFlight)
                setState(en.rec, MessageState::Waiting, timeNs);
            refreshCounters(en);
            if (observer_.observer != nullptr)
                observer_.observer->messageChanged(en.rec);
            break;
        }
    }
    w->openMessages.clear();
    blameCrashForReturns(*w, worker, timeNs);
}

namespace {
// A broker return this close before its worker reports a crash was caused by
// that crash: the broker sees the crashed client's stream end first.
constexpr std::int64_t kCrashReturnWindowNs = 2'000'000'000;
constexpr std::size_t kMaxReturnsKept = 4096;
}  // namespace

void Ledger::noteReturnedByBroker(const MessageRecord& rec, const DeliveryRecord& d,
                                  std::int64_t timeNs) {
    WorkerData* w = findWorker(d.worker);
    if (w == nullptr)
        return;
    if (w->returnedByBroker.size() == kMaxReturnsKept)
        w->returnedByBroker.pop_front();
    w->returnedByBroker.emplace_back(rec.messageId, timeNs);
}

// The deliveries the broker returned just before `worker` reported its crash
// came back because of it: say so in their records (and to the observer).
void Ledger::blameCrashForReturns(WorkerData& w, std::string_view worker, std::int64_t timeNs) {
    for (const auto& [id, returnedNs] : w.returnedByBroker) {
        if (timeNs - returnedNs > kCrashReturnWindowNs)
            continue;
        Entry* found = messages_.find(id);
        if (found == nullptr)
            continue;
        MessageRecord& rec = found->rec;
        for (auto d = rec.deliveries.rbegin(); d != rec.deliveries.rend(); ++d) {
            if (d->worker != worker)
                continue;
            if (d->outcome == DeliveryOutcome::Returned && !d->workerCrashed) {
                d->workerCrashed = true;
                if (observer_.observer != nullptr)
                    observer_.observer->messageChanged(rec);
            }
            break;
        }
    }
    w.returnedByBroker.clear();
}

void Ledger::applyReportedRedelivery(const Event& e) {
    if (e.messageId.empty() || e.actor.empty() || options_.maxPendingDerivedEvents == 0)
        return;
    // Workers report it right after the assignment: drop the twin derived
    // from that assignment if it is still pending.
    for (auto it = derived_.rbegin(); it != derived_.rend(); ++it) {
        if (it->messageId == e.messageId && it->actor == e.actor) {
            derived_.erase(std::next(it).base());
            return;
        }
    }
    const Entry* m = messages_.find(e.messageId.view());
    if (m != nullptr && !m->rec.deliveries.empty()) {
        const DeliveryRecord& last = m->rec.deliveries.back();
        if (last.worker == e.actor && last.seenByClient)
            return;  // its assignment is in: nothing was derived, or it was taken already
    }
    // Reported ahead of its assignment: that assignment derives nothing.
    constexpr std::size_t kMaxReported = 4096;  // a bound against assignments never seen
    if (reportedRedeliveries_.size() >= kMaxReported)
        reportedRedeliveries_.clear();
    std::string key(e.messageId.view());
    key.push_back('\0');
    key += e.actor;
    reportedRedeliveries_.insert(std::move(key));
}

// An empty poll while others hold messages: the queue looked empty to this
// worker because the work sat reserved elsewhere (a batch too big, a slow or
// stuck worker).
void Ledger::noteEmptyPoll(WorkerData& poller) {
    std::uint64_t heldByOthers = 0;
    for (const auto& [name, other] : workers_) {
        if (&other != &poller)
            heldByOthers += other.openMessages.size();
    }
    if (heldByOthers > 0) {
        ++poller.stats.emptyPollsWhileOthersHeld;
        poller.stats.heldByOthersAtEmptyPolls += heldByOthers;
    }
}

void Ledger::applyWorkerEvent(const Event& e) {
    if (e.actor.empty())
        return;
    switch (e.kind) {
        case EventKind::PollStarted:
            workerData(e.actor);
            break;
        case EventKind::PollReturned: {
            WorkerData& w = workerData(e.actor);
            ++w.stats.polls;
            if (e.value == 0) {
                ++w.stats.emptyPolls;
                noteEmptyPoll(w);
            }
            w.stats.pollWaitNs += e.count2 * 1'000'000;
            break;
        }
        case EventKind::WorkerStarted:
        case EventKind::WorkerPaused:
        case EventKind::WorkerResumed:
        case EventKind::WorkerStopped: {
            WorkerData& w = workerData(e.actor);
            w.stats.lastLifecycle = e.kind;
            w.returnedByBroker.clear();
            break;
        }
        case EventKind::WorkerReconnected: {
            WorkerData& w = workerData(e.actor);
            ++w.stats.reconnects;
            w.stats.lastLifecycle = e.kind;
            w.returnedByBroker.clear();
            break;
        }
        case EventKind::WorkerCrashed: {
            WorkerData& w = workerData(e.actor);
            ++w.stats.crashes;
            w.stats.lastLifecycle = e.kind;
            workerCrashed(e.actor, e.timeNs);
            break;
        }
        case EventKind::Error:
            if (e.source == EventSource::Worker)
                ++workerData(e.actor).stats.errors;
            break;
        default:
            break;
    }
}

const MessageRecord* Ledger::message(std::string_view messageId) const {
    const Entry* found = messages_.find(messageId);
    return found == nullptr ? nullptr : &found->rec;
}

std::vector<std::string> Ledger::deadLetteredIds(std::string_view channel) const {
    std::vector<std::string> ids;
    forEachMessage([&](const MessageRecord& m) {
        if (deadLetteredInto(m, channel))
            ids.push_back(m.messageId.str());
    });
    return ids;
}

void Ledger::forEachMessage(const std::function<void(const MessageRecord&)>& visit) const {
    messages_.forEach([&](const Entry& en) { visit(en.rec); });
}

std::vector<WorkerStats> Ledger::workers() const {
    std::vector<WorkerStats> out;
    out.reserve(workers_.size());
    for (const auto& [name, w] : workers_) {
        out.push_back(w.stats);
        out.back().settleLatency = w.settle.stats();
        out.back().sendToAck = w.sendToAck.stats();
    }
    return out;
}

std::vector<WorkerStats> Ledger::workerCounts() const {
    std::vector<WorkerStats> out;
    out.reserve(workers_.size());
    for (const auto& [name, w] : workers_)
        out.push_back(w.stats);
    return out;
}

std::optional<WorkerStats> Ledger::worker(std::string_view name) const {
    auto it = workers_.find(name);
    if (it == workers_.end())
        return std::nullopt;
    WorkerStats s = it->second.stats;
    s.settleLatency = it->second.settle.stats();
    s.sendToAck = it->second.sendToAck.stats();
    return s;
}

std::size_t Ledger::takeDerivedEvents(std::vector<Event>& out) {
    const std::size_t n = derived_.size();
    out.insert(out.end(), std::make_move_iterator(derived_.begin()),
               std::make_move_iterator(derived_.end()));
    derived_.clear();
    return n;
}

}  // namespace qs
