#pragma once

// Checks of a RunState against a Ledger fed the same events (a replay from
// zero), written against the Ledger's public answers only.
#include <cstring>
#include <map>
#include <sstream>
#include <string>

#include "events/ledger.h"
#include "run/run.h"

namespace qs::test {

inline bool sameSummary(const LedgerSummary& a, const LedgerSummary& b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// What a fresh ledger says about one message, in RunState's terms.
inline MessageAt messageFromLedger(const MessageRecord& m) {
    MessageAt at;
    at.state = m.state;
    at.deliveries = m.deliveryCount;
    if (!m.deliveries.empty()) {
        at.receiveCount = m.deliveries.back().receiveCount;
        at.worker = m.deliveries.back().worker;
    }
    at.channel = m.channel;
    return at;
}

// Empty when `state` (of `run`) says what `ledger` says; else the first difference.
// Every message must still be tracked by the ledger (no eviction in the run).
inline std::string differenceFromLedger(const RunState& state, const Run& run,
                                        const Ledger& ledger) {
    std::ostringstream why;
    if (state.events != ledger.summary().eventsApplied) {
        why << "events " << state.events << " vs " << ledger.summary().eventsApplied;
        return why.str();
    }
    if (!sameSummary(state.summary, ledger.summary()))
        return "summary differs after " + std::to_string(state.events) + " events";
    if (state.messages.size() != ledger.trackedMessages()) {
        why << "messages " << state.messages.size() << " vs " << ledger.trackedMessages();
        return why.str();
    }
    std::map<std::string, std::uint32_t> holding;
    std::map<std::string, std::array<std::uint64_t, kMessageStateCount>> byChannel;
    for (std::uint32_t i = 0; i < state.messages.size(); ++i) {
        const std::string id = run.messageId(i);
        const MessageRecord* rec = ledger.message(id);
        if (rec == nullptr)
            return "message " + std::string(id) + " unknown to the ledger";
        const MessageAt want = messageFromLedger(*rec);
        const MessageAt& got = state.messages[i];
        if (!(got == want)) {
            why << "message " << id << " after " << state.events << " events: state "
                << messageStateName(got.state) << " vs " << messageStateName(want.state)
                << ", receive count " << got.receiveCount << " vs " << want.receiveCount
                << ", deliveries " << got.deliveries << " vs " << want.deliveries << ", worker "
                << got.worker << " vs " << want.worker << ", channel " << got.channel << " vs "
                << want.channel;
            return why.str();
        }
        if (rec->state == MessageState::InFlight && !want.worker.empty())
            ++holding[want.worker.str()];
        ++byChannel[rec->channel.str()][static_cast<std::size_t>(rec->state)];
    }
    const std::vector<WorkerStats> workers = ledger.workers();
    if (state.workers.size() != workers.size()) {
        why << "workers " << state.workers.size() << " vs " << workers.size();
        return why.str();
    }
    for (const WorkerStats& w : workers) {
        const WorkerAt* got = state.worker(w.worker);
        if (got == nullptr)
            return "worker " + w.worker + " missing";
        if (got->counts != workerCounts(w) || got->lifecycle != w.lastLifecycle ||
            got->holding != holding[w.worker])
            return "worker " + w.worker + " differs after " + std::to_string(state.events);
    }
    if (state.channels.size() != byChannel.size())
        return "channel count differs";
    for (const ChannelAt& c : state.channels) {
        if (byChannel[c.channel.str()] != c.byState)
            return "channel " + c.channel.str() + " differs";
    }
    return {};
}

// Empty when both states are the same in every field.
inline std::string differenceBetween(const RunState& a, const RunState& b) {
    if (a.events != b.events || a.timeNs != b.timeNs)
        return "events or time differ";
    if (!sameSummary(a.summary, b.summary))
        return "summary differs";
    if (a.messages != b.messages)
        return "messages differ";
    if (a.workers != b.workers)
        return "workers differ";
    if (a.channels != b.channels)
        return "channels differ";
    return {};
}

}  // namespace qs::test
