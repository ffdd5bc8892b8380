#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "broker/store_record.h"
#include "broker/stored_message.h"

namespace qs::broker {

struct RecoveredChannel {
    std::uint64_t nextSequence = 1;
    std::int64_t lastTimestamp = 0;
    std::map<std::uint64_t, StoredMessage> messages;  // by sequence
};

struct RecoveredDelay {
    std::string channel;
    StoredMessage message;
};

// The queues as the durable store's records describe them: what the engine
// starts from after a restart. Built by applying records in file order; every
// record is idempotent (a Put of a present sequence overwrites it, a Remove of
// an absent one does nothing), which is what lets a snapshot overlap the log.
// Not thread-safe; used by one thread during recovery.
struct RecoveredState {
    std::map<std::string, RecoveredChannel, std::less<>> channels;
    std::map<std::uint64_t, RecoveredDelay> delayed;  // by delay id
    std::uint64_t nextDelayId = 1;

    void apply(StoreRecord record);

    std::size_t messageCount() const;
    // The footprint (store_record.h) of everything live.
    std::size_t liveBytes() const;
    // Every live entry as the frames a snapshot consists of.
    void forEachFrame(const std::function<void(std::string& frames)>& sink) const;
};

}  // namespace qs::broker
