// Every event kind and every field of qs::Event survives a recording byte for
// byte (binary and long text, empty names, extreme numbers), read back by
// index range and by time range; settings and outcome keep their types.
#include <sqlite3.h>

#include <QtTest/QtTest>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "recording/recording_reader.h"
#include "recording/recording_writer.h"
#include "wait_until.h"

using namespace qs;
using namespace qs::recording;

namespace {

std::string binaryText() {
    std::string s;
    for (int i = 0; i < 256; ++i) {
        s.push_back(static_cast<char>(i));  // NUL, control bytes, invalid UTF-8
    }
    return s;
}

// One event per kind, each field set to something distinct, and the edges.
std::vector<Event> sampleEvents(std::int64_t originNs) {
    std::vector<Event> events;
    const std::string binary = binaryText();
    for (int k = 0; k <= static_cast<int>(kLastEventKind); ++k) {
        Event e;
        e.timeNs = originNs + 1000 * k + 7;
        e.kind = static_cast<EventKind>(k);
        e.source = static_cast<EventSource>(k % (static_cast<int>(kLastEventSource) + 1));
        e.receiveCount = k;
        e.actor = Name("worker-" + std::to_string(k % 5));
        e.channel = Name(k % 3 == 0 ? "tasks" : "dlq");
        e.sequence = 1000u + static_cast<std::uint64_t>(k);
        e.value = -k;
        e.count2 = k * 1000003LL;
        e.messageId = "msg-" + std::to_string(k % 7);
        e.transaction = k % 2 == 0 ? std::string("txn-") + std::to_string(k) : std::string();
        e.detail = k % 4 == 0 ? std::string() : "batch=" + std::to_string(k);
        events.push_back(e);
    }
    Event extreme;  // the largest and smallest values every field takes
    extreme.timeNs = std::numeric_limits<std::int64_t>::max();
    extreme.kind = kLastEventKind;
    extreme.source = EventSource::Broker;
    extreme.receiveCount = std::numeric_limits<std::int32_t>::min();
    extreme.sequence = std::numeric_limits<std::uint64_t>::max();
    extreme.value = std::numeric_limits<std::int64_t>::min();
    extreme.count2 = std::numeric_limits<std::int64_t>::max();
    extreme.messageId = std::string(300, 'm') + binary;  // long: on the heap in ShortText
    extreme.transaction = binary;
    extreme.detail = binary + std::string(100000, 'x');
    extreme.actor = Name(std::string("\xff\xfe actor \x01", 10));
    extreme.channel = Name(std::string(1000, 'c'));
    events.push_back(extreme);
    Event empty;  // every name and text empty, every number 0
    empty.timeNs = originNs;
    events.push_back(empty);
    Event negative = empty;  // before the origin
    negative.timeNs = originNs - 5;
    negative.kind = EventKind::TaskSent;
    events.push_back(negative);
    return events;
}

void compareEvents(const Event& got, const Event& want, int index) {
    const QByteArray where = QByteArray("event ") + QByteArray::number(index);
    QVERIFY2(got.timeNs == want.timeNs, where);
    QVERIFY2(got.kind == want.kind, where);
    QVERIFY2(got.source == want.source, where);
    QVERIFY2(got.receiveCount == want.receiveCount, where);
    QVERIFY2(got.actor == want.actor, where);
    QVERIFY2(got.channel == want.channel, where);
    QVERIFY2(got.sequence == want.sequence, where);
    QVERIFY2(got.value == want.value, where);
    QVERIFY2(got.count2 == want.count2, where);
    QVERIFY2(got.messageId.view() == want.messageId.view(), where);
    QVERIFY2(got.transaction.view() == want.transaction.view(), where);
    QVERIFY2(got.detail == want.detail, where);
}

// The number `sql` (one row, one column) gives on `path`; -1 on an error.
std::int64_t sqliteNumber(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    std::int64_t n = -1;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
        n = sqlite3_column_int64(stmt, 0);
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return n;
}

}  // namespace

