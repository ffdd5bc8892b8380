#include "run/leases.h"

#include <algorithm>
#include <span>

#include "run/run.h"

namespace qs {
namespace {

bool isHandOut(EventKind kind) {
    return kind == EventKind::MessageAssigned || kind == EventKind::BrokerDelivered;
}

// Fills the lease from the newest hand-out of message `index` to its holder
// among the run's first `eventLimit` events. The worker's and the broker's
// reports of one hand-out are both looked at: the earlier time, and whichever
// named the transaction.
void fillHandOut(const Run& run, std::uint32_t index, std::uint64_t eventLimit, Lease& lease) {
    const std::vector<std::uint32_t> trail = run.messageEvents(index);
    bool found = false;
    for (auto it = trail.rbegin(); it != trail.rend(); ++it) {
        if (*it >= eventLimit) {
            continue;
        }
        const Event& e = run.event(*it);
        if (e.kind == EventKind::Redelivered) {
            continue;  // a note on the hand-out (worker's or derived), may sit between its reports
        }
        if (!isHandOut(e.kind)) {
            if (found) {
                return;  // past this hand-out's own reports
            }
            continue;
        }
        if (e.actor != lease.worker || (found && e.receiveCount != lease.receiveCount)) {
            if (found) {
                return;
            }
            continue;
        }
        found = true;
        lease.handedOutNs = e.timeNs;
        lease.receiveCount = e.receiveCount;
        if (lease.transaction.empty()) {
            lease.transaction = std::string(e.transaction.view());
        }
    }
}

std::vector<Lease> leasesOf(const Run& run, std::span<const MessageAt> messages,
                            std::uint64_t eventLimit) {
    std::vector<Lease> leases;
    const std::int32_t maxReceive = run.ledger().options().maxReceiveCount;
    for (std::uint32_t i = 0; i < messages.size(); ++i) {
        const MessageAt& m = messages[i];
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
    return leasesOf(run, state.messages, state.events);
}

std::vector<Lease> leasesNow(const Run& run) {
    const std::size_t count = run.messageCount();
    if (count == 0) {
        return {};
    }
    return leasesOf(run, std::span<const MessageAt>(&run.messageNow(0), count), run.eventCount());
}

}  // namespace qs
