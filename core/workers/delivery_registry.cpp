#include "workers/delivery_registry.h"

#include <functional>

namespace qs::workers {

DeliveryRegistry::Shard& DeliveryRegistry::shardFor(const std::string& messageId) const {
    return shards_[std::hash<std::string>{}(messageId) % kShards];
}

std::optional<DeliveryRegistry::Previous> DeliveryRegistry::record(const std::string& messageId,
                                                                   const std::string& worker) {
    if (messageId.empty()) {
        return std::nullopt;
    }
    Shard& shard = shardFor(messageId);
    std::lock_guard lock(shard.mutex);
    auto [it, inserted] = shard.entries.try_emplace(messageId);
    Entry& entry = it->second;
    std::optional<Previous> previous;
    if (!inserted) {
        previous = Previous{entry.worker, entry.deliveries};
    }
    entry.worker = worker;
    ++entry.deliveries;
    return previous;
}

void DeliveryRegistry::forget(const std::string& messageId) {
    if (messageId.empty()) {
        return;
    }
    Shard& shard = shardFor(messageId);
    std::lock_guard lock(shard.mutex);
    shard.entries.erase(messageId);
}

int DeliveryRegistry::deliveries(const std::string& messageId) const {
    Shard& shard = shardFor(messageId);
    std::lock_guard lock(shard.mutex);
    auto it = shard.entries.find(messageId);
    return it == shard.entries.end() ? 0 : it->second.deliveries;
}

std::uint64_t DeliveryRegistry::distinctMessages() const {
    std::uint64_t total = 0;
    for (Shard& shard : shards_) {
        std::lock_guard lock(shard.mutex);
        total += shard.entries.size();
    }
    return total;
}

void DeliveryRegistry::clear() {
    for (Shard& shard : shards_) {
        std::lock_guard lock(shard.mutex);
        shard.entries.clear();
    }
}

}  // namespace qs::workers
