#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "broker/stored_message.h"

namespace qs::broker {

// One entry of the durable store's files (durable_log.h). Every file is a
// header followed by frames: u32 payload length, u32 CRC-32 of the payload,
// payload. Applying a record is idempotent, so a snapshot taken while the log
// runs on can be replayed together with that log (recovered_state.h).
enum class RecordType : std::uint8_t {
    Put = 1,            // a message stored at `sequence` of `channel`
    Remove = 2,         // `sequence` of `channel` is gone (ack, expiry, purge, drop)
    Delay = 3,          // a delayed message held under `delayId`
    Channel = 4,        // the channel exists; sequences continue at `sequence`
    DeleteChannel = 5,  // the channel and its delayed messages are gone
};

// Where a Put or Delay came from, so a move is one record: the message it
// replaces (nack copy, dead letter, requeue) and the delayed entry it releases.
struct RecordOrigin {
    std::string_view replacesChannel;  // empty = replaces nothing
    std::uint64_t replacesSequence = 0;
    std::uint64_t releasedDelayId = 0;  // 0 = not a release
};

struct StoreRecord {
    RecordType type = RecordType::Put;
    std::string channel;
    std::uint64_t sequence = 0;  // Put / Remove; the next sequence for Channel
    std::uint64_t delayId = 0;   // Delay
    std::int64_t timestamp = 0;  // Channel: the last timestamp handed out
    StoredMessage message;       // Put / Delay
    std::string replacesChannel;
    std::uint64_t replacesSequence = 0;
    std::uint64_t releasedDelayId = 0;
};

constexpr std::size_t kFrameHeaderBytes = 8;
// Larger payloads are taken for corruption (the gRPC limit is 100 MiB).
constexpr std::uint32_t kMaxRecordPayload = 256u * 1024u * 1024u;

// Appends one whole frame (header + payload) to `out`.
void appendPutFrame(std::string& out, std::string_view channel, const StoredMessage& message,
                    const RecordOrigin& origin);
void appendRemoveFrame(std::string& out, std::string_view channel, std::uint64_t sequence);
void appendDelayFrame(std::string& out, std::uint64_t delayId, std::string_view channel,
                      const StoredMessage& message, const RecordOrigin& origin);
void appendChannelFrame(std::string& out, std::string_view channel, std::uint64_t nextSequence,
                        std::int64_t lastTimestamp);
void appendDeleteChannelFrame(std::string& out, std::string_view channel);

// The bytes a stored message accounts for on disk (its Put frame without an
// origin): the live-data figure compaction is measured against.
std::size_t storedFootprint(std::string_view channel, const StoredMessage& message);

enum class FrameCheck { Complete, Truncated, Corrupt };

// Reads the frame at the start of `data`. Complete: *record filled and
// *frameBytes set. Truncated: `data` ends inside the frame (a torn tail).
// Corrupt: bad length, checksum or contents.
FrameCheck readFrame(std::string_view data, StoreRecord* record, std::size_t* frameBytes);

}  // namespace qs::broker
