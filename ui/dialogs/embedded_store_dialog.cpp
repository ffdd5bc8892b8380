#include "dialogs/embedded_store_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "models/core_text.h"

namespace qs::ui {

namespace {
constexpr broker::SyncMode kModes[] = {broker::SyncMode::Always, broker::SyncMode::Batch,
                                       broker::SyncMode::None};
}  // namespace

EmbeddedStoreDialog::EmbeddedStoreDialog(const EmbeddedStore& current,
                                         const QString& suggestedDirectory, QWidget* parent)
    : QDialog(parent),
      onDisk_(new QCheckBox(QStringLiteral("&Keep the queues on disk across restarts"), this)),
      directory_(new QLineEdit(this)),
      browse_(new QPushButton(QStringLiteral("&Browse…"), this)),
      sync_(new QComboBox(this)),
      promise_(new QLabel(this)),
      problem_(new QLabel(this)) {
    setWindowTitle(QStringLiteral("Embedded broker storage"));
    auto* intro = new QLabel(
        QStringLiteral("The embedded broker keeps its queues in memory: they are gone when the "
                       "console closes. On disk, they are there again at the next start, as "
                       "with <tt>queuescope-broker --data-dir</tt>. Applies when the embedded "
                       "broker starts."),
        this);
    intro->setWordWrap(true);
    onDisk_->setChecked(current.onDisk());
    onDisk_->setAccessibleName(QStringLiteral("Keep the queues on disk"));
    directory_->setObjectName(QStringLiteral("dataDirectory"));
    directory_->setAccessibleName(QStringLiteral("Data folder"));
    directory_->setText(current.onDisk() ? current.dataDirectory : suggestedDirectory);
    directory_->setToolTip(QStringLiteral(
        "The folder of the store (created if needed). One broker at a time may use it."));
    browse_->setAccessibleName(QStringLiteral("Choose the data folder"));
    for (broker::SyncMode m : kModes) {
        sync_->addItem(fromView(broker::syncModeName(m)), static_cast<int>(m));
    }
    sync_->setCurrentIndex(sync_->findData(static_cast<int>(current.sync)));
    sync_->setAccessibleName(QStringLiteral("Durability"));
    sync_->setToolTip(QStringLiteral("When an answered send is on disk (docs/broker.md)."));
    promise_->setWordWrap(true);
    problem_->setObjectName(QStringLiteral("dataDirectoryProblem"));
    problem_->setWordWrap(true);
    problem_->setTextFormat(Qt::PlainText);
    problem_->setStyleSheet(QStringLiteral("color:#d93040"));
    // Its line is kept when empty: the dialog does not jump as the folder is typed.
    problem_->setMinimumHeight(problem_->fontMetrics().height());

    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(directory_, 1);
    folderRow->addWidget(browse_);
    auto* folderLabel = new QLabel(QStringLiteral("&Folder"), this);
    folderLabel->setBuddy(directory_);
    auto* form = new QFormLayout;
    form->addRow(folderLabel, folderRow);
    form->addRow(QString(), problem_);
    form->addRow(QStringLiteral("&Durability"), sync_);
    form->addRow(QString(), promise_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    save_ = buttons->button(QDialogButtonBox::Save);
    saveAndRestart_ = buttons->addButton(QStringLiteral("Save and &restart the broker"),
                                         QDialogButtonBox::AcceptRole);
    saveAndRestart_->setToolTip(QStringLiteral(
        "Restart the embedded broker now with this storage: the current run's workers\n"
        "reconnect; what was in memory only is gone."));
    connect(save_, &QPushButton::clicked, this, [this] { restart_ = false; });
    connect(saveAndRestart_, &QPushButton::clicked, this, [this] { restart_ = true; });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(onDisk_, &QCheckBox::toggled, this, &EmbeddedStoreDialog::check);
    connect(directory_, &QLineEdit::textChanged, this, &EmbeddedStoreDialog::check);
    connect(sync_, &QComboBox::currentIndexChanged, this, &EmbeddedStoreDialog::check);
    connect(browse_, &QPushButton::clicked, this, &EmbeddedStoreDialog::browse);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(onDisk_);
    layout->addLayout(form);
    layout->addWidget(buttons);
    check();
    resize(520, sizeHint().height());
}

EmbeddedStore EmbeddedStoreDialog::store() const {
    EmbeddedStore s;
    if (onDisk_->isChecked()) {
        s.dataDirectory = directory_->text().trimmed();
    }
    s.sync = static_cast<broker::SyncMode>(sync_->currentData().toInt());
    return s;
}

QString EmbeddedStoreDialog::problemText() const {
    return problem_->text();
}

void EmbeddedStoreDialog::check() {
    const bool onDisk = onDisk_->isChecked();
    for (QWidget* w : {static_cast<QWidget*>(directory_), static_cast<QWidget*>(browse_),
                       static_cast<QWidget*>(sync_)}) {
        w->setEnabled(onDisk);
    }
    const QString problem = onDisk ? dataDirectoryProblem(directory_->text().trimmed()) : QString();
    problem_->setText(problem);
    promise_->setText(onDisk ? syncModePromise(store().sync) : QString());
    save_->setEnabled(problem.isEmpty());
    saveAndRestart_->setEnabled(problem.isEmpty());
}

void EmbeddedStoreDialog::browse() {
    const QString chosen = QFileDialog::getExistingDirectory(
        this, QStringLiteral("Folder for the queues"), directory_->text());
    if (!chosen.isEmpty()) {
        directory_->setText(chosen);
    }
}

}  // namespace qs::ui
