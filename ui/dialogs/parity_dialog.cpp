#include "dialogs/parity_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QVBoxLayout>
#include <algorithm>

#include "controllers/connection_settings.h"
#include "controllers/scenario_library.h"
#include "models/comparison_model.h"
#include "panels/comparison_view.h"

namespace qs::ui {

namespace {

constexpr const char* kErrorStyle = "color:#d93040";

// An empty, wrapped, selectable line the dialog fills with a status.
QLabel* namedStatusLabel(const QString& name, QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

}  // namespace

ParityDialog::ParityDialog(const QString& address, const QString& authToken, QWidget* parent)
    : QDialog(parent),
      scenario_(new QComboBox(this)),
      address_(new QLineEdit(address, this)),
      token_(new QLineEdit(authToken, this)),
      problem_(namedStatusLabel(QStringLiteral("parityAddressProblem"), this)),
      progress_(new QProgressBar(this)),
      progressLine_(namedStatusLabel(QStringLiteral("parityProgress"), this)),
      outcome_(namedStatusLabel(QStringLiteral("parityOutcome"), this)) {
    setObjectName(QStringLiteral("parityDialog"));
    setWindowTitle(QStringLiteral("Parity check"));
    auto* intro = new QLabel(
        QStringLiteral("Runs a shipped scenario on the embedded broker and on another server "
                       "with the same seed, records both runs and compares them as "
                       "<code>queuescope parity</code> does: differences the work-queue "
                       "semantics allow (which worker got a task, timing) are told apart from "
                       "real ones."),
        this);
    intro->setWordWrap(true);

    scenario_->setObjectName(QStringLiteral("parityScenario"));
    scenario_->addItems(scenarioNames());
    scenario_->setAccessibleName(QStringLiteral("Scenario"));
    address_->setObjectName(QStringLiteral("parityAddress"));
    address_->setPlaceholderText(QStringLiteral("host:port of the server to check"));
    address_->setAccessibleName(QStringLiteral("Server address"));
    token_->setObjectName(QStringLiteral("parityToken"));
    token_->setEchoMode(QLineEdit::Password);
    token_->setPlaceholderText(QStringLiteral("none"));
    token_->setAccessibleName(QStringLiteral("Auth token"));
    problem_->setStyleSheet(QLatin1String(kErrorStyle));
    problem_->hide();
    // Say what is wrong while it is typed; a fixed address clears the message.
    connect(address_, &QLineEdit::textEdited, this, [this](const QString& text) {
        showProblem(text.trimmed().isEmpty() ? QString() : addressProblem(text));
    });

    auto* form = new QFormLayout;
    auto* scenarioLabel = new QLabel(QStringLiteral("&Scenario"), this);
    scenarioLabel->setBuddy(scenario_);
    auto* addressLabel = new QLabel(QStringLiteral("Ser&ver"), this);
    addressLabel->setBuddy(address_);
    auto* tokenLabel = new QLabel(QStringLiteral("Auth &token"), this);
    tokenLabel->setBuddy(token_);
    form->addRow(scenarioLabel, scenario_);
    form->addRow(addressLabel, address_);
    form->addRow(QString(), problem_);
    form->addRow(tokenLabel, token_);

    progress_->setObjectName(QStringLiteral("parityProgressBar"));
    progress_->setRange(0, 0);  // busy: a run's length is known only at its end
    progress_->setTextVisible(false);
    progress_->hide();
    progressLine_->setWordWrap(false);  // one line, elided: the dialog keeps its height
    progressLine_->hide();
    outcome_->hide();

    auto* buttons = new QDialogButtonBox(this);
    run_ = buttons->addButton(QStringLiteral("&Run parity check"), QDialogButtonBox::AcceptRole);
    run_->setObjectName(QStringLiteral("parityRun"));
    run_->setDefault(true);
    stop_ = new QPushButton(QStringLiteral("S&top"), this);
    stop_->setObjectName(QStringLiteral("parityStop"));
    stop_->setToolTip(QStringLiteral(
        "End the run under way. Nothing is compared; the recordings made so far are kept."));
    stop_->hide();
    close_ = buttons->addButton(QDialogButtonBox::Close);
    connect(run_, &QPushButton::clicked, this, &ParityDialog::startCheck);
    connect(stop_, &QPushButton::clicked, this, &ParityDialog::stopCheck);
    connect(close_, &QPushButton::clicked, this, &ParityDialog::reject);

    auto* running = new QHBoxLayout;
    running->addWidget(progress_, 1);
    running->addWidget(stop_);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addLayout(running);
    layout->addWidget(progressLine_);
    layout->addWidget(outcome_);
    layout->addStretch(1);
    layout->addWidget(buttons);
    resize(560, sizeHint().height());
}

QString ParityDialog::problem() const {
    return problem_->isVisibleTo(this) ? problem_->text() : QString();
}

QString ParityDialog::outcomeText() const {
    return outcome_->isVisibleTo(this) ? outcome_->text() : QString();
}

QString ParityDialog::progressText() const {
    return progressLine_->isVisibleTo(this) ? progressWhole_ : QString();
}

void ParityDialog::showProblem(const QString& text) {
    problem_->setText(text);
    problem_->setVisible(!text.isEmpty());
    fitToContents();
}

bool ParityDialog::startCheck() {
    if (isRunning()) {
        return false;
    }
    const QString address = address_->text().trimmed();
    const QString problem = address.isEmpty() ? QStringLiteral("Enter the server's host:port.")
                                              : addressProblem(address);
    if (!problem.isEmpty()) {
        showProblem(problem);
        address_->setFocus();
        return false;
    }
    showProblem(QString());
    auto* job = new ParityJob(this);
    connect(job, &ParityJob::progressed, this, &ParityDialog::progressed);
    connect(job, &ParityJob::finished, this, &ParityDialog::finished);
    if (const QString refused = job->start(scenario_->currentText(), address, token_->text());
        !refused.isEmpty()) {
        delete job;
        showProblem(refused);
        return false;
    }
    delete job_;  // the last check's, long ended
    job_ = job;
    outcome_->hide();
    setRunning(true);
    showProgress(QStringLiteral("Asking the server at %1…").arg(address));
    return true;
}

void ParityDialog::stopCheck() {
    if (!isRunning()) {
        return;
    }
    job_->stop();
    stop_->setEnabled(false);
    showProgress(QStringLiteral("Stopping: the run under way ends and is recorded…"));
}

void ParityDialog::reject() {
    if (isRunning()) {
        closeWhenEnded_ = true;  // the job's thread is never left behind running
        stopCheck();
        return;
    }
    QDialog::reject();
}

void ParityDialog::showProgress(const QString& line) {
    progressWhole_ = line;
    const int room = std::max(200, contentsRect().width() - 24);
    progressLine_->setText(progressLine_->fontMetrics().elidedText(line, Qt::ElideRight, room));
    progressLine_->setToolTip(line);
}

void ParityDialog::setRunning(bool running) {
    scenario_->setEnabled(!running);
    address_->setEnabled(!running);
    token_->setEnabled(!running);
    run_->setEnabled(!running);
    stop_->setVisible(running);
    stop_->setEnabled(running);
    progress_->setVisible(running);
    progressLine_->setVisible(running);
    fitToContents();
}

void ParityDialog::progressed(int side, const QString& line) {
    if (stop_->isEnabled()) {
        showProgress(QStringLiteral("Run %1 of 2 — %2").arg(side).arg(line));
    }
}

void ParityDialog::finished(const ParityReport& report) {
    setRunning(false);
    Q_EMIT ended(report);
    if (closeWhenEnded_) {
        QDialog::reject();
        return;
    }
    if (report.comparison) {
        showComparison(report);
        accept();
        return;
    }
    QString text = ParityJob::verdict(report);
    if (!report.recordings.isEmpty()) {
        text += QStringLiteral("\n\nKept:\n") + report.recordings.join(QLatin1Char('\n'));
    }
    outcome_->setText(text);
    outcome_->setStyleSheet(report.stopped ? QString() : QLatin1String(kErrorStyle));
    outcome_->show();
    fitToContents();
}

// Wide enough for the longest line that cannot wrap (a recording's path), at
// most the screen; then tall enough for every wrapped line at that width.
void ParityDialog::fitToContents() {
    int widest = 0;
    for (const QString& line : outcome_->text().split(QLatin1Char('\n'))) {
        if (!line.contains(QLatin1Char(' ')) || line.trimmed().startsWith(QLatin1Char('/'))) {
            widest = std::max(widest, outcome_->fontMetrics().horizontalAdvance(line));
        }
    }
    const QMargins margins = layout()->contentsMargins();
    const int screenWidth = screen() != nullptr ? screen()->availableGeometry().width() : 1280;
    const int w = std::min(std::max(width(), widest + margins.left() + margins.right() + 8),
                           screenWidth - 40);
    layout()->activate();
    const int h = layout()->hasHeightForWidth() ? layout()->totalHeightForWidth(w)
                                                : layout()->totalSizeHint().height();
    resize(w, std::max(height(), h));
}

void ParityDialog::showComparison(const ParityReport& report) {
    ComparisonLabels labels;
    labels.title = QStringLiteral("Parity check — %1 on the embedded broker and on %2")
                       .arg(report.scenario, report.server);
    labels.aName = QStringLiteral("Embedded broker");
    labels.bName = QStringLiteral("Server %1").arg(report.server);
    labels.aCovers = QStringLiteral("ran on %1; both runs with seed %2")
                         .arg(report.embedded)
                         .arg(report.seed);
    labels.verdict = QStringLiteral("Parity of %1: %2").arg(report.scenario, ParityJob::verdict(report));
    auto* view = new ComparisonView(*report.comparison, labels, parentWidget());
    view->setAttribute(Qt::WA_DeleteOnClose);
    view->show();  // not modal: the console goes on beside it
    Q_EMIT comparisonShown(view);
}

}  // namespace qs::ui
