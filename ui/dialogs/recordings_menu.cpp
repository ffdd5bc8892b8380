#include "dialogs/recordings_menu.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

#include "controllers/run_recorder.h"
#include "widgets/recording_status.h"

namespace qs::ui {

namespace {

constexpr double kBytesPerGigabyte = 1024.0 * 1024.0 * 1024.0;
const QString kMaxRunsKey = QStringLiteral("recordings/maxRuns");
const QString kMaxGigabytesKey = QStringLiteral("recordings/maxGigabytes");

void showFolderOrSay(const RunRecorder& recorder, QWidget* parent) {
    if (!openRecordingsFolder(recorder)) {
        QMessageBox::warning(parent, QStringLiteral("Recordings"),
                             QStringLiteral("Could not open the recordings folder %1.")
                                 .arg(QDir::toNativeSeparators(recorder.folder())));
    }
}

}  // namespace

recording::RetentionLimits loadRetentionLimits(const QSettings& settings) {
    recording::RetentionLimits limits;
    const int runs = settings.value(kMaxRunsKey, static_cast<int>(limits.maxRuns)).toInt();
    const double gigabytes =
        settings.value(kMaxGigabytesKey, static_cast<double>(limits.maxBytes) / kBytesPerGigabyte)
            .toDouble();
    if (runs >= 0) {
        limits.maxRuns = static_cast<std::size_t>(runs);
    }
    if (gigabytes >= 0.0) {
        limits.maxBytes = static_cast<std::uint64_t>(gigabytes * kBytesPerGigabyte);
    }
    return limits;
}

void saveRetentionLimits(QSettings& settings, const recording::RetentionLimits& limits) {
    settings.setValue(kMaxRunsKey, static_cast<int>(limits.maxRuns));
    settings.setValue(kMaxGigabytesKey, static_cast<double>(limits.maxBytes) / kBytesPerGigabyte);
}

RetentionDialog::RetentionDialog(const RunRecorder& recorder, QWidget* parent)
    : QDialog(parent), maxRuns_(new QSpinBox(this)), maxGigabytes_(new QDoubleSpinBox(this)) {
    setWindowTitle(QStringLiteral("Keep recordings"));
    const recording::RetentionLimits limits = recorder.retention();
    maxRuns_->setRange(0, 100000);
    maxRuns_->setSpecialValueText(QStringLiteral("no limit"));
    maxRuns_->setSuffix(QStringLiteral(" runs"));
    maxRuns_->setValue(static_cast<int>(limits.maxRuns));
    maxGigabytes_->setRange(0.0, 10000.0);
    maxGigabytes_->setDecimals(1);
    maxGigabytes_->setSingleStep(0.5);
    maxGigabytes_->setSpecialValueText(QStringLiteral("no limit"));
    maxGigabytes_->setSuffix(QStringLiteral(" GB"));
    maxGigabytes_->setValue(static_cast<double>(limits.maxBytes) / kBytesPerGigabyte);

    auto* folder =
        new QLabel(QStringLiteral("Every run is recorded into<br><a href='folder'>%1</a>")
                       .arg(QDir::toNativeSeparators(recorder.folder()).toHtmlEscaped()),
                   this);
    folder->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(folder, &QLabel::linkActivated, this,
            [this, &recorder] { showFolderOrSay(recorder, this); });
    auto* note = new QLabel(QStringLiteral("The oldest recordings are deleted first, when a run "
                                           "starts; the one being written never is."),
                            this);
    note->setWordWrap(true);

    auto* form = new QFormLayout(this);
    form->addRow(folder);
    form->addRow(QStringLiteral("Keep at most"), maxRuns_);
    form->addRow(QStringLiteral("and at most"), maxGigabytes_);
    form->addRow(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

recording::RetentionLimits RetentionDialog::limits() const {
    recording::RetentionLimits limits;
    limits.maxRuns = static_cast<std::size_t>(maxRuns_->value());
    limits.maxBytes = static_cast<std::uint64_t>(maxGigabytes_->value() * kBytesPerGigabyte);
    return limits;
}

QMenu* createRecordingsMenu(RunRecorder* recorder, QWidget* parent, bool persist) {
    auto* menu = new QMenu(QStringLiteral("Rec&ordings"), parent);
    menu->setToolTipsVisible(true);
    menu->addAction(QStringLiteral("&Show recordings folder"), parent,
                    [recorder, parent] { showFolderOrSay(*recorder, parent); })
        ->setToolTip(QStringLiteral("Open the folder every run is recorded into (*.qsrun)."));
    menu->addAction(QStringLiteral("&Keep recordings…"), parent,
                    [recorder, parent, persist] {
                        RetentionDialog dialog(*recorder, parent);
                        if (dialog.exec() != QDialog::Accepted) {
                            return;
                        }
                        recorder->setRetention(dialog.limits());
                        if (persist) {
                            QSettings settings;
                            saveRetentionLimits(settings, dialog.limits());
                        }
                    })
        ->setToolTip(QStringLiteral("How many runs, and how much disk, the recordings keep."));
    return menu;
}

}  // namespace qs::ui
