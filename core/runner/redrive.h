#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "client/queues_client.h"
#include "common/limit.h"
#include "events/event.h"

// Dead-letter redrive: moves messages from a channel (a dead-letter queue)
// back to the channel they came from (their ReRoutedFromQueue) or to a named
// one: all of them, up to a number, or only the ones selected by MessageID or
// sequence. Each message is received in a transaction, sent to its target with
// the same MessageID, body, metadata, tags and policy (no delay: it was due;
// the max receive count and dead-letter queue as RedriveOptions says), and
// acked in the dead-letter channel only after the send succeeded. A failure at
// any point loses nothing: an unsent message stays where it was; a message
// sent whose ack then failed is in both channels and is reported as a
// duplicate. Messages that do not move are never settled: their transactions
// stay open until the redrive ends and are then closed, so they go back at
// their place with their sequence and stored receive count (the server only
// counts them as delivered, and drops an expired one as any receive does).
// A MessageID moves once per redrive: a message dead-lettered again while the
// redrive runs stays. Works against any KubeMQ server (no channel management
// needed).
//
// Threading: redrive() blocks its caller (seconds: each receive waits for its
// batch or the wait timeout); cancel through RedriveOptions::cancel from
// another thread. The client is used from the calling thread only, to send
// and to ask for counts; the receives go through clients the redrive makes
// with its options, one per pass over the source, whose streams it ends, so
// that nothing stays reserved to it afterwards.
namespace qs::runner {

// RedriveOptions::max (`--max`, the console's "Up to"): messages moved
// before the redrive stops; 0 = all.
inline constexpr Limit<int> kRedriveMax{"max messages to move", 0, 1'000'000'000, 0};

struct RedriveProgress {
    std::uint64_t moved = 0;
    std::uint64_t failed = 0;
    // In the source when the redrive started, or the number selected (0 = unknown).
    std::uint64_t waiting = 0;
};

struct RedriveOptions {
    std::string from;                      // the channel to move messages out of
    std::string to;                        // target; empty = each message's ReRoutedFromQueue
    std::uint64_t max = 0;                 // stop after this many moved; 0 = all (kRedriveMax)
    int batch = 100;                       // messages per receive (1..1024)
    std::chrono::milliseconds wait{1000};  // per receive (the server waits at least 1 s)

    // Which messages move: both empty = every waiting one. Otherwise only a
    // message whose MessageID or whose sequence in `from` is listed (an ID
    // selects the first waiting message carrying it). Messages ahead of a
    // selected one are received too (a queue hands out in order) and left
    // unsettled; the redrive ends once every listed one was received.
    std::vector<std::string> ids;
    std::vector<std::uint64_t> sequences;

    // The policy of the moved copies. KubeMQ zeroes the policy of a
    // dead-lettered copy (no MaxReceiveCount, no dead-letter queue), so sent
    // back as it is, a poison message gets the server's 1024 receives.
    // maxReceiveCount: every copy gets it (protocol::kMaxReceiveCount; 0 = the
    // server's default); none = the message's own.
    std::optional<int> maxReceiveCount;
    // deadLetterQueue: every copy gets it; none = `from` for a dead-lettered
    // message (ReRouted) that names none (the channel it was dead-lettered
    // into), the message's own for the others.
    std::optional<std::string> deadLetterQueue;

    const std::atomic<bool>* cancel = nullptr;
    std::function<void(const RedriveProgress&)> progress;  // after each batch
    // Each move as the run's event (MessageRedriven: the MessageID, the target
    // as its channel, the source as its detail, the calling client's id), when
    // the target took the copy; from the redrive's thread. A run that reports
    // them knows the message waits again (redriveEvent()).
    std::function<void(const Event&)> report;

    bool selects() const { return !ids.empty() || !sequences.empty(); }
};

struct RedriveReport {
    std::uint64_t moved = 0;       // sent to the target and acked in the source
    std::uint64_t failed = 0;      // the target refused it: still in the source
    std::uint64_t noTarget = 0;    // no --to and no ReRoutedFromQueue: still in the source
    std::uint64_t duplicated = 0;  // sent, but the ack in the source failed: in both
    std::uint64_t notFound = 0;    // selected, but not waiting in the source (all of it was seen)
    std::map<std::string, std::uint64_t> movedTo;  // per target channel
    std::vector<std::string> duplicateIds;         // MessageIDs now in both channels
    std::vector<std::string> failures;             // the first few reasons, "ID: why"
    bool cancelled = false;
    std::string error;  // what ended it early (a receive that failed, a lost server)

    bool ok() const { return error.empty() && failed == 0 && duplicated == 0 && notFound == 0; }
};

// Checks the options (channel names, batch, wait, max, selection, policy)
// against their limits; empty when usable, else one sentence saying what.
std::string checkRedriveOptions(const RedriveOptions& options);

RedriveReport redrive(client::QueuesClient& client, const RedriveOptions& options);

// The MessageRedriven event of one move (source Client, time now).
Event redriveEvent(std::string_view clientId, std::string_view messageId, std::string_view from,
                   std::string_view to);

// "moved 12 (tasks: 12), failed 0, no target 0, duplicated 0" (", not found
// N" when some selected were not there) and the reasons.
std::string describe(const RedriveReport& report);

}  // namespace qs::runner
