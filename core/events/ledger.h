#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "events/event.h"
#include "events/latency_samples.h"
#include "events/ledger_messages.h"
#include "events/message_record.h"

namespace qs {

struct WorkerStats {
    std::string worker;
    std::uint64_t received = 0;     // deliveries handed to it
    std::uint64_t redelivered = 0;  // of those, messages handed out before (to anyone)
    std::uint64_t acked = 0;        // acks it sent
    std::uint64_t rejected = 0;
    std::uint64_t requeued = 0;
    std::uint64_t returned = 0;   // its deliveries that went back unsettled
    std::uint64_t acksLost = 0;   // its acks that did not take effect
    // Its v1 hand-outs whose visibility ran out before it settled them (the
    // broker took them back): not counted as rejects it sent.
    std::uint64_t visibilityExpired = 0;
    std::uint64_t processed = 0;  // WorkFinished
    std::uint64_t crashes = 0;
    std::uint64_t reconnects = 0;
    std::uint64_t polls = 0;  // PollReturned
    std::uint64_t emptyPolls = 0;
    std::uint64_t errors = 0;
    std::int64_t busyNs = 0;      // sum of work durations
    std::int64_t pollWaitNs = 0;  // sum of time waited in polls
    // Hoarding: the most messages it held unsettled at once; its empty polls
    // that ended while other workers held unsettled messages, and how many
    // those others held then (summed over those polls).
    std::uint64_t maxHeld = 0;
    std::uint64_t emptyPollsWhileOthersHeld = 0;
    std::uint64_t heldByOthersAtEmptyPolls = 0;
    std::optional<EventKind> lastLifecycle;  // WorkerStarted / Paused / ... (none seen: empty)
    LatencyStats settleLatency;  // assignment -> its settlement (ack / reject / requeue)
    LatencyStats sendToAck;      // TaskSent -> its ack
};

struct LedgerSummary {
    std::uint64_t messages = 0;    // distinct MessageIDs seen (evicted ones included)
    std::uint64_t sent = 0;        // TaskSent events
    std::uint64_t sendFailed = 0;  // SendFailed events
    std::uint64_t byState[kMessageStateCount] = {};  // current state, indexed by MessageState
    std::uint64_t exactlyOnce = 0;                   // acked after exactly one hand-out
    std::uint64_t redelivered = 0;                   // messages handed out more than once
    std::uint64_t redeliveries = 0;                  // hand-outs beyond each message's first
    std::uint64_t processedMoreThanOnce = 0;         // messages whose work finished more than once
    std::uint64_t deliveries = 0;
    std::uint64_t peeks = 0;  // messages seen by a peek (BrokerPeeked), not deliveries
    std::uint64_t acksLost = 0;
    std::uint64_t evicted = 0;  // finished messages forgotten to bound memory
    std::uint64_t eventsApplied = 0;
    // Message events with no MessageID and no known (channel, sequence): ignored.
    std::uint64_t eventsWithoutMessageId = 0;
    std::uint64_t unmatchedBrokerEvents = 0;  // broker settlements with no delivery to match
    std::uint64_t droppedEvents = 0;  // reported by EventsDropped notices: answers may be short
    // Removed by purges the ledger could not name a waiting message for
    // (ChannelPurged beyond the messages it had waiting there: expired ones,
    // messages of other senders).
    std::uint64_t purgedUnknown = 0;
    std::uint64_t redriven = 0;  // moves of a redrive (MessageRedriven): back to waiting

