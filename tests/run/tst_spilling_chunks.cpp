// SpillingChunks and SpillFile: old chunks leave RAM for a nameless file and
// read back exactly, in any order, through the small cache; a folder that
// cannot hold the file, or a write the system refuses, loses nothing.
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <sys/resource.h>

#include <csignal>
#include <cstdint>
#include <random>
#include <vector>

#include "run/first_from_event.h"
#include "run/spill_file.h"
#include "run/spilling_chunks.h"

using namespace qs::run;

namespace {

struct Entry {
    std::uint32_t event;
    std::uint32_t payload;
};

constexpr std::size_t kChunk = 64;
using Entries = SpillingChunks<Entry, kChunk>;

Entry entryAt(std::size_t i) {
    return {static_cast<std::uint32_t>(i / 3), static_cast<std::uint32_t>(i * 2654435761u)};
}

void fill(Entries& entries, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i)
        entries.push_back(entryAt(i));
}

QString everyDifference(const Entries& entries, std::size_t count) {
    if (entries.size() != count)
        return QStringLiteral("size %1, not %2").arg(entries.size()).arg(count);
    std::mt19937 random(5);
    std::vector<std::size_t> order(count);
    for (std::size_t i = 0; i < count; ++i)
        order[i] = i;
    std::shuffle(order.begin(), order.end(), random);  // defeats the cache on purpose
    for (const std::size_t i : order) {
        const Entry e = entries[i];
        if (e.event != entryAt(i).event || e.payload != entryAt(i).payload)
            return QStringLiteral("entry %1 differs").arg(i);
    }
    return {};
}

// Limits the size of any file this process writes, for as long as it lives.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        std::signal(SIGXFSZ, SIG_IGN);  // a refused write fails with EFBIG instead
        getrlimit(RLIMIT_FSIZE, &before_);
        rlimit limit = before_;
        limit.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    ~FileSizeLimit() { setrlimit(RLIMIT_FSIZE, &before_); }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit before_{};
};

}  // namespace

