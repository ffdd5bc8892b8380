#include <QCheckBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include "controllers/connection_controller.h"
#include "controllers/event_pump.h"
#include "controllers/run_controller.h"
#include "controllers/scenario_player.h"
#include "models/timeline_model.h"
#include "panels/worker_pool_panel.h"
#include "runner/scenario_json.h"
#include "widgets/stepped_slider.h"
#include "workers/setting_limits.h"
#include "workers/worker_pool.h"

using namespace qs;
using namespace qs::ui;

// The pool panel's controls drive a real pool of workers connected to the
// embedded broker; each change must reach the pool's configuration (and every
// worker's) and be stamped as a marker.
class TestWorkerPoolPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void spinScalesThePool();
    void typedCountOutOfRangeSaysTheLimit();
    void slidersReachThePoolConfiguration();
    void autoAckToggleAppliesAtOnce();
    void batchSliderReachesTheProtocolLimit();
    void scenarioValuesSurviveOtherSliders();

private:
    ConnectionController* connection_ = nullptr;
    RunController* run_ = nullptr;
    WorkerPoolPanel* panel_ = nullptr;
    EventPump* pump_ = nullptr;
    TimelineModel timeline_;
};

void TestWorkerPoolPanel::init() {
    connection_ = new ConnectionController;
    QString error;
    QVERIFY2(connection_->startEmbedded(0, &error), qPrintable(error));
    run_ = new RunController(connection_);
    panel_ = new WorkerPoolPanel(run_);
    pump_ = new EventPump;
    pump_->setStream(&run_->stream());
    timeline_.clear();
    pump_->addSink([this](const std::vector<Event>& b) { timeline_.apply(b); });
    pump_->start();
    panel_->show();
}

void TestWorkerPoolPanel::cleanup() {
    delete pump_;
    delete panel_;
    delete run_;
    delete connection_;
}

void TestWorkerPoolPanel::spinScalesThePool() {
    panel_->workerSpin()->setValue(3);
    QTRY_COMPARE_WITH_TIMEOUT(run_->workerCount(), 3, 10000);
    panel_->workerSpin()->setValue(1);
    QTRY_COMPARE_WITH_TIMEOUT(run_->workerCount(), 1, 10000);
}

// "-3" once started 3 workers and "100000" became 10: now the pool keeps its
// size and the panel says the limit under the field.
void TestWorkerPoolPanel::typedCountOutOfRangeSaysTheLimit() {
    panel_->workerSpin()->setValue(2);
    QTRY_COMPARE_WITH_TIMEOUT(run_->workerCount(), 2, 10000);
    for (const QString& typed : {QStringLiteral("-3"), QStringLiteral("100000")}) {
        QSpinBox* spin = panel_->workerSpin();
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, typed);
        QTest::keyClick(spin, Qt::Key_Return);
        QCOMPARE(spin->value(), 2);
        const auto* problem = panel_->findChild<QLabel*>(QStringLiteral("limitProblem"));
        QVERIFY(problem);
        QVERIFY(problem->isVisible());
        QCOMPARE(problem->text(), QStringLiteral("Worker count must be between 0 and %1 (got %2)")
                                      .arg(workers::limits::kWorkerCount.max)
                                      .arg(typed));
    }
    QTest::qWait(400);  // longer than the scale delay: nothing may have been scaled
    QCOMPARE(run_->workerCount(), 2);
}

void TestWorkerPoolPanel::slidersReachThePoolConfiguration() {
    QVERIFY(run_->setWorkerCount(2));
    panel_->batchSlider()->moveTo(7);
    panel_->waitSlider()->moveTo(3);
    panel_->failureSlider()->moveTo(0.25);
    panel_->crashSlider()->moveTo(0.02);
    panel_->workSlider()->moveTo(150);
    QTRY_COMPARE_WITH_TIMEOUT(run_->pool()->config().batchSize, 7, 5000);
    const workers::WorkerConfig c = run_->pool()->config();
    QCOMPARE(c.waitMs, 3000);
    QCOMPARE(c.failureRate, 0.25);
    QCOMPARE(c.crashRate, 0.02);
    QCOMPARE(c.work, workers::WorkProfile::fixed(150.0));
    // Every worker sees it (effective at its next poll).
    for (const auto& id : run_->pool()->workerIds()) {
        QCOMPARE(run_->pool()->workerConfig(id)->batchSize, 7);
    }
    // One debounced change = one marker on the timeline. (Scaling the pool stamps its own
    // "workers=2" marker first, so wait for this one rather than for any marker.)
    auto batchMarkers = [this] {
        int n = 0;
        for (const auto& m : timeline_.markers()) {
            n += m.text.contains(QStringLiteral("batch=7")) ? 1 : 0;
        }
        return n;
    };
    QTRY_VERIFY_WITH_TIMEOUT(batchMarkers() > 0, 5000);
    QTest::qWait(500);  // longer than the debounce: no second marker for the same change
    QCOMPARE(batchMarkers(), 1);
}

