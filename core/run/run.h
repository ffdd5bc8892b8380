#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "events/event.h"
#include "events/ledger.h"
#include "run/change_log.h"
#include "run/checkpoints.h"
#include "run/message_trail.h"
#include "run/run_state.h"
#include "run/text_log.h"
#include "run/time_index.h"

namespace qs {

// Where a long run's old per-event detail goes (docs/run.md, "A flat live
// run"): its events, change lists and trail keep their newest chunks in RAM
// and write older ones to a nameless file in `directory`, read back a chunk
// at a time when a seek, a journey or a scan reaches them.
struct RunSpillOptions {
    std::string directory;  // "" = keep everything in RAM
    // Full chunks of each list kept in RAM besides the one being filled
    // (events: 16,384 a chunk); also the newest checkpoints whose pages stay.
    std::size_t chunksInRam = 2;
};

// How a Run keeps its state (not how a run is played: that is runner::RunOptions).
struct RunModelOptions {
    LedgerOptions ledger;  // for the head ledger
    // Events between checkpoints. Seeking costs a copy of the messages plus
    // the replay of at most this many events' changes; memory per checkpoint
    // is about the pages of messages that changed in its interval
    // (docs/run.md has the figures this default was chosen by).
    std::uint32_t checkpointInterval = 16384;
    RunSpillOptions spill;
    // New texts (message ids, transactions, details) after which a text is
    // no longer found by its text (run::TextLog): the lookup's fixed size.
    std::size_t textGeneration = run::TextLog::kDefaultGeneration;
};

// Bytes a Run holds, by part (estimates from capacities; see docs/run.md).
struct RunMemory {
    std::size_t events = 0;  // the events: 48-byte rows and their distinct texts (EventStore)
    std::size_t changes = 0;   // the change log: what each event changed
    std::size_t messages = 0;  // the head state: every message's view, its id and indexes
    std::size_t checkpoints = 0;  // checkpoint pages, page tables, workers
    std::size_t timeIndex = 0;
    std::size_t trail = 0;  // which events touched each message
    // Not in RAM: the chunks of events, changes and trail in the spill file.
    std::uint64_t spilled = 0;
    // The head ledger's message records with their deliveries and indexes
    // (Ledger::messageBytes(): a walk over every record).
    std::size_t ledger = 0;
    std::size_t total() const {
        return events + changes + messages + checkpoints + timeIndex + trail + ledger;
    }
};

// Everything known about one run: its events in stream order, the head Ledger
// (the one truth about messages and workers), a time index and checkpoints,
// so the state at any instant is answered without replaying the run.
//
// Feed it the events of one EventStream in the order the stream delivered
// them, as a Ledger is fed (never re-sorted). The state after n events is what
// the head ledger said after its n-th event: every per-event change is taken
// from the ledger's own decisions (LedgerObserver), never decided again here.
//
// Time: see TimeIndex. stateAt(t) holds every event whose stream time is <= t,
// so all the events of one operation (they share a time) are in or out
// together; before the first event it is the empty state.
//
// Memory: without RunSpillOptions, everything is in RAM. The events are kept as 48-byte rows with their
// distinct texts once (run::EventStore: 59-61 bytes an event in a pool run); the
// change log, message table, checkpoints and time index add about 35 bytes per
// event, the trail about 9, and the head ledger ~400 bytes per message it holds
// (bounded by LedgerOptions::maxFinishedMessages) (memory(), docs/run.md).
// With a spill folder, the events, change lists and trail keep only their
// newest chunks in RAM; the rest is read back from the spill file on demand.
// At most 2^32 - 2 events.
//
// Threading: not thread-safe, not even const queries (reading spilled
// chunks fills caches). One owner thread appends and queries (the
// console's UI thread; the headless runner's recorder thread, then its owner
// after joining it). RunState values may be handed to any thread.
class Run {
public:
    explicit Run(RunModelOptions options = {});
    // A run whose event store holds at most `maxEvents` events / `maxTexts`
    // distinct texts (tests of the limits).
    Run(RunModelOptions options, std::size_t maxEvents, std::size_t maxTexts);
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;

    // Applies the events to the head ledger and records them. Throws
    // std::length_error past 2^32 - 2 events or distinct texts (nothing of
    // that event is recorded or applied then).
    void append(std::span<const Event> events);
    void append(const Event& event);

    std::uint64_t eventCount() const { return events_.size(); }
    // Event `index` (< eventCount()), decoded from its compact row: a value,
    // not a reference into the run (run::EventStore).
    Event event(std::uint64_t index) const { return events_.at(static_cast<std::size_t>(index)); }
    // One field of event `index`, without decoding the rest (for scans).
    std::int64_t eventTimeNs(std::uint64_t index) const {
        return events_.timeNs(static_cast<std::size_t>(index));
    }
    EventKind eventKind(std::uint64_t index) const {
        return events_.kind(static_cast<std::size_t>(index));
    }
    Name eventChannel(std::uint64_t index) const {
        return events_.channel(static_cast<std::size_t>(index));
    }

