// A Run whose old events, change lists, trail, checkpoint pages and the
// head's old message rows leave RAM for a spill file answers exactly as one
// that keeps everything: every event, the state at random instants, stepping
// forward, every message's journey and head row. A folder that
// cannot hold the file, or a refused write, keeps everything in RAM and says
// why; nothing is lost.
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <sys/resource.h>

#include <csignal>
#include <random>
#include <string>
#include <vector>

#include "run/run.h"
#include "run_test_events.h"
#include "run_test_support.h"

using namespace qs;
using namespace qs::test;

namespace {

// A busy pool, by hand: 9,000 tasks handed out to 6 workers in batches,
// about one in five rejected once (redelivered to another worker), one in
// fifty a poison dead-lettered after 2 receives, a crash now and then.
// About 60,000 events: several chunks of every per-event list.
std::vector<Event> busyTimeline() {
    std::vector<Event> v;
    std::mt19937 random(42);
    std::int64_t t = 1000;
    std::uint64_t sequence = 0;
    for (int task = 0; task < 9000; ++task) {
        const std::string id = "task-" + std::to_string(task);
        v.push_back(makeEvent(t++, EventKind::TaskSent, id));
        const bool poison = task % 50 == 7;
        const bool rejectOnce = random() % 5 == 0;
        for (int receive = 1; receive <= 2; ++receive) {
            const std::string worker = "worker-" + std::to_string(random() % 6);
            const Event a = assigned(t++, id, worker, ++sequence, receive);
            v.push_back(a);
            v.push_back(settled(t++, EventKind::WorkStarted, a));
            if (poison || (rejectOnce && receive == 1)) {
                v.push_back(settled(t++, EventKind::Rejected, a));
                continue;
            }
            v.push_back(settled(t++, EventKind::WorkFinished, a));
            v.push_back(settled(t++, EventKind::Acked, a));
            break;
        }
        if (task % 997 == 500)
            v.push_back(makeEvent(t++, EventKind::WorkerCrashed, {}, "worker-3"));
    }
    return v;
}

RunModelOptions options(const std::string& spillFolder) {
    RunModelOptions o;
    o.ledger.maxReceiveCount = 2;
    o.ledger.maxFinishedMessages = 1000;  // the head ledger forgets; the run does not
    o.checkpointInterval = 4096;
    o.spill.directory = spillFolder;
    o.spill.chunksInRam = 0;  // spill all but the chunk being filled
    return o;
}

QString firstDifference(const Run& spilled, const Run& inRam, std::mt19937& random) {
    std::uint64_t trackedEvents = 0;  // events whose message the ledger took
    if (spilled.eventCount() != inRam.eventCount())
        return QStringLiteral("event counts differ");
    for (std::uint64_t i = 0; i < inRam.eventCount(); ++i) {
        if (!sameEvent(spilled.event(i), inRam.event(i)) ||
            spilled.eventKind(i) != inRam.eventKind(i) ||
            spilled.eventTimeNs(i) != inRam.eventTimeNs(i))
            return QStringLiteral("event %1 differs").arg(i);
        const Event e = inRam.event(i);
        const auto named = e.messageId.empty() ? std::nullopt : inRam.messageIndex(e.messageId.view());
        if (spilled.messageOfEvent(i) != named || inRam.messageOfEvent(i) != named)
            return QStringLiteral("event %1 names another message").arg(i);
        // Without the search by id: the same message, or none.
        if (const auto tracked = spilled.trackedMessageOfEvent(i)) {
            if (tracked != named)
                return QStringLiteral("event %1's tracked message is another").arg(i);
            ++trackedEvents;
        }
    }
    if (trackedEvents == 0)
        return QStringLiteral("no event's message was tracked");
    for (int k = 0; k < 60; ++k) {
        const std::uint64_t n = random() % (inRam.eventCount() + 1);
        const std::string d = differenceBetween(spilled.stateAfter(n), inRam.stateAfter(n));
        if (!d.empty())
            return QStringLiteral("after %1 events: %2").arg(n).arg(QString::fromStdString(d));
    }
    for (std::uint32_t m = 0; m < inRam.messageCount(); m += 7) {
        if (spilled.messageEvents(m) != inRam.messageEvents(m))
            return QStringLiteral("message %1's journey differs").arg(m);
    }
    if (spilled.messageCount() != inRam.messageCount())
        return QStringLiteral("message counts differ");
    // The head's rows and their columns, every one (most read back from the file).
    for (std::uint32_t m = 0; m < inRam.messageCount(); ++m) {
        const std::string id = inRam.messageId(m);
        if (!(spilled.messageNow(m) == inRam.messageNow(m)) || spilled.messageId(m) != id ||
            spilled.messageIndex(id) != std::optional<std::uint32_t>(m) ||
            spilled.messageFirstEvent(m) != inRam.messageFirstEvent(m))
            return QStringLiteral("message %1 differs at the head").arg(m);
    }
    return {};
}

// A backlog: 3,000 tasks sent, then handed out in order, a tenth rejected
// once (back at the tail), the rest acked. Most ids are named again long
// after their text left a small text log's generations.
std::vector<Event> backlogTimeline() {
    std::vector<Event> v;
    std::int64_t t = 1000;
    for (int task = 0; task < 3000; ++task)
        v.push_back(makeEvent(t++, EventKind::TaskSent, "backlog-" + std::to_string(task)));
    std::uint64_t sequence = 0;
    for (int task = 0; task < 3000; ++task) {
        const std::string id = "backlog-" + std::to_string(task);
        const Event a = assigned(t++, id, "worker-" + std::to_string(task % 4), ++sequence, 1);
        v.push_back(a);
        v.push_back(settled(t++, task % 10 == 3 ? EventKind::Rejected : EventKind::Acked, a));
    }
    for (int task = 3; task < 3000; task += 10) {  // the rejected ones, again
        const std::string id = "backlog-" + std::to_string(task);
        const Event a = assigned(t++, id, "worker-0", ++sequence, 2);
        v.push_back(a);
        v.push_back(settled(t++, EventKind::Acked, a));
    }
    return v;
}

}  // namespace

