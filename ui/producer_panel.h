#pragma once

#include <QWidget>

#include "workers/task_producer.h"

class QLineEdit;
class QSpinBox;
class QRadioButton;
class QProgressBar;
class QPushButton;
class QLabel;
class QDoubleSpinBox;

// The producer dock: which queue, how many tasks from which body template
// ({n} = task number), tags, metadata, the message policy (delay,
// expiration, max receive count, dead-letter channel), burst or steady rate,
// poison tasks; Send / Stop and a progress bar. UI thread only.
namespace qs::ui {

class RunController;

class ProducerPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProducerPanel(RunController* run, QWidget* parent = nullptr);

    // The spec the form describes; empty *error when valid.
    workers::TaskSpec specFromForm(QString* error) const;
    void setCount(int n);
    void setBodyTemplate(const QString& text);
    // While a scenario plays, a note above the form says what it sends (count,
    // rate, queue, policy, poison). The form itself keeps the user's own
    // settings: a scenario's settings belong to its run, not to the next Send.
    void showScenario(const QString& name, const workers::TaskSpec& spec);
    // The scenario ended: the note says what it sent until the user's own next
    // Send (or the next scenario), so the table's tasks stay explained.
    void scenarioEnded();
    QString scenarioNote() const;

public Q_SLOTS:
    void send();
    void stop();
    void refresh();  // progress; called a few times per second

Q_SIGNALS:
    void tasksStarted(const qs::workers::TaskSpec& spec);

private:
    RunController* run_;
    QLabel* scenario_;
    QString scenarioName_;
    workers::TaskSpec scenarioSpec_;
    QLineEdit* channel_;
    QSpinBox* count_;
    QLineEdit* body_;
    QLineEdit* tags_;
    QLineEdit* metadata_;
    QSpinBox* delay_;
    QSpinBox* expiration_;
    QSpinBox* maxReceive_;
    QLineEdit* deadLetter_;
    QRadioButton* burst_;
    QRadioButton* steady_;
    QDoubleSpinBox* rate_;
    QLineEdit* poison_;
    QPushButton* send_;
    QPushButton* stop_;
    QProgressBar* progress_;
    QLabel* status_;
};

}  // namespace qs::ui
