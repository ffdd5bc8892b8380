#include "recording/recording_reader.h"

#include <sqlite3.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "events/event_fields.h"
#include "recording/recording_schema.h"
#include "recording/sqlite_handle.h"
#include "recording/staged_events.h"

namespace qs::recording {

namespace {

constexpr char kSqliteMagic[] = "SQLite format 3";  // 16 bytes with its NUL
constexpr std::size_t kHeaderBytes = 100;

std::uint32_t bigEndian32(const unsigned char* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
           std::uint32_t{p[3]};
}

std::string readableVersions() {
    return kOldestReadableSchema == kSchemaVersion
               ? "version " + std::to_string(kSchemaVersion)
               : "versions " + std::to_string(kOldestReadableSchema) + " to " +
                     std::to_string(kSchemaVersion);
}

// What can be told from the file itself, before SQLite reads it: that it is
// a file, an SQLite database, and whole (its pages all there).
bool checkFile(const std::string& path, std::string* why) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
        *why = "no such file";
        return false;
    }
    if (fs::is_directory(status)) {
        *why = "is a directory, not a recording";
        return false;
    }
    if (!fs::is_regular_file(status)) {
        *why = "not a regular file";
        return false;
    }
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) {
        *why = "cannot read it: " + ec.message();
        return false;
    }
    if (size == 0) {
        *why = "empty file, not a Queuescope recording";
        return false;
    }
    std::array<unsigned char, kHeaderBytes> header{};
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        *why = "cannot open it for reading";
        return false;
    }
    in.read(reinterpret_cast<char*>(header.data()), static_cast<std::streamsize>(header.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got < sizeof kSqliteMagic ||
        std::memcmp(header.data(), kSqliteMagic, sizeof kSqliteMagic) != 0) {
        *why = "not an SQLite database, so not a Queuescope recording";
        return false;
    }
    if (got < kHeaderBytes) {
        *why = "truncated: the file ends inside the database header";
        return false;
    }
    const std::uint32_t rawPageSize = (std::uint32_t{header[16]} << 8) | header[17];
    const std::uint64_t pageSize = rawPageSize == 1 ? 65536 : rawPageSize;
    if (pageSize < 512 || (pageSize & (pageSize - 1)) != 0) {
        *why = "damaged: the database header names no valid page size";
        return false;
    }
    if (size % pageSize != 0) {
        *why = "truncated: " + std::to_string(size) + " bytes is not a whole number of " +
               std::to_string(pageSize) + "-byte pages";
        return false;
    }
    // The header's page count is valid when its change counter matches.
    const std::uint32_t pages = bigEndian32(&header[28]);
    if (bigEndian32(&header[24]) == bigEndian32(&header[92]) && pages * pageSize > size) {
        *why = "truncated: the header says " + std::to_string(pages) + " pages, the file holds " +
               std::to_string(size / pageSize);
        return false;
    }
    return true;
}

// SQLite's word for a file it cannot read as a database, in plain terms.
std::string describeSqliteError(int code, const std::string& message) {
    switch (code & 0xff) {
        case SQLITE_NOTADB:
            return "not an SQLite database, so not a Queuescope recording (" + message + ")";
        case SQLITE_CORRUPT:
            return "damaged or truncated (" + message + ")";
        default:
            return message;
    }
}

SettingValue columnValue(const Statement& s, int column) {
    switch (s.columnType(column)) {
        case SQLITE_INTEGER:
            return s.columnInt(column);
        case SQLITE_FLOAT:
            return s.columnDouble(column);
        default:
            return std::string(s.columnText(column));
    }
}

}  // namespace

struct RecordingReader::Impl {
    Database db;
    int lastCode = SQLITE_OK;

    // Runs `sql` and calls `row` for each result row; false with *why.
    bool query(std::string_view sql, const std::function<void(const Statement&)>& row,
               std::string* why) {
        Statement s;
        if (!s.prepare(db, sql, why)) {
            lastCode = sqlite3_extended_errcode(db.get());
            *why = describeSqliteError(lastCode, *why);
            return false;
        }
        for (;;) {
            const int rc = s.step();
            if (rc == SQLITE_ROW) {
                row(s);
                continue;
            }
            if (rc == SQLITE_DONE) {
                return true;
            }
            lastCode = rc;
            *why = describeSqliteError(rc, db.lastError());
            return false;
        }
    }
};

