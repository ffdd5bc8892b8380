#pragma once

#include <QDialog>

#include "recording/recording_retention.h"

class QMenu;
class QSettings;
class QSpinBox;
class QDoubleSpinBox;

// File ▸ Recordings: open the runs folder, and how many recordings it keeps
// (the retention, a QSettings setting). UI thread.
namespace qs::ui {

class RunRecorder;

// QSettings keys "recordings/maxRuns" and "recordings/maxGigabytes" (0 = no
// limit); the defaults are RetentionLimits' (50 runs, 2 GB).
recording::RetentionLimits loadRetentionLimits(const QSettings& settings);
void saveRetentionLimits(QSettings& settings, const recording::RetentionLimits& limits);

// Edits the retention; the folder is named, with a button that opens it.
class RetentionDialog : public QDialog {
    Q_OBJECT
public:
    RetentionDialog(const RunRecorder& recorder, QWidget* parent = nullptr);
    recording::RetentionLimits limits() const;

private:
    QSpinBox* maxRuns_;
    QDoubleSpinBox* maxGigabytes_;
};

// The "Recordings" menu: "Show recordings folder" and "Keep recordings…".
// With `persist` the retention chosen is saved in QSettings.
QMenu* createRecordingsMenu(RunRecorder* recorder, QWidget* parent, bool persist);

}  // namespace qs::ui
