// run::TextLog: a recent text is found with its one id; one not named for
// two generations gets a new id; every id ever handed out reads back its
// text exactly, from RAM or from the spill file; the limit refuses whole.
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <stdexcept>
#include <string>
#include <vector>

#include "run/spill_file.h"
#include "run/text_log.h"

using qs::run::SpillFile;
using qs::run::TextLog;

namespace {

// Lengths from 1 to ~300 bytes, and now and then one longer than a chunk.
std::string textOf(std::size_t i) {
    if (i % 20011 == 5)
        return std::string(70'000 + i % 7, static_cast<char>('a' + i % 26));
    return "text-" + std::to_string(i) + std::string(i % 300, static_cast<char>('A' + i % 26));
}

}  // namespace

class TstTextLog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void recentTextsAreFoundWithTheirId() {
        TextLog log(TextLog::kMaxTexts, 1000);
        std::vector<std::uint32_t> ids;
        for (std::size_t i = 0; i < 1000; ++i)
            ids.push_back(log.intern(textOf(i)));
        QCOMPARE(log.intern(""), TextLog::kEmpty);
        QVERIFY(log.text(TextLog::kEmpty).empty());
        QVERIFY(log.contains(""));
        for (std::size_t i = 0; i < 1000; ++i) {
            QCOMPARE(log.intern(textOf(i)), ids[i]);
            QCOMPARE(log.find(textOf(i)), ids[i]);
            QCOMPARE(log.text(ids[i]), std::string_view(textOf(i)));
        }
        QCOMPARE(log.size(), std::size_t{1000});
        QCOMPARE(log.find("never"), TextLog::kEmpty);
    }

    // A generation of 100 new texts: a text is found until two more
    // generations have begun, then it gets a new id; both read back.
    void anOldTextIsNumberedAgain() {
        TextLog log(TextLog::kMaxTexts, 100);
        const std::uint32_t first = log.intern("the old one");
        for (std::size_t i = 0; i < 150; ++i)
            log.intern(textOf(i));
        QCOMPARE(log.find("the old one"), first);  // the generation before: still found
        for (std::size_t i = 150; i < 250; ++i)
            log.intern(textOf(i));
        QCOMPARE(log.find("the old one"), TextLog::kEmpty);
        QVERIFY(!log.contains("the old one"));
        const std::uint32_t again = log.intern("the old one");
        QVERIFY(again != first);
        QCOMPARE(log.intern("the old one"), again);
        QCOMPARE(log.text(first), std::string_view("the old one"));
        QCOMPARE(log.text(again), std::string_view("the old one"));
    }

    // Spilling, with small generations: 200,000 texts (some longer than a
    // chunk), every id reads back in any order; RAM stays a fraction.
    void everyIdReadsBackFromTheSpillFile() {
        QTemporaryDir dir;
        std::string error;
        auto file = SpillFile::open(dir.path().toStdString(), &error);
        QVERIFY2(file, error.c_str());
        TextLog spilled(TextLog::kMaxTexts, 4096);
        spilled.spillTo(file);
        TextLog inRam(TextLog::kMaxTexts, 4096);
        const std::size_t count = 200'000;
        for (std::size_t i = 0; i < count; ++i) {
            QCOMPARE(spilled.intern(textOf(i)), static_cast<std::uint32_t>(i + 1));
            inRam.intern(textOf(i));
        }
        QCOMPARE(spilled.spillError(), std::string());
        QVERIFY(spilled.spilledBytes() > 0);
        QVERIFY2(spilled.memoryBytes() < inRam.memoryBytes() / 4,
                 qPrintable(QStringLiteral("%1 vs %2")
                                .arg(spilled.memoryBytes())
                                .arg(inRam.memoryBytes())));
        for (std::size_t k = 0; k < count; ++k) {
            const std::size_t i = (k * 7919) % count;  // all of them, out of order
            if (spilled.text(static_cast<std::uint32_t>(i + 1)) != textOf(i))
                QFAIL(qPrintable(QStringLiteral("text %1 differs").arg(i + 1)));
        }
        // The newest are found by text, the oldest are not.
        QCOMPARE(spilled.find(textOf(count - 1)), static_cast<std::uint32_t>(count));
        QCOMPARE(spilled.find(textOf(0)), TextLog::kEmpty);
    }

    void theLimitRefusesANewTextWhole() {
        TextLog log(3, 100);
        log.intern("a");
        log.intern("b");
        log.intern("c");
        QCOMPARE(log.room(), std::size_t{0});
        QVERIFY_THROWS_EXCEPTION(std::length_error, log.intern("d"));
        QCOMPARE(log.size(), std::size_t{3});
        QCOMPARE(log.find("d"), TextLog::kEmpty);
        QCOMPARE(log.intern("b"), std::uint32_t{2});  // known texts: fine at the limit
    }
};

QTEST_GUILESS_MAIN(TstTextLog)
#include "tst_text_log.moc"
