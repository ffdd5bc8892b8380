#include "recording/recording_writer.h"

#include <pthread.h>
#include <sqlite3.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <limits>
#include <unordered_map>

#include "recording/recording_schema.h"
#include "recording/sqlite_handle.h"
#include "recording/staged_events.h"

namespace qs::recording {

namespace {

// A writer woken this far ahead of its interval commits early, so a burst
// becomes several moderate transactions rather than one huge one.
constexpr std::size_t kEagerCommitEvents = 1u << 16;
constexpr int kColumns = 13;  // of the events table
constexpr std::size_t kRowsPerInsert = 32;
// Staged events copied into rows per transaction while the run is idle: a few
// tens of milliseconds of the writer's time, so a batch arriving meanwhile
// waits little.
constexpr std::uint64_t kRowsPerCopy = 32768;
// Idle: fewer than stageAtEvents / kIdleDivisor events in an interval.
constexpr std::size_t kIdleDivisor = 64;
// The writer remembers the ids of the message ids (and transactions) of the
// last 65,536 to 131,072 texts it wrote, not of the whole run, so its memory
// stays flat; a text named again after that gets another row.
constexpr std::size_t kRememberedTexts = std::size_t{1} << 16;

std::string insertSql(std::size_t rows) {
    std::string sql = "INSERT INTO events VALUES";
    for (std::size_t r = 0; r < rows; ++r) {
        sql += r == 0 ? "(" : ",(";
        for (int c = 0; c < kColumns; ++c) {
            sql += c == 0 ? "?" : ",?";
        }
        sql += ")";
    }
    return sql;
}

std::int64_t asStored(std::uint64_t v) {
    return static_cast<std::int64_t>(v);  // two's complement: read back exactly
}

bool removeOldFile(const std::string& path, std::string* error) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        *error = path + ": is a directory";
        return false;
    }
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        fs::remove(path + suffix, ec);
        if (ec) {
            *error = path + suffix + ": cannot replace it: " + ec.message();
            return false;
        }
    }
    return true;
}

}  // namespace