class TstSpillingChunks : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void withoutAFileEverythingStaysInRam() {
        Entries entries;
        fill(entries, 10 * kChunk + 5);
        QCOMPARE(entries.spilledChunks(), std::size_t{0});
        QCOMPARE(everyDifference(entries, 10 * kChunk + 5), QString());
    }

    // Only the newest full chunks and the one being filled stay; the rest
    // reads back exactly in any order, through a cache of a few chunks.
    void oldChunksLeaveRamAndReadBack() {
        QTemporaryDir dir;
        std::string error;
        auto file = SpillFile::open(dir.path().toStdString(), &error);
        QVERIFY2(file, error.c_str());
        Entries inRam;
        Entries spilling;
        spilling.spillTo(file, 2);
        const std::size_t count = 40 * kChunk + 17;
        fill(inRam, count);
        fill(spilling, count);
        QCOMPARE(spilling.spilledChunks(), std::size_t{40 - 2});
        QCOMPARE(file->size(), std::uint64_t{38 * kChunk * sizeof(Entry)});
        QCOMPARE(spilling.spilledBytes(), file->size());
        QVERIFY(spilling.memoryBytes() < inRam.memoryBytes() / 4);
        QCOMPARE(everyDifference(spilling, count), QString());
        QCOMPARE(spilling.back().payload, entryAt(count - 1).payload);
        QCOMPARE(spilling.spillError(), std::string());
        // Reading filled at most the cache: still a fraction of the whole.
        QVERIFY(spilling.memoryBytes() < inRam.memoryBytes() / 4);
    }

    // A column changed in place: spilled chunks come back to be changed, a
    // few stay warm, the rest go back over their copies. Every value reads
    // back as a plain vector says, and the file does not grow.
    void changesToSpilledChunksReadBack() {
        QTemporaryDir dir;
        std::string error;
        auto file = SpillFile::open(dir.path().toStdString(), &error);
        QVERIFY2(file, error.c_str());
        Entries column;
        column.spillTo(file, 2);
        std::vector<Entry> plain;
        const std::size_t count = 60 * kChunk + 9;
        for (std::size_t i = 0; i < count; ++i) {
            column.push_back(entryAt(i));
            plain.push_back(entryAt(i));
        }
        const std::uint64_t fileSize = file->size();
        std::mt19937 random(11);
        std::uniform_int_distribution<std::size_t> any(0, count - 1);
        for (std::uint32_t n = 0; n < 5000; ++n) {
            // Now and then the same chunk again, as a backlog is drained in order.
            const std::size_t i = n % 7 == 0 ? (n * 13) % count : any(random);
            const Entry changed{n, static_cast<std::uint32_t>(i)};
            column.set(i, changed);
            plain[i] = changed;
            if (n % 97 == 0) {
                const std::size_t j = any(random);
                QCOMPARE(column[j].event, plain[j].event);
                QCOMPARE(column[j].payload, plain[j].payload);
            }
        }
        QCOMPARE(file->size(), fileSize);
        QCOMPARE(column.spillError(), std::string());
        for (std::size_t i = 0; i < count; ++i) {
            QCOMPARE(column[i].event, plain[i].event);
            QCOMPARE(column[i].payload, plain[i].payload);
        }
        for (std::size_t k = 0; k < column.chunkCount(); ++k) {
            QCOMPARE(column.chunkFront(k).payload, plain[k * kChunk].payload);
            QCOMPARE(column.chunk(k).front().payload, plain[k * kChunk].payload);
            QCOMPARE(column.chunk(k).back().payload,
                     plain[std::min(count, (k + 1) * kChunk) - 1].payload);
        }
        // In RAM: the newest chunks, the warm ones and the cache, no more.
        const std::size_t most = (2 + 1 + Entries::kWarmChunks + Entries::kCachedChunks) * kChunk *
                                 sizeof(Entry);
        QVERIFY2(column.memoryBytes() < most + 4096, qPrintable(QString::number(column.memoryBytes())));
        Entries grown;
        grown.growTo(3, entryAt(7));
        QCOMPARE(grown.size(), std::size_t{3});
        QCOMPARE(grown[2].payload, entryAt(7).payload);
    }

    // Writing a changed chunk back is refused: it stays in RAM with the
    // change, spilling stops with the reason, nothing is lost.
    void aRefusedWriteBackLosesNothing() {
        QTemporaryDir dir;
        std::string error;
        auto file = SpillFile::open(dir.path().toStdString(), &error);
        QVERIFY(file);
        Entries column;
        column.spillTo(file, 0);
        const std::size_t count = 40 * kChunk;
        fill(column, count);
        QCOMPARE(column.spillError(), std::string());
        std::vector<Entry> plain;
        for (std::size_t i = 0; i < count; ++i)
            plain.push_back(entryAt(i));
        {
            FileSizeLimit limit(5 * kChunk * sizeof(Entry));  // chunks 5 and later cannot be written
            for (std::size_t k = 10; k < 30; ++k) {
                const Entry changed{static_cast<std::uint32_t>(k), 1};
                column.set(k * kChunk + 1, changed);
                plain[k * kChunk + 1] = changed;
            }
        }
        QVERIFY2(column.spillError().find("File too large") != std::string::npos,
                 column.spillError().c_str());
        for (std::size_t i = 0; i < count; ++i) {
            QCOMPARE(column[i].event, plain[i].event);
            QCOMPARE(column[i].payload, plain[i].payload);
        }
    }

    // Spilling can start late: what was there leaves RAM at once.
    void spillingStartsLate() {
        QTemporaryDir dir;
        std::string error;
        Entries entries;
        fill(entries, 9 * kChunk);
        entries.spillTo(SpillFile::open(dir.path().toStdString(), &error), 0);
        QCOMPARE(entries.spilledChunks(), std::size_t{8});  // all but the newest
        QCOMPARE(everyDifference(entries, 9 * kChunk), QString());
    }

    // The search by event reads the chunks' first entries from RAM, then one
    // chunk: the same answer as a plain search over everything.
    void searchByEventAgreesWithAPlainSearch() {
        QTemporaryDir dir;
        std::string error;
        Entries spilling;
        spilling.spillTo(SpillFile::open(dir.path().toStdString(), &error), 1);
        std::vector<Entry> plain;
        const std::size_t count = 25 * kChunk + 3;
        fill(spilling, count);
        for (std::size_t i = 0; i < count; ++i)
            plain.push_back(entryAt(i));
        for (std::uint64_t event = 0; event <= count / 3 + 2; ++event)
            QCOMPARE(firstEntryFromEvent(spilling, event), firstEntryFromEvent(plain, event));
        Entries empty;
        QCOMPARE(firstEntryFromEvent(empty, 5), std::size_t{0});
    }

    // The file has no name: the folder stays empty while it is in use.
    void theFileLeavesNothingInTheFolder() {
        QTemporaryDir dir;
        std::string error;
        Entries entries;
        entries.spillTo(SpillFile::open(dir.path().toStdString(), &error), 0);
        fill(entries, 5 * kChunk);
        QVERIFY(entries.spilledChunks() > 0);
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList());
    }

    void aFolderThatCannotHoldTheFileIsNamed() {
        std::string error;
        QVERIFY(!SpillFile::open("/nonexistent/queuescope", &error));
        QVERIFY2(error.find("/nonexistent/queuescope: ") == 0, error.c_str());
        QVERIFY(!SpillFile::open("", &error));
        QVERIFY(!error.empty());
    }

    // The system refuses a write (here: a file size limit): spilling stops
    // with the reason, the chunks stay in RAM, nothing is lost.
    void aRefusedWriteLosesNothing() {
        QTemporaryDir dir;
        std::string error;
        auto file = SpillFile::open(dir.path().toStdString(), &error);
        QVERIFY(file);
        Entries entries;
        entries.spillTo(file, 0);
        const std::size_t count = 30 * kChunk;
        {
            FileSizeLimit limit(5 * kChunk * sizeof(Entry));
            fill(entries, count);
        }
        QCOMPARE(entries.spilledChunks(), std::size_t{5});
        QCOMPARE(file->size(), std::uint64_t{5 * kChunk * sizeof(Entry)});
        QVERIFY2(entries.spillError().find("File too large") != std::string::npos,
                 entries.spillError().c_str());
        QCOMPARE(everyDifference(entries, count), QString());
        // It does not start again by itself.
        fill(entries, 0);
        entries.push_back(entryAt(count));
        QCOMPARE(entries.spilledChunks(), std::size_t{5});
    }
};

QTEST_GUILESS_MAIN(TstSpillingChunks)
#include "tst_spilling_chunks.moc"
