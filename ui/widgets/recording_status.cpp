#include "widgets/recording_status.h"

#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QTextDocumentFragment>
#include <QUrl>

#include "controllers/run_recorder.h"
#include "widgets/theme.h"

namespace qs::ui {

namespace {

QString alarmColor() {
    return Theme::current().kind == ThemeKind::Dark ? QStringLiteral("#ff6b6b")
                                                    : QStringLiteral("#c62828");
}

QString link(const QString& path) {
    return QStringLiteral("<a href='folder'>%1</a>")
        .arg(QFileInfo(path).fileName().toHtmlEscaped());
}

}  // namespace

RecordingStatus::RecordingStatus(RunRecorder* recorder, QWidget* parent)
    : QWidget(parent), recorder_(recorder), recording_(new QLabel(this)), lost_(new QLabel(this)) {
    setObjectName(QStringLiteral("recordingStatus"));
    recording_->setObjectName(QStringLiteral("recordingLabel"));
    lost_->setObjectName(QStringLiteral("lostEventsLabel"));
    recording_->setTextFormat(Qt::RichText);
    lost_->setTextFormat(Qt::RichText);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(lost_);
    layout->addWidget(recording_);
    connect(recording_, &QLabel::linkActivated, this, [this] { openRecordingsFolder(*recorder_); });
    connect(recorder_, &RunRecorder::statusChanged, this, &RecordingStatus::refresh);
    refresh();
}

void RecordingStatus::refresh() {
    const QString path = recorder_->currentPath();
    const QString problem = recorder_->problem();
    if (!problem.isEmpty()) {
        recording_->setText(QStringLiteral("<span style='color:%1'>⚠ %2</span>")
                                .arg(alarmColor(), problem.toHtmlEscaped()));
        recording_->setToolTip(QStringLiteral("Recordings go to %1").arg(recorder_->folder()));
    } else if (!path.isEmpty()) {
        recording_->setText(QStringLiteral("● Recording %1").arg(link(path)));
        recording_->setToolTip(
            QStringLiteral("This run is recorded into %1 (queuescope summary reads it).\n"
                           "Click to open the recordings folder.")
                .arg(QDir::toNativeSeparators(path)));
    } else if (!recorder_->lastPath().isEmpty()) {
        recording_->setText(QStringLiteral("Last recording %1").arg(link(recorder_->lastPath())));
        recording_->setToolTip(QStringLiteral("The last run was recorded into %1; the next one "
                                              "is recorded from its first events.\n"
                                              "Click to open the recordings folder.")
                                   .arg(QDir::toNativeSeparators(recorder_->lastPath())));
    } else if (recorder_->isEnabled()) {
        recording_->setText(QStringLiteral("Not recording yet"));
        recording_->setToolTip(QStringLiteral("A run is recorded into %1 from its first events.")
                                   .arg(QDir::toNativeSeparators(recorder_->folder())));
    } else {
        recording_->clear();
    }
    // A window that records nothing (screenshots, tests) shows nothing about it.
    setVisible(recorder_->isEnabled() || !recorder_->lastPath().isEmpty() || !problem.isEmpty());

    const quint64 lost = recorder_->eventsLost();
    lost_->setVisible(lost > 0);
    if (lost > 0) {
        lost_->setText(QStringLiteral("<b style='color:%1'>⚠ %L2 events lost — views and "
                                      "recording may be incomplete</b>")
                           .arg(alarmColor())
                           .arg(lost));
        lost_->setToolTip(
            QStringLiteral(
                "Dropped by the event stream of the run shown (it could not keep "
                "up): %L1\n"
                "Not written by the recording (its writer could not keep up, or a "
                "write failed): %L2\nThis notice goes with the run: at the next reset, or when "
                "the recording shown is closed.")
                .arg(recorder_->streamLost())
                .arg(recorder_->recordingLost()));
    } else {
        lost_->clear();
    }
}

QString RecordingStatus::recordingText() const {
    return QTextDocumentFragment::fromHtml(recording_->text()).toPlainText();
}

QString RecordingStatus::lostEventsText() const {
    return QTextDocumentFragment::fromHtml(lost_->text()).toPlainText();
}

bool openRecordingsFolder(const RunRecorder& recorder) {
    const QString folder = recorder.folder();
    return QDir().mkpath(folder) && QDesktopServices::openUrl(QUrl::fromLocalFile(folder));
}

}  // namespace qs::ui
