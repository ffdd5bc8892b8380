// Files that are not readable Queuescope recordings are refused with a
// message naming the file and the reason, and nothing crashes: missing,
// a directory, empty, plain text, another application's SQLite database,
// a newer or older schema version, truncated, damaged in the middle, a
// missing table, event ids out of order, an interned text's id out of range, a damaged staged blob. The writer reports a path it cannot create and a write that
// fails (file size limit) instead of dropping events silently.
#include <sqlite3.h>
#include <sys/resource.h>

#include <QtTest/QtTest>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "events/config_change.h"
#include "recording/recording_reader.h"
#include "recording/recording_schema.h"
#include "recording/recording_writer.h"
#include "wait_until.h"

using namespace qs;
using namespace qs::recording;

namespace {

void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void sqlite(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* message = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
    QVERIFY2(rc == SQLITE_OK, message);
    sqlite3_close(db);
}

// A finished recording of `count` events with distinct text, big enough to
// span many pages.
void makeRecording(const std::string& path, int count) {
    std::string error;
    auto writer = RecordingWriter::create(path, 0, {}, &error);
    QVERIFY2(writer, error.c_str());
    std::vector<Event> batch;
    for (int i = 0; i < count; ++i) {
        Event e;
        e.timeNs = i;
        e.kind = EventKind::Acked;
        e.messageId = "message-" + std::to_string(i);
        e.detail = "detail " + std::to_string(i * 7919);
        batch.push_back(e);
    }
    writer->append(batch);
    QVERIFY2(writer->close(&error), error.c_str());
}

// Open must fail with a message starting with the path and containing `why`.
void expectRefused(const std::string& path, const std::string& why) {
    std::string error;
    auto reader = RecordingReader::open(path, &error);
    QVERIFY2(!reader, ("opened: " + path).c_str());
    QVERIFY2(error.rfind(path + ": ", 0) == 0, error.c_str());
    QVERIFY2(error.find(why) != std::string::npos, error.c_str());
}

}  // namespace

class RecordingRefused : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::string path(const char* name) const {
        return dir_.filePath(QString::fromUtf8(name)).toStdString();
    }