class RecordingRoundTrip : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::string path(const char* name) const {
        return dir_.filePath(QString::fromUtf8(name)).toStdString();
    }
    static void expectEvents(const std::string& file, const std::vector<Event>& want) {
        std::string error;
        auto reader = RecordingReader::open(file, &error);
        QVERIFY2(reader, error.c_str());
        QCOMPARE(reader->eventCount(), static_cast<std::uint64_t>(want.size()));
        std::vector<Event> got;
        QVERIFY2(reader->readEvents(1, reader->lastIndex() + 1, &got, &error), error.c_str());
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            compareEvents(got[i], want[i], static_cast<int>(i));
        }
    }

private Q_SLOTS:
    void everyKindAndFieldByteForByte_data() {
        QTest::addColumn<bool>("staged");
        QTest::newRow("rows") << false;
        QTest::newRow("staged, then rows") << true;
    }

    // Through rows; or staged (docs/recording.md), read back while staged,
    // then as the rows close() made of them.
    void everyKindAndFieldByteForByte() {
        QFETCH(bool, staged);
        const std::int64_t origin = 123456789;
        const std::string file = path(staged ? "staged.qsrun" : "all.qsrun");
        std::string error;
        RecordingWriterOptions options;
        options.stageAtEvents = staged ? 1 : 0;
        options.copyStagedWhileRunning = false;
        auto writer = RecordingWriter::create(file, origin, options, &error);
        QVERIFY2(writer, error.c_str());
        const std::vector<Event> want = sampleEvents(origin);
        // Handed over in three batches of different sizes.
        std::vector<Event> batch(want.begin(), want.begin() + 1);
        writer->append(batch);
        QVERIFY(batch.empty());
        batch.assign(want.begin() + 1, want.begin() + 20);
        writer->append(batch);
        batch.assign(want.begin() + 20, want.end());
        writer->append(batch);
        writer->setSetting("text", std::string("a\0b", 3));
        writer->setSetting("int", std::int64_t{-42});
        writer->setSetting("real", 0.1 + 0.2);
        writer->setOutcome("elapsed_seconds", 1.25);
        if (staged) {
            QVERIFY(test::waitUntil([&] { return writer->stats().eventsCommitted == want.size(); }));
            QCOMPARE(writer->stats().eventsStaged, static_cast<std::uint64_t>(want.size()));
            expectEvents(file, want);
        }
        QVERIFY2(writer->close(&error), error.c_str());
        const RecordingWriterStats stats = writer->stats();
        QCOMPARE(stats.eventsCommitted, static_cast<std::uint64_t>(want.size()));
        QCOMPARE(stats.eventsStaged, std::uint64_t{0});
        QCOMPARE(stats.eventsLost, std::uint64_t{0});
        // A finished recording is one file.
        QVERIFY(!std::filesystem::exists(file + "-wal"));

        auto reader = RecordingReader::open(file, &error);
        QVERIFY2(reader, error.c_str());
        QCOMPARE(reader->originNs(), origin);
        QCOMPARE(reader->eventCount(), static_cast<std::uint64_t>(want.size()));
        QCOMPARE(reader->lastIndex(), static_cast<std::uint64_t>(want.size()));
        QVERIFY(reader->finished());
        QCOMPARE(reader->settingText("text"), std::string("a\0b", 3));
        QCOMPARE(reader->settingInt("int"), std::int64_t{-42});
        QCOMPARE(std::get<double>(reader->settings().at("real")), 0.1 + 0.2);
        QCOMPARE(reader->outcomeDouble("elapsed_seconds"), 1.25);
        QCOMPARE(reader->stagedEvents(), std::uint64_t{0});
        expectEvents(file, want);
    }

    void rangesByIndexAndTime_data() { everyKindAndFieldByteForByte_data(); }

    // By index and by time, from rows; or from staged events, which have no
    // time index (docs/recording.md).
    void rangesByIndexAndTime() {
        QFETCH(bool, staged);
        const std::string file = path(staged ? "ranges-staged.qsrun" : "ranges.qsrun");
        std::string error;
        RecordingWriterOptions options;
        options.stageAtEvents = staged ? 1 : 0;
        options.copyStagedWhileRunning = false;
        auto writer = RecordingWriter::create(file, 0, options, &error);
        QVERIFY2(writer, error.c_str());
        // 10,000 events, 1 us apart, except that every 100th is 50 us late
        // (stream order is not time order): spans several time blocks.
        std::vector<Event> want;
        for (int i = 0; i < 10000; ++i) {
            Event e;
            e.kind = EventKind::Acked;
            e.timeNs = i * 1000 + (i % 100 == 0 ? 50000 : 0);
            e.sequence = static_cast<std::uint64_t>(i);
            want.push_back(e);
        }
        // Handed over in batches, as a pump does: several staged blobs.
        for (std::size_t i = 0; i < want.size(); i += 3000) {
            std::vector<Event> batch(want.begin() + static_cast<std::ptrdiff_t>(i),
                                     want.begin() + static_cast<std::ptrdiff_t>(
                                                        std::min(i + 3000, want.size())));
            writer->append(batch);
        }
        if (staged) {
            QVERIFY(test::waitUntil([&] { return writer->stats().eventsCommitted == want.size(); }));
        } else {
            QVERIFY2(writer->close(&error), error.c_str());
        }
        auto reader = RecordingReader::open(file, &error);
        QVERIFY2(reader, error.c_str());
        QCOMPARE(reader->stagedEvents(), staged ? std::uint64_t{10000} : std::uint64_t{0});

        std::vector<std::uint64_t> indexes;
        QVERIFY(reader->forEachEvent(
            4090, 4100, [&](std::uint64_t index, const Event&) { indexes.push_back(index); },
            &error));
        QCOMPARE(indexes.size(), std::size_t{10});
        QCOMPARE(indexes.front(), std::uint64_t{4090});
        QCOMPARE(indexes.back(), std::uint64_t{4099});

        // By time: exactly the events in [from, to], in index order.
        const std::int64_t from = 4050 * 1000;
        const std::int64_t to = 8200 * 1000;
        std::vector<std::uint64_t> expected;
        for (std::size_t i = 0; i < want.size(); ++i) {
            if (want[i].timeNs >= from && want[i].timeNs <= to) {
                expected.push_back(i + 1);
            }
        }
        indexes.clear();
        QVERIFY2(reader->forEachEventInTime(
                     from, to,
                     [&](std::uint64_t index, const Event& e) {
                         QVERIFY(e.timeNs >= from && e.timeNs <= to);
                         indexes.push_back(index);
                     },
                     &error),
                 error.c_str());
        QCOMPARE(indexes, expected);
        indexes.clear();
        QVERIFY(reader->forEachEventInTime(
            -100, -1, [&](std::uint64_t index, const Event&) { indexes.push_back(index); },
            &error));
        QVERIFY(indexes.empty());
    }

    // A reader opened while the writer still writes sees the committed prefix.
    void readWhileWriting() {
        const std::string file = path("live.qsrun");
        std::string error;
        auto writer = RecordingWriter::create(file, 0, {}, &error);
        QVERIFY2(writer, error.c_str());
        std::vector<Event> batch(500);
        writer->append(batch);
        QVERIFY(test::waitUntil([&] { return writer->stats().eventsCommitted == 500; }));
        auto reader = RecordingReader::open(file, &error);
        QVERIFY2(reader, error.c_str());
        QCOMPARE(reader->eventCount(), std::uint64_t{500});
        QVERIFY(!reader->finished());
        QVERIFY2(writer->close(&error), error.c_str());
    }

    // A busy stretch is staged; once the run is idle (a whole interval with
    // fewer than stageAtEvents / 64 events: here none), the writer copies it
    // into rows while the recording is still open.
    void stagedEventsBecomeRowsWhenIdle() {
        const std::string file = path("idle.qsrun");
        std::string error;
        RecordingWriterOptions options;
        options.stageAtEvents = 64;
        options.commitInterval = std::chrono::milliseconds(20);
        auto writer = RecordingWriter::create(file, 0, options, &error);
        QVERIFY2(writer, error.c_str());
        std::vector<Event> want(1000);
        for (std::size_t i = 0; i < want.size(); ++i) {
            want[i].kind = EventKind::Acked;
            want[i].timeNs = static_cast<std::int64_t>(i);
            want[i].messageId = "task-" + std::to_string(i / 8);
        }
        std::vector<Event> batch = want;
        writer->append(batch);  // one commit of 1,000 events: busy, staged
        QVERIFY(test::waitUntil([&] {
            const RecordingWriterStats st = writer->stats();
            return st.eventsCommitted == want.size() && st.eventsStaged == 0;
        }));
        auto reader = RecordingReader::open(file, &error);
        QVERIFY2(reader, error.c_str());
        QCOMPARE(reader->stagedEvents(), std::uint64_t{0});
        QCOMPARE(reader->eventCount(), static_cast<std::uint64_t>(want.size()));
        reader.reset();
        expectEvents(file, want);
        QVERIFY2(writer->close(&error), error.c_str());
    }

    // The writer remembers the row ids of the last 65,536 to 131,072 message
    // ids only (its memory stays flat): a message named again within them
    // keeps its row, one named again after them gets a second row with the
    // same text; every event reads back with its own text either way.
    void messageIdsRememberedWithinABound() {
        const std::string file = path("many-ids.qsrun");
        std::string error;
        RecordingWriterOptions options;
        options.stageAtEvents = 0;  // rows, where the ids are given
        auto writer = RecordingWriter::create(file, 0, options, &error);
        QVERIFY2(writer, error.c_str());
        std::vector<Event> want;
        auto name = [&want](const std::string& id) {
            Event e;
            e.kind = EventKind::Acked;
            e.timeNs = static_cast<std::int64_t>(want.size());
            e.messageId = id;
            want.push_back(e);
        };
        constexpr int kBound = 1 << 16;
        for (int i = 0; i < kBound + 10; ++i) {
            name("task-" + std::to_string(i));  // the first kBound are now the older ones
        }
        name("task-5");  // remembered (among the older): the same row
        for (int i = kBound + 10; i < 3 * kBound + 10; ++i) {
            name("task-" + std::to_string(i));  // task-5 among the older, then forgotten
        }
        name("task-6");  // forgotten: a second row
        name("task-5");  // forgotten too
        const std::int64_t distinct = 3 * kBound + 10;
        std::vector<Event> batch = want;
        writer->append(batch);
        QVERIFY2(writer->close(&error), error.c_str());
        expectEvents(file, want);
        QCOMPARE(sqliteNumber(file, "SELECT count(*) FROM message_ids"), distinct + 2);
        QCOMPARE(sqliteNumber(file, "SELECT count(DISTINCT message_id) FROM message_ids"),
                 distinct);
        QCOMPARE(sqliteNumber(file,
                              "SELECT count(DISTINCT e.message) FROM events e JOIN message_ids m "
                              "ON m.id = e.message WHERE m.message_id = 'task-5'"),
                 std::int64_t{2});
    }

    // A queue that is full loses whole batches, counts them and records the gap.
    void fullQueueIsCountedAsAGap() {
        const std::string file = path("gap.qsrun");
        std::string error;
        RecordingWriterOptions options;
        options.maxPendingEvents = 100;
        options.commitInterval = std::chrono::milliseconds(60000);  // nothing drains the queue
        auto writer = RecordingWriter::create(file, 0, options, &error);
        QVERIFY2(writer, error.c_str());
        std::vector<Event> batch(60);
        writer->append(batch);  // 60 queued
        batch.resize(60);
        writer->append(batch);  // would be 120: lost
        batch.resize(30);
        writer->append(batch);  // 90 queued
        QCOMPARE(writer->stats().eventsLost, std::uint64_t{60});
        QVERIFY2(writer->close(&error), error.c_str());
        auto reader = RecordingReader::open(file, &error);
        QVERIFY2(reader, error.c_str());
        QCOMPARE(reader->eventCount(), std::uint64_t{90});
        QCOMPARE(reader->lastIndex(), std::uint64_t{150});
        QCOMPARE(reader->lostEvents(), std::uint64_t{60});
        QCOMPARE(reader->gaps().size(), std::size_t{1});
        QCOMPARE(reader->gaps().front().firstIndex, std::uint64_t{61});
        QCOMPARE(reader->gaps().front().why, std::string("the writer could not keep up"));
    }
};

QTEST_APPLESS_MAIN(RecordingRoundTrip)
#include "tst_recording_round_trip.moc"
