#include "panels/worker_pool_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "common/limit.h"
#include "controllers/run_controller.h"
#include "widgets/limited_spin_box.h"
#include "widgets/stepped_slider.h"
#include "widgets/worker_card.h"
#include "workers/setting_limits.h"
#include "workers/worker_pool.h"

namespace qs::ui {

namespace {

namespace wl = workers::limits;

SteppedSlider* makeSlider(std::vector<double> steps, const QString& tip, const QString& name) {
    auto* s = new SteppedSlider(std::move(steps));
    s->setToolTip(tip);
    s->setObjectName(name);
    return s;
}

QString number(double value) {
    return QString::fromStdString(formatLimitNumber(value));
}

// 0.125 -> "12.5 %" (rounded to hide binary noise: 0.07 * 100 is 7.000000000000001).
QString percent(double rate) {
    return number(std::round(rate * 100.0 * 1e6) / 1e6) + QStringLiteral(" %");
}

QString milliseconds(double ms) {
    return ms < 10000.0 ? number(ms) + QStringLiteral(" ms")
                        : number(ms / 1000.0) + QStringLiteral(" s");
}

// The work's typical duration: what the slider shows.
double workCentre(const workers::WorkProfile& work) {
    switch (work.kind) {
        case workers::WorkKind::Uniform:
            return (work.minMs + work.maxMs) / 2;
        case workers::WorkKind::None:
            return 0.0;
        default:
            return work.ms;
    }
}

QString workText(const workers::WorkProfile& work) {
    switch (work.kind) {
        case workers::WorkKind::None:
            return QStringLiteral("none");
        case workers::WorkKind::Uniform:
            return number(work.minMs) + QStringLiteral("..") + milliseconds(work.maxMs);
        case workers::WorkKind::Exponential:
            return QStringLiteral("mean ") + milliseconds(work.ms);
        default:
            return milliseconds(work.ms);
    }
}

// Copies the fields the panel's controls own and `fields` names.
void copyFields(const workers::WorkerConfig& from, workers::ConfigFields fields,
                workers::WorkerConfig& to) {
    using F = workers::ConfigField;
    auto has = [&fields](F f) { return fields.test(static_cast<std::size_t>(f)); };
    if (has(F::BatchSize))
        to.batchSize = from.batchSize;
    if (has(F::WaitMs))
        to.waitMs = from.waitMs;
    if (has(F::AutoAck))
        to.autoAck = from.autoAck;
    if (has(F::Work))
        to.work = from.work;
    if (has(F::FailureRate))
        to.failureRate = from.failureRate;
    if (has(F::CrashRate))
        to.crashRate = from.crashRate;
}

QLabel* valueLabel(const QString& widest) {
    auto* l = new QLabel;
    l->setMinimumWidth(l->fontMetrics().horizontalAdvance(widest) + 6);
    l->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return l;
}

QWidget* row(QSlider* slider, QLabel* value) {
    auto* w = new QWidget;
    auto* h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(slider, 1);
    h->addWidget(value);
    value->setToolTip(slider->toolTip());
    return w;
}

}  // namespace

WorkerPoolPanel::WorkerPoolPanel(RunController* run, QWidget* parent)
    : QWidget(parent),
      run_(run),
      workers_(new LimitedSpinBox(wl::kWorkerCount, this)),
      batch_(makeSlider(
          SteppedSlider::roundSteps(wl::kBatchSize.min, wl::kBatchSize.max),
          QStringLiteral(
              "Batch size (MaxItems of each poll): how many tasks a worker asks for at once.\n"
              "The broker answers as soon as that many are waiting, otherwise only when the\n"
              "wait timeout ends. A big batch lets one worker reserve many tasks while others\n"
              "idle; every task in it is redelivered if the worker crashes."),
          QStringLiteral("batchSlider"))),
      wait_(makeSlider(
          SteppedSlider::roundSteps(wl::kWaitMs.min / 1000.0, wl::kWaitMs.max / 1000.0),
          QStringLiteral(
              "Wait timeout: how long the broker holds a poll open when fewer tasks than the\n"
              "batch size are waiting (long polling). KubeMQ never returns a partial batch\n"
              "early, and raises anything under 1 s to 1 s."),
          QStringLiteral("waitSlider"))),
      autoAck_(new QCheckBox(QStringLiteral("Auto-ack on delivery"), this)),
      workKind_(new QComboBox(this)),
      work_(makeSlider(
          SteppedSlider::roundSteps(wl::kWorkMs.min, wl::kWorkMs.max),
          QStringLiteral(
              "Simulated work per task. Longer work keeps tasks in flight (reserved, invisible\n"
              "to other workers) for longer."),
          QStringLiteral("workSlider"))),
      failure_(makeSlider(
          SteppedSlider::linearSteps(wl::kFailureRate.min, wl::kFailureRate.max, 0.01),
          QStringLiteral(
              "Chance that processing a task fails. A failed task is rejected (NAck): the broker\n"
              "stores a new copy at the tail of the queue with receive count + 1. After the\n"
              "message's MaxReceiveCount it goes to the dead-letter channel instead."),
          QStringLiteral("failureSlider"))),
      crashRate_(makeSlider(
          SteppedSlider::linearSteps(wl::kCrashRate.min, wl::kCrashRate.max, 0.01),
          QStringLiteral(
              "Chance per task that the worker crashes mid-work: it drops its connection\n"
              "without acking, and the broker returns every unacked task of its batch to\n"
              "the queue (same sequence, same receive count)."),
          QStringLiteral("crashSlider"))),
      batchValue_(valueLabel(QString::number(wl::kBatchSize.max))),
      waitValue_(valueLabel(number(wl::kWaitMs.max / 1000.0) + QStringLiteral(" s"))),
      workValue_(valueLabel(QStringLiteral("9999 ms"))),
      failureValue_(valueLabel(QStringLiteral("100 %"))),
      crashValue_(valueLabel(QStringLiteral("100 %"))),
      summary_(new QLabel(this)),
      cardsLayout_(new QVBoxLayout) {
    workers_->setObjectName(QStringLiteral("workerSpin"));
    workers_->setToolTip(QStringLiteral(
        "Number of workers: each is a separate client with its own connection, competing for the\n"
        "same queue. Every waiting task goes to exactly one of them. Ctrl++ / Ctrl+- add or remove "
        "one."));
    workers_->setSuffix(QStringLiteral(" workers"));
    workers_->setAccessibleName(QStringLiteral("Number of workers"));
    batch_->setAccessibleName(QStringLiteral("Batch size"));
    wait_->setAccessibleName(QStringLiteral("Wait timeout"));
    work_->setAccessibleName(QStringLiteral("Work duration"));
    workKind_->setAccessibleName(QStringLiteral("Work duration distribution"));
    failure_->setAccessibleName(QStringLiteral("Failure rate"));
    crashRate_->setAccessibleName(QStringLiteral("Crash rate"));
    autoAck_->setObjectName(QStringLiteral("autoAckBox"));
    autoAck_->setToolTip(QStringLiteral(
        "Auto-ack: the broker acks every task the moment it hands it out. Nothing is ever "
        "redelivered,\n"
        "so a crash loses the tasks being worked on (at-most-once instead of at-least-once)."));
    workKind_->addItem(QStringLiteral("fixed"));
    workKind_->addItem(QStringLiteral("uniform ±50%"));
    workKind_->addItem(QStringLiteral("exponential"));
    workKind_->setToolTip(QStringLiteral(
        "How work durations vary: always the same, uniformly around the value, or exponential\n"
        "(mostly short, a few very long — the realistic case that makes big batches hurt)."));
    summary_->setWordWrap(true);

    auto* pauseAll = new QPushButton(QStringLiteral("Pause all"), this);
    pauseAll->setToolTip(QStringLiteral(
        "Pause every worker: no polls until resumed; tasks pile up in the queue (Ctrl+Shift+P)."));
    auto* resumeAll = new QPushButton(QStringLiteral("Resume all"), this);
    resumeAll->setToolTip(QStringLiteral("Resume every paused worker (Ctrl+Shift+U)."));

    auto* top = new QHBoxLayout;
    top->addWidget(workers_);
    top->addStretch(1);
    top->addWidget(pauseAll);
    top->addWidget(resumeAll);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignRight);
    form->addRow(QStringLiteral("Batch size"), row(batch_, batchValue_));
    form->addRow(QStringLiteral("Wait timeout"), row(wait_, waitValue_));
    auto* workRow = new QWidget;
    auto* wh = new QHBoxLayout(workRow);
    wh->setContentsMargins(0, 0, 0, 0);
    wh->addWidget(workKind_);
    wh->addWidget(work_, 1);
    wh->addWidget(workValue_);
    form->addRow(QStringLiteral("Work"), workRow);
    form->addRow(QStringLiteral("Failure rate"), row(failure_, failureValue_));
    form->addRow(QStringLiteral("Crash rate"), row(crashRate_, crashValue_));
    form->addRow(QString(), autoAck_);
    for (int i = 0; i < form->rowCount(); ++i) {
        QLayoutItem* label = form->itemAt(i, QFormLayout::LabelRole);
        QLayoutItem* field = form->itemAt(i, QFormLayout::FieldRole);
        if (!label || !label->widget() || !field || !field->widget()) {
            continue;
        }
        const auto* slider = field->widget()->findChild<SteppedSlider*>();
        label->widget()->setToolTip(slider ? slider->toolTip() : field->widget()->toolTip());
    }
    auto* configBox =
        new QGroupBox(QStringLiteral("Every worker (applies at its next poll)"), this);
    configBox->setLayout(form);
    controls_ = {workers_, pauseAll, resumeAll, configBox};

