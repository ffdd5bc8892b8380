#pragma once

#include <QHash>
#include <QTimer>
#include <QWidget>
#include <optional>
#include <vector>

#include "widgets/limited_spin_box.h"
#include "workers/worker_config.h"
#include "workers/worker_state.h"

class QSpinBox;
class QCheckBox;
class QComboBox;
class QLabel;
class QVBoxLayout;
class QScrollArea;
class QPushButton;

// The worker pool dock: how many workers, the live-tunable configuration
// (batch size, wait timeout, auto-ack, work duration, failure and crash
// rates; applied at each worker's next poll and stamped as a marker), and one
// card per worker. The controls span the ranges of workers/setting_limits.h;
// their labels show the exact configuration, also a value between two slider
// steps (a scenario's batch 13), and moving one control changes only its own
// setting. UI thread only.
namespace qs::ui {

class RunController;
class SteppedSlider;
class WorkerCard;

class WorkerPoolPanel : public QWidget {
    Q_OBJECT
public:
    explicit WorkerPoolPanel(RunController* run, QWidget* parent = nullptr);

    // The configuration the controls describe: the run's, with the settings
    // the user changed and that are not applied yet.
    workers::WorkerConfig configFromControls() const;
    void setControls(const workers::WorkerConfig& config);  // no marker emitted
    int requestedWorkers() const;

    SteppedSlider* batchSlider() const { return batch_; }  // steps in messages
    SteppedSlider* waitSlider() const { return wait_; }    // steps in seconds
    QCheckBox* autoAckBox() const { return autoAck_; }
    SteppedSlider* workSlider() const { return work_; }        // steps in ms
    SteppedSlider* failureSlider() const { return failure_; }  // steps 0..1
    SteppedSlider* crashSlider() const { return crashRate_; }  // steps 0..1
    QSpinBox* workerSpin() const { return workers_; }
    QLabel* batchLabel() const { return batchValue_; }

public Q_SLOTS:
    void refresh();         // re-reads the pool snapshot (called a few times per second)
    // Cards of the past (the time cursor's instant, a recorded run), read-only,
    // until showPool() returns to the live pool's.
    void showPast(const std::vector<workers::WorkerSnapshot>& workers);
    void showPool();
    // The count, pause / resume all and the configuration (off while a recording is shown).
    void setControlsEnabled(bool enabled);
    WorkerCard* card(const QString& id) const;  // null = no card for it
    void applyConfigNow();  // pushes the controls' configuration to the pool
    void addWorker();
    void removeWorker();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Each card compact when the cards' view is narrower than its one row.
    void fitCards();
    // The user changed `field` of shown_: apply it (and only it) soon.
    void userChanged(workers::ConfigField field);
    workers::WorkProfile workFromControls(double centreMs) const;
    void scheduleApply();
    void syncCards(const QStringList& ids);
    void syncPoolCards();
    void showPastCards();
    void updateLabels();

    RunController* run_;
    LimitedSpinBox* workers_;
    SteppedSlider* batch_;
    SteppedSlider* wait_;
    QCheckBox* autoAck_;
    QComboBox* workKind_;
    SteppedSlider* work_;
    SteppedSlider* failure_;
    SteppedSlider* crashRate_;
    QLabel* batchValue_;
    QLabel* waitValue_;
    QLabel* workValue_;
    QLabel* failureValue_;
    QLabel* crashValue_;
    QLabel* summary_;
    QVBoxLayout* cardsLayout_;
    QScrollArea* cardsView_ = nullptr;
    QHash<QString, WorkerCard*> cards_;
    std::optional<std::vector<workers::WorkerSnapshot>> past_;
    QList<QWidget*> controls_;  // setControlsEnabled()  // shown instead of the pool
    QTimer applyTimer_;
    QTimer scaleTimer_;
    bool updating_ = false;
    workers::WorkerConfig shown_;    // exactly what the labels show
    workers::ConfigFields pending_;  // the fields of shown_ the user changed, not yet applied
};

}  // namespace qs::ui
