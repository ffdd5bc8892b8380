// The durable store under the queue engine: what survives a reopen, a torn or
// corrupt tail, compaction, group commit, and a second broker on the same
// directory. Real files in a temporary directory; no gRPC.
#include <QTemporaryDir>
#include <QTest>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include <zlib.h>

#include "broker/durable_log.h"
#include "broker/event_sink.h"
#include "broker/frame_checksum.h"
#include "broker/message_codec.h"
#include "broker/queue_engine.h"
#include "wait_until.h"

using namespace qs::broker;
namespace fs = std::filesystem;

namespace {

StoredMessage makeMessage(const std::string& id) {
    kubemq::QueueMessage wire;
    wire.set_clientid("producer");
    wire.set_body("body-" + id);
    StoredMessage message;
    message.content = encodeContent(wire, id);
    message.maxReceiveCount = 1024;
    return message;
}

std::string idOf(const StoredMessage& message) {
    return std::string(messageIdOf(message.content));
}

// An engine on a durable log in `directory`, as the broker runs it.
struct DurableEngine {
    explicit DurableEngine(const std::string& directory, SyncMode sync = SyncMode::Batch,
                           std::uint64_t floor = 16u << 20) {
        DurableLogOptions options;
        options.directory = directory;
        options.sync = sync;
        options.compactionFloorBytes = floor;
        options.log = [this](std::string_view line) { warnings.emplace_back(line); };
        RecoveredState state;
        log = DurableLog::open(options, &state, &error);
        if (log) {
            recovered = state.messageCount();
            engine.attachStore(*log, std::move(state));
            engine.start();
        }
    }
    ~DurableEngine() {
        engine.stop();
        if (log)
            log->close();
    }
    std::vector<StoredMessage> take(const std::string& channel, int max) {
        std::vector<StoredMessage> out;
        engine.collect(*engine.channel(channel), max, {}, out, Actor{});
        return out;
    }

    std::vector<std::string> warnings;
    std::string error;
    EventSink sink;
    std::unique_ptr<DurableLog> log;
    QueueEngine engine{sink};
    std::size_t recovered = 0;
};

std::vector<fs::path> logFiles(const std::string& directory) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(directory)) {
        if (entry.path().filename().string().starts_with("log-"))
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// The newest log file that holds records (the one just opened holds none).
fs::path lastFilledLog(const std::string& directory) {
    fs::path last;
    for (const auto& file : logFiles(directory)) {
        if (fs::file_size(file) > 8)
            last = file;
    }
    return last;
}

// Every record in the log files of `directory` so far, in order.
std::vector<StoreRecord> recordsOnFile(const std::string& directory) {
    std::vector<StoreRecord> records;
    for (const auto& file : logFiles(directory)) {
        std::ifstream in(file, std::ios::binary);
        const std::string data((std::istreambuf_iterator<char>(in)), {});
        std::size_t pos = 8;  // the file's magic
        StoreRecord record;
        std::size_t frameBytes = 0;
        while (pos < data.size() &&
               readFrame(std::string_view(data).substr(pos), &record, &frameBytes) ==
                   FrameCheck::Complete) {
            records.push_back(record);
            pos += frameBytes;
        }
    }
    return records;
}

}  // namespace