class TstRunSpill : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        events_ = busyTimeline();
        inRam_ = std::make_unique<Run>(options({}));
        inRam_->append(events_);
        QVERIFY(events_.size() > 50'000);
    }

    void aSpilledRunAnswersAsOneInRam() {
        QTemporaryDir dir;
        Run spilled(options(dir.path().toStdString()));
        for (std::size_t at = 0; at < events_.size(); at += 333)  // as a pump hands them over
            spilled.append(std::span(events_).subspan(at, std::min<std::size_t>(333, events_.size() - at)));
        QCOMPARE(spilled.spillProblem(), std::string());
        const RunMemory m = spilled.memory();
        QVERIFY(m.spilled > 0);
        QVERIFY2(m.events < inRam_->memory().events, "the events' rows left RAM");
        QVERIFY(m.changes < inRam_->memory().changes);
        QVERIFY(m.trail < inRam_->memory().trail);
        QVERIFY(m.checkpoints < inRam_->memory().checkpoints / 2);
        QVERIFY2(m.messages < inRam_->memory().messages / 2, "the head's old rows left RAM");
        std::mt19937 random(3);
        QCOMPARE(firstDifference(spilled, *inRam_, random), QString());
        // Stepping forward across spilled chunks, as a playing cursor does.
        RunState stepped = spilled.stateAfter(0);
        for (std::uint64_t to = 0; to <= events_.size(); to += 4999) {
            QVERIFY(spilled.advance(stepped, to));
            QCOMPARE(differenceBetween(stepped, inRam_->stateAfter(to)), std::string());
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList());
    }

    // Texts forgotten by the run's text log (generations of 256 texts) and
    // named again: every message keeps its one row, is found by its id, and
    // every state equals that of a run that forgets nothing.
    void aRunThatForgetsOldTextsAnswersAsOneThatDoesNot() {
        const std::vector<Event> events = backlogTimeline();
        QTemporaryDir dir;
        RunModelOptions forgetting = options(dir.path().toStdString());
        forgetting.textGeneration = 256;
        forgetting.checkpointInterval = 512;
        Run run(forgetting);
        run.append(events);
        RunModelOptions remembering = options({});
        remembering.checkpointInterval = 512;
        Run reference(remembering);
        reference.append(events);
        QCOMPARE(run.messageCount(), std::size_t{3000});
        QCOMPARE(run.spillProblem(), std::string());
        std::mt19937 random(8);
        QCOMPARE(firstDifference(run, reference, random), QString());
        QCOMPARE(run.summaryNow().count(MessageState::Acked), std::uint64_t{3000});
    }

    void aFolderThatCannotHoldTheFileKeepsEverythingInRam() {
        Run run(options("/nonexistent/queuescope-spill"));
        run.append(events_);
        QVERIFY2(run.spillProblem().find("/nonexistent/queuescope-spill") != std::string::npos,
                 run.spillProblem().c_str());
        QCOMPARE(run.memory().spilled, std::uint64_t{0});
        std::mt19937 random(4);
        QCOMPARE(firstDifference(run, *inRam_, random), QString());
    }

    // The disk refuses a write half way (a file size limit here): the run
    // says why, keeps the rest in RAM and answers as before.
    void aRefusedWriteLosesNothing() {
        QTemporaryDir dir;
        Run run(options(dir.path().toStdString()));
        {
            std::signal(SIGXFSZ, SIG_IGN);
            rlimit before{};
            getrlimit(RLIMIT_FSIZE, &before);
            rlimit limit = before;
            limit.rlim_cur = 2 << 20;  // 2 MiB: a few chunks
            setrlimit(RLIMIT_FSIZE, &limit);
            run.append(events_);
            setrlimit(RLIMIT_FSIZE, &before);
        }
        QVERIFY2(run.spillProblem().find("File too large") != std::string::npos,
                 run.spillProblem().c_str());
        QVERIFY(run.memory().spilled > 0);
        std::mt19937 random(5);
        QCOMPARE(firstDifference(run, *inRam_, random), QString());
    }

private:
    std::vector<Event> events_;
    std::unique_ptr<Run> inRam_;
};

QTEST_GUILESS_MAIN(TstRunSpill)
#include "tst_run_spill.moc"