RecordingReader::RecordingReader() : impl_(std::make_unique<Impl>()) {}
RecordingReader::~RecordingReader() = default;

std::unique_ptr<RecordingReader> RecordingReader::open(const std::string& path, std::string* error,
                                                       RecordingReaderOptions options) {
    std::unique_ptr<RecordingReader> r(new RecordingReader());
    std::string why;
    if (!checkFile(path, &why) || !r->load(path, options, &why)) {
        *error = path + ": " + why;
        return nullptr;
    }
    return r;
}

bool RecordingReader::load(const std::string& path, const RecordingReaderOptions& options,
                           std::string* why) {
    path_ = path;
    Impl& impl = *impl_;
    if (!impl.db.open(path, SQLITE_OPEN_READONLY, why)) {
        return false;
    }
    std::int64_t applicationId = 0;
    if (!impl.query(
            "PRAGMA application_id", [&](const Statement& s) { applicationId = s.columnInt(0); },
            why)) {
        return false;
    }
    if (applicationId != kApplicationId) {
        *why = "an SQLite database, but not a Queuescope recording (application_id " +
               std::to_string(applicationId) + ", a recording has " +
               std::to_string(kApplicationId) + ")";
        return false;
    }
    std::int64_t version = 0;
    if (!impl.query(
            "PRAGMA user_version", [&](const Statement& s) { version = s.columnInt(0); }, why)) {
        return false;
    }
    if (version > kSchemaVersion) {
        *why = "written by a newer Queuescope (recording schema version " +
               std::to_string(version) + "; this build reads " + readableVersions() +
               "): open it with that version or newer";
        return false;
    }
    if (version < kOldestReadableSchema) {
        *why = "written by an older Queuescope (recording schema version " +
               std::to_string(version) + "), which this build no longer reads (it reads " +
               readableVersions() + ")";
        return false;
    }
    schemaVersion_ = static_cast<int>(version);
    if (options.checkIntegrity) {
        std::string verdict;
        if (!impl.query(
                "PRAGMA quick_check(1)",
                [&](const Statement& s) { verdict = std::string(s.columnText(0)); }, why)) {
            return false;
        }
        if (verdict != "ok") {
            *why = "damaged: the database fails its integrity check (" + verdict + ")";
            return false;
        }
    }
    for (std::string_view table : kRequiredTables) {
        bool found = false;
        if (!impl.query(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name='" + std::string(table) +
                    "'",
                [&](const Statement&) { found = true; }, why)) {
            return false;
        }
        if (!found) {
            *why = "damaged: a Queuescope recording without its '" + std::string(table) + "' table";
            return false;
        }
    }
    auto readFacts = [&](const char* sql, std::map<std::string, SettingValue>& into) {
        return impl.query(
            sql,
            [&](const Statement& s) { into[std::string(s.columnText(0))] = columnValue(s, 1); },
            why);
    };
    const bool ok = readFacts("SELECT key, value FROM settings", settings_) &&
                    readFacts("SELECT key, value FROM outcome", outcome_) &&
                    impl.query(
                        "SELECT first_id, count, why FROM gaps ORDER BY first_id",
                        [&](const Statement& s) {
                            gaps_.push_back({static_cast<std::uint64_t>(s.columnInt(0)),
                                             static_cast<std::uint64_t>(s.columnInt(1)),
                                             std::string(s.columnText(2))});
                        },
                        why) &&
                    impl.query(
                        "SELECT id, name FROM names ORDER BY id",
                        [&](const Statement& s) {
                            const auto id = static_cast<std::size_t>(s.columnInt(0));
                            if (id < (std::size_t{1} << 24)) {
                                names_.resize(std::max(names_.size(), id + 1));
                                names_[id] = Name(s.columnText(1));
                            }
                        },
                        why) &&
                    impl.query(
                        "SELECT count(*), coalesce(max(id), 0) FROM events",
                        [&](const Statement& s) {
                            eventCount_ = static_cast<std::uint64_t>(s.columnInt(0));
                            lastIndex_ = static_cast<std::uint64_t>(s.columnInt(1));
                        },
                        why);
    if (!ok || !loadStagedBlocks(why)) {
        return false;
    }
    const auto origin = settings_.find("origin_ns");
    if (origin == settings_.end() || !std::holds_alternative<std::int64_t>(origin->second)) {
        *why = "damaged: the recording has no time origin (settings.origin_ns)";
        return false;
    }
    originNs_ = std::get<std::int64_t>(origin->second);
    return true;
}