    std::uint64_t count(MessageState s) const { return byState[static_cast<int>(s)]; }
    // Messages not settled yet: waiting, delayed or in flight.
    std::uint64_t unfinished() const {
        return count(MessageState::Waiting) + count(MessageState::Delayed) +
               count(MessageState::InFlight);
    }
};

struct LedgerOptions {
    // History kept per message; older deliveries are summarised (counted) only.
    std::size_t maxDeliveriesPerMessage = 32;
    // Finished (terminal) messages kept in full; beyond this the oldest finished
    // are forgotten (their counts stay in the summary). A forgotten message that
    // shows up again is treated as new, so this is the horizon for recognising
    // late redeliveries. Unfinished messages are never forgotten.
    std::size_t maxFinishedMessages = 100000;
    // Samples per latency metric for all workers together (see LatencySamples).
    std::size_t latencySampleCap = LatencySamples::kDefaultCap;
    // The same for each worker: smaller, as a pool of 64 workers holds 128 of
    // these reservoirs (at 16,384 samples each, 16 MB that a long run fills over
    // its first minute; at 2,048, 2 MB filled within seconds). Beyond it a
    // worker's percentiles are estimates (LatencyStats::estimated).
    std::size_t workerLatencySampleCap = kDefaultWorkerLatencySampleCap;
    static constexpr std::size_t kDefaultWorkerLatencySampleCap = 2048;
    // The run's MaxReceiveCount, if known (0 = unknown). Lets a client-only
    // timeline (remote server, no broker events) infer dead-lettering: a NAck
    // of a delivery showing this receive count dead-letters the message.
    std::int32_t maxReceiveCount = 0;
    // Emit EventKind::Redelivered events for takeDerivedEvents(); at most this
    // many are kept until taken (0 = do not emit). None is derived for a
    // hand-out whose worker reported the redelivery itself (a Redelivered
    // event from EventSource::Worker), so the timeline holds one per hand-out.
    std::size_t maxPendingDerivedEvents = 0;
};

// Told what each applied event changed, while Ledger::apply() runs (see
// Ledger::setObserver). A Run records these to answer "what was the state at
// t" without re-deciding anything the ledger decides.
class LedgerObserver {
public:
    // The message the event was about (and, for a crash, each message the
    // crash returned), after the event's effect: once per message per event,
    // possibly with nothing changed.
    virtual void messageChanged(const MessageRecord& message) = 0;
    // Each worker whose statistics the event may have changed, after its
    // effect, once per worker per event. The latency fields are not filled
    // (ask Ledger::worker()). A worker's record never moves.
    virtual void workerChanged(const WorkerStats& worker) = 0;

protected:
    ~LedgerObserver() = default;
};

// Follows every message from send to its end state, fed with the one timeline
// of client and broker events, and answers what happened to each message and
// each worker.
//
// Messages are keyed by MessageID, which survives NAck copies, re-queue copies,
// dead-letter copies and redeliveries (sequences do not). A hand-out is a
// redelivery when the ledger has seen the message handed out before - not
// judged by receive count, which does not rise when a broken stream returns a
// message (spec §2.8.5, §6 item 1).
//
// When both the worker (MessageAssigned, Acked...) and the embedded broker
// (BrokerDelivered, BrokerAcked...) report the same hand-out, the two are
// paired into one DeliveryRecord (same message, compatible worker, sequence,
// receive count and transaction), so nothing is counted twice. Workers are
// expected to use their KubeMQ ClientID as the event actor.
//
// A broker event without a MessageID (BrokerReturned names only the stored copy)
// is resolved through the (channel, sequence) of the message's latest hand-out.
//
// A peek (BrokerPeeked) is not a hand-out: it is noted on the message
// (peekCount) and changes nothing else. A purge is not an ack: BrokerPurged
// ends that message as Purged. Against a server without an observer, the
// client's ChannelPurged (channel, AffectedMessages N) ends the N oldest
// messages the ledger has Waiting in that channel as Purged - the server
// removes ready messages in queue order (spec §2.10 AckAllQueueMessages);
// reserved and still-delayed ones are not touched, so neither are InFlight and
// Delayed ones here. The broker's own BrokerPurged events of the same request
// (same channel, actor and transaction) are subtracted from N, so with both
// reports nothing is purged twice.
//
// Events must be applied in stream order (EventStream order), not re-sorted.
//
// Threading: not thread-safe. One owner thread feeds it (typically the
// EventStream reader) and queries it; other threads get copies (summary(),
// workers()). Memory is bounded by LedgerOptions.
class Ledger {
public:
    explicit Ledger(LedgerOptions options = {});

    void apply(const Event& event);
    void apply(std::span<const Event> events);
    // The same, with a key the caller gives the event's MessageID: never one
    // key for two ids, 0 = none (the id is looked up by its text then). An id
    // may come with a new key later (a Run's TextLog numbers a text named
    // again after long anew): a record found by text takes the new key. The record is found by hashing the key,
    // not the id's text (a Run passes the id's TextLog id, which it has
    // hashed once already). Events with and without keys may be mixed.
    void apply(const Event& event, std::uint32_t messageKey);

    // Tells `observer` (not owned; nullptr = nobody) what each apply() changes,
    // before that apply() returns. Unset, the ledger pays one branch per change.
    // A copy (or a move) of the ledger starts with no observer.
    void setObserver(LedgerObserver* observer) { observer_.observer = observer; }

    LedgerSummary summary() const { return summary_; }
    const MessageRecord* message(std::string_view messageId) const;
    void forEachMessage(const std::function<void(const MessageRecord&)>& visit) const;
    // The MessageIDs dead-lettered into `channel` (deadLetteredInto()), in no
    // particular order: what a redrive of this run's dead letters moves.
    std::vector<std::string> deadLetteredIds(std::string_view channel) const;
    std::size_t trackedMessages() const { return messages_.size(); }
    // Bytes its message records and their indexes hold (an estimate; a walk
    // over every record: for benchmarks and docs/run.md, not per frame).
    std::size_t messageBytes() const { return messages_.memoryBytes(); }

    std::vector<WorkerStats> workers() const;  // sorted by worker name
    // The same without the latency percentiles (each costs a sort of up to
    // LatencySamples::kDefaultCap samples per worker after any new one): for
    // views that list or count workers every few frames.
    std::vector<WorkerStats> workerCounts() const;
    std::optional<WorkerStats> worker(std::string_view name) const;
    LatencyStats settleLatency() const { return settleAll_.stats(); }  // all workers
    LatencyStats sendToAckLatency() const { return sendToAckAll_.stats(); }

