#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <algorithm>
#include <map>
#include <random>
#include <string>

#include "event_factory.h"
#include "models/message_key.h"
#include "models/timeline_model.h"
#include "widgets/theme.h"
#include "widgets/timeline_geometry.h"
#include "widgets/timeline_view.h"

using namespace qs;
using namespace qs::ui;
using qs::ui::test::ev;

class TestTimelineModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void barsPerLaneWithOutcomes();
    void barsNameTheirMessageByAnIdHeldOnce();
    void pruningCompactsTheKeysOfALongRun();
    void compactionInStepsKeepsEveryBarsName();
    void keysByRunMessageAreTheKeysByText();
    void crashReturnsOpenBarsAndRedeliveryIsMarked();
    void aClosedClientIsNotACrash();
    void emptyPollsAndMarkers();
    void pruneKeepsSummary();
    void detailBudgetSummarisesTheOldestBars();
    void summaryForgetsWhatIsPastTheRetention();
    void viewHitTestsBars();
    void viewHighlightsLanes();
    void viewKeepsItsLabelsUntilTheyChange();
    void viewPaintsThinBarsAsPixelColumns();
    void viewPaintsTheSummaryAsItsBarsWere();
    void foldedCellsCountAsTheirSubRowsOneByOne();
    void viewVisitsOnlyWaitsWhenBracketsAreHidden();
};

// The paint reads each bar's packed span (models/timeline_spans.h): it must
// say what the bar says, through closes, a crash's blame and pruning.
static void verifySpansMatchBars(const TimelineModel& m) {
    for (const TimelineLane& lane : m.lanes()) {
        QCOMPARE(lane.spans.size(), lane.bars.size());
        for (std::size_t i = 0; i < lane.bars.size(); ++i) {
            const TimelineBar& b = lane.bars[i];
            const TimelineSpan& s = lane.spans[i];
            QCOMPARE(s.startNs, b.startNs);
            QCOMPARE(s.endNs, b.endNs);
            QCOMPARE(static_cast<int>(s.outcome), static_cast<int>(b.outcome));
            QCOMPARE(static_cast<int>(s.slot), static_cast<int>(b.slot));
            QCOMPARE(s.key, b.key);
        }
    }
}

void TestTimelineModel::barsPerLaneWithOutcomes() {
    TimelineModel m;
    Event poll = ev(EventKind::PollStarted, 0, "worker-2");
    poll.value = 2;
    Event ret = ev(EventKind::PollReturned, 5, "worker-2");
    ret.value = 2;
    m.apply({poll, ret, ev(EventKind::MessageAssigned, 5, "worker-2", "a", 1, 1),
             ev(EventKind::MessageAssigned, 5, "worker-2", "b", 2, 1),
             ev(EventKind::Acked, 20, "worker-2", "a", 1, 1),
             ev(EventKind::Rejected, 30, "worker-2", "b", 2, 1),
             ev(EventKind::MessageAssigned, 6, "worker-10", "c", 3, 1)});
    QCOMPARE(m.lanes().size(), 2u);
    QCOMPARE(m.lanes()[0].worker, QStringLiteral("worker-2"));  // natural order
    QCOMPARE(m.lanes()[1].worker, QStringLiteral("worker-10"));
    const auto& bars = m.lanes()[0].bars;
    QCOMPARE(bars.size(), 2u);
    QVERIFY(bars[0].outcome == Outcome::Acked);
    QVERIFY(bars[1].outcome == Outcome::Rejected);
    QVERIFY(bars[0].slot != bars[1].slot);  // overlapping hand-outs get their own sub-rows
    QCOMPARE(bars[0].batch, bars[1].batch);
    QCOMPARE(m.lanes()[0].polls.front().lastSettleNs, bars[1].endNs);
    QCOMPARE(m.openBars().size(), 1u);
}

