// The named fields of events (events/event_fields.h) checked against what real
// runs produce: every shipped scenario, played headless on the embedded broker,
// sets only the slots its kinds name, and its JSON Lines export (named keys)
// reads back to exactly the events of its recording (raw slots). A producer
// that starts to use a slot without naming it fails here.
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <fstream>

#include "events/event_fields.h"
#include "events/event_log_reader.h"
#include "recording/recording_reader.h"
#include "runner_test_support.h"

using namespace qs;
using namespace qs::test;

namespace {

QString describe(const Event& e, std::uint64_t index) {
    return QStringLiteral("event %1 (%2): value %3 count2 %4 detail \"%5\"")
        .arg(index)
        .arg(QString::fromUtf8(toString(e.kind).data(), static_cast<int>(toString(e.kind).size())))
        .arg(e.value)
        .arg(e.count2)
        .arg(QString::fromStdString(e.detail));
}

bool sameExceptTime(const Event& x, const Event& y) {
    return x.kind == y.kind && x.source == y.source && x.actor == y.actor &&
           x.channel == y.channel && x.messageId == y.messageId && x.sequence == y.sequence &&
           x.receiveCount == y.receiveCount && x.transaction == y.transaction &&
           x.value == y.value && x.count2 == y.count2 && x.detail == y.detail;
}

}  // namespace

class TstEventFieldsInRuns : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyScenarioUsesOnlyNamedSlots_data() {
        QTest::addColumn<QString>("file");
        for (const char* file :
             {"01-classic-work-queue.json", "02-created-then-deleted-channel.json",
              "03-forgot-to-ack.json", "04-worker-crash.json", "05-poison-dead-letter.json",
              "06-live-tuning.json"}) {
            QTest::newRow(file) << QString::fromLatin1(file);
        }
    }

    void everyScenarioUsesOnlyNamedSlots() {
        QFETCH(QString, file);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        runner::RunOptions options;
        options.recordingPath = dir.filePath(QStringLiteral("run.qsrun")).toStdString();
        options.eventsJsonlPath = dir.filePath(QStringLiteral("run.jsonl")).toStdString();
        const runner::RunResult r = runScenario(shippedScenario(file.toStdString()), options);
        QVERIFY2(r.error.empty(), r.error.c_str());

        std::string error;
        auto reader = recording::RecordingReader::open(options.recordingPath, &error);
        QVERIFY2(reader, error.c_str());
        std::vector<Event> recorded;
        QVERIFY2(reader->readEvents(1, reader->lastIndex() + 1, &recorded, &error), error.c_str());
        QVERIFY(recorded.size() > 20);
        for (std::size_t i = 0; i < recorded.size(); ++i) {
            const Event& e = recorded[i];
            const EventFieldNames names = eventFieldNames(e.kind);
            const bool unnamedUsed = (names.value.empty() && e.value != 0) ||
                                     (names.count2.empty() && e.count2 != 0) ||
                                     (names.detail.empty() && !e.detail.empty());
            QVERIFY2(!unnamedUsed, qPrintable(describe(e, i + 1)));
        }

        std::ifstream jsonl(options.eventsJsonlPath);
        std::vector<Event> exported;
        const EventLogReadResult read = readEventsJsonLines(jsonl, exported);
        QVERIFY2(read.ok, read.error.c_str());
        QCOMPARE(exported.size(), recorded.size());
        for (std::size_t i = 0; i < recorded.size(); ++i) {
            QVERIFY2(sameExceptTime(exported[i], recorded[i]),
                     qPrintable(describe(exported[i], i + 1) + QStringLiteral(" vs ") +
                                describe(recorded[i], i + 1)));
        }
    }
};

QTEST_APPLESS_MAIN(TstEventFieldsInRuns)
#include "tst_event_fields_in_runs.moc"