    auto* cardsHost = new QWidget;
    cardsLayout_->setContentsMargins(0, 0, 0, 0);
    cardsLayout_->setSpacing(4);
    cardsLayout_->addStretch(1);
    cardsHost->setLayout(cardsLayout_);
    auto* scroll = cardsView_ = new QScrollArea(this);
    scroll->setWidget(cardsHost);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->viewport()->installEventFilter(this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(workers_->problemLabel());  // a typed count out of range says the limit
    layout->addWidget(configBox);
    layout->addWidget(summary_);
    layout->addWidget(scroll, 1);

    applyTimer_.setSingleShot(true);
    applyTimer_.setInterval(250);
    connect(&applyTimer_, &QTimer::timeout, this, &WorkerPoolPanel::applyConfigNow);
    scaleTimer_.setSingleShot(true);
    scaleTimer_.setInterval(300);
    connect(&scaleTimer_, &QTimer::timeout, this, [this] {
        QString error;
        if (!run_->setWorkerCount(workers_->value(), &error)) {
            summary_->setText(QStringLiteral("Cannot start workers: ") + error);
        }
        syncPoolCards();
    });

    setControls(run_->config());
    using F = workers::ConfigField;
    connect(batch_, &SteppedSlider::stepValueChanged, this, [this](double v) {
        shown_.batchSize = static_cast<int>(v);
        userChanged(F::BatchSize);
    });
    connect(wait_, &SteppedSlider::stepValueChanged, this, [this](double seconds) {
        shown_.waitMs = static_cast<int>(std::llround(seconds * 1000.0));
        userChanged(F::WaitMs);
    });
    connect(work_, &SteppedSlider::stepValueChanged, this, [this](double ms) {
        shown_.work = workFromControls(ms);
        userChanged(F::Work);
    });
    connect(workKind_, &QComboBox::currentIndexChanged, this, [this] {
        shown_.work = workFromControls(workCentre(shown_.work));
        userChanged(F::Work);
    });
    connect(failure_, &SteppedSlider::stepValueChanged, this, [this](double rate) {
        shown_.failureRate = rate;
        userChanged(F::FailureRate);
    });
    connect(crashRate_, &SteppedSlider::stepValueChanged, this, [this](double rate) {
        shown_.crashRate = rate;
        userChanged(F::CrashRate);
    });
    connect(autoAck_, &QCheckBox::toggled, this, [this](bool on) {
        shown_.autoAck = on;
        userChanged(F::AutoAck);
        applyTimer_.stop();
        applyConfigNow();  // a toggle is a deliberate single step: apply at once
    });
    connect(workers_, &QSpinBox::valueChanged, this, [this] {
        if (!updating_) {
            scaleTimer_.start();
        }
    });
    connect(pauseAll, &QPushButton::clicked, run_, &RunController::pauseAll);
    connect(resumeAll, &QPushButton::clicked, run_, &RunController::resumeAll);
    connect(run_, &RunController::poolChanged, this, [this] {
        if (!scaleTimer_.isActive()) {
            updating_ = true;
            workers_->setValue(run_->workerCount());
            updating_ = false;
        }
        syncPoolCards();
    });
    connect(run_, &RunController::configChanged, this, [this] {
        if (!applyTimer_.isActive()) {
            setControls(run_->config());
        }
    });
    updateLabels();
}

workers::WorkerConfig WorkerPoolPanel::configFromControls() const {
    workers::WorkerConfig c = run_->config();
    copyFields(shown_, pending_, c);
    return c;
}

workers::WorkProfile WorkerPoolPanel::workFromControls(double centreMs) const {
    switch (workKind_->currentIndex()) {
        case 1:  // ±50 %, within the work limit
            return workers::WorkProfile::uniform(centreMs * 0.5,
                                                 std::min(centreMs * 1.5, wl::kWorkMs.max));
        case 2:
            return workers::WorkProfile::exponential(centreMs);
        default:
            return workers::WorkProfile::fixed(centreMs);
    }
}

void WorkerPoolPanel::setControls(const workers::WorkerConfig& c) {
    const QSignalBlocker b1(batch_), b2(wait_), b3(autoAck_), b4(workKind_), b5(work_),
        b6(failure_), b7(crashRate_);
    shown_ = c;
    pending_.reset();
    batch_->showValue(c.batchSize);
    wait_->showValue(c.waitMs / 1000.0);
    autoAck_->setChecked(c.autoAck);
    switch (c.work.kind) {
        case workers::WorkKind::Uniform:
            workKind_->setCurrentIndex(1);
            break;
        case workers::WorkKind::Exponential:
            workKind_->setCurrentIndex(2);
            break;
        default:
            workKind_->setCurrentIndex(0);
            break;
    }
    work_->showValue(workCentre(c.work));
    failure_->showValue(c.failureRate);
    crashRate_->showValue(c.crashRate);
    updateLabels();
}

int WorkerPoolPanel::requestedWorkers() const {
    return workers_->value();
}

void WorkerPoolPanel::updateLabels() {
    batchValue_->setText(QString::number(shown_.batchSize));
    waitValue_->setText(number(shown_.waitMs / 1000.0) + QStringLiteral(" s"));
    workValue_->setText(workText(shown_.work));
    failureValue_->setText(percent(shown_.failureRate));
    crashValue_->setText(percent(shown_.crashRate));
}

void WorkerPoolPanel::userChanged(workers::ConfigField field) {
    pending_.set(static_cast<std::size_t>(field));
    updateLabels();
    scheduleApply();
}

void WorkerPoolPanel::scheduleApply() {
    applyTimer_.start();
}

void WorkerPoolPanel::applyConfigNow() {
    const workers::WorkerConfig config = configFromControls();
    pending_.reset();
    QString error;
    if (!run_->setConfig(config, &error)) {
        summary_->setText(QStringLiteral("Invalid configuration: ") + error);
    }
    // Shows what the run has now: a refused change goes back to the run's value.
    setControls(run_->config());
}

void WorkerPoolPanel::addWorker() {
    workers_->setValue(workers_->value() + 1);
}

void WorkerPoolPanel::removeWorker() {
    workers_->setValue(workers_->value() - 1);
}

void WorkerPoolPanel::syncPoolCards() {
    if (past_) {
        return;  // the past's cards stay until showPool()
    }
    const auto snapshot = run_->snapshot();
    QStringList ids;
    if (snapshot) {
        for (const auto& w : snapshot->workers) {
            ids << QString::fromStdString(w.id);
        }
    }
    syncCards(ids);
    refresh();
}

void WorkerPoolPanel::syncCards(const QStringList& ids) {
    for (auto it = cards_.begin(); it != cards_.end();) {
        if (!ids.contains(it.key())) {
            it.value()->hide();
            it.value()->setObjectName(QString());  // gone now, though deleted later
            it.value()->deleteLater();
            it = cards_.erase(it);
        } else {
            ++it;
        }
    }
    for (int i = 0; i < ids.size(); ++i) {
        if (cards_.contains(ids[i])) {
            continue;
        }
        auto* card = new WorkerCard(ids[i]);
        connect(card, &WorkerCard::pauseRequested, this,
                [this](const QString& id, bool on) { on ? run_->pause(id) : run_->resume(id); });
        connect(card, &WorkerCard::slowRequested, this,
                [this](const QString& id, double f) { run_->setSlowdown(id, f); });
        connect(card, &WorkerCard::crashRequested, this,
                [this](const QString& id) { run_->crash(id); });
        connect(card, &WorkerCard::restartRequested, this,
                [this](const QString& id) { run_->restart(id); });
        cards_.insert(ids[i], card);
        cardsLayout_->insertWidget(std::min(i, cardsLayout_->count() - 1), card);
    }
    for (WorkerCard* card : std::as_const(cards_)) {
        card->setReadOnly(past_.has_value());
    }
    fitCards();
}

bool WorkerPoolPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == cardsView_->viewport() && event->type() == QEvent::Resize) {
        fitCards();
    }
    return QWidget::eventFilter(watched, event);
}

