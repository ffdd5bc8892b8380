#pragma once

#include <QDialog>
#include <QPointer>

#include "controllers/parity_job.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

// Run → Parity check… (docs/ui.md, "Parity check"): asks for a shipped
// scenario and a server's address, then runs the scenario on the embedded
// broker and on the server off the UI thread (ParityJob, the core's
// checkParity, as `queuescope parity`), with its progress and a Stop that
// ends the run under way cleanly (nothing compared, the recordings kept, no
// run started on the server after a stop on the embedded broker). A
// comparison opens in a ComparisonView (A = the embedded broker, B = the
// server) with the parity verdict, and this dialog closes; a check that could
// not run, or was stopped, is said here in words, and the fields stay for
// another try. Not modal.
//
// Threading: UI thread only.
namespace qs::ui {

class ComparisonView;

class ParityDialog : public QDialog {
    Q_OBJECT
public:
    // `address` / `authToken`: the server offered at first ("" = none).
    ParityDialog(const QString& address, const QString& authToken, QWidget* parent = nullptr);

    QComboBox* scenarioBox() const { return scenario_; }
    QLineEdit* addressField() const { return address_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* stopButton() const { return stop_; }
    bool isRunning() const { return job_ && job_->isRunning(); }
    // The problem with the address as typed ("" = none), as shown under it.
    QString problem() const;
    // What the last check came to, as shown ("" before one ended).
    QString outcomeText() const;
    // The progress line shown while a check runs (whole, also when elided).
    QString progressText() const;

    // Starts the check of the fields' scenario and address; false (and the
    // problem shown) when they are refused.
    bool startCheck();
    void stopCheck();
    // Close; while a check runs: stop it, and close once it has ended.
    void reject() override;

Q_SIGNALS:
    // A check ended (compared, refused, failed or stopped), before its
    // comparison window opens.
    void ended(const qs::ui::ParityReport& report);
    // The comparison window of a finished check was opened (parented to this
    // dialog's parent, so it outlives the dialog).
    void comparisonShown(qs::ui::ComparisonView* view);

private:
    void showProblem(const QString& text);
    void setRunning(bool running);
    void showProgress(const QString& line);
    void fitToContents();  // elided to one line, whole in the tooltip
    void progressed(int side, const QString& line);
    void finished(const ParityReport& report);
    void showComparison(const ParityReport& report);

    QComboBox* scenario_;
    QLineEdit* address_;
    QLineEdit* token_;
    QLabel* problem_;
    QProgressBar* progress_;
    QLabel* progressLine_;
    QLabel* outcome_;
    QPushButton* run_;
    QPushButton* stop_;
    QPushButton* close_;
    QPointer<ParityJob> job_;
    QString progressWhole_;
    bool closeWhenEnded_ = false;
};

}  // namespace qs::ui