    // Appends pending derived events (see maxPendingDerivedEvents); returns how
    // many. derivedEventsDropped() counts those that did not fit.
    std::size_t takeDerivedEvents(std::vector<Event>& out);
    std::uint64_t derivedEventsDropped() const { return derivedDropped_; }

    const LedgerOptions& options() const { return options_; }

private:
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept {
            return std::hash<std::string_view>{}(s);
        }
    };
    struct WorkerData {
        WorkerStats stats;
        LatencySamples settle;
        LatencySamples sendToAck;
        std::unordered_set<std::string, StringHash, std::equal_to<>> openMessages;
        // Its deliveries the broker returned lately (id, when), oldest first:
        // a crash reported just after them is why they came back.
        std::deque<std::pair<std::string, std::int64_t>> returnedByBroker;
        explicit WorkerData(std::size_t cap) : settle(cap), sendToAck(cap) {}
    };
    enum class Side : std::uint8_t { Client, Broker };
    using Entry = ledger_detail::Entry;

    void applyEvent(const Event& event, std::uint32_t messageKey);
    void noteWorkerChanged(WorkerData& worker);
    void noteEmptyPoll(WorkerData& poller);
    void reportChangedWorkers();
    Entry& entry(const Event& event, std::uint32_t messageKey, bool& created);
    WorkerData& workerData(Name name);
    WorkerData* findWorker(Name name);
    WorkerData* knownWorker(Name name);
    enum class Match : std::uint8_t { Assignment, Settlement, Work };
    DeliveryRecord* findDelivery(MessageRecord& rec, const Event& event, Side side, Match match);
    DeliveryRecord& beginDelivery(MessageRecord& rec, const Event& event, Side side,
                                  bool assignmentSeen);
    DeliveryRecord& clientDelivery(MessageRecord& rec, const Event& event, Match match);
    void closeDelivery(MessageRecord& rec, DeliveryRecord& d, DeliveryOutcome outcome,
                       std::int64_t timeNs);
    bool settle(MessageRecord& rec, DeliveryRecord& d, DeliveryOutcome outcome, const Event& event);
    void learnSupersededOutcome(DeliveryRecord& d, DeliveryOutcome outcome, WorkerData* w);
    void setState(MessageRecord& rec, MessageState state, std::int64_t timeNs);
    void refreshCounters(Entry& entry);
    void applyMessageEvent(const Event& event, std::uint32_t messageKey);
    void applyWorkerEvent(const Event& event);
    void applyReportedRedelivery(const Event& event);
    void workerCrashed(Name worker, std::int64_t timeNs);
    void noteReturnedByBroker(const MessageRecord& rec, const DeliveryRecord& d,
                              std::int64_t timeNs);
    void blameCrashForReturns(WorkerData& w, std::string_view worker, std::int64_t timeNs);
    void applyChannelPurged(const Event& event);
    void notePurgedByBroker(const Event& event);
    void reportMessageChanged(Entry& entry, bool wasTerminal);
    void evictFinished();
    void indexDelivery(Entry& entry, const DeliveryRecord& d);

    LedgerOptions options_;
    LedgerSummary summary_;
    // Each message's record once, by MessageID, by the (channel, sequence) of
    // its latest hand-out (broker events that name only the stored copy,
    // BrokerReturned) and in the order they finished.
    ledger_detail::LedgerMessages messages_;
    std::size_t finishedCount_ = 0;  // messages finished now (the list may hold stale ones)
    std::uint64_t nextStamp_ = 0;
    std::map<std::string, WorkerData, std::less<>> workers_;
    // workers_ by Name (an integer hashed, no text compared: a worker is
    // looked up two or three times a message event). Not carried over by a
    // copy or a move, which make new WorkerData; refilled as workers are met.
    struct WorkersByName {
        std::unordered_map<Name, WorkerData*> map;
        WorkersByName() = default;
        WorkersByName(const WorkersByName&) {}
        WorkersByName& operator=(const WorkersByName&) {
            map.clear();
            return *this;
        }
    };
    WorkersByName workersByName_;
    LatencySamples settleAll_;
    LatencySamples sendToAckAll_;
    std::vector<Event> derived_;
    std::uint64_t derivedDropped_ = 0;
    // Redeliveries a worker reported before the ledger saw their assignment
    // (MessageID + '\0' + worker): that assignment derives no event.
    std::unordered_set<std::string, StringHash, std::equal_to<>> reportedRedeliveries_;
    // BrokerPurged events per purge request (channel + '\0' + actor + '\0' +
    // transaction) not yet matched by the client's ChannelPurged.
    std::unordered_map<std::string, std::uint64_t, StringHash, std::equal_to<>> brokerPurges_;
    // The observer and the workers the event being applied changed. Not
    // carried over by a copy or a move: the pointers belong to this ledger.
    struct ObserverLink {
        LedgerObserver* observer = nullptr;
        std::vector<WorkerData*> changedWorkers;
        ObserverLink() = default;
        ObserverLink(const ObserverLink&) {}
        ObserverLink& operator=(const ObserverLink&) {
            observer = nullptr;
            changedWorkers.clear();
            return *this;
        }
    };
    ObserverLink observer_;
};

}  // namespace qs