void WorkerPoolPanel::fitCards() {
    const int room = cardsView_->viewport()->width();
    for (WorkerCard* card : std::as_const(cards_)) {
        card->setCompact(room < card->oneRowWidth());
    }
}

WorkerCard* WorkerPoolPanel::card(const QString& id) const {
    return cards_.value(id);
}

void WorkerPoolPanel::setControlsEnabled(bool enabled) {
    for (QWidget* w : std::as_const(controls_)) {
        w->setEnabled(enabled);
    }
}

void WorkerPoolPanel::showPast(const std::vector<workers::WorkerSnapshot>& workers) {
    past_ = workers;
    showPastCards();
}

void WorkerPoolPanel::showPool() {
    if (!past_) {
        return;
    }
    past_.reset();
    syncPoolCards();
}

void WorkerPoolPanel::showPastCards() {
    QStringList ids;
    for (const auto& w : *past_) {
        ids << QString::fromStdString(w.id);
    }
    syncCards(ids);
    workers::WorkerCounters t;
    for (const auto& w : *past_) {
        cards_.value(QString::fromStdString(w.id))->setSnapshot(w);
        t.received += w.counters.received;
        t.acked += w.counters.acked;
        t.rejected += w.counters.rejected;
        t.redelivered += w.counters.redelivered;
    }
    summary_->setText(QStringLiteral("<b>At the time cursor:</b> %1 worker(s) · received %2 · "
                                     "acked %3 · rejected %4 · redelivered %5")
                          .arg(past_->size())
                          .arg(t.received)
                          .arg(t.acked)
                          .arg(t.rejected)
                          .arg(t.redelivered));
}

