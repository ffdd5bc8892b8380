#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

// Remembers which messages the pool's workers have been handed, by message
// identity (MessageID), so a redelivery is recognised even when the receive
// count did not change (a broken stream returns messages unchanged, spec
// §2.8.5 / §6 item 1).
//
// Only messages that can still come back are kept: a message the pool has
// settled for good (acked, or auto-acked on hand-out) is forgotten, so the
// registry holds about what is in flight, however long the run. A producer
// that later re-sends the same MessageID starts a new message, not a
// redelivery.
//
// Threading: record(), forget() and the getters are safe from any thread; the
// map is sharded so workers rarely contend.
namespace qs::workers {

class DeliveryRegistry {
public:
    struct Previous {
        std::string worker;  // who was handed it last time
        int deliveries = 0;  // hand-outs before this one
    };

    // Notes that `worker` was handed `messageId`; returns the previous hand-out
    // if there was one (i.e. this one is a redelivery). Empty ids are never
    // remembered.
    std::optional<Previous> record(const std::string& messageId, const std::string& worker);

    // `messageId` was settled for good: it cannot be handed out again.
    void forget(const std::string& messageId);

    // Hand-outs of `messageId` so far (0 = never seen, or forgotten).
    int deliveries(const std::string& messageId) const;
    // Messages remembered now (handed out, not yet settled for good).
    std::uint64_t distinctMessages() const;
    void clear();

private:
    struct Entry {
        std::string worker;
        int deliveries = 0;
    };
    struct Shard {
        mutable std::mutex mutex;
        std::unordered_map<std::string, Entry> entries;
    };
    static constexpr std::size_t kShards = 16;

    Shard& shardFor(const std::string& messageId) const;

    mutable std::array<Shard, kShards> shards_;
};

}  // namespace qs::workers