private Q_SLOTS:
    void missingPath() { expectRefused(path("nothing-here.qsrun"), "no such file"); }

    void directory() { expectRefused(dir_.path().toStdString(), "is a directory"); }

    void emptyFile() {
        writeFile(path("empty.qsrun"), "");
        expectRefused(path("empty.qsrun"), "empty file, not a Queuescope recording");
    }

    void plainText() {
        writeFile(path("notes.qsrun"), "time,kind\n1,acked\n");
        expectRefused(path("notes.qsrun"), "not an SQLite database");
    }

    void textLongerThanAHeader() {
        writeFile(path("long.qsrun"), std::string(10000, 'q'));
        expectRefused(path("long.qsrun"), "not an SQLite database");
    }

    void anotherApplicationsDatabase() {
        sqlite(path("other.db"), "CREATE TABLE t(x); INSERT INTO t VALUES(1);");
        expectRefused(path("other.db"), "not a Queuescope recording (application_id 0");
    }

    void newerSchemaVersion() {
        makeRecording(path("newer.qsrun"), 10);
        sqlite(path("newer.qsrun"), "PRAGMA user_version=" + std::to_string(kSchemaVersion + 1));
        expectRefused(path("newer.qsrun"),
                      "written by a newer Queuescope (recording schema version " +
                          std::to_string(kSchemaVersion + 1));
    }

    // Version 2 only added event kinds and a source: a version-1 file (its
    // lookup tables without them) still opens.
    void versionOneStillReads() {
        makeRecording(path("v1.qsrun"), 10);
        sqlite(path("v1.qsrun"),
               "PRAGMA user_version=1; DELETE FROM kinds WHERE name IN ('broker-peeked', "
               "'broker-purged', 'channel-peeked', 'channel-purged'); "
               "DELETE FROM sources WHERE name = 'client';");
        std::string error;
        auto reader = RecordingReader::open(path("v1.qsrun"), &error);
        QVERIFY2(reader, error.c_str());
        QCOMPARE(reader->schemaVersion(), 1);
        QCOMPARE(reader->eventCount(), std::uint64_t(10));
    }

    // Version 3 named the kinds' fields and moved a poll's wait timeout from
    // text into count2: a version-2 file's events come out in today's form.
    void versionTwoEventsAreUpgraded() {
        {
            std::string error;
            auto writer = RecordingWriter::create(path("v2.qsrun"), 0, {}, &error);
            QVERIFY2(writer, error.c_str());
            Event poll;
            poll.kind = EventKind::PollStarted;
            poll.value = 5;
            poll.detail = "10000";  // as version 2 recorded it
            Event config;
            config.timeNs = 1;
            config.kind = EventKind::ConfigChanged;
            config.detail = "batch=1 workers=4";  // value 0, as version 2 recorded it
            std::vector<Event> batch{poll, config};
            writer->append(batch);
            QVERIFY2(writer->close(&error), error.c_str());
        }
        sqlite(path("v2.qsrun"), "PRAGMA user_version=2");
        std::string error;
        auto reader = RecordingReader::open(path("v2.qsrun"), &error);
        QVERIFY2(reader, error.c_str());
        std::vector<Event> events;
        QVERIFY2(reader->readEvents(1, 3, &events, &error), error.c_str());
        QCOMPARE(events.size(), 2u);
        QCOMPARE(events[0].count2, std::int64_t(10000));
        QVERIFY(events[0].detail.empty());
        QCOMPARE(events[1].value,
                 settingBit(ConfigSetting::BatchSize) | settingBit(ConfigSetting::Workers));
    }

    void olderSchemaVersion() {
        makeRecording(path("older.qsrun"), 10);
        sqlite(path("older.qsrun"), "PRAGMA user_version=0");
        expectRefused(path("older.qsrun"),
                      "written by an older Queuescope (recording schema "
                      "version 0), which this build no longer reads");
    }

    void missingTable() {
        makeRecording(path("table.qsrun"), 10);
        sqlite(path("table.qsrun"), "DROP TABLE gaps");
        expectRefused(path("table.qsrun"), "without its 'gaps' table");
    }

    void truncatedAtAPage() {
        makeRecording(path("cut.qsrun"), 20000);
        std::string bytes = readFile(path("cut.qsrun"));
        QVERIFY(bytes.size() > 65536);
        // At a page of the file's size (header bytes 16-17; 1 means 65,536).
        std::size_t page =
            static_cast<std::uint8_t>(bytes[16]) * 256u + static_cast<std::uint8_t>(bytes[17]);
        page = page == 1 ? 65536 : page;
        QVERIFY(page >= 512);
        bytes.resize(bytes.size() / 2 / page * page);
        writeFile(path("cut.qsrun"), bytes);
        expectRefused(path("cut.qsrun"), "truncated: the header says");
    }

    void truncatedMidPage() {
        makeRecording(path("cut2.qsrun"), 20000);
        std::string bytes = readFile(path("cut2.qsrun"));
        bytes.resize(bytes.size() - 1000);
        writeFile(path("cut2.qsrun"), bytes);
        expectRefused(path("cut2.qsrun"), "truncated:");
    }

    void truncatedInTheHeader() {
        makeRecording(path("cut3.qsrun"), 10);
        writeFile(path("cut3.qsrun"), readFile(path("cut3.qsrun")).substr(0, 40));
        expectRefused(path("cut3.qsrun"), "truncated: the file ends inside the database header");
    }

    void damagedInTheMiddle() {
        makeRecording(path("bad.qsrun"), 20000);
        std::string bytes = readFile(path("bad.qsrun"));
        const std::size_t middle = bytes.size() / 2 / 4096 * 4096;
        for (std::size_t i = middle; i < middle + 4096; ++i) {
            bytes[i] = static_cast<char>((i * 131) & 0xff);
        }
        writeFile(path("bad.qsrun"), bytes);
        expectRefused(path("bad.qsrun"), "damaged");
    }

    // Without the integrity check the damage is met while reading: an error
    // from the read, never a crash.
    void damageMetWhileReading() {
        makeRecording(path("bad2.qsrun"), 20000);
        std::string bytes = readFile(path("bad2.qsrun"));
        const std::size_t middle = bytes.size() / 2 / 4096 * 4096;
        for (std::size_t i = middle; i < middle + 4096; ++i) {
            bytes[i] = static_cast<char>(0xff);
        }
        writeFile(path("bad2.qsrun"), bytes);
        std::string error;
        RecordingReaderOptions options;
        options.checkIntegrity = false;
        auto reader = RecordingReader::open(path("bad2.qsrun"), &error, options);
        if (!reader) {
            QVERIFY2(error.find("damaged") != std::string::npos, error.c_str());
            return;
        }
        std::vector<Event> events;
        QVERIFY(!reader->readEvents(1, reader->lastIndex() + 1, &events, &error));
        QVERIFY2(error.find("damaged") != std::string::npos, error.c_str());
    }

    // The reader keeps message ids and transactions in tables indexed by id:
    // an id far beyond the rows is damage, refused when read, and never sizes
    // the table (a vector of 100,000,000 strings).
    void internedTextIdOutOfRange() {
        makeRecording(path("sparse.qsrun"), 100);
        sqlite(path("sparse.qsrun"), "UPDATE message_ids SET id = 100000000 WHERE id = 7");
        std::string error;
        auto reader = RecordingReader::open(path("sparse.qsrun"), &error);
        QVERIFY2(reader, error.c_str());
        std::vector<Event> events;
        QVERIFY(!reader->readEvents(1, reader->lastIndex() + 1, &events, &error));
        QVERIFY2(error.find(path("sparse.qsrun") + ": damaged: an interned text's id") == 0,
                 error.c_str());
        QVERIFY(events.empty());
    }

    // Found by fuzz_recording_reader: events-table cells damaged so that
    // SQLite, unchecked, gives back ids 1, 2, 0, 0 for "ORDER BY id". The
    // reader handed out events out of order and outside the range asked for;
    // now the read fails, saying the file is damaged.
    void eventIdsOutOfOrder() {
        const std::string fixture =
            QUEUESCOPE_RECORDING_FUZZ_CORPUS "/regression-ids-out-of-order.qsrun";
        expectRefused(fixture, "damaged");
        std::string error;
        RecordingReaderOptions options;
        options.checkIntegrity = false;
        auto reader = RecordingReader::open(fixture, &error, options);
        QVERIFY2(reader, error.c_str());
        std::vector<Event> events;
        QVERIFY(!reader->readEvents(1, reader->lastIndex() + 1, &events, &error));
        QVERIFY2(error.find("damaged: event 0 out of order") != std::string::npos, error.c_str());
    }

    void writerCannotCreate() {
        std::string error;
        QVERIFY(!RecordingWriter::create(path("no-such-dir/run.qsrun"), 0, {}, &error));
        QVERIFY2(error.find("cannot create the recording") != std::string::npos, error.c_str());
        QVERIFY(!RecordingWriter::create(dir_.path().toStdString(), 0, {}, &error));
        QVERIFY2(error.find("is a directory") != std::string::npos, error.c_str());
    }

    // Staged events (docs/recording.md) whose blob is cut short: the file
    // opens, and reading them fails with the reason instead of inventing
    // events. The writer keeps no copy of its blobs (it reads them back to
    // make rows), so its close fails with the same reason and leaves them
    // staged, as damaged as they were, rather than inventing rows either.
    void damagedStagedEvents() {
        const std::string file = path("staged-cut.qsrun");
        RecordingWriterOptions options;
        options.stageAtEvents = 1;
        options.copyStagedWhileRunning = false;
        std::string error;
        auto writer = RecordingWriter::create(file, 0, options, &error);
        QVERIFY2(writer, error.c_str());
        std::vector<Event> batch(100);
        for (Event& e : batch) {
            e.kind = EventKind::Acked;
            e.messageId = "task-" + std::to_string(&e - batch.data());
        }
        writer->append(batch);
        QVERIFY(test::waitUntil([&] { return writer->stats().eventsCommitted == 100; }));
        sqlite(file, "UPDATE staged_events SET data = substr(data, 1, 40)");
        auto reader = RecordingReader::open(file, &error);
        QVERIFY2(reader, error.c_str());
        QCOMPARE(reader->stagedEvents(), std::uint64_t{100});
        std::vector<Event> got;
        QVERIFY(!reader->readEvents(1, 101, &got, &error));
        QVERIFY2(error.find(file + ": damaged staged events: event ") == 0 &&
                     error.find("truncated") != std::string::npos,
                 error.c_str());
        QVERIFY(got.size() < 100);
        reader.reset();
        QVERIFY(!writer->close(&error));
        QVERIFY2(error.find("damaged staged events: event ") == 0 &&
                     error.find("truncated") != std::string::npos,
                 error.c_str());
        QCOMPARE(writer->stats().eventsStaged, std::uint64_t{100});
        writer.reset();
        reader = RecordingReader::open(file, &error);
        QVERIFY2(reader, error.c_str());
        QCOMPARE(reader->stagedEvents(), std::uint64_t{100});
        got.clear();
        QVERIFY(!reader->readEvents(1, 101, &got, &error));
        QVERIFY2(error.find("truncated") != std::string::npos, error.c_str());
    }

    // A write that fails (here: the process's file size limit, as a full disk
    // would) is reported, and every event after it is counted as lost.
    void writeErrorIsReportedAndCounted() {
        const std::string file = path("limited.qsrun");
        std::string error;
        auto writer = RecordingWriter::create(file, 0, {}, &error);
        QVERIFY2(writer, error.c_str());
        rlimit old{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        const auto previous = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limited = old;
        limited.rlim_cur = 256 * 1024;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &limited), 0);
        std::vector<Event> batch;
        for (int i = 0; i < 50000; ++i) {
            Event e;
            e.detail = std::string(40, 'd') + std::to_string(i);
            batch.push_back(e);
        }
        writer->append(batch);
        const bool closed = writer->close(&error);
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, previous);
        QVERIFY(!closed);
        QVERIFY2(!error.empty(), "no error reported");
        const RecordingWriterStats stats = writer->stats();
        QCOMPARE(stats.eventsLost + stats.eventsCommitted, std::uint64_t{50000});
        QVERIFY(stats.eventsLost > 0);
        std::vector<Event> more(10);
        writer->append(more);
        QCOMPARE(writer->stats().eventsLost, stats.eventsLost + 10);
    }
};

QTEST_APPLESS_MAIN(RecordingRefused)
#include "tst_recording_refused.moc"
