#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "run/chunked_vector.h"
#include "run/spilling_chunks.h"

namespace qs::run {

// Every event that touched each message, however old: the events that name
// it and those the ledger changed it by without naming it (a worker's crash
// returning what it held). One link per (message, event): a backwards list
// per message, appended only, so a message's whole journey is read without
// scanning the run.
//
// Memory: 8 bytes per link plus 8 per message (with a spill file, the newest
// chunks of each only).
// Threading: none (that of its Run).
class MessageTrail {
public:
    // Event `event` touched message `message`. Events arrive in order; the
    // same pair twice in a row is kept once.
    void link(std::uint32_t message, std::uint32_t event);

    // The events that touched `message`, oldest first (empty = none).
    std::vector<std::uint32_t> events(std::uint32_t message) const;
    // The oldest of them, without walking the list; nullopt = none.
    std::optional<std::uint32_t> firstEvent(std::uint32_t message) const {
        if (message >= firstEvent_.size())
            return std::nullopt;
        const std::uint32_t first = firstEvent_[message];
        if (first == kNone)
            return std::nullopt;
        return first;
    }
    std::size_t linkCount() const { return links_.size(); }
    // Old links, and the old chunks of the per-message columns, leave RAM
    // for `file` (SpillingChunks::spillTo).
    void spillTo(const std::shared_ptr<SpillFile>& file, std::size_t chunksInRam) {
        links_.spillTo(file, chunksInRam);
        lastLink_.spillTo(file, chunksInRam);
        firstEvent_.spillTo(file, chunksInRam);
    }
    const std::string& spillError() const {
        for (const std::string* e :
             {&links_.spillError(), &lastLink_.spillError(), &firstEvent_.spillError()})
            if (!e->empty())
                return *e;
        return links_.spillError();
    }
    std::uint64_t spilledBytes() const {
        return links_.spilledBytes() + lastLink_.spilledBytes() + firstEvent_.spilledBytes();
    }
    std::size_t memoryBytes() const {
        return links_.memoryBytes() + lastLink_.memoryBytes() + firstEvent_.memoryBytes();
    }

private:
    static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
    struct Link {
        std::uint32_t event;
        std::uint32_t previous;  // the message's link before this one; kNone = first
    };

    SpillingChunks<Link, 8192> links_;
    // Per message, in chunks: no copy of them all as the run's messages grow.
    SpillingChunks<std::uint32_t, 4096> lastLink_;    // kNone = no link yet
    SpillingChunks<std::uint32_t, 4096> firstEvent_;  // kNone = no link yet
};

}  // namespace qs::run