// Everything that touches SQLite. Used by create() and close() on the owner's
// thread and in between only by the writer thread.
struct RecordingWriter::Impl {
    Database db;
    Statement insertEvent;
    Statement insertEvents;  // kRowsPerInsert rows at once
    Statement insertName;
    Statement insertMessageId;
    Statement insertTransaction;
    Statement upsertSetting;
    Statement upsertOutcome;
    Statement upsertBlock;
    Statement insertGap;
    Statement insertStaged;
    Statement selectStaged;
    Statement deleteStaged;
    std::int64_t originNs = 0;
    // Interned text -> id. Looked up by string_view (no copy); the last hit
    // is remembered, as consecutive events mostly name the same message or
    // transaction. Two generations of kRememberedTexts texts at most: when
    // the current one is full it becomes the older one and the older one is
    // dropped; a text found in the older one moves to the current one.
    struct TextHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept {
            return std::hash<std::string_view>{}(s);
        }
    };
    using TextMap = std::unordered_map<std::string, std::int64_t, TextHash, std::equal_to<>>;
    struct TextIds {
        TextMap recent;
        TextMap older;
        std::int64_t rows = 0;  // in the table, so the next id is rows + 1
        std::string lastText;
        std::int64_t lastId = 0;

        // The id of `text`, 0 when it is not remembered.
        std::int64_t find(std::string_view text) {
            if (const auto it = recent.find(text); it != recent.end()) {
                return it->second;
            }
            const auto it = older.find(text);
            if (it == older.end()) {
                return 0;
            }
            auto node = older.extract(it);
            const std::int64_t id = node.mapped();
            makeRoom();
            recent.insert(std::move(node));
            return id;
        }
        void remember(std::string_view text, std::int64_t id) {
            makeRoom();
            recent.emplace(std::string(text), id);
        }
        void makeRoom() {
            if (recent.size() >= kRememberedTexts) {
                older.clear();
                older.swap(recent);
            }
        }
    };
    std::unordered_map<Name, std::int64_t> names;  // as append() numbered them
    std::vector<Name> nameById{Name()};            // names-table id -> Name, for staged events
    TextIds messageIds;
    TextIds transactions;
    // The event_blocks row being filled.
    std::uint64_t blockFirst = 0;
    std::uint64_t blockLast = 0;
    std::int64_t blockMinT = 0;
    std::int64_t blockMaxT = 0;
    // Staged blobs not yet copied into rows, oldest first. Their bytes are in
    // the file only, read back when copied: a busy run's memory stays flat.
    struct StagedBlob {
        std::uint64_t firstIndex = 0;
        std::uint64_t count = 0;
    };
    std::deque<StagedBlob> staged;
    std::vector<Name> newNames;   // given an id, not yet in the names table
    std::vector<Event> unstaged;  // reused by writeRows()
    std::string error;

    bool prepare(std::string* why) {
        return insertEvent.prepare(db, insertSql(1), why) &&
               insertEvents.prepare(db, insertSql(kRowsPerInsert), why) &&
               insertName.prepare(db, "INSERT INTO names VALUES(?1,?2)", why) &&
               insertMessageId.prepare(db, "INSERT INTO message_ids VALUES(?1,?2)", why) &&
               insertTransaction.prepare(db, "INSERT INTO transactions VALUES(?1,?2)", why) &&
               upsertSetting.prepare(db, "INSERT OR REPLACE INTO settings VALUES(?1,?2)", why) &&
               upsertOutcome.prepare(db, "INSERT OR REPLACE INTO outcome VALUES(?1,?2)", why) &&
               upsertBlock.prepare(db, "INSERT OR REPLACE INTO event_blocks VALUES(?1,?2,?3,?4)",
                                   why) &&
               insertGap.prepare(db, "INSERT OR REPLACE INTO gaps VALUES(?1,?2,?3)", why) &&
               insertStaged.prepare(db, "INSERT INTO staged_events VALUES(?1,?2,?3)", why) &&
               selectStaged.prepare(db, "SELECT data FROM staged_events WHERE first_id = ?1",
                                    why) &&
               deleteStaged.prepare(db, "DELETE FROM staged_events WHERE first_id = ?1", why);
    }

    // Runs a prepared statement to its end; false (and `error`) on failure.
    bool run(Statement& s) {
        const int rc = s.step();
        s.reset();
        if (rc != SQLITE_DONE) {
            error = db.lastError();
            return false;
        }
        return true;
    }

    // Names are interned per process already (a Name is an id): map that id
    // to the file's, inserting the name on first use.
    bool bindName(Statement& target, int column, Name name) {
        if (name.empty()) {
            target.bindNull(column);
            return true;
        }
        const std::int64_t id = nameId(name);
        target.bindInt(column, id);
        return id != 0;
    }

    // The file's id of a name append() gave an id (addNames()); 0 for any
    // other, which cannot happen short of a bug.
    std::int64_t nameId(Name name) {
        const auto it = names.find(name);
        if (it == names.end()) {
            error = "a name with no id: " + name.str();
            return 0;
        }
        return it->second;
    }

    // Names append() gave ids to, for the rows and the names table (written
    // with the transaction: writeNewNames()).
    void addNames(const std::vector<Name>& added) {
        for (Name name : added) {
            names.emplace(name, static_cast<std::int64_t>(nameById.size()));
            nameById.push_back(name);
            newNames.push_back(name);
        }
    }

    bool writeNewNames() {
        for (Name name : newNames) {
            insertName.bindInt(1, names.at(name));
            insertName.bindText(2, name.view());
            if (!run(insertName)) {
                return false;
            }
        }
        newNames.clear();
        return true;
    }

    // Writes a blob staged (docs/recording.md): a fraction of the rows' cost,
    // so a busy run's writer keeps up; copyStaged() makes the rows later.
    bool stage(Chunk& chunk) {
        insertStaged.bindInt(1, asStored(chunk.firstIndex));
        insertStaged.bindInt(2, asStored(chunk.count));
        insertStaged.bindBlob(3, chunk.data);
        if (!run(insertStaged)) {
            return false;
        }
        staged.push_back({chunk.firstIndex, chunk.count});
        return true;
    }

    // Writes a blob's events as rows.
    bool writeRows(std::uint64_t firstIndex, std::uint64_t count, std::string_view data) {
        return decode(data, count) && writeEvents(firstIndex, unstaged);
    }

    // A blob's events into `unstaged`.
    bool decode(std::string_view data, std::uint64_t count) {
        unstaged.clear();
        std::string why;
        if (!decodeStagedEvents(
                data, count, originNs, nameById, kSchemaVersion,
                [this](const Event& e) { unstaged.push_back(e); }, &why)) {
            error = why;  // cannot happen short of a bug: the blob was made here
            return false;
        }
        return true;
    }

    // A staged blob's events into `unstaged`, read back from the file (the
    // decoded events own their texts, so the row is let go at once).
    bool decodeStaged(const StagedBlob& blob) {
        selectStaged.bindInt(1, asStored(blob.firstIndex));
        if (selectStaged.step() != SQLITE_ROW) {
            error = "staged events from " + std::to_string(blob.firstIndex) +
                    " not found: " + db.lastError();
            selectStaged.reset();
            return false;
        }
        const bool ok = decode(selectStaged.columnBlob(0), blob.count);
        selectStaged.reset();
        return ok;
    }

    // Copies the oldest staged blob into rows and drops it; its events count.
    bool copyStaged(std::uint64_t* events) {
        const StagedBlob& blob = staged.front();
        if (!decodeStaged(blob)) {
            return false;
        }
        deleteStaged.bindInt(1, asStored(blob.firstIndex));
        if (!writeEvents(blob.firstIndex, unstaged) || !run(deleteStaged)) {
            return false;
        }
        *events = blob.count;
        staged.pop_front();
        return true;
    }

    bool bindText(Statement& target, int column, TextIds& table, std::string_view text,
                  Statement& insert) {
        if (text.empty()) {
            target.bindNull(column);
            return true;
        }
        if (table.lastId != 0 && text == table.lastText) {
            target.bindInt(column, table.lastId);
            return true;
        }
        std::int64_t id = table.find(text);
        if (id == 0) {
            id = table.rows + 1;
            insert.bindInt(1, id);
            insert.bindText(2, text);
            if (!run(insert)) {
                return false;
            }
            table.rows = id;
            table.remember(text, id);
        }
        table.lastText.assign(text);
        table.lastId = id;
        target.bindInt(column, id);
        return true;
    }

    // Binds event `index` as the row starting at parameter base + 1 of `target`.
    bool bindEvent(Statement& target, int base, std::uint64_t index, const Event& e) {
        const std::int64_t t = e.timeNs - originNs;
        target.bindInt(base + 1, asStored(index));
        target.bindInt(base + 2, t);
        target.bindInt(base + 3, static_cast<int>(e.kind));
        target.bindInt(base + 4, static_cast<int>(e.source));
        if (!bindName(target, base + 5, e.actor) || !bindName(target, base + 6, e.channel) ||
            !bindText(target, base + 7, messageIds, e.messageId.view(), insertMessageId)) {
            return false;
        }
        target.bindInt(base + 8, asStored(e.sequence));
        target.bindInt(base + 9, e.receiveCount);
        if (!bindText(target, base + 10, transactions, e.transaction.view(), insertTransaction)) {
            return false;
        }
        target.bindInt(base + 11, e.value);
        target.bindInt(base + 12, e.count2);
        if (e.detail.empty()) {
            target.bindNull(base + 13);
        } else {
            target.bindText(base + 13, e.detail);
        }
        return trackBlock(index, t);
    }

    // Inserts events [first, first + count) of a chunk: kRowsPerInsert rows
    // per statement while they last (one statement step per row costs more
    // than the row), the rest one by one.
    bool writeEvents(std::uint64_t firstIndex, const std::vector<Event>& events) {
        std::size_t i = 0;
        for (; i + kRowsPerInsert <= events.size(); i += kRowsPerInsert) {
            for (std::size_t r = 0; r < kRowsPerInsert; ++r) {
                if (!bindEvent(insertEvents, static_cast<int>(r) * kColumns, firstIndex + i + r,
                               events[i + r])) {
                    return false;
                }
            }
            if (!run(insertEvents)) {
                return false;
            }
        }
        for (; i < events.size(); ++i) {
            if (!bindEvent(insertEvent, 0, firstIndex + i, events[i]) || !run(insertEvent)) {
                return false;
            }
        }
        return true;
    }

    bool trackBlock(std::uint64_t index, std::int64_t t) {
        const std::uint64_t first = (index - 1) / kEventsPerBlock * kEventsPerBlock + 1;
        if (first != blockFirst) {
            if (blockFirst != 0 && !writeBlock()) {
                return false;
            }
            blockFirst = first;
            blockMinT = t;
            blockMaxT = t;
        }
        blockLast = index;
        blockMinT = std::min(blockMinT, t);
        blockMaxT = std::max(blockMaxT, t);
        return true;
    }

    bool writeBlock() {
        if (blockFirst == 0) {
            return true;
        }
        upsertBlock.bindInt(1, asStored(blockFirst));
        upsertBlock.bindInt(2, asStored(blockLast));
        upsertBlock.bindInt(3, blockMinT);
        upsertBlock.bindInt(4, blockMaxT);
        return run(upsertBlock);
    }

    bool writeFact(const Fact& fact) {
        Statement& s = fact.outcome ? upsertOutcome : upsertSetting;
        s.bindText(1, fact.key);
        if (const auto* i = std::get_if<std::int64_t>(&fact.value)) {
            s.bindInt(2, *i);
        } else if (const auto* d = std::get_if<double>(&fact.value)) {
            s.bindDouble(2, *d);
        } else {
            s.bindText(2, std::get<std::string>(fact.value));
        }
        return run(s);
    }

    bool writeGap(const Gap& gap) {
        insertGap.bindInt(1, asStored(gap.firstIndex));
        insertGap.bindInt(2, asStored(gap.count));
        insertGap.bindText(3, gap.why);
        return run(insertGap);
    }

    bool exec(std::string_view sql) {
        std::string why;
        if (!db.exec(sql, &why)) {
            error = why;
            return false;
        }
        return true;
    }
};

