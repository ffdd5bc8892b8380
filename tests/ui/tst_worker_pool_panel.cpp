#include <QCheckBox>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>

#include "connection_controller.h"
#include "event_pump.h"
#include "run_controller.h"
#include "timeline_model.h"
#include "worker_pool_panel.h"
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
    void slidersReachThePoolConfiguration();
    void autoAckToggleAppliesAtOnce();

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

void TestWorkerPoolPanel::slidersReachThePoolConfiguration() {
    QVERIFY(run_->setWorkerCount(2));
    panel_->batchSlider()->setValue(7);
    panel_->waitSlider()->setValue(3);
    panel_->failureSlider()->setValue(25);
    panel_->crashSlider()->setValue(2);
    panel_->workSlider()->setValue(150);
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

QTEST_MAIN(TestWorkerPoolPanel)
#include "tst_worker_pool_panel.moc"
