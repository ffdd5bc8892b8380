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
class QScrollArea;

// The producer dock: which queue, how many tasks from which body template
// ({n} = task number), tags, metadata, the message policy (delay,
// expiration, max receive count, dead-letter channel), burst or steady rate,
// poison tasks; Send / Stop and a progress bar. Send, the burst / steady
// switch, the progress and the producer's own errors sit above the form and
// never scroll: only the form below them does. UI thread only.
namespace qs::ui {

class RunController;
class LimitedSpinBox;
class LimitedDoubleSpinBox;

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
    // `how` says how it ended ("finished: every task was settled"); empty when
    // it was stopped before its end.
    void scenarioEnded(const QString& how = {});
    QString scenarioNote() const;
    // The progress bar's text ("7 / 20 sent", or that nothing was sent yet).
    QString progressText() const;
    // The red error line under Send (empty when the last send started).
    QString errorText() const;

public Q_SLOTS:
    void send();
    void stop();
    void refresh();  // progress; called a few times per second

Q_SIGNALS:
    void tasksStarted(const qs::workers::TaskSpec& spec);

private:
    void showProgress(int sent, int total);
    void clearProgress();                  // no send yet (or the run was reset)
    void showError(const QString& error);  // red, under Send

    RunController* run_;
    QLabel* scenario_;
    QString scenarioName_;
    workers::TaskSpec scenarioSpec_;
    QLineEdit* channel_;
    LimitedSpinBox* count_;
    QLineEdit* body_;
    QLineEdit* tags_;
    QLineEdit* metadata_;
    LimitedSpinBox* delay_;
    LimitedSpinBox* expiration_;
    LimitedSpinBox* maxReceive_;
    QLineEdit* deadLetter_;
    QRadioButton* burst_;
    QRadioButton* steady_;
    LimitedDoubleSpinBox* rate_;
    QLineEdit* poison_;
    QPushButton* send_;
    QPushButton* stop_;
    QProgressBar* progress_;
    QLabel* status_;
    QScrollArea* formScroll_;
};

}  // namespace qs::ui