// What append() needs to encode a chunk, on the caller's thread: the events
// are in its cache there, and the writer's thread is left the SQLite work.
struct RecordingWriter::Encoding {
    std::int64_t originNs = 0;
    StagedEncoder encoder;
    // Names -> their names-table ids, given here in the order of first use
    // (the writer's thread learns them with the chunk: Chunk::newNames).
    std::unordered_map<Name, std::int64_t> nameIds;

    void encode(const std::vector<Event>& events, Chunk& chunk) {
        const Event* previous = nullptr;
        for (const Event& e : events) {
            if (previous == nullptr || e.actor != previous->actor ||
                e.channel != previous->channel) {
                for (Name n : {e.actor, e.channel}) {
                    if (!n.empty() && !nameIds.contains(n)) {
                        nameIds.emplace(n, static_cast<std::int64_t>(nameIds.size()) + 1);
                        chunk.newNames.push_back(n);
                    }
                }
            }
            previous = &e;
        }
        // Copied out at its size: a blob kept until it becomes rows holds no
        // spare bytes.
        chunk.data = encoder.encode(events, originNs, nameIds);
    }
};

RecordingWriter::RecordingWriter(std::string path, RecordingWriterOptions options)
    : path_(std::move(path)),
      options_(options),
      impl_(std::make_unique<Impl>()),
      encoding_(std::make_unique<Encoding>()) {}

