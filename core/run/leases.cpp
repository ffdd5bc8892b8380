#include "run/leases.h"

#include <algorithm>
#include <numeric>

#include "run/run.h"

namespace qs {
namespace {

bool isHandOut(EventKind kind) {
    return kind == EventKind::MessageAssigned || kind == EventKind::BrokerDelivered;
}

// Fills the lease from the newest hand-out of message `index` to its holder
// among the run's first `eventLimit` events. A hand-out has up to two reports,
// the worker's (MessageAssigned) and the broker's (BrokerDelivered), and other
// events of the message (a late report of the previous reject, say) may arrive
// between them. As the ledger pairs them: the first report in stream order
// gives the time and, when it names one, the transaction. A second
// report from the same side, or a hand-out to someone else or at another
// receive count, belongs to an earlier hand-out and ends the walk. The
// worker's report of a v1 hand-out also gives its visibility deadline.
void fillHandOut(const Run& run, std::uint32_t index, std::uint64_t eventLimit, Lease& lease) {
    const std::vector<std::uint32_t> trail = run.messageEvents(index);
    EventKind firstSide = EventKind::TaskSent;  // the side found first (walking back)
    for (auto it = trail.rbegin(); it != trail.rend(); ++it) {
        if (*it >= eventLimit) {
            continue;
        }
        const Event& e = run.event(*it);
        if (!isHandOut(e.kind)) {
            continue;
        }
        const bool found = firstSide != EventKind::TaskSent;
        if (e.actor != lease.worker || (found && e.receiveCount != lease.receiveCount) ||
            (found && e.kind == firstSide)) {
            if (found) {
                return;
            }
            continue;
        }
        // Walking back, each report seen is earlier in the stream than the last.
        lease.handedOutNs = e.timeNs;
        lease.receiveCount = e.receiveCount;
        if (!e.transaction.empty()) {
            lease.transaction = std::string(e.transaction.view());
        }
        if (e.kind == EventKind::MessageAssigned && e.value > 0) {
            // A v1 hand-out: the worker's report carries its visibility (ms).
            lease.visibleAgainNs = e.timeNs + e.value * 1'000'000;
        }
        if (found) {
            return;  // both reports seen
        }
        firstSide = e.kind;
    }
}

// `messageAt(i)`: message i of the state; `candidates`: ascending indices of
// the messages to look at (the in-flight ones among them become leases).
template <typename MessageAtIndex>
std::vector<Lease> leasesOf(const Run& run, const std::vector<std::uint32_t>& candidates,
                            MessageAtIndex messageAt, std::uint64_t eventLimit) {
    std::vector<Lease> leases;
    const std::int32_t maxReceive = run.ledger().options().maxReceiveCount;
    for (const std::uint32_t i : candidates) {
        const MessageAt& m = messageAt(i);
        if (m.state != MessageState::InFlight) {
            continue;
        }
        Lease lease;
        lease.message = i;
        lease.worker = m.worker;
        lease.channel = m.channel;
        lease.receiveCount = m.receiveCount;
        lease.maxReceiveCount = maxReceive;
        fillHandOut(run, i, eventLimit, lease);
        leases.push_back(std::move(lease));
    }
    std::stable_sort(leases.begin(), leases.end(),
                     [](const Lease& a, const Lease& b) { return a.handedOutNs < b.handedOutNs; });
    return leases;
}

}  // namespace

std::vector<Lease> leasesAt(const Run& run, const RunState& state) {
    std::vector<std::uint32_t> all(state.messages.size());
    std::iota(all.begin(), all.end(), 0U);
    return leasesOf(
        run, all, [&](std::uint32_t i) -> const MessageAt& { return state.messages[i]; },
        state.events);
}

// The head's messages are not one array (Run::messageNow reads them by value,
// an old one from the spill file): only the in-flight ones are read.
std::vector<Lease> leasesNow(const Run& run) {
    return leasesOf(
        run, run.inFlightNow(), [&](std::uint32_t i) { return run.messageNow(i); },
        run.eventCount());
}

}  // namespace qs