void WorkerPoolPanel::refresh() {
    if (past_) {
        return;  // the cursor's instant stays until it moves (showPast) or goes live
    }
    const auto snapshot = run_->snapshot();
    if (!snapshot) {
        summary_->setText(
            run_->workerCount() == 0
                ? QStringLiteral("No workers. Set a number above to start competing consumers on "
                                 "queue \"%1\".")
                      .arg(run_->channel())
                : QString());
        return;
    }
    if (static_cast<int>(snapshot->workers.size()) != cards_.size()) {
        syncPoolCards();
        return;
    }
    for (const auto& w : snapshot->workers) {
        if (WorkerCard* card = cards_.value(QString::fromStdString(w.id))) {
            card->setSnapshot(w);
        }
    }
    const auto& t = snapshot->totals;
    summary_->setText(QStringLiteral("<b>%1</b> worker(s) on <b>%2</b> · received %3 · acked %4 · "
                                     "rejected %5 · redelivered %6 · empty polls %7")
                          .arg(snapshot->workers.size())
                          .arg(run_->channel().toHtmlEscaped())
                          .arg(t.received)
                          .arg(t.acked)
                          .arg(t.rejected)
                          .arg(t.redelivered)
                          .arg(t.emptyPolls));
}

}  // namespace qs::ui