std::unique_ptr<RecordingWriter> RecordingWriter::create(const std::string& path,
                                                         std::int64_t originNs,
                                                         RecordingWriterOptions options,
                                                         std::string* error) {
    if (path.empty()) {
        *error = "no recording file named";
        return nullptr;
    }
    if (!removeOldFile(path, error)) {
        return nullptr;
    }
    std::unique_ptr<RecordingWriter> w(new RecordingWriter(path, options));
    Impl& impl = *w->impl_;
    impl.originNs = originNs;
    w->encoding_->originNs = originNs;
    std::string why;
    const bool ok =
        impl.db.open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &why) &&
        // 16 KB pages: the writer's cost is mostly per WAL frame (two writes
        // into the kernel a page), so a busy run's blobs cost it about a third
        // less than in 4 KB pages (docs/recording.md, "Figures"); larger ones
        // save a little more but make every file and every calm commit
        // bigger. Only settable before the first table, as is
        // INCREMENTAL: the pages of staged events copied into rows can be
        // given back at close.
        // WAL: readers see each committed batch while the run goes on, and a
        // killed process leaves every committed batch readable. NORMAL syncs
        // only at checkpoints; 4,096 pages (64 MB) between checkpoints keep
        // those rare (the close folds the rest in).
        impl.db.exec(
            "PRAGMA page_size=16384; PRAGMA auto_vacuum=INCREMENTAL; PRAGMA journal_mode=WAL; "
            "PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=4096;",
            &why) &&
        impl.db.exec(
            "BEGIN;"
            "PRAGMA application_id=" +
                std::to_string(kApplicationId) +
                ";"
                "PRAGMA user_version=" +
                std::to_string(kSchemaVersion) + ";" + std::string(schemaSql()) + "COMMIT;",
            &why) &&
        impl.prepare(&why);
    if (!ok) {
        *error = path + ": cannot create the recording: " + why;
        impl.db.close();
        std::error_code ec;
        std::filesystem::remove(path, ec);
        return nullptr;
    }
    w->setSetting("origin_ns", originNs);
    w->thread_ = std::thread([raw = w.get()] { raw->loop(); });
    // Named, so top and perf tell its CPU from the run's (at most 15 characters).
    pthread_setname_np(w->thread_.native_handle(), "qs-recording");
    return w;
}

