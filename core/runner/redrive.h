#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "client/queues_client.h"

// Dead-letter redrive: moves messages from a channel (a dead-letter queue)
// back to the channel they came from (their ReRoutedFromQueue) or to a named
// one. Each message is received in a transaction, sent to its target with the
// same MessageID, body, metadata, tags and policy (no delay: it was due), and
// acked in the dead-letter channel only after the send succeeded. A failure at
// any point loses nothing: an unsent message stays where it was; a message
// sent whose ack then failed is in both channels and is reported as a
// duplicate. Works against any KubeMQ server (no channel management needed).
//
// Threading: redrive() blocks its caller (seconds: each receive waits for its
// batch or the wait timeout); cancel through RedriveOptions::cancel from
// another thread. The client is used from the calling thread only.
namespace qs::runner {

struct RedriveProgress {
    std::uint64_t moved = 0;
    std::uint64_t failed = 0;
    std::uint64_t waiting = 0;  // in the source when the redrive started (0 = unknown)
};

struct RedriveOptions {
    std::string from;                      // the channel to move messages out of
    std::string to;                        // target; empty = each message's ReRoutedFromQueue
    std::uint64_t max = 0;                 // stop after this many moved; 0 = all
    int batch = 100;                       // messages per receive (1..1024)
    std::chrono::milliseconds wait{1000};  // per receive (the server waits at least 1 s)
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(const RedriveProgress&)> progress;  // after each batch
};

struct RedriveReport {
    std::uint64_t moved = 0;       // sent to the target and acked in the source
    std::uint64_t failed = 0;      // the target refused it: still in the source
    std::uint64_t noTarget = 0;    // no --to and no ReRoutedFromQueue: still in the source
    std::uint64_t duplicated = 0;  // sent, but the ack in the source failed: in both
    std::map<std::string, std::uint64_t> movedTo;  // per target channel
    std::vector<std::string> duplicateIds;         // MessageIDs now in both channels
    std::vector<std::string> failures;             // the first few reasons, "ID: why"
    bool cancelled = false;
    std::string error;  // what ended it early (a receive that failed, a lost server)

    bool ok() const { return error.empty() && failed == 0 && duplicated == 0; }
};

// Checks the options (channel names, batch, wait); empty when usable.
std::string checkRedriveOptions(const RedriveOptions& options);

RedriveReport redrive(client::QueuesClient& client, const RedriveOptions& options);

// "moved 12 (tasks: 12), failed 0, no target 0, duplicated 0" and the reasons.
std::string describe(const RedriveReport& report);

}  // namespace qs::runner
