#pragma once

#include <QHash>
#include <QTimer>
#include <QWidget>

#include "workers/worker_config.h"

class QSlider;
class QSpinBox;
class QCheckBox;
class QComboBox;
class QLabel;
class QVBoxLayout;
class QPushButton;

// The worker pool dock: how many workers, the live-tunable configuration
// (batch size, wait timeout, auto-ack, work duration, failure and crash
// rates; applied at each worker's next poll and stamped as a marker), and one
// card per worker. UI thread only.
namespace qs::ui {

class RunController;
class WorkerCard;

class WorkerPoolPanel : public QWidget {
    Q_OBJECT
public:
    explicit WorkerPoolPanel(RunController* run, QWidget* parent = nullptr);

    // The configuration the controls describe.
    workers::WorkerConfig configFromControls() const;
    void setControls(const workers::WorkerConfig& config);  // no marker emitted
    int requestedWorkers() const;

    QSlider* batchSlider() const { return batch_; }
    QSlider* waitSlider() const { return wait_; }
    QCheckBox* autoAckBox() const { return autoAck_; }
    QSlider* workSlider() const { return work_; }
    QSlider* failureSlider() const { return failure_; }
    QSlider* crashSlider() const { return crashRate_; }
    QSpinBox* workerSpin() const { return workers_; }

public Q_SLOTS:
    void refresh();         // re-reads the pool snapshot (called a few times per second)
    void applyConfigNow();  // pushes the controls' configuration to the pool
    void addWorker();
    void removeWorker();

private:
    void scheduleApply();
    void syncCards();
    void updateLabels();

    RunController* run_;
    QSpinBox* workers_;
    QSlider* batch_;
    QSlider* wait_;
    QCheckBox* autoAck_;
    QComboBox* workKind_;
    QSlider* work_;
    QSlider* failure_;
    QSlider* crashRate_;
    QLabel* batchValue_;
    QLabel* waitValue_;
    QLabel* workValue_;
    QLabel* failureValue_;
    QLabel* crashValue_;
    QLabel* summary_;
    QVBoxLayout* cardsLayout_;
    QHash<QString, WorkerCard*> cards_;
    QTimer applyTimer_;
    QTimer scaleTimer_;
    bool updating_ = false;
};

}  // namespace qs::ui