    // Time index. eventCountAt(t): events with stream time <= t.
    std::uint64_t eventCountAt(std::int64_t timeNs) const;
    std::int64_t streamTimeNs(std::uint64_t index) const;  // index < eventCount()

    // The state at instant t / after the first n events (n beyond the end =
    // the head). Costs a copy of every message seen by then plus the replay
    // of at most options().checkpointInterval events' changes.
    RunState stateAt(std::int64_t timeNs) const;
    RunState stateAfter(std::uint64_t eventCount) const;
    RunState head() const { return stateAfter(eventCount()); }
    // Moves `state` (made by stateAt / stateAfter / advance of this run)
    // forward to after the first `eventCount` events (beyond the end = the
    // head), replaying only the changes in between: what a view stepping
    // forward in time pays, instead of a copy of every message. False, and
    // the state untouched, for a count before state.events.
    bool advance(RunState& state, std::uint64_t eventCount) const;
    bool advanceTo(RunState& state, std::int64_t timeNs) const {
        return advance(state, eventCountAt(timeNs));
    }

    // Messages in first-seen order (RunState::messages is indexed the same way).
    std::size_t messageCount() const { return changes_.messages().size(); }
    std::string messageId(std::uint32_t index) const {  // index < messageCount()
        return changes_.messageId(index);
    }
    // The message with this id: at once for an id named lately, else by a
    // search of the rows from the newest (an id not named for long: its
    // text left the TextLog's lookup).
    std::optional<std::uint32_t> messageIndex(std::string_view id) const {
        return changes_.messageIndex(id);
    }
    // The message event `index` names (nullopt: none), at once however old.
    std::optional<std::uint32_t> messageOfEvent(std::uint64_t index) const;
    // The same for an event the ledger took a message from; nullopt for any
    // other (no search of the messages by id, which messageOfEvent falls back to).
    std::optional<std::uint32_t> trackedMessageOfEvent(std::uint64_t index) const;

    // The head: message i (a copy: an old row may come from the spill file),
    // and, read in place, the summary and the per-channel split after the
    // newest event (valid until the next append()).
    MessageAt messageNow(std::uint32_t index) const {  // index < messageCount()
        return changes_.messages()[index];
    }
    const LedgerSummary& summaryNow() const { return changes_.summary(); }
    const std::vector<ChannelAt>& channelsNow() const { return changes_.channels(); }
    const ChannelAt* channelNow(std::string_view name) const;
    // The head's messages in flight, by index, ascending (no walk of them all).
    std::vector<std::uint32_t> inFlightNow() const { return changes_.inFlightRows(); }

    // Every event that touched message i (named it, or changed it without
    // naming it, as a crash returns what a worker held), oldest first, as
    // indices for event(). Nothing is forgotten, however old.
    std::vector<std::uint32_t> messageEvents(std::uint32_t index) const {
        return trail_.events(index);
    }
    // The first of them (where the message was first seen), in constant time.
    std::optional<std::uint32_t> messageFirstEvent(std::uint32_t index) const {
        return trail_.firstEvent(index);
    }

    // The messages the newest event touched (changed or not; a row may repeat).
    const std::vector<std::uint32_t>& messagesTouchedByLastEvent() const {
        return changes_.touchedByEvent();
    }

    // Appends the messages touched since the last call, each once, first
    // touched first: what a view of the head must refresh.
    void takeTouchedMessages(std::vector<std::uint32_t>& out);

    // The head ledger: full histories and latencies of the newest state.
    const Ledger& ledger() const { return ledger_; }
    // Redelivered events the head ledger derived (LedgerOptions::maxPendingDerivedEvents).
    std::size_t takeDerivedEvents(std::vector<Event>& out) {
        return ledger_.takeDerivedEvents(out);
    }

    const RunModelOptions& options() const { return options_; }
    // Why old detail stays in RAM although a spill folder was given (the
    // file could not be made, or a write failed: nothing was lost); "" = none.
    std::string spillProblem() const;
    std::size_t checkpointCount() const { return checkpoints_.count(); }
    RunMemory memory() const;

private:
    static void completeState(RunState& state);
    void startSpilling();
    void noteTouched(std::uint32_t event);

    RunModelOptions options_;
    run::EventStore events_;
    run::TimeIndex time_;
    run::ChangeLog changes_;
    Ledger ledger_;
    run::Checkpoints checkpoints_;
    run::MessageTrail trail_;
    std::vector<std::uint32_t> touched_;  // since takeTouchedMessages()
    std::vector<bool> isTouched_;
    std::string spillOpenError_;
};

}  // namespace qs