void TestWorkerPoolPanel::autoAckToggleAppliesAtOnce() {
    QVERIFY(run_->setWorkerCount(1));
    QVERIFY(!run_->pool()->config().autoAck);
    panel_->autoAckBox()->setChecked(true);
    QVERIFY(run_->pool()->config().autoAck);  // no debounce for a toggle
    panel_->autoAckBox()->setChecked(false);
    QVERIFY(!run_->pool()->config().autoAck);
}

// The batch slider spans the whole range a poll may ask for (1..1024, the
// protocol's pull limit), yet steps by one where batches are small.
void TestWorkerPoolPanel::batchSliderReachesTheProtocolLimit() {
    QVERIFY(run_->setWorkerCount(1));
    SteppedSlider* batch = panel_->batchSlider();
    const std::vector<double>& steps = batch->steps();
    QCOMPARE(steps.front(), double(workers::limits::kBatchSize.min));
    QCOMPARE(steps.back(), 1024.0);
    for (int i = 0; i < 10; ++i) {
        QCOMPARE(steps[static_cast<std::size_t>(i)], double(i + 1));
    }
    QVERIFY2(steps.size() <= 50, "too many positions to drag through");

    batch->setValue(batch->maximum());  // as a drag to the end does
    QCOMPARE(panel_->batchLabel()->text(), QStringLiteral("1024"));
    QTRY_COMPARE_WITH_TIMEOUT(run_->pool()->config().batchSize, 1024, 5000);
    QCOMPARE(run_->pool()->workerConfig(run_->pool()->workerIds().front())->batchSize, 1024);

    batch->setValue(batch->minimum() + 2);
    QCOMPARE(panel_->batchLabel()->text(), QStringLiteral("3"));
    QTRY_COMPARE_WITH_TIMEOUT(run_->pool()->config().batchSize, 3, 5000);
}

// A scenario's settings that no slider step shows exactly (batch 200 is a
// step, batch 13 and a 0.5 s wait are not; a uniform 5..20 ms work, a crash
// rate of 30 %) are shown as they are and survive moving the other sliders:
// a slider changes its own setting only.
void TestWorkerPoolPanel::scenarioValuesSurviveOtherSliders() {
    const char* json = R"({"name": "limits", "until": "time", "runForSeconds": 120,
        "tasks": {"count": 0},
        "workers": {"count": 1, "batch": 200, "waitSeconds": 0.5, "failureRate": 0.125,
                    "crashRate": 0.3, "work": {"kind": "uniform", "minMs": 5, "maxMs": 20}}})";
    runner::Scenario scenario;
    std::string error;
    QVERIFY2(runner::parseScenarioJson(json, &scenario, &error), error.c_str());
    ScenarioPlayer player(run_);
    QString why;
    QVERIFY2(player.start(scenario, &why), qPrintable(why));
    QTRY_VERIFY_WITH_TIMEOUT(run_->pool() && run_->workerCount() == 1, 10000);
    QCOMPARE(panel_->batchLabel()->text(), QStringLiteral("200"));
    QCOMPARE(panel_->batchSlider()->stepValue(), 200.0);

    const workers::WorkerConfig loaded = scenario.workers.front().config;
    auto expect = [&](int batch, double failure) {
        workers::WorkerConfig c = loaded;
        c.batchSize = batch;
        c.failureRate = failure;
        return c;
    };
    panel_->failureSlider()->moveTo(0.5);
    QTRY_COMPARE_WITH_TIMEOUT(run_->pool()->config().failureRate, 0.5, 5000);
    QVERIFY(run_->pool()->config() == expect(200, 0.5));
    QCOMPARE(panel_->batchLabel()->text(), QStringLiteral("200"));

    // A value between two steps stays too, until its own slider moves.
    workers::WorkerConfig odd = run_->config();
    odd.batchSize = 13;
    QVERIFY(run_->setConfig(odd));
    QCOMPARE(panel_->batchLabel()->text(), QStringLiteral("13"));
    panel_->crashSlider()->moveTo(0.05);
    QTRY_COMPARE_WITH_TIMEOUT(run_->pool()->config().crashRate, 0.05, 5000);
    workers::WorkerConfig want = expect(13, 0.5);
    want.crashRate = 0.05;
    QVERIFY(run_->pool()->config() == want);

    // 13 sits at the nearest step, 12; the next step up is 15.
    QCOMPARE(panel_->batchSlider()->stepValue(), 12.0);
    panel_->batchSlider()->triggerAction(QAbstractSlider::SliderSingleStepAdd);
    QTRY_COMPARE_WITH_TIMEOUT(run_->pool()->config().batchSize, 15, 5000);
    QCOMPARE(panel_->batchLabel()->text(), QStringLiteral("15"));
    want.batchSize = 15;
    QVERIFY(run_->pool()->config() == want);
    QCOMPARE(run_->pool()->config().waitMs, 500);
    player.stop();
}

QTEST_MAIN(TestWorkerPoolPanel)
#include "tst_worker_pool_panel.moc"