// message_ids and transactions, id -> text. A row naming an id the table
// lacks reads as empty text, as the join it replaces did.
bool RecordingReader::loadTexts(std::string* why) {
    // The writer numbers them 1, 2, 3...: an id far beyond the rows before it
    // is damage, and must not size the table.
    bool sparse = false;
    auto load = [&](const char* sql, std::vector<std::string>& into) {
        std::size_t rows = 0;
        return impl_->query(
                   sql,
                   [&](const Statement& s) {
                       const std::int64_t id = s.columnInt(0);
                       ++rows;
                       if (id <= 0) {
                           return;
                       }
                       if (static_cast<std::uint64_t>(id) > 2 * rows + 65536) {
                           sparse = true;
                           return;
                       }
                       const auto at = static_cast<std::size_t>(id);
                       into.resize(std::max(into.size(), at + 1));
                       into[at] = std::string(s.columnText(1));
                   },
                   why) &&
               !sparse;
    };
    textsLoaded_ = load("SELECT id, message_id FROM message_ids ORDER BY id", messageIds_) &&
                   load("SELECT id, transaction_id FROM transactions ORDER BY id", transactions_);
    if (sparse) {
        *why = "damaged: an interned text's id is far beyond the table's rows";
    }
    return textsLoaded_;
}

std::string_view RecordingReader::textOf(const std::vector<std::string>& texts, std::int64_t id) {
    return id > 0 && static_cast<std::uint64_t>(id) < texts.size()
               ? std::string_view(texts[static_cast<std::size_t>(id)])
               : std::string_view();
}

// The staged events a killed run left (none once a recording was closed):
// counted now, decoded when read.
bool RecordingReader::loadStagedBlocks(std::string* why) {
    if (schemaVersion_ < kFirstSchemaWithStagedEvents) {
        return true;
    }
    return impl_->query(
        "SELECT first_id, count FROM staged_events ORDER BY first_id",
        [&](const Statement& s) {
            const auto first = static_cast<std::uint64_t>(s.columnInt(0));
            const auto count = static_cast<std::uint64_t>(s.columnInt(1));
            staged_.push_back({first, count});
            eventCount_ += count;
            if (count > 0) {
                lastIndex_ = std::max(lastIndex_, first + count - 1);
            }
        },
        why);
}

std::uint64_t RecordingReader::stagedEvents() const {
    std::uint64_t n = 0;
    for (const StagedBlock& b : staged_) {
        n += b.count;
    }
    return n;
}

std::uint64_t RecordingReader::lostEvents() const {
    std::uint64_t n = 0;
    for (const RecordingGap& g : gaps_) {
        n += g.count;
    }
    return n;
}

namespace {

template <typename T>
T lookup(const std::map<std::string, SettingValue>& map, const std::string& key, T fallback) {
    const auto it = map.find(key);
    if (it == map.end()) {
        return fallback;
    }
    if (const T* v = std::get_if<T>(&it->second)) {
        return *v;
    }
    if constexpr (std::is_same_v<T, double>) {
        if (const auto* i = std::get_if<std::int64_t>(&it->second)) {
            return static_cast<double>(*i);
        }
    }
    return fallback;
}

}  // namespace

std::string RecordingReader::settingText(const std::string& key, std::string fallback) const {
    return lookup<std::string>(settings_, key, std::move(fallback));
}