RecordingWriter::~RecordingWriter() {
    std::string ignored;
    close(&ignored);
}

void RecordingWriter::append(std::vector<Event>& batch) {
    if (batch.empty()) {
        return;
    }
    // Appends from several threads take turns: indexes, names and blobs in one order.
    std::lock_guard encodeLock(encodeMutex_);
    Chunk chunk;
    chunk.count = batch.size();
    {
        std::lock_guard lock(mutex_);
        chunk.firstIndex = nextIndex_;
        nextIndex_ += batch.size();
        stats_.eventsAppended += batch.size();
        const bool failed = !stats_.error.empty() || stop_;
        if (failed || stats_.pendingEvents + batch.size() > options_.maxPendingEvents) {
            stats_.eventsLost += batch.size();
            const std::string why =
                failed ? "not written: " +
                             (stats_.error.empty() ? std::string("writer closed") : stats_.error)
                       : "the writer could not keep up";
            if (!gaps_.empty() &&
                gaps_.back().firstIndex + gaps_.back().count == chunk.firstIndex &&
                gaps_.back().why == why) {
                gaps_.back().count += batch.size();
            } else {
                gaps_.push_back({chunk.firstIndex, batch.size(), why});
            }
            batch.clear();
            return;
        }
        stats_.pendingEvents += batch.size();
    }
    encoding_->encode(batch, chunk);
    batch.clear();
    bool wakeNow = false;
    {
        std::lock_guard lock(mutex_);
        pending_.push_back(std::move(chunk));
        wakeNow = stats_.pendingEvents >= kEagerCommitEvents;
    }
    if (wakeNow) {
        wake_.notify_one();
    }
}

void RecordingWriter::setSetting(std::string key, SettingValue value) {
    std::lock_guard lock(mutex_);
    facts_.push_back({false, std::move(key), std::move(value)});
}

void RecordingWriter::setOutcome(std::string key, SettingValue value) {
    std::lock_guard lock(mutex_);
    facts_.push_back({true, std::move(key), std::move(value)});
}

void RecordingWriter::loop() {
    std::vector<Chunk> chunks;
    std::vector<Fact> facts;
    std::vector<Gap> gaps;
    for (bool stopping = false; !stopping;) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait_for(lock, options_.commitInterval,
                           [this] { return stop_ || stats_.pendingEvents >= kEagerCommitEvents; });
            stopping = stop_;
            chunks.swap(pending_);
            facts.swap(facts_);
            gaps.swap(gaps_);
            if (!stats_.error.empty()) {
                // After a failure nothing more is written; count what was queued.
                for (const Chunk& c : chunks) {
                    stats_.eventsLost += c.count;
                    stats_.pendingEvents -= c.count;
                }
                chunks.clear();
                facts.clear();
                gaps.clear();
                continue;
            }
        }
        commitQueued(chunks, facts, gaps);
        if (stopping || (idle_ && options_.copyStagedWhileRunning)) {
            copyStagedWhileIdle(stopping);
        }
    }
}

