#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/name.h"
#include "run/run_state.h"

// The messages in flight at one instant, each with its hand-out: who holds it,
// since when, in which transaction, at which receive count. A projection of a
// Run's state and its events (the ledger decides what is in flight; the
// hand-out event it last applied says the rest), never a second record.
namespace qs {

class Run;

struct Lease {
    std::uint32_t message = 0;  // Run::messageId(message)
    Name worker;                // the holder: the worker's / client's id
    Name channel;
    std::string transaction;  // of the hand-out; empty when no event named it
    // When it was handed out: the time of the first report of the hand-out
    // (the ledger's DeliveryRecord::assignedNs); 0 = the hand-out itself was
    // never seen (the message was in flight before the run began).
    std::int64_t handedOutNs = 0;
    std::int32_t receiveCount = 0;     // as the hand-out showed it
    std::int32_t maxReceiveCount = 0;  // the run's MaxReceiveCount (0 = unknown)
    // A v1-stream hand-out: when the broker takes the message back unless it is
    // settled first (the worker's MessageAssigned time plus the visibility it
    // carries); 0 = no visibility timer (the downstream API holds until the
    // stream ends).
    std::int64_t visibleAgainNs = 0;

    // A NAck of this hand-out dead-letters (or drops) the message: the broker
    // does when the count it showed has reached MaxReceiveCount (spec §2.7,
    // the ledger's rule).
    bool lastChance() const { return maxReceiveCount > 0 && receiveCount >= maxReceiveCount; }
    std::int64_t heldNs(std::int64_t nowNs) const {
        return handedOutNs > 0 && nowNs > handedOutNs ? nowNs - handedOutNs : 0;
    }
    bool hasVisibilityTimer() const { return visibleAgainNs > 0; }
    // Time left until the broker takes it back; negative once it ran out (the
    // worker's late settlement will be refused). Only with a visibility timer.
    std::int64_t visibleInNs(std::int64_t nowNs) const { return visibleAgainNs - nowNs; }
    bool operator==(const Lease&) const = default;
};

// The leases of `state` (a state of `run`: Run::stateAt / stateAfter / head),
// oldest hand-out first (ties: first-seen message first). Costs a walk of each
// in-flight message's event trail, newest first, until its hand-out.
// Threading: that of the Run.
std::vector<Lease> leasesAt(const Run& run, const RunState& state);
// The same for the head, read in place: only its in-flight messages are read
// (Run::inFlightNow), however many the run has.
std::vector<Lease> leasesNow(const Run& run);

}  // namespace qs
