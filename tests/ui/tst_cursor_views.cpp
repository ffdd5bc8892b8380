// The timeline, the charts and the Channels view at a time cursor, as
// projections of the core Run at t (docs/ui.md, "Time travel"), on a
// hand-built run: a hand-out open at t is drawn open and ends at t, one
// settled after t is not settled, nothing begun after t is there; a step
// forward equals a rebuild at the same t; the charts' buckets hold exactly
// the events up to t and the depth the Run had at t; the run's channels at t
// under QAbstractItemModelTester, a dead-lettered copy moving channel; the
// live timeline and charts (HeadViews) equal the projections at the run's end.
#include <QAbstractItemModelTester>
#include <QtTest/QtTest>
#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "controllers/console_run.h"
#include "controllers/head_views.h"
#include "event_factory.h"
#include "models/charts_at_cursor.h"
#include "models/message_key.h"
#include "models/run_channels_model.h"
#include "models/timeline_at_cursor.h"
#include "run/leases.h"
#include "run/run.h"
#include "widgets/timeline_view.h"

using namespace qs;
using namespace qs::ui;
using namespace qs::ui::test;

namespace {

std::int64_t at(std::int64_t ms) {
    return ev(EventKind::TaskSent, ms).timeNs;  // the factory's clock
}

Event assignedTo(std::int64_t ms, const std::string& worker, const std::string& id, int receive) {
    return ev(EventKind::MessageAssigned, ms, worker, id, 0, receive);
}

// Three tasks; worker-1 takes m1 and m2, acks m1 and crashes holding m2;
// worker-2 gets m2 back and acks it, takes m3, rejects it twice (max receive
// 2: dead-lettered into tasks.dlq by the broker). A batch-size marker.
std::vector<Event> crashAndDeadLetterRun() {
    std::vector<Event> v;
    for (const char* id : {"m1", "m2", "m3"}) {
        v.push_back(sent(0, id, 3));
    }
    v.push_back(ev(EventKind::WorkerStarted, 100, "worker-1"));
    v.push_back(ev(EventKind::WorkerStarted, 100, "worker-2"));
    v.push_back(assignedTo(1000, "worker-1", "m1", 1));
    v.push_back(assignedTo(1000, "worker-1", "m2", 1));
    v.push_back(ev(EventKind::Acked, 1500, "worker-1", "m1", 0, 1));
    v.push_back(ev(EventKind::WorkerCrashed, 2000, "worker-1"));
    v.push_back(assignedTo(2500, "worker-2", "m2", 2));
    v.push_back(ev(EventKind::ConfigChanged, 2600, {}, {}));
    v.back().detail = "batch 2";
    v.push_back(assignedTo(3000, "worker-2", "m3", 1));
    v.push_back(ev(EventKind::Rejected, 3200, "worker-2", "m3", 0, 1));
    v.push_back(ev(EventKind::Acked, 4000, "worker-2", "m2", 0, 2));
    v.push_back(assignedTo(4200, "worker-2", "m3", 2));
    v.push_back(ev(EventKind::Rejected, 5200, "worker-2", "m3", 0, 2));
    Event dlq = ev(EventKind::BrokerDeadLettered, 5200, {}, "m3");
    dlq.source = EventSource::Broker;
    dlq.detail = "tasks.dlq";
    v.push_back(dlq);
    return v;
}

// One hand-out as the test expects it: its worker, message, start, end
// (0 = never settled in the run) and how it ended.
struct HandOut {
    const char* worker;
    const char* id;
    std::int64_t startMs;
    std::int64_t endMs;
    Outcome outcome;
};
const std::vector<HandOut> kHandOuts = {
    {"worker-1", "m1", 1000, 1500, Outcome::Acked},
    {"worker-1", "m2", 1000, 2000, Outcome::Returned},
    {"worker-2", "m2", 2500, 4000, Outcome::Acked},
    {"worker-2", "m3", 3000, 3200, Outcome::Rejected},
    {"worker-2", "m3", 4200, 5200, Outcome::Rejected},
};

using BarKey = std::tuple<QString, QString, std::int64_t>;  // worker, key, start
struct BarSeen {
    std::int64_t endNs;
    Outcome outcome;
};

std::map<BarKey, BarSeen> barsOf(const TimelineModel& model) {
    std::map<BarKey, BarSeen> out;
    for (const TimelineLane& lane : model.lanes()) {
        for (const TimelineBar& b : lane.bars) {
            out[{lane.worker, model.keyOf(b), b.startNs}] = {b.endNs, b.outcome};
        }
    }
    return out;
}

// What the timeline must hold at t: each hand-out begun by t, open (ending
// nowhere, in flight) when it was settled after t.
std::map<BarKey, BarSeen> expectedBarsAt(std::int64_t tNs) {
    std::map<BarKey, BarSeen> out;
    for (const HandOut& h : kHandOuts) {
        if (at(h.startMs) > tNs) {
            continue;
        }
        const bool settled = at(h.endMs) <= tNs;
        out[{QString::fromLatin1(h.worker), messageKey("tasks", h.id), at(h.startMs)}] = {
            settled ? at(h.endMs) : 0, settled ? h.outcome : Outcome::InFlight};
    }
    return out;
}

QString describe(const std::map<BarKey, BarSeen>& bars) {
    QStringList lines;
    for (const auto& [key, bar] : bars) {
        lines << QStringLiteral("%1 %2 %3..%4 %5")
                     .arg(std::get<0>(key), messageIdOfKey(std::get<1>(key)))
                     .arg((std::get<2>(key) - at(0)) / 1'000'000)
                     .arg(bar.endNs == 0 ? -1 : (bar.endNs - at(0)) / 1'000'000)
                     .arg(static_cast<int>(bar.outcome));
    }
    return lines.join(QStringLiteral("; "));
}

// The bars drawn as redeliveries (worker, key, start).
std::vector<BarKey> redeliveriesOf(const TimelineModel& model) {
    std::vector<BarKey> out;
    for (const TimelineLane& lane : model.lanes()) {
        for (const TimelineBar& b : lane.bars) {
            if (b.redelivery) {
                out.emplace_back(lane.worker, model.keyOf(b), b.startNs);
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The charts' counts of events (not the sampled depth, which the console's
// timer adds at its head) and per-worker acks are the same.
bool sameEventCounts(const ChartsModel& a, const ChartsModel& b) {
    if (a.buckets().size() != b.buckets().size() || a.originNs() != b.originNs() ||
        a.ackedPerWorker() != b.ackedPerWorker()) {
        return false;
    }
    for (std::size_t i = 0; i < a.buckets().size(); ++i) {
        const SecondBucket& x = a.buckets()[i];
        const SecondBucket& y = b.buckets()[i];
        if (x.second != y.second || x.sent != y.sent || x.acked != y.acked ||
            x.redelivered != y.redelivered || x.rejected != y.rejected ||
            x.emptyPolls != y.emptyPolls) {
            return false;
        }
    }
    return true;
}

// The same counts and the same sampled depth in every second.
bool sameBuckets(const ChartsModel& a, const ChartsModel& b) {
    if (!sameEventCounts(a, b)) {
        return false;
    }
    for (std::size_t i = 0; i < a.buckets().size(); ++i) {
        if (a.buckets()[i].waiting != b.buckets()[i].waiting ||
            a.buckets()[i].inFlight != b.buckets()[i].inFlight) {
            return false;
        }
    }
    return true;
}

const std::vector<std::int64_t> kInstantsMs = {0,    100,  999,  1000, 1200, 1500, 1999,
                                               2000, 2400, 2500, 2600, 3100, 3200, 3999,
                                               4000, 4500, 5199, 5200, 6000};

}  // namespace

class TestCursorViews : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { run_.append(crashAndDeadLetterRun()); }

    void timelineIsTheRunAtT() {
        for (const std::int64_t ms : kInstantsMs) {
            TimelineAtCursor timeline;
            timeline.showAt(run_, at(ms), 60'000'000'000LL);
            QVERIFY(!timeline.lastWasIncremental());
            const auto got = barsOf(timeline.model());
            const auto want = expectedBarsAt(at(ms));
            QVERIFY2(got.size() == want.size() && describe(got) == describe(want),
                     qPrintable(QStringLiteral("at %1 ms: %2 vs %3")
                                    .arg(ms)
                                    .arg(describe(got), describe(want))));
            // Nothing later than t: markers and worker marks too.
            for (const TimelineMarker& m : timeline.model().markers()) {
                QVERIFY(m.timeNs <= at(ms));
            }
            for (const TimelineLane& lane : timeline.model().lanes()) {
                for (const LaneMark& m : lane.marks) {
                    QVERIFY(m.timeNs <= at(ms));
                }
                QCOMPARE(lane.crashed, lane.worker == QStringLiteral("worker-1") && ms >= 2000);
            }
        }
    }

    // The hand-outs open at the window's start come from the Run's leases
    // there, with their own start; the events after it settle them.
    void windowStartSeedsOpenHandOuts() {
        TimelineAtCursor timeline;
        timeline.showAt(run_, at(3100), 1'000'000'000LL);  // window from 2100 ms
        QCOMPARE(timeline.windowStartNs(), at(2100));
        const auto bars = barsOf(timeline.model());
        QVERIFY(bars.count({QStringLiteral("worker-2"), messageKey("tasks", "m2"), at(2500)}));
        // m2's hand-out to worker-2 began in the window; m3's too, rejected at 3200 > t.
        const BarSeen m3 =
            bars.at({QStringLiteral("worker-2"), messageKey("tasks", "m3"), at(3000)});
        QCOMPARE(m3.endNs, std::int64_t(0));
        TimelineAtCursor seeded;
        seeded.showAt(run_, at(3500), 200'000'000LL);  // window from 3300 ms: m2 still out
        const auto seededBars = barsOf(seeded.model());
        const BarKey m2{QStringLiteral("worker-2"), messageKey("tasks", "m2"), at(2500)};
        QVERIFY2(seededBars.count(m2), qPrintable(describe(seededBars)));
        QCOMPARE(seededBars.at(m2).endNs, std::int64_t(0));
        QCOMPARE(seededBars.size(), std::size_t(1));  // m3's first hand-out ended before
        // Lanes of every worker known at the window start, worker-1 crashed.
        QCOMPARE(seeded.model().lanes().size(), std::size_t(2));
        QVERIFY(seeded.model().lanes()[0].crashed);
        QCOMPARE(leasesAt(run_, run_.stateAt(at(3300))).size(), std::size_t(1));
    }

    // Playback steps forward: fed only the events in between, the same bars
    // as a rebuild at each instant.
    void steppingForwardEqualsARebuild() {
        TimelineAtCursor stepped;
        ChartsAtCursor steppedCharts;
        for (std::int64_t ms = 0; ms <= 6000; ms += 100) {
            stepped.showAt(run_, at(ms), 60'000'000'000LL);
            steppedCharts.showAt(run_, "tasks", at(ms));
            QCOMPARE(stepped.lastWasIncremental(), ms > 0);
            QCOMPARE(steppedCharts.lastWasIncremental(), ms > 0);
            TimelineAtCursor rebuilt;
            rebuilt.showAt(run_, at(ms), 60'000'000'000LL);
            QCOMPARE(describe(barsOf(stepped.model())), describe(barsOf(rebuilt.model())));
            ChartsAtCursor rebuiltCharts;
            rebuiltCharts.showAt(run_, "tasks", at(ms));
            QVERIFY2(sameBuckets(steppedCharts.model(), rebuiltCharts.model()),
                     qPrintable(QString::number(ms)));
        }
        // Back in time: rebuilt, not stepped.
        stepped.showAt(run_, at(1200), 60'000'000'000LL);
        QVERIFY(!stepped.lastWasIncremental());
        QCOMPARE(describe(barsOf(stepped.model())), describe(expectedBarsAt(at(1200))));
    }

    // The embedded broker settles first: an ack the worker reports later,
    // and a crashed client's return, reported by sequence alone, before the
    // worker reports its crash. The Run settles each hand-out at the broker's
    // report, and so does the timeline at t (no bar left open).
    void brokerSettlementsEndTheHandOut() {
        Run run;
        std::vector<Event> v{sent(0, "m1", 2), sent(0, "m2", 2),
                             ev(EventKind::WorkerStarted, 10, "worker-1"),
                             ev(EventKind::MessageAssigned, 100, "worker-1", "m1", 7, 1),
                             ev(EventKind::MessageAssigned, 100, "worker-1", "m2", 8, 1)};
        auto broker = [](EventKind kind, std::int64_t ms, const std::string& id,
                         std::uint64_t sequence) {
            Event e = ev(kind, ms, "worker-1", id, sequence, 1);
            e.source = EventSource::Broker;
            return e;
        };
        v.push_back(broker(EventKind::BrokerAcked, 300, "m2", 8));
        v.push_back(ev(EventKind::Acked, 301, "worker-1", "m2", 8, 1));
        v.push_back(broker(EventKind::BrokerReturned, 500, {}, 7));
        v.push_back(ev(EventKind::WorkerCrashed, 600, "worker-1"));
        run.append(v);
        TimelineAtCursor timeline;
        timeline.showAt(run, at(300), 60'000'000'000LL);
        QCOMPARE(leasesAt(run, run.stateAt(at(300))).size(), std::size_t(1));
        QCOMPARE(timeline.model().openBars().size(), std::size_t(1));
        QCOMPARE(timeline.model().lanes().at(0).bars.at(1).endNs, at(300));
        QCOMPARE(timeline.model().lanes().at(0).bars.at(1).outcome, Outcome::Acked);
        timeline.showAt(run, at(550), 60'000'000'000LL);
        QVERIFY(leasesAt(run, run.stateAt(at(550))).empty());
        QCOMPARE(run.stateAt(at(550)).messages.at(0).state, MessageState::Waiting);
        QVERIFY(timeline.model().openBars().empty());
        const TimelineBar& bar = timeline.model().lanes().at(0).bars.at(0);
        QCOMPARE(bar.endNs, at(500));
        QCOMPARE(bar.outcome, Outcome::ReturnedClosed);
        timeline.showAt(run, at(600), 60'000'000'000LL);  // the crash report: it was the crash's
        QCOMPARE(timeline.model().lanes().at(0).bars.at(0).outcome, Outcome::Returned);
        QCOMPARE(timeline.model().lanes().at(0).bars.at(1).outcome, Outcome::Acked);
    }

    // A long playback keeps the timeline's retention window (3 minutes), as
    // the live timeline does, not every bar since the start.
    void longPlaybackKeepsTheRetentionWindow() {
        Run run;
        std::vector<Event> v;
        for (int i = 0; i < 12000; ++i) {  // 24,000 events over 480 s
            const std::string id = "t" + std::to_string(i);
            v.push_back(ev(EventKind::MessageAssigned, i * 40, "worker-1", id, 0, 1));
            v.push_back(ev(EventKind::Acked, i * 40 + 10, "worker-1", id, 0, 1));
        }
        run.append(v);
        TimelineAtCursor timeline;
        for (std::int64_t ms = 0; ms <= 480'000; ms += 5'000) {
            timeline.showAt(run, at(ms), 60'000'000'000LL);
            QCOMPARE(timeline.lastWasIncremental(), ms > 0);
        }
        const auto& bars = timeline.model().lanes().at(0).bars;
        QVERIFY(!bars.empty());
        // Pruned at most 16,384 events (328 s here) late: nothing from the first minute.
        QVERIFY2(bars.front().startNs > at(60'000),
                 qPrintable(QString::number((bars.front().startNs - at(0)) / 1'000'000)));
        QCOMPARE(bars.back().startNs, at(479'960));
    }

    // What the view paints at t: the open hand-out ends at t, nothing starts after it.
    void viewPaintsTheBarsAtT() {
        TimelineAtCursor timeline;
        timeline.showAt(run_, at(3100), 60'000'000'000LL);
        TimelineView view;
        view.resize(900, 300);
        view.setModel(&timeline.model());
        view.setSpanSeconds(10);
        view.setCursorNs(at(3100));
        const auto painted = view.paintedBars();
        QCOMPARE(painted.size(), expectedBarsAt(at(3100)).size());
        int open = 0;
        for (const TimelineView::PaintedBar& p : painted) {
            QVERIFY(p.bar->startNs <= at(3100));
            QVERIFY(p.drawnEndNs <= at(3100));
            if (p.bar->endNs == 0) {
                ++open;
                QCOMPARE(p.drawnEndNs, at(3100));
                QCOMPARE(p.bar->outcome, Outcome::InFlight);
                QVERIFY(p.rect.width() > 1);
            }
        }
        QCOMPARE(open, 2);  // m2 with worker-2, m3's first hand-out
        TimelineAtCursor earlier;
        earlier.showAt(run_, at(1200), 60'000'000'000LL);
        view.setModel(&earlier.model());
        view.setCursorNs(at(1200));
        for (const TimelineView::PaintedBar& p : view.paintedBars()) {
            QVERIFY(p.drawnEndNs <= at(1200));
        }
        QCOMPARE(view.paintedBars().size(), std::size_t(2));
    }

    // Buckets up to t only, the newest the one holding t, the depth there
    // the Run's at t.
    void chartsAreRebuiltUpToT() {
        for (const std::int64_t ms : kInstantsMs) {
            ChartsAtCursor charts;
            charts.showAt(run_, "tasks", at(ms));
            const ChartsModel& m = charts.model();
            QCOMPARE(m.originNs(), at(0));
            QVERIFY(!m.buckets().empty());
            QCOMPARE(m.buckets().back().second, ms / 1000);
            int sentN = 0;
            int ackedN = 0;
            int rejectedN = 0;
            int redeliveredN = 0;
            for (const SecondBucket& b : m.buckets()) {
                sentN += b.sent;
                ackedN += b.acked;
                rejectedN += b.rejected;
                redeliveredN += b.redelivered;
            }
            int wantSent = 0;
            int wantAcked = 0;
            int wantRejected = 0;
            for (std::uint64_t i = 0; i < run_.eventCountAt(at(ms)); ++i) {
                wantSent += run_.event(i).kind == EventKind::TaskSent;
                wantAcked += run_.event(i).kind == EventKind::Acked;
                wantRejected += run_.event(i).kind == EventKind::Rejected;
            }
            QCOMPARE(sentN, wantSent);
            QCOMPARE(ackedN, wantAcked);
            QCOMPARE(rejectedN, wantRejected);
            QCOMPARE(redeliveredN, (ms >= 2500 ? 1 : 0) + (ms >= 4200 ? 1 : 0));
            const RunState state = run_.stateAt(at(ms));
            const ChannelAt* c = state.channel("tasks");
            QVERIFY(c != nullptr);
            QCOMPARE(m.buckets().back().waiting, qint64(c->count(MessageState::Waiting)));
            QCOMPARE(m.buckets().back().inFlight, qint64(c->count(MessageState::InFlight)));
            const qint64 ackedByW2 = m.ackedPerWorker().value(QStringLiteral("worker-2"));
            const WorkerAt* w2 = state.worker("worker-2");
            QCOMPARE(ackedByW2, w2 ? w2->count(WorkerCounter::Acked) : 0);
        }
    }

    // A move back restarts from the newest checkpoint at or before t and
    // feeds at most the checkpoint interval's events; at every instant, in
    // any order of moves, the buckets equal a rebuild from the run's start.
    void chartsFromACheckpointEqualARebuildFromTheStart() {
        std::vector<std::int64_t> moves = kInstantsMs;
        moves.insert(moves.end(), kInstantsMs.rbegin(), kInstantsMs.rend());
        for (const std::int64_t ms : {6000, 2500, 4500, 999, 5200, 0, 3100}) {
            moves.push_back(ms);
        }
        for (const std::uint64_t interval : {1, 2, 3, 5}) {
            ChartsAtCursor checkpointed(interval);
            checkpointed.showAt(run_, "tasks", at(6000));  // every checkpoint taken on the way
            QCOMPARE(checkpointed.checkpointCount(),
                     static_cast<std::size_t>(run_.eventCount() / interval));
            for (const std::int64_t ms : moves) {
                const std::int64_t before = checkpointed.timeNs();
                checkpointed.showAt(run_, "tasks", at(ms));
                if (at(ms) < before) {
                    QVERIFY(!checkpointed.lastWasIncremental());
                    QVERIFY2(checkpointed.lastFedEvents() < interval,
                             qPrintable(QStringLiteral("fed %1 events with checkpoints every %2")
                                            .arg(checkpointed.lastFedEvents())
                                            .arg(interval)));
                }
                ChartsAtCursor fromStart(1'000'000);
                fromStart.showAt(run_, "tasks", at(ms));
                QCOMPARE(fromStart.checkpointCount(), std::size_t(0));
                QVERIFY2(sameBuckets(checkpointed.model(), fromStart.model()),
                         qPrintable(QStringLiteral("at %1 ms, checkpoints every %2 events")
                                        .arg(ms)
                                        .arg(interval)));
                QCOMPARE(checkpointed.model().latencyBins(), fromStart.model().latencyBins());
            }
        }
    }

    // A move back restarts the timeline from the newest checkpoint at or
    // before t (a copy of a feed from the run's start) and feeds at most the
    // interval's events: the same bars, outcomes and redelivery notches as a
    // feed from the start to t, and the notches the live timeline draws.
    void timelineFromACheckpointEqualsAFeedFromTheStart() {
        std::vector<std::int64_t> moves = kInstantsMs;
        moves.insert(moves.end(), kInstantsMs.rbegin(), kInstantsMs.rend());
        for (const std::int64_t ms : {6000, 2500, 4500, 999, 5200, 0, 3100}) {
            moves.push_back(ms);
        }
        for (const std::uint64_t interval : {1, 2, 3, 5}) {
            TimelineAtCursor checkpointed(interval);
            checkpointed.showAt(run_, at(6000), 60'000'000'000LL);
            QVERIFY(checkpointed.checkpointCount() > 0);
            QVERIFY(checkpointed.checkpointCount() <= TimelineAtCursor::kMaxCheckpoints);
            for (const std::int64_t ms : moves) {
                const std::int64_t before = checkpointed.timeNs();
                checkpointed.showAt(run_, at(ms), 60'000'000'000LL);
                // Interval 1 thins out past kMaxCheckpoints: every other event is left.
                const std::uint64_t spacing = interval == 1 ? 2 : interval;
                if (at(ms) < before) {
                    QVERIFY(!checkpointed.lastWasIncremental());
                    QVERIFY2(
                        checkpointed.lastFedEvents() < spacing,
                        qPrintable(QStringLiteral("at %3 ms: fed %1 events, checkpoints every %2")
                                       .arg(checkpointed.lastFedEvents())
                                       .arg(spacing)
                                       .arg(ms)));
                }
                TimelineAtCursor fromStart(1'000'000);
                fromStart.showAt(run_, at(ms), 60'000'000'000LL);
                QCOMPARE(fromStart.checkpointCount(), std::size_t(0));
                QCOMPARE(describe(barsOf(checkpointed.model())),
                         describe(barsOf(fromStart.model())));
                TimelineModel live;  // its own count of hand-outs
                for (std::uint64_t i = 0; i < run_.eventCountAt(at(ms)); ++i) {
                    live.applyEvent(run_.event(i));
                }
                QCOMPARE(redeliveriesOf(checkpointed.model()), redeliveriesOf(live));
            }
        }
    }

    // prepare() (what a recording does while it is opened) takes the same
    // checkpoints as a first move to the run's end, in steps of any size and
    // with moves in between; afterwards no move back feeds more than the
    // interval's events, and every instant shows what a feed from the run's
    // start shows.
    void preparedTimelineEqualsAFeedFromTheStart() {
        const std::uint64_t all = run_.eventCount();
        for (const std::uint64_t interval : {2, 3, 5}) {
            TimelineAtCursor firstMove(interval);
            firstMove.showAt(run_, at(6000), 60'000'000'000LL);
            for (const std::uint64_t step : {std::uint64_t{1}, std::uint64_t{4}, all}) {
                TimelineAtCursor prepared(interval);
                int calls = 0;
                while (!prepared.prepare(run_, all, 60'000'000'000LL, step)) {
                    QVERIFY(prepared.lastFedEvents() <= step);
                    if (++calls == 3) {  // a move in between: the next step starts again
                        prepared.showAt(run_, at(1200), 60'000'000'000LL);
                    }
                }
                QCOMPARE(prepared.eventsFed(), all);
                QCOMPARE(prepared.checkpointCount(), firstMove.checkpointCount());
                if (step == all) {  // freed until the next move, which restarts from a checkpoint
                    prepared.keepOnlyCheckpoints();
                    QCOMPARE(prepared.model().barCount(), std::size_t(0));
                    QCOMPARE(prepared.checkpointCount(), firstMove.checkpointCount());
                    prepared.showAt(run_, at(6000), 60'000'000'000LL);
                    QVERIFY(!prepared.lastWasIncremental());
                    QVERIFY(prepared.lastFedEvents() < interval);
                }
                for (const std::int64_t ms : {6000, 999, 5200, 2500, 0, 4500, 3100}) {
                    const std::int64_t before = prepared.timeNs();
                    prepared.showAt(run_, at(ms), 60'000'000'000LL);
                    if (at(ms) < before) {
                        QVERIFY2(prepared.lastFedEvents() < interval,
                                 qPrintable(QStringLiteral("at %1 ms: fed %2 events")
                                                .arg(ms)
                                                .arg(prepared.lastFedEvents())));
                    }
                    TimelineAtCursor fromStart(1'000'000);
                    fromStart.showAt(run_, at(ms), 60'000'000'000LL);
                    QCOMPARE(describe(barsOf(prepared.model())),
                             describe(barsOf(fromStart.model())));
                    QCOMPARE(redeliveriesOf(prepared.model()), redeliveriesOf(fromStart.model()));
                }
            }
        }
    }

    void preparedChartsEqualAFeedFromTheStart() {
        const std::uint64_t all = run_.eventCount();
        for (const std::uint64_t interval : {1, 2, 5}) {
            ChartsAtCursor firstMove(interval);
            firstMove.showAt(run_, "tasks", at(6000));
            for (const std::uint64_t step : {std::uint64_t{1}, std::uint64_t{3}, all}) {
                ChartsAtCursor prepared(interval);
                int calls = 0;
                while (!prepared.prepare(run_, "tasks", all, step)) {
                    QVERIFY(prepared.lastFedEvents() <= step);
                    if (++calls == 4) {  // a move in between: the next step starts again
                        prepared.showAt(run_, "tasks", at(2400));
                    }
                }
                QCOMPARE(prepared.eventsFed(), all);
                QCOMPARE(prepared.checkpointCount(), firstMove.checkpointCount());
                for (const std::int64_t ms : {6000, 999, 5200, 2000, 0, 4500, 3100}) {
                    const std::int64_t before = prepared.timeNs();
                    prepared.showAt(run_, "tasks", at(ms));
                    if (at(ms) < before) {
                        QVERIFY(prepared.lastFedEvents() < interval);
                    }
                    ChartsAtCursor fromStart(1'000'000);
                    fromStart.showAt(run_, "tasks", at(ms));
                    QVERIFY2(sameBuckets(prepared.model(), fromStart.model()),
                             qPrintable(QStringLiteral("at %1 ms, step %2, interval %3")
                                            .arg(ms)
                                            .arg(step)
                                            .arg(interval)));
                    QCOMPARE(prepared.model().latencyBins(), fromStart.model().latencyBins());
                }
            }
        }
    }

    // A poll that came back with nothing counts in its second's empty polls;
    // one that brought messages does not.
    void chartsCountEmptyPollsPerSecond() {
        auto poll = [](std::int64_t ms, std::int64_t received) {
            Event e = ev(EventKind::PollReturned, ms, "worker-1");
            e.value = received;
            return e;
        };
        ChartsModel m;
        m.setOriginNs(at(0));
        m.apply({poll(100, 0), poll(900, 0), poll(1200, 3), poll(1500, 0)});
        QCOMPARE(m.buckets().size(), std::size_t{2});
        QCOMPARE(m.buckets()[0].emptyPolls, 2);
        QCOMPARE(m.buckets()[1].emptyPolls, 1);
    }

    // The projections decode only the events their model reads
    // (TimelineModel::reads, ChartsModel::reads): an event of any other kind,
    // every field set, must change nothing but the timeline's first / last time.
    void modelsChangeOnlyForTheKindsTheyRead() {
        const std::vector<Event> events = crashAndDeadLetterRun();
        auto timelineState = [](const TimelineModel& m) {
            QStringList out{QString::number(m.firstTimeNs()), QString::number(m.lastTimeNs()),
                            QString::number(m.markers().size())};
            for (const TimelineLane& lane : m.lanes()) {
                out << QStringLiteral("%1 bars %2 polls %3 marks %4 paused %5 crashed %6 slots %7")
                           .arg(lane.worker)
                           .arg(lane.bars.size())
                           .arg(lane.polls.size())
                           .arg(lane.marks.size())
                           .arg(lane.paused)
                           .arg(lane.crashed)
                           .arg(lane.slotsUsed);
                for (const TimelineBar& b : lane.bars) {
                    out << QStringLiteral("%1 %2 %3 %4").arg(m.keyOf(b)).arg(b.endNs).arg(
                        static_cast<int>(b.outcome)).arg(b.redelivery);
                }
            }
            return out.join(QStringLiteral("; "));
        };
        int skipped = 0;
        for (int k = 0; k <= static_cast<int>(kLastEventKind); ++k) {
            const auto kind = static_cast<EventKind>(k);
            Event e = ev(kind, 9000, "worker-2", "m3", 7, 3);
            e.value = 2;
            e.count2 = 5;
            e.detail = "tasks.dlq";
            if (!ChartsModel::reads(kind)) {
                ChartsModel charts;
                charts.setOriginNs(at(0));
                charts.apply(events);
                const std::uint64_t version = charts.version();
                const std::size_t buckets = charts.buckets().size();
                charts.applyEvent(e);
                QVERIFY2(charts.version() == version && charts.buckets().size() == buckets,
                         toString(kind).data());
            }
            if (!TimelineModel::reads(kind)) {
                ++skipped;
                TimelineModel applied, noted;
                applied.apply(events);
                noted.apply(events);
                applied.applyEvent(e);
                noted.noteTime(e.timeNs);
                QVERIFY2(timelineState(applied) == timelineState(noted), toString(kind).data());
            }
        }
        QVERIFY(skipped > 0);
    }

    // The run's channels at t under the tester: the dead-letter channel
    // appears when m3 moves there and goes when the cursor goes back.
    void runChannelsAtT() {
        RunChannelsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::vector<std::int64_t> instants = kInstantsMs;
        instants.insert(instants.end(), kInstantsMs.rbegin(), kInstantsMs.rend());
        for (const std::int64_t ms : instants) {
            const RunState state = run_.stateAt(at(ms));
            model.setChannels(state.channels);
            QCOMPARE(model.rowCount(), static_cast<int>(state.channels.size()));
            for (int row = 0; row < model.rowCount(); ++row) {
                const ChannelAt& want = state.channels[static_cast<std::size_t>(row)];
                QCOMPARE(model.data(model.index(row, RunChannelsModel::NameColumn)).toString(),
                         fromView(want.channel.view()));
                for (int col = RunChannelsModel::WaitingColumn; col < RunChannelsModel::ColumnCount;
                     ++col) {
                    QCOMPARE(model.data(model.index(row, col)).toLongLong(),
                             RunChannelsModel::count(want, col));
                }
            }
            const bool dlq = ms >= 5200;
            QCOMPARE(model.rowCount(), dlq ? 2 : 1);
            if (dlq) {
                QCOMPARE(model.data(model.index(1, RunChannelsModel::NameColumn)).toString(),
                         QStringLiteral("tasks.dlq"));
                QCOMPARE(model.data(model.index(1, RunChannelsModel::DeadLetteredColumn)).toInt(),
                         1);
            }
            QCOMPARE(model.data(model.index(0, RunChannelsModel::InFlightColumn)).toInt(),
                     (ms >= 1000 && ms < 2000 ? (ms < 1500 ? 2 : 1) : 0) +
                         (ms >= 2500 && ms < 4000 ? 1 : 0) + (ms >= 3000 && ms < 3200 ? 1 : 0) +
                         (ms >= 4200 && ms < 5200 ? 1 : 0));
        }
    }

    // The live timeline and charts are projections of the console's Run at
    // its head (HeadViews): fed in batches as the pump hands them, they hold
    // what the projections at the run's last instant hold, the redeliveries
    // read from the run's trail; a reset of the run empties them.
    void theHeadViewsAreTheRunAtItsLastInstant() {
        ConsoleRun console;
        TimelineModel timeline;
        ChartsModel charts;
        HeadViews head(&console, &timeline, &charts);
        const std::vector<Event> events = crashAndDeadLetterRun();
        for (std::size_t from = 0; from < events.size(); from += 5) {
            const auto end = events.begin() + static_cast<std::ptrdiff_t>(
                                                  std::min(from + 5, events.size()));
            console.append(std::vector<Event>(events.begin() + static_cast<std::ptrdiff_t>(from), end));
            QCOMPARE(head.fedEvents(), console.run().eventCount());
        }
        const std::int64_t last = events.back().timeNs;
        QCOMPARE(describe(barsOf(timeline)), describe(expectedBarsAt(last)));
        TimelineAtCursor atEnd;
        atEnd.showAt(console.run(), last, 60'000'000'000LL);
        QCOMPARE(redeliveriesOf(timeline), redeliveriesOf(atEnd.model()));
        QCOMPARE(redeliveriesOf(timeline).size(), std::size_t(2));  // m2 on worker-2, m3 again
        ChartsAtCursor chartsAtEnd;
        chartsAtEnd.showAt(console.run(), "tasks", last);
        QVERIFY(sameEventCounts(charts, chartsAtEnd.model()));

        console.reset();
        QCOMPARE(head.fedEvents(), std::uint64_t(0));
        QVERIFY(timeline.lanes().empty());
        QVERIFY(charts.buckets().empty());
        console.append(events);
        QCOMPARE(describe(barsOf(timeline)), describe(expectedBarsAt(last)));
    }

private:
    Run run_{[] {
        RunModelOptions options;
        options.checkpointInterval = 4;  // seeks go through checkpoints and replays
        return options;
    }()};
};

QTEST_MAIN(TestCursorViews)
#include "tst_cursor_views.moc"