// A bar names its message by an id in the model's key pool (4 bytes, not a
// QString): every hand-out of one message carries the same id, another
// channel's copy of the same id another one, ids past the inline 36 bytes
// included; a copy (a checkpoint) keeps answering for its bars after the
// original has seen more messages; clear() starts over.
void TestTimelineModel::barsNameTheirMessageByAnIdHeldOnce() {
    const std::string longId(80, 'x');
    Event elsewhere = ev(EventKind::MessageAssigned, 3, "worker-2", "a", 7, 1);
    elsewhere.channel = Name("tasks.dlq");
    TimelineModel m;
    m.apply({ev(EventKind::MessageAssigned, 0, "worker-1", "a", 1, 1),
             ev(EventKind::Rejected, 1, "worker-1", "a", 1, 1),
             ev(EventKind::MessageAssigned, 2, "worker-2", "a", 2, 2), elsewhere,
             ev(EventKind::MessageAssigned, 4, "worker-1", longId, 3, 1)});
    const TimelineModel checkpoint = m;
    const TimelineBar& first = m.lanes()[0].bars[0];
    const TimelineBar& again = m.lanes()[1].bars[0];
    const TimelineBar& copy = m.lanes()[1].bars[1];
    const TimelineBar& longOne = m.lanes()[0].bars[1];
    QCOMPARE(first.key, again.key);
    QVERIFY(copy.key != first.key);
    QCOMPARE(m.keyOf(first), messageKey("tasks", "a"));
    QCOMPARE(m.keyOf(copy), messageKey("tasks.dlq", "a"));
    QCOMPARE(m.keyOf(longOne), messageKey("tasks", longId));
    QCOMPARE(m.keyId(messageKey("tasks", longId)), longOne.key);
    QCOMPARE(m.keyId(messageKey("tasks", "b")), MessageKeyPool::kNone);
    QCOMPARE(m.keyId(QStringLiteral("no newline")), MessageKeyPool::kNone);
    const std::size_t names = Name::count();
    QCOMPARE(m.keyId(messageKey("a channel never seen", "a")), MessageKeyPool::kNone);
    QCOMPARE(Name::count(), names);  // looking a key up interns nothing
    QCOMPARE(m.barsOf(messageKey("tasks", "a")).size(), 2u);

    for (int i = 0; i < 1000; ++i) {
        m.applyEvent(ev(EventKind::MessageAssigned, 10 + i, "worker-3", "m" + std::to_string(i),
                        100 + static_cast<std::uint64_t>(i), 1));
    }
    QCOMPARE(checkpoint.keyOf(checkpoint.lanes()[0].bars[1]), messageKey("tasks", longId));
    QCOMPARE(checkpoint.barsOf(messageKey("tasks", "a")).size(), 2u);
    QVERIFY(checkpoint.barsOf(messageKey("tasks", "m5")).empty());
    QCOMPARE(m.barsOf(messageKey("tasks", "m5")).size(), 1u);
    m.clear();
    QCOMPARE(m.keyId(messageKey("tasks", "a")), MessageKeyPool::kNone);
}