std::int64_t RecordingReader::settingInt(const std::string& key, std::int64_t fallback) const {
    return lookup<std::int64_t>(settings_, key, fallback);
}

std::string RecordingReader::outcomeText(const std::string& key, std::string fallback) const {
    return lookup<std::string>(outcome_, key, std::move(fallback));
}

std::int64_t RecordingReader::outcomeInt(const std::string& key, std::int64_t fallback) const {
    return lookup<std::int64_t>(outcome_, key, fallback);
}

double RecordingReader::outcomeDouble(const std::string& key, double fallback) const {
    return lookup<double>(outcome_, key, fallback);
}

bool RecordingReader::forEachEvent(std::uint64_t fromIndex, std::uint64_t toIndex,
                                   const Visitor& visit, std::string* error) {
    return scan(fromIndex, toIndex, std::nullopt, visit, error);
}

bool RecordingReader::forEachEventInTime(std::int64_t fromNs, std::int64_t toNs,
                                         const Visitor& visit, std::string* error) {
    if (fromNs > toNs) {
        return true;
    }
    // The blocks whose time span meets [from, to] bound the index range; the
    // events inside are then filtered by time (stream order is not time order).
    const std::int64_t from = fromNs - originNs_;
    const std::int64_t to = toNs - originNs_;
    std::uint64_t first = 0;
    std::uint64_t last = 0;
    std::string why;
    const std::string sql =
        "SELECT coalesce(min(first_id), 0), coalesce(max(last_id), 0) "
        "FROM event_blocks WHERE max_t_ns >= " +
        std::to_string(from) + " AND min_t_ns <= " + std::to_string(to);
    if (!impl_->query(
            sql,
            [&](const Statement& s) {
                first = static_cast<std::uint64_t>(s.columnInt(0));
                last = static_cast<std::uint64_t>(s.columnInt(1));
            },
            &why)) {
        *error = path_ + ": " + why;
        return false;
    }
    if (!staged_.empty()) {
        // Staged events have no time index: their range is read and filtered.
        first = first == 0 ? staged_.front().firstIndex : first;
        last = lastIndex_;
    }
    if (first == 0) {
        return true;
    }
    return scan(first, last + 1, std::make_pair(from, to), visit, error);
}

bool RecordingReader::readEvents(std::uint64_t fromIndex, std::uint64_t toIndex,
                                 std::vector<Event>* out, std::string* error) {
    return forEachEvent(
        fromIndex, toIndex, [out](std::uint64_t, const Event& e) { out->push_back(e); }, error);
}

