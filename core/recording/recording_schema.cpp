#include "recording/recording_schema.h"

#include <string>

#include "events/event.h"
#include "events/event_fields.h"

namespace qs::recording {

namespace {

std::string nameOrNull(std::string_view name) {
    return name.empty() ? std::string("NULL") : "'" + std::string(name) + "'";
}

// The kinds and sources tables: names for queries, from the same functions
// the event logs use, and what each kind's value / count2 / detail column
// holds (events/event_fields.h; NULL = unused by that kind).
std::string lookupTables() {
    std::string sql =
        "CREATE TABLE kinds(id INTEGER PRIMARY KEY, name TEXT NOT NULL, value_name TEXT, "
        "count2_name TEXT, detail_name TEXT);\n"
        "CREATE TABLE sources(id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n";
    for (int i = 0; i <= static_cast<int>(kLastEventKind); ++i) {
        const auto kind = static_cast<EventKind>(i);
        const EventFieldNames fields = eventFieldNames(kind);
        sql += "INSERT INTO kinds VALUES(" + std::to_string(i) + ",'" +
               std::string(toString(kind)) + "'," + nameOrNull(fields.value) + "," +
               nameOrNull(fields.count2) + "," + nameOrNull(fields.detail) + ");\n";
    }
    for (int i = 0; i <= static_cast<int>(kLastEventSource); ++i) {
        sql += "INSERT INTO sources VALUES(" + std::to_string(i) + ",'" +
               std::string(toString(static_cast<EventSource>(i))) + "');\n";
    }
    return sql;
}

std::string buildSchema() {
    std::string sql = R"(
CREATE TABLE settings(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE outcome(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE names(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE message_ids(id INTEGER PRIMARY KEY, message_id TEXT NOT NULL);
CREATE TABLE transactions(id INTEGER PRIMARY KEY, transaction_id TEXT NOT NULL);
CREATE TABLE events(
  id INTEGER PRIMARY KEY,
  t_ns INTEGER NOT NULL,
  kind INTEGER NOT NULL,
  source INTEGER NOT NULL,
  actor INTEGER,
  channel INTEGER,
  message INTEGER,
  sequence INTEGER NOT NULL,
  receive_count INTEGER NOT NULL,
  txn INTEGER,
  value INTEGER NOT NULL,
  count2 INTEGER NOT NULL,
  detail TEXT);
CREATE TABLE event_blocks(first_id INTEGER PRIMARY KEY, last_id INTEGER NOT NULL,
  min_t_ns INTEGER NOT NULL, max_t_ns INTEGER NOT NULL);
CREATE TABLE gaps(first_id INTEGER PRIMARY KEY, count INTEGER NOT NULL, why TEXT NOT NULL);
CREATE TABLE staged_events(first_id INTEGER PRIMARY KEY, count INTEGER NOT NULL,
  data BLOB NOT NULL);
)";
    sql += lookupTables();
    sql += R"(
CREATE VIEW events_named AS
  SELECT e.id, e.t_ns, k.name AS kind, s.name AS source, a.name AS actor, c.name AS channel,
         m.message_id, e.sequence, e.receive_count, t.transaction_id, e.value, e.count2, e.detail
  FROM events e
  JOIN kinds k ON k.id = e.kind
  JOIN sources s ON s.id = e.source
  LEFT JOIN names a ON a.id = e.actor
  LEFT JOIN names c ON c.id = e.channel
  LEFT JOIN message_ids m ON m.id = e.message
  LEFT JOIN transactions t ON t.id = e.txn;
)";
    return sql;
}

}  // namespace

std::string_view schemaSql() {
    static const std::string sql = buildSchema();
    return sql;
}

}  // namespace qs::recording