class TestDurableStore : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void messagesAndTheirStateSurviveAReopen() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        std::uint64_t ackedSequence = 0;
        {
            DurableEngine store(path);
            QVERIFY2(store.log, store.error.c_str());
            for (int i = 1; i <= 5; ++i)
                store.engine.send("orders", makeMessage("m" + std::to_string(i)), "p");
            StoredMessage limited = makeMessage("limited");
            limited.maxReceiveCount = 1;
            limited.setRouting("orders.dead", {});
            store.engine.send("policy", std::move(limited), "p");
            StoredMessage expiring = makeMessage("expiring");
            expiring.expirationSeconds = 3600;
            store.engine.send("policy", std::move(expiring), "p");
            StoredMessage delayed = makeMessage("delayed");
            delayed.delaySeconds = 3600;
            store.engine.send("later", std::move(delayed), "p");
            store.engine.channel("empty");  // created, never used

            auto taken = store.take("orders", 2);
            QCOMPARE(taken.size(), std::size_t(2));
            ackedSequence = taken[0].sequence;
            QVERIFY(store.engine.ack(*store.engine.channel("orders"), taken[0].sequence, {}));
            QVERIFY(store.engine.nack(*store.engine.channel("orders"), taken[1].sequence, {}));
            // m3 stays reserved at the "crash": ready again after the reopen.
            QCOMPARE(store.take("orders", 1).size(), std::size_t(1));
            // The limited message: received once, nacked: over its limit, dead-lettered.
            auto limitedTaken = store.take("policy", 1);
            QCOMPARE(idOf(limitedTaken.at(0)), std::string("limited"));
            QVERIFY(
                store.engine.nack(*store.engine.channel("policy"), limitedTaken[0].sequence, {}));
        }
        DurableEngine store(path);
        QVERIFY2(store.log, store.error.c_str());
        QVERIFY(store.warnings.empty());
        std::vector<std::string> names;
        for (const auto& channel : store.engine.channels())
            names.push_back(channel->name());
        QCOMPARE(names,
                 (std::vector<std::string>{"empty", "later", "orders", "orders.dead", "policy"}));
        auto orders = store.take("orders", 10);
        std::vector<std::string> ids;
        for (const auto& message : orders)
            ids.push_back(idOf(message));
        // m1 acked; m2 nacked to the tail with receive count 1; m3 back in place.
        QCOMPARE(ids, (std::vector<std::string>{"m3", "m4", "m5", "m2"}));
        QCOMPARE(orders[0].receiveCount, 1);  // as handed out: stored 0 + 1
        QCOMPARE(orders[3].receiveCount, 2);
        QCOMPARE(orders[3].sequence, std::uint64_t(6));
        QVERIFY(orders[0].sequence > ackedSequence);
        // Sequences continue after the restored ones.
        store.engine.send("orders", makeMessage("m6"), "p");
        QCOMPARE(store.engine.channel("orders")->stats().lastSequence, std::uint64_t(7));

        auto dead = store.take("orders.dead", 10);
        QCOMPARE(dead.size(), std::size_t(1));
        QCOMPARE(idOf(dead[0]), std::string("limited"));
        QVERIFY(dead[0].reRouted);
        QCOMPARE(dead[0].reRoutedFromQueue(), std::string("policy"));
        auto policy = store.take("policy", 10);
        QCOMPARE(policy.size(), std::size_t(1));
        QCOMPARE(idOf(policy[0]), std::string("expiring"));
        QVERIFY(policy[0].expirationAt > 0);
        QCOMPARE(policy[0].expirationSeconds, 3600);
        QCOMPARE(store.engine.delayedCount(), std::size_t(1));
        QCOMPARE(store.engine.channel("later")->stats().delayedMessages, std::uint64_t(1));
    }

    // With --sync always an ack's record is written to the OS before the ack
    // returns (a kill -9 keeps it), though its fsync may come later.
    void underAlwaysASettlementIsWrittenBeforeItReturns() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        DurableEngine store(path, SyncMode::Always);
        QVERIFY2(store.log, store.error.c_str());
        store.engine.send("orders", makeMessage("a1"), "p");
        store.engine.send("orders", makeMessage("a2"), "p");
        QCOMPARE(recordsOnFile(path).back().type, RecordType::Put);
        const auto taken = store.take("orders", 2);
        QVERIFY(store.engine.ack(*store.engine.channel("orders"), taken[0].sequence, {}));
        auto records = recordsOnFile(path);
        QCOMPARE(records.back().type, RecordType::Remove);
        QCOMPARE(records.back().sequence, taken[0].sequence);
        QVERIFY(store.engine.nack(*store.engine.channel("orders"), taken[1].sequence, {}));
        records = recordsOnFile(path);
        QCOMPARE(records.back().type, RecordType::Put);
        QCOMPARE(records.back().replacesSequence, taken[1].sequence);
    }

    void ackedMessagesAtTheTailKeepTheSequenceGoing() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        {
            DurableEngine store(path);
            for (int i = 1; i <= 5; ++i)
                store.engine.send("tail", makeMessage("t" + std::to_string(i)), "p");
            auto channel = store.engine.channel("tail");
            for (const auto& message : store.take("tail", 5)) {
                if (message.sequence >= 4)
                    QVERIFY(store.engine.ack(*channel, message.sequence, {}));
                else
                    QVERIFY(store.engine.giveBack(*channel, message.sequence, {}));
            }
            store.log->compactNow();  // the Puts of 4 and 5 are gone from the files
        }
        DurableEngine store(path);
        QCOMPARE(store.recovered, std::size_t(3));
        store.engine.send("tail", makeMessage("t6"), "p");
        const auto got = store.take("tail", 10);
        std::vector<std::uint64_t> sequences;
        for (const auto& message : got)
            sequences.push_back(message.sequence);
        QCOMPARE(sequences, (std::vector<std::uint64_t>{1, 2, 3, 6}));
        QCOMPARE(idOf(got.back()), std::string("t6"));
        QVERIFY(store.engine.ack(*store.engine.channel("tail"), 6, {}));
        QCOMPARE(store.engine.channel("tail")->stats().lastSequence, std::uint64_t(6));
    }

    void aDueDelayedMessageIsReleasedAfterAReopen() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        {
            DurableEngine store(path);
            StoredMessage delayed = makeMessage("soon");
            delayed.delaySeconds = 1;
            store.engine.send("later", std::move(delayed), "p");
        }
        DurableEngine store(path);
        QCOMPARE(store.recovered, std::size_t(1));
        std::vector<StoredMessage> got;
        QVERIFY(qs::test::waitUntil([&] {
            got = store.take("later", 1);
            return !got.empty();
        }));
        QCOMPARE(idOf(got[0]), std::string("soon"));
        QCOMPARE(store.engine.delayedCount(), std::size_t(0));
        QVERIFY(store.engine.ack(*store.engine.channel("later"), got[0].sequence, {}));
        store.engine.stop();
        store.log->close();
        DurableEngine again(path);
        QCOMPARE(again.recovered, std::size_t(0));  // released once, acked: gone for good
    }

    void aTornTailIsCutAndNeverLoaded_data() {
        QTest::addColumn<int>("cutBytes");
        std::string frame;  // the size of m10's frame (the values do not change it)
        appendPutFrame(frame, "orders", makeMessage("m10"), {});
        QTest::newRow("inside the last payload") << 5;
        QTest::newRow("inside the last header") << static_cast<int>(frame.size()) - 4;
    }
    void aTornTailIsCutAndNeverLoaded() {
        QFETCH(int, cutBytes);
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        {
            DurableEngine store(path);
            for (int i = 1; i <= 10; ++i)
                store.engine.send("orders", makeMessage("m" + std::to_string(i)), "p");
        }
        const fs::path last = lastFilledLog(path);
        const auto size = fs::file_size(last);
        fs::resize_file(last, size - static_cast<std::uintmax_t>(cutBytes));
        DurableEngine store(path);
        QVERIFY2(store.log, store.error.c_str());
        QCOMPARE(store.warnings.size(), std::size_t(1));
        QVERIFY2(store.warnings[0].find("torn tail") != std::string::npos,
                 store.warnings[0].c_str());
        const auto got = store.take("orders", 20);
        QCOMPARE(got.size(), std::size_t(9));
        for (std::size_t i = 0; i < got.size(); ++i)
            QCOMPARE(idOf(got[i]), "m" + std::to_string(i + 1));
        QVERIFY(fs::file_size(last) < size - static_cast<std::uintmax_t>(cutBytes) + 1);
    }

    void aCorruptRecordIsCutAndNeverLoaded() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        {
            DurableEngine store(path);
            for (int i = 1; i <= 10; ++i)
                store.engine.send("orders", makeMessage("m" + std::to_string(i)), "p");
        }
        const fs::path last = lastFilledLog(path);
        {
            // Flip one byte of the last message's body ("body-m10").
            std::fstream file(last, std::ios::in | std::ios::out | std::ios::binary);
            const auto size = static_cast<std::streamoff>(fs::file_size(last));
            file.seekg(size - 30);
            std::string tail(30, '\0');
            file.read(tail.data(), 30);
            const auto at = tail.find("m10");
            QVERIFY(at != std::string::npos);
            file.seekp(size - 30 + static_cast<std::streamoff>(at));
            file.put('X');
        }
        DurableEngine store(path);
        QVERIFY2(store.log, store.error.c_str());
        QCOMPARE(store.warnings.size(), std::size_t(1));
        QVERIFY2(store.warnings[0].find("corrupt tail") != std::string::npos,
                 store.warnings[0].c_str());
        const auto got = store.take("orders", 20);
        QCOMPARE(got.size(), std::size_t(9));
        QCOMPARE(idOf(got.back()), std::string("m9"));
    }

    // The frames' checksum is the on-disk format: ISA-L must compute zlib's CRC-32
    // (which wrote every store before it), at every length and alignment.
    void theFrameChecksumIsZlibsCrc32() {
        QCOMPARE(frameChecksum("123456789"), 0xCBF43926u);  // CRC-32's check value
        QCOMPARE(frameChecksum({}), 0u);
        std::mt19937 random(14);
        std::string data(5000, '\0');
        for (auto& byte : data)
            byte = static_cast<char>(random());
        for (std::size_t offset = 0; offset < 16; ++offset) {
            for (std::size_t length = 0; length + offset <= data.size(); length += 1 + length / 8) {
                const std::string_view part = std::string_view(data).substr(offset, length);
                const auto zlib = static_cast<std::uint32_t>(
                    ::crc32(0L, reinterpret_cast<const Bytef*>(part.data()),
                            static_cast<uInt>(part.size())));
                QCOMPARE(frameChecksum(part), zlib);
            }
        }
    }

    // A store as the broker wrote it before ISA-L: every frame's checksum by
    // zlib. It opens with every message, and a frame zlib's CRC rejects is cut.
    void aStoreWrittenWithZlibChecksumsReopens() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        std::string file = "QSBLOG01";
        appendChannelFrame(file, "orders", 1, 0);
        for (int i = 1; i <= 5; ++i) {
            StoredMessage message = makeMessage("z" + std::to_string(i));
            message.sequence = static_cast<std::uint64_t>(i);
            std::string frame;
            appendPutFrame(frame, "orders", message, {});
            const auto crc = static_cast<std::uint32_t>(
                ::crc32(0L, reinterpret_cast<const Bytef*>(frame.data() + kFrameHeaderBytes),
                        static_cast<uInt>(frame.size() - kFrameHeaderBytes)));
            std::memcpy(frame.data() + 4, &crc, 4);
            if (i == 5)
                frame[4] = static_cast<char>(frame[4] ^ 1);  // a checksum zlib would reject
            file += frame;
        }
        { std::ofstream(path + "/log-00000000000000000001", std::ios::binary) << file; }
        DurableEngine store(path);
        QVERIFY2(store.log, store.error.c_str());
        QCOMPARE(store.recovered, std::size_t(4));
        QCOMPARE(store.warnings.size(), std::size_t(1));
        QVERIFY2(store.warnings[0].find("corrupt tail") != std::string::npos,
                 store.warnings[0].c_str());
        const auto got = store.take("orders", 10);
        QCOMPARE(got.size(), std::size_t(4));
        for (std::size_t i = 0; i < got.size(); ++i)
            QCOMPARE(idOf(got[i]), "z" + std::to_string(i + 1));
    }

    // The Put and Remove frames' bytes, field by field as the files hold them
    // (store_record.h): an encoder change must not change the format.
    void theRecordLayoutIsUnchanged() {
        StoredMessage message;
        message.sequence = 7;
        message.timestamp = 1001;
        message.expirationAt = 2002;
        message.delayedTo = 3003;
        message.receiveCount = 4;
        message.expirationSeconds = 5;
        message.delaySeconds = 6;
        message.maxReceiveCount = 8;
        message.reRouted = true;
        message.setRouting("dead", "from");
        message.content = "content";
        std::string expected;
        auto value = [&](auto v) { expected.append(reinterpret_cast<const char*>(&v), sizeof(v)); };
        auto text = [&](std::string_view t) {
            value(static_cast<std::uint32_t>(t.size()));
            expected.append(t);
        };
        value(std::uint8_t(1));  // Put
        text("orders");
        value(std::uint64_t(7));
        value(std::int64_t(1001));
        value(std::int64_t(2002));
        value(std::int64_t(3003));
        for (std::int32_t v : {4, 5, 6, 8})
            value(v);
        value(std::uint8_t(1));
        text("dead");
        text("from");
        text("content");
        text("source");  // the origin: replaces source/3, releases delay 9
        value(std::uint64_t(3));
        value(std::uint64_t(9));
        std::string frame;
        appendPutFrame(frame, "orders", message, RecordOrigin{"source", 3, 9});
        QCOMPARE(frame.size(), kFrameHeaderBytes + expected.size());
        QCOMPARE(frame.substr(kFrameHeaderBytes), expected);
        std::uint32_t header[2] = {};
        std::memcpy(header, frame.data(), 8);
        QCOMPARE(header[0], static_cast<std::uint32_t>(expected.size()));
        QCOMPARE(header[1], frameChecksum(expected));

        expected.clear();
        value(std::uint8_t(2));  // Remove
        text("orders");
        value(std::uint64_t(42));
        frame.clear();
        appendRemoveFrame(frame, "orders", 42);
        QCOMPARE(frame.substr(kFrameHeaderBytes), expected);
        QCOMPARE(storedFootprint("orders", message),
                 kFrameHeaderBytes + 1 + 4 + 6 + 49 + 8 + 8 + 11 + 20);
    }

    void garbageFilesAreRefusedOrCutWithoutACrash() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        { std::ofstream(path + "/log-00000000000000000001") << "not a queuescope store at all"; }
        {
            DurableEngine store(path);
            QVERIFY2(store.log, store.error.c_str());
            QCOMPARE(store.recovered, std::size_t(0));
            QCOMPARE(store.warnings.size(), std::size_t(1));
        }
        std::ofstream(path + "/snapshot-00000000000000000009") << "QSBSNP01garbage";
        DurableEngine store(path);
        QVERIFY(!store.log);
        QVERIFY2(store.error.find("snapshot") != std::string::npos, store.error.c_str());
    }

    void aSecondBrokerOnTheSameDirectoryIsRefused() {
        QTemporaryDir dir;
        DurableEngine first(dir.path().toStdString());
        QVERIFY(first.log);
        DurableEngine second(dir.path().toStdString());
        QVERIFY(!second.log);
        QVERIFY2(second.error.find("in use") != std::string::npos, second.error.c_str());
    }

    void compactionKeepsTheFilesWithinTwiceTheLiveData() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        constexpr std::uint64_t kFloor = 64 * 1024;
        {
            DurableEngine store(path, SyncMode::None, kFloor);
            for (int round = 0; round < 20; ++round) {
                for (int i = 0; i < 500; ++i) {
                    store.engine.send("churn", makeMessage("c" + std::to_string(round * 500 + i)),
                                      "p");
                }
                for (const auto& message : store.take("churn", 490))
                    store.engine.ack(*store.engine.channel("churn"), message.sequence, {});
                store.log->compactIfWorthIt();
                QVERIFY2(store.log->diskBytes() <= 2 * store.log->liveBytes() + kFloor,
                         qPrintable(QStringLiteral("disk %1 live %2")
                                        .arg(store.log->diskBytes())
                                        .arg(store.log->liveBytes())));
            }
        }
        // Compaction ran: one snapshot, the logs before it gone. Counted once
        // the store is closed: its background compactor may be between
        // writing a newer snapshot and removing the older one until then.
        std::size_t snapshots = 0;
        for (const auto& entry : fs::directory_iterator(path))
            snapshots += entry.path().filename().string().starts_with("snapshot-");
        QCOMPARE(snapshots, std::size_t(1));
        DurableEngine store(path, SyncMode::None, kFloor);
        QCOMPARE(store.recovered, std::size_t(200));
        const auto left = store.take("churn", 1000);
        QCOMPARE(left.size(), std::size_t(200));
        for (std::size_t i = 1; i < left.size(); ++i)
            QVERIFY(left[i - 1].sequence < left[i].sequence);
        QCOMPARE(store.engine.channel("churn")->stats().lastSequence, std::uint64_t(10000));
    }

    void compactionUnderConcurrentTrafficLosesNothing() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        constexpr int kThreads = 4;
        constexpr int kEach = 2000;
        {
            DurableEngine store(path, SyncMode::None, 16 * 1024);
            std::vector<std::thread> producers;
            for (int t = 0; t < kThreads; ++t) {
                producers.emplace_back([&store, t] {
                    for (int i = 0; i < kEach; ++i) {
                        const QueueEngine::CommitScope scope(store.engine);
                        store.engine.send("q" + std::to_string(t),
                                          makeMessage(std::to_string(t) + "-" + std::to_string(i)),
                                          "p");
                        // Every other message goes through a nack (a move) first.
                        if (i % 2 == 0) {
                            auto got = store.take("q" + std::to_string(t), 1);
                            if (!got.empty())
                                store.engine.nack(*store.engine.channel("q" + std::to_string(t)),
                                                  got[0].sequence, {});
                        }
                    }
                });
            }
            std::thread compactor([&store] {
                for (int i = 0; i < 20; ++i)
                    store.log->compactNow();
            });
            for (auto& producer : producers)
                producer.join();
            compactor.join();
        }
        DurableEngine store(path);
        QCOMPARE(store.recovered, std::size_t(kThreads * kEach));
        for (int t = 0; t < kThreads; ++t) {
            std::set<std::string> ids;
            for (const auto& message : store.take("q" + std::to_string(t), kEach * 2))
                ids.insert(idOf(message));
            QCOMPARE(ids.size(), std::size_t(kEach));
        }
    }

    void deletedChannelsStayDeleted() {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        {
            DurableEngine store(path);
            store.engine.send("gone", makeMessage("a"), "p");
            StoredMessage delayed = makeMessage("b");
            delayed.delaySeconds = 3600;
            store.engine.send("gone", std::move(delayed), "p");
            QVERIFY(store.engine.deleteChannel("gone"));
            store.engine.send("gone", makeMessage("c"), "p");  // a new channel of that name
        }
        DurableEngine store(path);
        QCOMPARE(store.recovered, std::size_t(1));
        QCOMPARE(store.engine.delayedCount(), std::size_t(0));
        const auto got = store.take("gone", 10);
        QCOMPARE(got.size(), std::size_t(1));
        QCOMPARE(idOf(got[0]), std::string("c"));
        QCOMPARE(got[0].sequence, std::uint64_t(1));
    }
};

QTEST_APPLESS_MAIN(TestDurableStore)
#include "tst_durable_store.moc"