bool RecordingReader::scan(std::uint64_t fromIndex, std::uint64_t toIndex,
                           std::optional<std::pair<std::int64_t, std::int64_t>> times,
                           const Visitor& visit, std::string* error) {
    std::string why;
    if (!textsLoaded_ && !loadTexts(&why)) {
        *error = path_ + ": " + why;
        return false;
    }
    // The interned texts come from the tables read once (a join per row
    // took about half of a whole read).
    std::string sql =
        "SELECT e.id, e.t_ns, e.kind, e.source, e.actor, e.channel, e.message, e.sequence, "
        "e.receive_count, e.txn, e.value, e.count2, e.detail FROM events e "
        "WHERE e.id >= ?1 AND e.id < ?2";
    if (times) {
        sql += " AND e.t_ns BETWEEN ?3 AND ?4";
    }
    sql += " ORDER BY e.id";
    Statement s;
    auto fail = [&](const std::string& what) {
        *error = path_ + ": " + what;
        return false;
    };
    if (!s.prepare(impl_->db, sql, &why)) {
        return fail(describeSqliteError(sqlite3_extended_errcode(impl_->db.get()), why));
    }
    // Indexes beyond INT64_MAX do not occur; clamp so the bound stays positive.
    constexpr std::uint64_t kMaxIndex = static_cast<std::uint64_t>(INT64_MAX);
    s.bindInt(1, static_cast<std::int64_t>(std::min(fromIndex, kMaxIndex)));
    s.bindInt(2, static_cast<std::int64_t>(std::min(toIndex, kMaxIndex)));
    if (times) {
        s.bindInt(3, times->first);
        s.bindInt(4, times->second);
    }
    Event e;
    std::uint64_t previous = 0;
    for (;;) {
        const int rc = s.step();
        if (rc == SQLITE_DONE) {
            return scanStaged(fromIndex, toIndex, times, previous, visit, error);
        }
        if (rc != SQLITE_ROW) {
            return fail(describeSqliteError(rc, impl_->db.lastError()));
        }
        const auto index = static_cast<std::uint64_t>(s.columnInt(0));
        // A damaged table (not checked at open) can give back ids out of order
        // or outside the range asked for; callers rely on both.
        if (index < fromIndex || index >= toIndex || index <= previous) {
            return fail("damaged: event " + std::to_string(index) + " out of order after event " +
                        std::to_string(previous));
        }
        previous = index;
        const std::int64_t kind = s.columnInt(2);
        const std::int64_t source = s.columnInt(3);
        if (kind < 0 || kind > static_cast<int>(kLastEventKind) || source < 0 ||
            source > static_cast<int>(kLastEventSource)) {
            return fail("damaged: event " + std::to_string(index) + " has an unknown kind " +
                        std::to_string(kind) + " or source " + std::to_string(source));
        }
        auto name = [&](int column) {
            const std::int64_t id = s.columnInt(column);
            return id > 0 && static_cast<std::size_t>(id) < names_.size()
                       ? names_[static_cast<std::size_t>(id)]
                       : Name();
        };
        e.timeNs = originNs_ + s.columnInt(1);
        e.kind = static_cast<EventKind>(kind);
        e.source = static_cast<EventSource>(source);
        e.actor = name(4);
        e.channel = name(5);
        e.messageId = textOf(messageIds_, s.columnInt(6));
        e.sequence = static_cast<std::uint64_t>(s.columnInt(7));
        e.receiveCount = static_cast<std::int32_t>(s.columnInt(8));
        e.transaction = textOf(transactions_, s.columnInt(9));
        e.value = s.columnInt(10);
        e.count2 = s.columnInt(11);
        e.detail.assign(s.columnText(12));
        if (schemaVersion_ < 3) {
            upgradeLegacyEventFields(e);
        }
        visit(index, e);
    }
}

// The staged events in [fromIndex, toIndex) (after every row: a writer
// stages events only after the last row).
bool RecordingReader::scanStaged(std::uint64_t fromIndex, std::uint64_t toIndex,
                                 std::optional<std::pair<std::int64_t, std::int64_t>> times,
                                 std::uint64_t previous, const Visitor& visit,
                                 std::string* error) {
    for (const StagedBlock& block : staged_) {
        if (block.firstIndex + block.count <= fromIndex || block.firstIndex >= toIndex) {
            continue;
        }
        if (block.firstIndex <= previous) {
            *error = path_ + ": damaged: staged events from " + std::to_string(block.firstIndex) +
                     " overlap the events before them";
            return false;
        }
        std::string why;
        bool read = false;
        std::uint64_t index = block.firstIndex;
        auto each = [&](const Event& e) {
            const std::int64_t t = e.timeNs - originNs_;
            if (index >= fromIndex && index < toIndex &&
                (!times || (t >= times->first && t <= times->second))) {
                visit(index, e);
            }
            ++index;
        };
        const bool ok = impl_->query(
            "SELECT data FROM staged_events WHERE first_id = " +
                std::to_string(block.firstIndex),
            [&](const Statement& s) {
                read = decodeStagedEvents(s.columnBlob(0), block.count, originNs_, names_,
                                          schemaVersion_, each, &why);
            },
            &why);
        if (!ok || !read) {
            *error = path_ + ": " +
                     (why.empty() ? "staged events from " + std::to_string(block.firstIndex) +
                                        " became rows while being read: open it again"
                                  : why);
            return false;
        }
        previous = block.firstIndex + block.count - 1;
    }
    return true;
}

}  // namespace qs::recording