// A long live run: bars older than the retention window go, and so do their
// messages' keys once the pool holds twice what the bars still name; a bar
// open across the compaction still closes, and keeps its name.
void TestTimelineModel::pruningCompactsTheKeysOfALongRun() {
    TimelineModel m;
    m.setRetentionNs(1'000'000'000);
    m.applyEvent(ev(EventKind::MessageAssigned, 0, "worker-9", "held", 1, 1));
    const int messages = 80000;
    for (int i = 0; i < messages; ++i) {
        const std::string id = "m" + std::to_string(i);
        const auto seq = 10 + static_cast<std::uint64_t>(i);
        m.applyEvent(ev(EventKind::MessageAssigned, i, "worker-1", id, seq, 1));
        m.applyEvent(ev(EventKind::Acked, i, "worker-1", id, seq, 1));
    }
    {
        const TimelineModel checkpoint = m;  // shares the pool: compacting it would free nothing
        m.prune();
        QCOMPARE(m.keyCount(), static_cast<std::size_t>(messages + 1));
    }
    m.prune();
    QVERIFY(m.barCount() < 1100);  // the last second's bars and the held one
    QVERIFY2(m.keyCount() <= 2 * m.barCount() + 1, qPrintable(QString::number(m.keyCount())));
    const TimelineLane& lane = m.lanes()[0];
    QCOMPARE(lane.worker, QStringLiteral("worker-1"));
    QCOMPARE(m.keyOf(lane.bars.back()), messageKey("tasks", "m" + std::to_string(messages - 1)));
    QCOMPARE(m.barsOf(messageKey("tasks", "m0")).size(), 0u);
    verifySpansMatchBars(m);
    m.applyEvent(ev(EventKind::Acked, messages, "worker-9", "held", 1, 1));
    const TimelineBar& held = m.lanes()[1].bars.front();
    QVERIFY(held.outcome == Outcome::Acked);
    QCOMPARE(m.keyOf(held), messageKey("tasks", "held"));
    QVERIFY(m.openBars().empty());
}

// The move to a new key pool in steps (a live run's timeline at 100,000
// events/s holds ~90,000 bars: moved at once, one frame took 20-35 ms). While
// it goes on, bars are added (new messages, a message handed out again),
// bars go (pruned), an open bar stays open; at the end every bar names its
// message, the open bar still closes, and the pool holds only what the bars
// name. A copy made meanwhile (a checkpoint) stops the move: it shares the pool.
void TestTimelineModel::compactionInStepsKeepsEveryBarsName() {
    TimelineModel m;
    m.setRetentionNs(20'000'000'000);  // 20 s
    std::map<std::int64_t, std::string> idAt;  // each bar's start -> its message
    const auto assign = [&](std::int64_t tMs, const std::string& worker, const std::string& id,
                            std::uint64_t seq, int receives) {
        const Event e = ev(EventKind::MessageAssigned, tMs, worker, id, seq, receives);
        idAt[e.timeNs] = id;
        m.applyEvent(e);
    };
    assign(-1, "worker-9", "held", 1, 1);
    int messages = 100000;  // one a millisecond over 100 s, on four lanes
    for (int i = 0; i < messages; ++i) {
        const std::string id = "m" + std::to_string(i);
        const std::string worker = "worker-" + std::to_string(1 + i % 4);
        assign(i, worker, id, 10 + static_cast<std::uint64_t>(i), 1);
        m.applyEvent(ev(EventKind::Acked, i, worker, id, 10 + static_cast<std::uint64_t>(i), 1));
    }
    m.prune();  // the bars of the last 20 s stay: ~20,000, more than a step
    QVERIFY(m.compacting());
    QCOMPARE(m.keyCount(), static_cast<std::size_t>(messages + 1));  // the old pool, until the end
    int steps = 1;
    const std::string again = "m" + std::to_string(messages - 5);  // a bar the move may have passed
    while (m.compacting()) {
        const int t = messages + steps * 10;
        const std::string id = "m" + std::to_string(messages++);
        assign(t, "worker-2", id, 500000 + static_cast<std::uint64_t>(t), 1);
        if (steps == 2) {
            assign(t + 1, "worker-3", again, 900000, 2);
            m.applyEvent(ev(EventKind::Acked, t + 1, "worker-3", again, 900000, 2));
        }
        if (steps == 3) {
            m.prune();  // the cutoff moved on: some bars go meanwhile
        } else {
            m.continueCompaction();
        }
        ++steps;
        QVERIFY(steps < 100);
    }
    QVERIFY2(steps >= 4, qPrintable(QString::number(steps)));
    // The bars pruned during the move may keep their keys until the next one.
    QVERIFY2(m.keyCount() <= 2 * m.barCount() && m.keyCount() < 25000,
             qPrintable(QStringLiteral("%1 keys, %2 bars").arg(m.keyCount()).arg(m.barCount())));
    for (const TimelineLane& lane : m.lanes()) {
        for (const TimelineBar& b : lane.bars) {
            QCOMPARE(m.keyOf(b), messageKey("tasks", idAt.at(b.startNs)));
        }
    }
    verifySpansMatchBars(m);
    QCOMPARE(m.barsOf(messageKey("tasks", again)).size(), 2u);
    QVERIFY(m.barsOf(messageKey("tasks", again)).back().second->redelivery);
    QCOMPARE(m.openBars().size(), 1u + static_cast<std::size_t>(steps - 1));
    m.applyEvent(ev(EventKind::Acked, messages + 1000, "worker-9", "held", 1, 1));
    QCOMPARE(m.barsOf(messageKey("tasks", "held")).size(), 1u);
    QVERIFY(m.barsOf(messageKey("tasks", "held")).front().second->outcome == Outcome::Acked);

    // A copy made while a move is under way: the copy has none, and the move stops.
    for (int i = 0; i < 100000; ++i) {
        const std::string id = "n" + std::to_string(i);
        m.applyEvent(ev(EventKind::MessageAssigned, 200000 + i, "worker-1", id, 1, 1));
        m.applyEvent(ev(EventKind::Acked, 200000 + i, "worker-1", id, 1, 1));
    }
    m.prune();
    QVERIFY(m.compacting());
    const std::size_t keys = m.keyCount();
    const TimelineModel checkpoint = m;
    QVERIFY(!checkpoint.compacting());
    m.continueCompaction();
    QVERIFY(!m.compacting());
    QCOMPARE(m.keyCount(), keys);
    QCOMPARE(checkpoint.keyOf(checkpoint.lanes()[0].bars.back()), messageKey("tasks", "n99999"));
}

// The head's feed gives each event's run message number, and the model looks
// the key up by it in a small cache: the bars must name what they name when
// looked up by text, through a dead-lettered copy in another channel (the same
// number), numbers that share a cache slot, and moves to a new key pool.
void TestTimelineModel::keysByRunMessageAreTheKeysByText() {
    TimelineModel byText;
    TimelineModel byNumber;
    for (TimelineModel* m : {&byText, &byNumber})
        m->setRetentionNs(5'000'000'000);  // 5 s: the pool moves several times
    const auto feed = [&](Event e, std::uint32_t number) {
        byText.applyEvent(e, e.receiveCount > 1);
        byNumber.applyEvent(e, e.receiveCount > 1, number);
    };
    constexpr std::uint32_t kSlotsApart = 32768;  // TimelineModel's cache size
    for (int i = 0; i < 120000; ++i) {
        const std::string id = "m" + std::to_string(i);
        const std::string worker = "worker-" + std::to_string(1 + i % 4);
        // Each message its own number (as a run numbers them), two messages
        // in a row a cache's size apart: they share a slot.
        const auto pair = static_cast<std::uint32_t>(i / 2);
        const std::uint32_t number = 2 * kSlotsApart * (pair / kSlotsApart) + pair % kSlotsApart +
                                     (i % 2 == 0 ? 0 : kSlotsApart);
        const auto seq = static_cast<std::uint64_t>(i + 1);
        feed(ev(EventKind::MessageAssigned, i, worker, id, seq, 1), number);
        if (i % 10 == 0) {
            // Dead-lettered, then taken from the dead-letter queue: the same message.
            feed(ev(EventKind::Rejected, i, worker, id, seq, 1), number);
            Event dlq = ev(EventKind::MessageAssigned, i, "worker-9", id, seq, 1);
            dlq.channel = "tasks.dlq";
            feed(dlq, number);
            dlq.kind = EventKind::Acked;
            feed(dlq, number);
        } else {
            feed(ev(EventKind::Acked, i, worker, id, seq, 1), number);
        }
        if (i % 1000 == 999) {
            byText.prune();
            byNumber.prune();
        }
    }
    QCOMPARE(byNumber.lanes().size(), byText.lanes().size());
    for (std::size_t l = 0; l < byText.lanes().size(); ++l) {
        const auto& want = byText.lanes()[l].bars;
        const auto& got = byNumber.lanes()[l].bars;
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            QCOMPARE(byNumber.keyOf(got[i]), byText.keyOf(want[i]));
            QCOMPARE(static_cast<int>(got[i].outcome), static_cast<int>(want[i].outcome));
        }
    }
    QVERIFY(byNumber.openBars().empty());
    QVERIFY(byNumber.barsOf(messageKey("tasks.dlq", "m119990")).size() == 1);
}

void TestTimelineModel::crashReturnsOpenBarsAndRedeliveryIsMarked() {
    TimelineModel m;
    m.apply({ev(EventKind::MessageAssigned, 0, "worker-1", "a", 1, 1),
             ev(EventKind::MessageAssigned, 0, "worker-1", "b", 2, 1),
             ev(EventKind::Acked, 10, "worker-1", "a", 1, 1)});
    Event crash = ev(EventKind::WorkerCrashed, 15, "worker-1");
    crash.value = 1;
    m.apply({crash});
    QVERIFY(m.lanes()[0].bars[1].outcome == Outcome::Returned);
    QVERIFY(m.lanes()[0].crashed);
    verifySpansMatchBars(m);
    Event again = ev(EventKind::MessageAssigned, 20, "worker-2", "b", 2, 1);
    m.apply({again, ev(EventKind::Redelivered, 20, "worker-2", "b", 2, 1)});
    const auto path = m.barsOf(messageKey("tasks", "b"));
    QCOMPARE(path.size(), 2u);
    QVERIFY(path[0].second->outcome == Outcome::Returned);
    QVERIFY(path[1].second->redelivery);
    QVERIFY(path[1].second->outcome == Outcome::InFlight);

    // A copy kept aside drops its spans (a time cursor's checkpoint); shown
    // again, it rebuilds exactly those the paint read, blamed crash included.
    TimelineModel aside = m;
    aside.dropSpans();
    QVERIFY(aside.lanes()[0].spans.empty());
    aside.rebuildSpans();
    verifySpansMatchBars(aside);
    for (std::size_t l = 0; l < m.lanes().size(); ++l) {
        QCOMPARE(aside.lanes()[l].spans.size(), m.lanes()[l].spans.size());
    }
}

// Scenario 03 (#17 item 6): a worker that closes its client without acking
// returns its tasks, and nothing crashed; the broker's report of a crashed
// client's stream comes before the worker's crash and is the crash's.
void TestTimelineModel::aClosedClientIsNotACrash() {
    auto broker = [](EventKind kind, std::int64_t tMs, const char* id) {
        Event e = ev(kind, tMs, "worker-1", id, 1, 1);
        e.source = EventSource::Broker;
        return e;
    };
    TimelineModel m;
    m.apply({ev(EventKind::MessageAssigned, 0, "worker-1", "a", 1, 1),
             ev(EventKind::MessageAssigned, 0, "worker-1", "b", 2, 1),
             ev(EventKind::MessageAssigned, 0, "worker-1", "c", 3, 1),
             ev(EventKind::MessageAssigned, 0, "worker-2", "d", 4, 1),
             broker(EventKind::BrokerReturned, 100, "a")});
    const auto& bars = m.lanes()[0].bars;
    QCOMPARE(bars[0].outcome, Outcome::ReturnedClosed);
    QCOMPARE(outcomeName(bars[0].outcome), QStringLiteral("returned (closed)"));

    // Stopping with a task held is no crash either.
    m.apply({ev(EventKind::WorkerStopped, 200, "worker-2")});
    QCOMPARE(m.lanes()[1].bars[0].outcome, Outcome::ReturnedClosed);

    // worker-1 reports a crash 2.5 s after the broker returned "a" and 1 s after
    // it returned "b": "b" (and "c", still held) were the crash's, "a" was not.
    m.apply({broker(EventKind::BrokerReturned, 1600, "b"),
             ev(EventKind::WorkerCrashed, 2600, "worker-1")});
    QCOMPARE(bars[0].outcome, Outcome::ReturnedClosed);
    QCOMPARE(bars[1].outcome, Outcome::Returned);
    QCOMPARE(bars[2].outcome, Outcome::Returned);
    QCOMPARE(outcomeName(bars[2].outcome), QStringLiteral("returned (crash)"));
}

void TestTimelineModel::emptyPollsAndMarkers() {
    TimelineModel m;
    Event poll = ev(EventKind::PollStarted, 0, "worker-1");
    Event ret = ev(EventKind::PollReturned, 1000, "worker-1");
    ret.value = 0;
    Event config = ev(EventKind::ConfigChanged, 1200);
    config.detail = "batch=5";
    m.apply({poll, ret, config});
    QCOMPARE(m.lanes()[0].polls.size(), 1u);
    QCOMPARE(m.lanes()[0].polls[0].received, 0);
    QCOMPARE(m.markers().size(), 1u);
    QCOMPARE(m.markers().front().text, QStringLiteral("batch=5"));
}

void TestTimelineModel::pruneKeepsSummary() {
    TimelineModel m;
    m.setRetentionNs(1'000'000'000LL);
    for (int i = 0; i < 100; ++i) {
        const std::string id = "m" + std::to_string(i);
        m.apply({ev(EventKind::MessageAssigned, i * 100, "worker-1", id, i + 1, 1),
                 ev(EventKind::Acked, i * 100 + 50, "worker-1", id, i + 1, 1)});
    }
    const auto& lane = m.lanes()[0];
    QVERIFY(lane.bars.size() < 100);
    QCOMPARE(lane.pruned[static_cast<int>(Outcome::Acked)] + static_cast<qint64>(lane.bars.size()),
             100);
    verifySpansMatchBars(m);
}

// 400 hand-outs, 2 ms each, one every 20 ms, alternating between two
// workers; the 101st is rejected, the rest acked.
static std::vector<Event> alternatingHandOuts() {
    std::vector<Event> batch;
    for (int i = 0; i < 400; ++i) {
        const std::string id = "m" + std::to_string(i);
        const std::string worker = i % 2 == 0 ? "worker-1" : "worker-2";
        const auto seq = static_cast<std::uint64_t>(i + 1);
        batch.push_back(ev(EventKind::MessageAssigned, i * 20, worker, id, seq, 1));
        batch.push_back(ev(i == 100 ? EventKind::Rejected : EventKind::Acked, i * 20 + 2, worker,
                           id, seq, 1));
    }
    return batch;
}

// Over the budget, prune() keeps the newest bars of all lanes (down to 63/64
// of it) and puts the older ones into their lane's summary, by start and outcome.
void TestTimelineModel::detailBudgetSummarisesTheOldestBars() {
    TimelineModel m;
    m.setDetailBudget(200);
    const std::vector<Event> batch = alternatingHandOuts();
    for (const Event& e : batch) {
        m.applyEvent(e);
    }
    QCOMPARE(m.barCount(), 400u);  // nothing goes before prune()
    QCOMPARE(m.detailFromNs(), 0);
    m.prune();
    QVERIFY2(m.barCount() >= 196 && m.barCount() <= 200, qPrintable(QString::number(m.barCount())));
    const std::int64_t edge = m.detailFromNs();
    QVERIFY(edge > batch.front().timeNs);
    std::size_t summarised = 0;
    for (const TimelineLane& lane : m.lanes()) {
        QVERIFY(lane.bars.front().startNs >= edge);
        for (std::int64_t n : lane.pruned) {
            summarised += static_cast<std::size_t>(n);
        }
    }
    QCOMPARE(summarised + m.barCount(), 400u);
    verifySpansMatchBars(m);
    // Each hand-out that left is in its lane's summary with its outcome; the
    // buckets between them are empty.
    for (std::size_t i = 0; i < batch.size(); i += 2) {
        const Event& assigned = batch[i];
        if (assigned.timeNs >= edge) {
            break;
        }
        const TimelineLane& lane = m.lanes()[static_cast<std::size_t>(
            m.laneOf(i % 4 == 0 ? QStringLiteral("worker-1") : QStringLiteral("worker-2")))];
        const Outcome expected = i == 200 ? Outcome::Rejected : Outcome::Acked;
        QCOMPARE(lane.summary.outcomeAt(assigned.timeNs, 0), static_cast<int>(expected));
        QCOMPARE(lane.summary.outcomeAt(assigned.timeNs + TimelineSummary::kBucketNs, 0), -1);
    }
    // No budget: every bar stays.
    TimelineModel all;
    all.apply(batch);
    all.prune();
    QCOMPARE(all.barCount(), 400u);
    QCOMPARE(all.detailFromNs(), 0);
}

void TestTimelineModel::summaryForgetsWhatIsPastTheRetention() {
    TimelineModel m;
    m.setDetailBudget(100);
    m.setRetentionNs(5'000'000'000LL);
    const std::vector<Event> batch = alternatingHandOuts();  // 8 s of them
    for (const Event& e : batch) {
        m.applyEvent(e);
    }
    m.prune();
    for (const TimelineLane& lane : m.lanes()) {
        QVERIFY(!lane.summary.empty());
        QVERIFY(lane.summary.startNs() >=
                m.lastTimeNs() - m.retentionNs() - TimelineSummary::kBucketNs);
        QCOMPARE(lane.summary.outcomeAt(batch.front().timeNs, 0), -1);
    }
}

// `view` over `m` at `size`, its clock 1 s after the model's last event and
// 10 s in view: every bar of these hand-built runs is wide enough to hit.
static void frameTenSeconds(TimelineView& view, const TimelineModel& m, QSize size) {
    view.resize(size);
    view.setModel(&m);
    view.setClock([&m] { return m.lastTimeNs() + 1'000'000'000LL; });
    view.setSpanSeconds(10);
}

void TestTimelineModel::viewHitTestsBars() {
    TimelineModel m;
    m.apply({ev(EventKind::MessageAssigned, 0, "worker-1", "a", 1, 1),
             ev(EventKind::Acked, 4000, "worker-1", "a", 1, 1)});
    TimelineView view;
    frameTenSeconds(view, m, QSize(800, 200));
    const TimelineBar& bar = m.lanes()[0].bars[0];
    const QRectF r = view.barRect(0, bar);
    QVERIFY(r.width() > 100);
    int lane = -1;
    QCOMPARE(view.barAt(r.center().toPoint(), &lane), &bar);
    QCOMPARE(lane, 0);
    QSignalSpy clicked(&view, &TimelineView::messageClicked);
    QTest::mouseClick(&view, Qt::LeftButton, {}, r.center().toPoint());
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(view.selectedKey(), messageKey("tasks", "a"));
}

// The lanes' labels are drawn once and kept (TimelineView::gutter) until what
// they show changes: after a crash, then a highlight, the view that kept them
// paints what a view painting them for the first time paints.
static QImage paintedAfresh(const TimelineModel& m, const QStringList& highlighted) {
    TimelineView fresh;
    frameTenSeconds(fresh, m, QSize(800, 240));
    fresh.setHighlightedWorkers(highlighted);
    return fresh.grab().toImage();
}

void TestTimelineModel::viewKeepsItsLabelsUntilTheyChange() {
    TimelineModel m;
    m.apply({ev(EventKind::MessageAssigned, 0, "worker-1", "a", 1, 1),
             ev(EventKind::MessageAssigned, 0, "worker-2", "b", 2, 1)});
    TimelineView kept;
    frameTenSeconds(kept, m, QSize(800, 240));
    const QRect gutter(0, 0, static_cast<int>(kept.laneRect(0).left()) + 60, 240);
    QImage shown = kept.grab().toImage();
    Event crash = ev(EventKind::WorkerCrashed, 500, "worker-1");
    crash.value = 1;
    m.apply({crash});
    QImage next = kept.grab().toImage();
    QVERIFY(next.copy(gutter) != shown.copy(gutter));  // "crashed", in its colour
    QCOMPARE(next, paintedAfresh(m, {}));
    shown = next;
    kept.setHighlightedWorkers({QStringLiteral("worker-2")});
    next = kept.grab().toImage();
    QVERIFY(next.copy(gutter) != shown.copy(gutter));
    QCOMPARE(next, paintedAfresh(m, {QStringLiteral("worker-2")}));
}

// Show me's lanes (docs/ui.md, "Lessons"): tinted, marked at their label's
// left edge, every other lane painted as before; Escape or a click clears them.
void TestTimelineModel::viewHighlightsLanes() {
    TimelineModel m;
    m.apply({ev(EventKind::MessageAssigned, 0, "worker-1", "a", 1, 1),
             ev(EventKind::Acked, 4000, "worker-1", "a", 1, 1),
             ev(EventKind::MessageAssigned, 0, "worker-2", "b", 2, 1),
             ev(EventKind::Acked, 3000, "worker-2", "b", 2, 1),
             ev(EventKind::MessageAssigned, 0, "worker-3", "c", 3, 1)});
    TimelineView view;
    frameTenSeconds(view, m, QSize(800, 240));
    const Theme& theme = Theme::current();
    const QImage before = view.grab().toImage();
    QCOMPARE(view.laneOf(QStringLiteral("worker-2")), 1);
    const QRectF lane1 = view.laneRect(1);
    const int y = static_cast<int>(lane1.center().y());
    QCOMPARE(before.pixelColor(2, y), theme.laneAlt);

    QSignalSpy changed(&view, &TimelineView::highlightedWorkersChanged);
    view.setHighlightedWorkers({QStringLiteral("worker-2")});
    QCOMPARE(view.highlightedWorkers(), QStringList{QStringLiteral("worker-2")});
    QCOMPARE(changed.count(), 1);
    const QImage shown = view.grab().toImage();
    QCOMPARE(shown.pixelColor(2, y), theme.highlight);           // the mark at its label's edge
    QVERIFY(shown.pixelColor(6, y) != before.pixelColor(6, y));  // the tinted background
    const QRectF barArea = view.barRect(1, m.lanes()[1].bars[0]);
    QVERIFY(shown.pixelColor(barArea.center().toPoint()) ==
            before.pixelColor(barArea.center().toPoint()));  // its bars drawn over the tint
    // The other lanes, and the axis above them, exactly as before.
    for (int row = 0; row < before.height(); ++row) {
        if (row >= lane1.top() - 1 && row <= lane1.bottom() + 1) {
            continue;
        }
        for (int x = 0; x < before.width(); ++x) {
            QCOMPARE(shown.pixel(x, row), before.pixel(x, row));
        }
    }

    QTest::keyClick(&view, Qt::Key_Escape);
    QVERIFY(view.highlightedWorkers().isEmpty());
    QCOMPARE(view.grab().toImage(), before);

    // A click on the timeline selects something else: the highlight goes.
    view.setHighlightedWorkers({QStringLiteral("worker-1"), QStringLiteral("worker-3")});
    QCOMPARE(view.grab().toImage().pixelColor(2, static_cast<int>(view.laneRect(2).center().y())),
             theme.highlight);
    QTest::mouseClick(&view, Qt::LeftButton, {},
                      view.barRect(0, m.lanes()[0].bars[0]).center().toPoint());
    QCOMPARE(view.selectedKey(), messageKey("tasks", "a"));
    QVERIFY(view.highlightedWorkers().isEmpty());
    QCOMPARE(changed.count(), 4);
}

// Bars under 2 px wide are drawn as pixel columns of their sub-row (widgets/
// timeline_columns): an acked bar's column in the acked colour, a rejected one
// in its own colour (a problem wins its column), a column no bar starts in
// left as the lane's background.
void TestTimelineModel::viewPaintsThinBarsAsPixelColumns() {
    TimelineModel m;
    std::vector<Event> batch;
    for (int i = 0; i < 400; ++i) {  // a 2 ms hand-out every 20 ms: far under a pixel each
        const std::string id = "m" + std::to_string(i);
        const auto seq = static_cast<std::uint64_t>(i + 1);
        batch.push_back(ev(EventKind::MessageAssigned, i * 20, "worker-1", id, seq, 1));
        batch.push_back(ev(i == 200 ? EventKind::Rejected : EventKind::Acked, i * 20 + 2,
                           "worker-1", id, seq, 1));
    }
    m.apply(batch);
    verifySpansMatchBars(m);
    TimelineView view;
    frameTenSeconds(view, m, QSize(800, 200));
    const Theme& theme = Theme::current();
    const QImage image = view.grab().toImage();
    const auto& bars = m.lanes()[0].bars;
    std::vector<int> columns;  // the pixel column each bar starts in
    for (const TimelineBar& b : bars) {
        const QRectF r = view.barRect(0, b);
        QCOMPARE(r.width(), 1.0);  // under a pixel: drawn as one at least
        columns.push_back(static_cast<int>(r.left()));
    }
    const int y = static_cast<int>(view.barRect(0, bars[200]).center().y());
    QCOMPARE(image.pixelColor(columns[200], y), theme.outcome(Outcome::Rejected));
    QCOMPARE(image.pixelColor(columns[100], y), theme.outcome(Outcome::Acked));
    QCOMPARE(image.pixelColor(columns[300], y), theme.outcome(Outcome::Acked));
    int gaps = 0;
    for (int x = columns.front() + 1; x < columns.back(); ++x) {
        if (std::find(columns.begin(), columns.end(), x) == columns.end()) {
            ++gaps;
            QVERIFY(image.pixelColor(x, y) != theme.outcome(Outcome::Acked));
            QVERIFY(image.pixelColor(x, y) != theme.outcome(Outcome::Rejected));
        }
    }
    QVERIFY(gaps > 10);  // 20 ms apart at over 10 ms a pixel: some columns have none
}

// Zoomed out so a summary's 10 ms is under a pixel, the lane left of the
// summary's edge shows what the same lane with every bar held shows.
void TestTimelineModel::viewPaintsTheSummaryAsItsBarsWere() {
    TimelineModel summarised;
    summarised.setDetailBudget(200);
    TimelineModel every;
    for (const Event& e : alternatingHandOuts()) {
        summarised.applyEvent(e);
        every.applyEvent(e);
    }
    summarised.prune();
    QVERIFY(summarised.detailFromNs() > 0);
    TimelineView withSummary;
    frameTenSeconds(withSummary, summarised, QSize(800, 200));
    TimelineView withBars;
    frameTenSeconds(withBars, every, QSize(800, 200));
    const QImage a = withSummary.grab().toImage();
    const QImage b = withBars.grab().toImage();
    const Theme& theme = Theme::current();
    // Up to the column of the last hand-out summarised (the edge's dotted line is there).
    int lastX = 0;
    for (int lane = 0; lane < 2; ++lane) {
        for (const TimelineBar& bar : every.lanes()[static_cast<std::size_t>(lane)].bars) {
            if (bar.startNs < summarised.detailFromNs()) {
                lastX = std::max(lastX, static_cast<int>(withBars.barRect(lane, bar).left()));
            }
        }
    }
    const TimelineBar& rejected = every.lanes()[0].bars[50];  // hand-out 100, in the summary
    QVERIFY(rejected.outcome == Outcome::Rejected);
    const QRectF r = withBars.barRect(0, rejected);
    QVERIFY(r.left() < lastX - 10);
    for (int lane = 0; lane < 2; ++lane) {
        const auto& bars = every.lanes()[static_cast<std::size_t>(lane)].bars;
        const int y = static_cast<int>(withBars.barRect(lane, bars[0]).center().y());
        int coloured = 0;
        for (int x = static_cast<int>(r.left()) - 100; x < lastX; ++x) {
            QCOMPARE(a.pixelColor(x, y), b.pixelColor(x, y));
            coloured += a.pixelColor(x, y) == theme.outcome(Outcome::Acked) ? 1 : 0;
        }
        QVERIFY(coloured > 20);
    }
    QCOMPARE(a.pixelColor(static_cast<int>(r.left()), static_cast<int>(r.center().y())),
             theme.outcome(Outcome::Rejected));
}

// Zoomed out, the paint folds the summary buckets of a pixel column into one
// cell (combineCells) before counting it: the same as counting each bucket's
// sub-rows one by one with newOutcomeShows(), for every pair of one sub-row's
// values and for random runs of whole cells.
static std::uint32_t countOneByOne(std::uint32_t shown, std::uint32_t next) {
    for (int slot = 0; slot < TimelineSummary::kSlots; ++slot) {
        const std::uint32_t was = (shown >> (4 * slot)) & 0xF;
        const std::uint32_t bar = (next >> (4 * slot)) & 0xF;
        if (bar != 0 && newOutcomeShows(static_cast<int>(was) - 1)) {
            shown = (shown & ~(0xFu << (4 * slot))) | (bar << (4 * slot));
        }
    }
    return shown;
}

void TestTimelineModel::foldedCellsCountAsTheirSubRowsOneByOne() {
    const auto outcomes = static_cast<std::uint32_t>(Outcome::Count) + 1;  // and none
    for (int slot = 0; slot < TimelineSummary::kSlots; ++slot) {
        for (std::uint32_t a = 0; a < outcomes; ++a) {
            for (std::uint32_t b = 0; b < outcomes; ++b) {
                const std::uint32_t shown = a << (4 * slot);
                const std::uint32_t next = b << (4 * slot);
                QCOMPARE(combineCells(shown, next), countOneByOne(shown, next));
            }
        }
    }
    std::mt19937 rng(7);
    const auto randomCell = [&] {
        std::uint32_t cell = 0;
        for (int slot = 0; slot < TimelineSummary::kSlots; ++slot) {
            cell |= (rng() % outcomes) << (4 * slot);
        }
        return cell;
    };
    for (int run = 0; run < 2000; ++run) {
        std::uint32_t folded = 0;
        std::uint32_t counted = 0;
        for (int i = 0, n = 1 + static_cast<int>(rng() % 5); i < n; ++i) {
            const std::uint32_t cell = randomCell();
            folded = combineCells(folded, cell);
            counted = countOneByOne(counted, cell);
        }
        QCOMPARE(folded, counted);
    }
}

// In a block of polls whose batch brackets are all too short to draw at the
// span shown, the paint visits only the waits and the open poll
// (TimelineGeometry::forEachPollThatMayDraw): the model keeps the polls that
// got nothing by batch number and the longest bracket of each block of
// kPollBlock polls, and the view paints exactly what its walk over every poll
// paints (a copy of the model whose polls are made irregular, so walked one
// by one), a block with a long bracket included.
void TestTimelineModel::viewVisitsOnlyWaitsWhenBracketsAreHidden() {
    TimelineModel m;
    std::vector<Event> batch;
    std::uint64_t seq = 0;
    for (int i = 0; i < 150; ++i) {  // a poll every 80 ms; every 5th gets nothing
        const int t = i * 80;
        Event poll = ev(EventKind::PollStarted, t, "worker-1");
        poll.value = 2;
        Event ret = ev(EventKind::PollReturned, t + 4, "worker-1");
        ret.value = i % 5 == 0 ? 0 : 2;
        batch.push_back(poll);
        batch.push_back(ret);
        for (int k = 0; k < ret.value; ++k) {  // settled 3 and 5 ms after the return
            const std::string id = "m" + std::to_string(++seq);
            const int settled = i == 101 && k == 1 ? t + 1504 : t + 7 + 2 * k;  // one takes 1.5 s
            batch.push_back(ev(EventKind::MessageAssigned, t + 4, "worker-1", id, seq, 1));
            batch.push_back(ev(EventKind::Acked, settled, "worker-1", id, seq, 1));
        }
    }
    std::stable_sort(batch.begin(), batch.end(),
                     [](const Event& a, const Event& b) { return a.timeNs < b.timeNs; });
    Event open = ev(EventKind::PollStarted, 11990, "worker-1");  // still waiting at the end
    open.value = 2;
    batch.push_back(open);
    m.apply(batch);
    const TimelineLane& lane = m.lanes()[0];
    QCOMPARE(lane.waitPolls.size(), 30u);
    for (const std::uint64_t b : lane.waitPolls) {
        QCOMPARE(lane.polls[static_cast<std::size_t>(b - lane.polls.front().batch)].received, 0);
    }
    // Batches 1-63, 64-127 (poll 101 is batch 102) and 128-151.
    QCOMPARE(lane.firstBracketBlock, std::uint64_t{0});
    QCOMPARE(lane.bracketBlocks.size(), 3u);
    QCOMPARE(lane.bracketBlocks[0], std::int64_t{5'000'000});
    QCOMPARE(lane.bracketBlocks[1], std::int64_t{1'500'000'000});
    QCOMPARE(lane.bracketBlocks[2], std::int64_t{5'000'000});
    QVERIFY(!lane.pollsIrregular);

    const std::int64_t nowNs = m.lastTimeNs() + 1'000'000'000LL;
    TimelineView view;
    view.resize(800, 200);
    view.setClock([nowNs] { return nowNs; });
    view.setSpanSeconds(10);
    view.setModel(&m);
    const QImage indexed = view.grab().toImage();
    const TimelineGeometry g =
        TimelineGeometry::compute(view.size(), QFontMetrics(view.font()), 1, nowNs, 10'000'000'000LL,
                                  std::nullopt);
    QVERIFY(5'000'000 * g.plot.width() / 1e10 < 3.0);  // the short brackets are hidden
    // A wait is painted: poll 125 (at 10 s) got nothing, and nothing else is near it.
    const int x = static_cast<int>(g.xOf(lane.polls[125].startNs));
    const int y = static_cast<int>(g.laneTop(0) + g.laneHeight / 2);
    bool waitPainted = false;
    for (int dx = -1; dx <= 1; ++dx) {
        waitPainted |= indexed.pixelColor(x + dx, y) != Theme::current().panel;
    }
    QVERIFY(waitPainted);

    TimelineModel walked = m;
    Event later = ev(EventKind::PollStarted, 100'000, "worker-1");  // past the view, both open
    walked.apply({later, later});
    QVERIFY(walked.lanes()[0].pollsIrregular);
    view.setModel(&walked);
    QCOMPARE(view.grab().toImage(), indexed);
}

QTEST_MAIN(TestTimelineModel)
#include "tst_timeline_model.moc"
