#pragma once

#include <QWidget>

class QLabel;

// The status bar's part about the run's recording: where it goes (a link that
// opens the recordings folder), why a run is not recorded, and, in red until
// the run ends, how many events the run lost. Hidden when runs are not
// recorded (screenshots, tests). UI thread.
namespace qs::ui {

class RunRecorder;

class RecordingStatus : public QWidget {
    Q_OBJECT
public:
    explicit RecordingStatus(RunRecorder* recorder, QWidget* parent = nullptr);

    // As shown, in plain text (tests, screenshots).
    QString recordingText() const;
    QString lostEventsText() const;  // "" when no event was lost

public Q_SLOTS:
    void refresh();

private:
    RunRecorder* recorder_;
    QLabel* recording_;
    QLabel* lost_;
};

// Opens the recordings folder in the desktop's file manager (creating it
// first); false when the folder cannot be made or no program opens it.
bool openRecordingsFolder(const RunRecorder& recorder);

}  // namespace qs::ui