// One transaction with everything queued. The events go in as rows, or
// staged when there are many of them (a busy run) or staged ones still wait
// (rows stay in index order). True when the run is busy.
bool RecordingWriter::commitQueued(std::vector<Chunk>& chunks, std::vector<Fact>& facts,
                                   std::vector<Gap>& gaps) {
    Impl& impl = *impl_;
    std::uint64_t events = 0;
    for (const Chunk& c : chunks) {
        events += c.count;
        impl.addNames(c.newNames);
    }
    const bool busy = noteRate(events);
    if (chunks.empty() && facts.empty() && gaps.empty()) {
        return busy;
    }
    const bool stage = busy || !impl.staged.empty();
    const std::size_t stagedBefore = impl.staged.size();
    bool ok = impl.exec("BEGIN") && impl.writeNewNames();
    for (const Fact& f : facts) {
        ok = ok && impl.writeFact(f);
    }
    for (const Gap& g : gaps) {
        ok = ok && impl.writeGap(g);
    }
    for (Chunk& c : chunks) {
        ok = ok && (stage ? impl.stage(c) : impl.writeRows(c.firstIndex, c.count, c.data));
    }
    ok = ok && impl.writeBlock() && impl.exec("COMMIT");
    if (!ok) {
        std::string ignored;
        impl.db.exec("ROLLBACK", &ignored);
        impl.staged.resize(stagedBefore);
    }
    chunks.clear();
    facts.clear();
    gaps.clear();
    std::lock_guard lock(mutex_);
    stats_.pendingEvents -= events;
    if (ok) {
        stats_.eventsCommitted += events;
        stats_.eventsStaged += stage ? events : 0;
        ++stats_.commits;
    } else {
        stats_.eventsLost += events;
        stats_.error = impl.error.empty() ? std::string("write failed") : impl.error;
    }
    return busy;
}

// Busy from the moment stageAtEvents events came within one commit interval;
// not busy again only after a whole interval with fewer (a short wake right
// after an eager commit says nothing about the rate). Idle after a whole
// interval with fewer than idleBelow(), and no longer from the moment as many
// come.
bool RecordingWriter::noteRate(std::uint64_t events) {
    if (options_.stageAtEvents == 0) {
        return false;
    }
    const auto now = std::chrono::steady_clock::now();
    windowEvents_ += events;
    if (windowEvents_ >= options_.stageAtEvents) {
        busy_ = true;
    }
    if (windowEvents_ >= idleBelow()) {
        idle_ = false;
    }
    if (now - windowStart_ >= options_.commitInterval) {
        busy_ = windowEvents_ >= options_.stageAtEvents;
        idle_ = windowEvents_ < idleBelow();
        windowEvents_ = 0;
        windowStart_ = now;
    }
    return busy_;
}

std::size_t RecordingWriter::idleBelow() const {
    return std::max<std::size_t>(options_.stageAtEvents / kIdleDivisor, 1);
}

// Copies staged events into rows, a transaction of up to kRowsPerCopy at a
// time, until none is left, or (unless the writer is stopping) until events
// come again.
void RecordingWriter::copyStagedWhileIdle(bool stopping) {
    Impl& impl = *impl_;
    while (!impl.staged.empty()) {
        {
            std::lock_guard lock(mutex_);
            if (!stats_.error.empty() || (!stopping && stats_.pendingEvents >= idleBelow())) {
                return;
            }
        }
        std::uint64_t copied = 0;
        bool ok = impl.exec("BEGIN");
        while (ok && !impl.staged.empty() && copied < kRowsPerCopy) {
            std::uint64_t n = 0;
            ok = impl.copyStaged(&n);
            copied += n;
        }
        ok = ok && impl.writeBlock() && impl.exec("COMMIT");
        std::lock_guard lock(mutex_);
        if (!ok) {
            // The staged events stay in the file, readable; nothing more is written.
            std::string ignored;
            impl.db.exec("ROLLBACK", &ignored);
            stats_.error = impl.error.empty() ? std::string("write failed") : impl.error;
            return;
        }
        stats_.eventsStaged -= copied;
    }
}

bool RecordingWriter::close(std::string* error) {
    {
        std::lock_guard lock(mutex_);
        if (closed_) {
            *error = stats_.error;
            return stats_.error.empty();
        }
        closed_ = true;
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) {
        thread_.join();
    }
    // A finished recording is one file: fold the WAL back in and leave it.
    // With a reader still attached that cannot be done (SQLITE_BUSY): the
    // file then stays in WAL mode, complete, and SQLite folds the WAL in
    // when the last connection closes.
    std::string ignored;
    if (stats().error.empty()) {
        // The pages the staged events took go back (auto_vacuum=INCREMENTAL).
        impl_->db.exec("PRAGMA incremental_vacuum;", &ignored);
        impl_->db.exec("PRAGMA journal_mode=DELETE;", &ignored);
    }
    impl_.reset();
    std::lock_guard lock(mutex_);
    *error = stats_.error;
    return stats_.error.empty();
}

RecordingWriterStats RecordingWriter::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

}  // namespace qs::recording
