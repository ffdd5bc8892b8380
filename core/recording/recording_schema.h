#pragma once

#include <cstdint>
#include <string_view>

// The layout of a Queuescope recording (*.qsrun): an SQLite database whose
// header carries kApplicationId and, as user_version, the schema version.
// docs/recording.md documents every table and column.
namespace qs::recording {

// PRAGMA application_id: "QSRN" in ASCII, so `file` and the reader can tell a
// recording from any other SQLite database.
inline constexpr std::int32_t kApplicationId = 0x5153524E;

// PRAGMA user_version of the files this build writes. A reader accepts
// versions kOldestReadableSchema..kSchemaVersion and refuses the others with
// a message naming both. Version 2 added event kinds (broker-peeked,
// broker-purged, channel-peeked, channel-purged) and the source `client`: same
// tables, so version 1 files read as before; a version-1 reader refuses a
// version-2 file by its version rather than by the first unknown kind.
// Version 3: the kinds table names what each kind's value / count2 / detail
// hold; poll-started carries its wait timeout in count2 (was text in detail)
// and config-changed the bits of its changed settings in value. The reader
// brings older events to that form (upgradeEvent).
// Version 4 added the kind message-redriven: same tables, so older files read
// as before; a version-3 reader refuses a version-4 file by its version.
// Version 5: event kind visibility-expired (37) and the settings consume and
// visibilitySeconds (bits 13, 14 of config-changed); assigned names its value
// (visibility_ms) and broker-nacked its detail (reason). Same tables: files of
// versions 1-4 read as before; a version-4 reader refuses a version-5 file by
// its version rather than by the first unknown kind.
// Version 6: the table staged_events (events of a busy stretch in compact
// blobs, not yet copied into rows; empty once a recording is closed) and
// auto_vacuum=INCREMENTAL. Files of versions 1-5 have no staged events; a
// version-5 reader refuses a version-6 file by its version, since it would
// miss the staged events of a killed run.
// Version 7: a staged blob refers back to a message id or transaction written
// earlier in the same blob instead of writing it again (staged_events.h).
// Same tables; version-6 blobs read as before, and a version-6 reader refuses
// a version-7 file by its version rather than by the first blob it misreads.
inline constexpr int kSchemaVersion = 7;
// The first version with the staged_events table.
inline constexpr int kFirstSchemaWithStagedEvents = 6;
// The first version whose staged blobs refer back to earlier texts.
inline constexpr int kFirstSchemaWithTextReferences = 7;
inline constexpr int kOldestReadableSchema = 1;

// Events per row of the event_blocks time index.
inline constexpr std::uint64_t kEventsPerBlock = 4096;

// The statements that create schema version kSchemaVersion, in order.
std::string_view schemaSql();

// Tables a readable recording must have.
inline constexpr std::string_view kRequiredTables[] = {"settings",     "outcome",      "names",
                                                       "message_ids",  "transactions", "events",
                                                       "event_blocks", "gaps"};

}  // namespace qs::recording
