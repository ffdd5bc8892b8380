#include "worker_pool_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include "run_controller.h"
#include "worker_card.h"
#include "workers/worker_pool.h"

namespace qs::ui {

namespace {

QSlider* makeSlider(int min, int max, int step, const QString& tip, const QString& name) {
    auto* s = new QSlider(Qt::Horizontal);
    s->setRange(min, max);
    s->setSingleStep(step);
    s->setPageStep(step * 5);
    s->setToolTip(tip);
    s->setObjectName(name);
    return s;
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
      workers_(new QSpinBox(this)),
      batch_(makeSlider(
          1, 50, 1,
          QStringLiteral(
              "Batch size (MaxItems of each poll): how many tasks a worker asks for at once.\n"
              "The broker answers as soon as that many are waiting, otherwise only when the\n"
              "wait timeout ends. A big batch lets one worker reserve many tasks while others\n"
              "idle; every task in it is redelivered if the worker crashes."),
          QStringLiteral("batchSlider"))),
      wait_(makeSlider(
          1, 30, 1,
          QStringLiteral(
              "Wait timeout: how long the broker holds a poll open when fewer tasks than the\n"
              "batch size are waiting (long polling). KubeMQ never returns a partial batch\n"
              "early, and raises anything under 1 s to 1 s."),
          QStringLiteral("waitSlider"))),
      autoAck_(new QCheckBox(QStringLiteral("Auto-ack on delivery"), this)),
      workKind_(new QComboBox(this)),
      work_(makeSlider(
          0, 3000, 50,
          QStringLiteral(
              "Simulated work per task. Longer work keeps tasks in flight (reserved, invisible\n"
              "to other workers) for longer."),
          QStringLiteral("workSlider"))),
      failure_(makeSlider(
          0, 100, 1,
          QStringLiteral(
              "Chance that processing a task fails. A failed task is rejected (NAck): the broker\n"
              "stores a new copy at the tail of the queue with receive count + 1. After the\n"
              "message's MaxReceiveCount it goes to the dead-letter channel instead."),
          QStringLiteral("failureSlider"))),
      crashRate_(makeSlider(
          0, 20, 1,
          QStringLiteral(
              "Chance per task that the worker crashes mid-work: it drops its connection\n"
              "without acking, and the broker returns every unacked task of its batch to\n"
              "the queue (same sequence, same receive count)."),
          QStringLiteral("crashSlider"))),
      batchValue_(valueLabel(QStringLiteral("50"))),
      waitValue_(valueLabel(QStringLiteral("30 s"))),
      workValue_(valueLabel(QStringLiteral("3000 ms"))),
      failureValue_(valueLabel(QStringLiteral("100 %"))),
      crashValue_(valueLabel(QStringLiteral("20 %"))),
      summary_(new QLabel(this)),
      cardsLayout_(new QVBoxLayout) {
    workers_->setRange(0, 64);
    workers_->setObjectName(QStringLiteral("workerSpin"));
    workers_->setToolTip(QStringLiteral(
        "Number of workers: each is a separate client with its own connection, competing for the\n"
        "same queue. Every waiting task goes to exactly one of them. Ctrl++ / Ctrl+- add or remove "
        "one."));
    workers_->setSuffix(QStringLiteral(" workers"));
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
    pauseAll->setToolTip(
        QStringLiteral("Pause every worker: no polls until resumed; tasks pile up in the queue."));
    auto* resumeAll = new QPushButton(QStringLiteral("Resume all"), this);
    resumeAll->setToolTip(QStringLiteral("Resume every paused worker."));

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
        const auto* slider = field->widget()->findChild<QSlider*>();
        label->widget()->setToolTip(slider ? slider->toolTip() : field->widget()->toolTip());
    }
    auto* configBox =
        new QGroupBox(QStringLiteral("Every worker (applies at its next poll)"), this);
    configBox->setLayout(form);

    auto* cardsHost = new QWidget;
    cardsLayout_->setContentsMargins(0, 0, 0, 0);
    cardsLayout_->setSpacing(4);
    cardsLayout_->addStretch(1);
    cardsHost->setLayout(cardsLayout_);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(cardsHost);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
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
        syncCards();
    });

    setControls(run_->config());
    for (QSlider* s : {batch_, wait_, work_, failure_, crashRate_}) {
        connect(s, &QSlider::valueChanged, this, [this] {
            updateLabels();
            scheduleApply();
        });
    }
    connect(workKind_, &QComboBox::currentIndexChanged, this, [this] { scheduleApply(); });
    connect(autoAck_, &QCheckBox::toggled, this, [this] {
        scheduleApply();
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
        syncCards();
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
    c.batchSize = batch_->value();
    c.waitMs = wait_->value() * 1000;
    c.autoAck = autoAck_->isChecked();
    const double ms = work_->value();
    switch (workKind_->currentIndex()) {
        case 1:
            c.work = workers::WorkProfile::uniform(ms * 0.5, ms * 1.5);
            break;
        case 2:
            c.work = workers::WorkProfile::exponential(ms);
            break;
        default:
            c.work = workers::WorkProfile::fixed(ms);
            break;
    }
    c.failureRate = failure_->value() / 100.0;
    c.crashRate = crashRate_->value() / 100.0;
    return c;
}

void WorkerPoolPanel::setControls(const workers::WorkerConfig& c) {
    const QSignalBlocker b1(batch_), b2(wait_), b3(autoAck_), b4(workKind_), b5(work_),
        b6(failure_), b7(crashRate_);
    batch_->setValue(c.batchSize);
    wait_->setValue(std::max(1, c.waitMs / 1000));
    autoAck_->setChecked(c.autoAck);
    switch (c.work.kind) {
        case workers::WorkKind::Uniform:
            workKind_->setCurrentIndex(1);
            work_->setValue(static_cast<int>((c.work.minMs + c.work.maxMs) / 2));
            break;
        case workers::WorkKind::Exponential:
            workKind_->setCurrentIndex(2);
            work_->setValue(static_cast<int>(c.work.ms));
            break;
        case workers::WorkKind::None:
            workKind_->setCurrentIndex(0);
            work_->setValue(0);
            break;
        default:
            workKind_->setCurrentIndex(0);
            work_->setValue(static_cast<int>(c.work.ms));
            break;
    }
    failure_->setValue(static_cast<int>(c.failureRate * 100 + 0.5));
    crashRate_->setValue(static_cast<int>(c.crashRate * 100 + 0.5));
    updateLabels();
}

int WorkerPoolPanel::requestedWorkers() const {
    return workers_->value();
}

void WorkerPoolPanel::updateLabels() {
    batchValue_->setText(QString::number(batch_->value()));
    waitValue_->setText(QStringLiteral("%1 s").arg(wait_->value()));
    workValue_->setText(QStringLiteral("%1 ms").arg(work_->value()));
    failureValue_->setText(QStringLiteral("%1 %").arg(failure_->value()));
    crashValue_->setText(QStringLiteral("%1 %").arg(crashRate_->value()));
}

void WorkerPoolPanel::scheduleApply() {
    applyTimer_.start();
}

void WorkerPoolPanel::applyConfigNow() {
    QString error;
    if (!run_->setConfig(configFromControls(), &error)) {
        summary_->setText(QStringLiteral("Invalid configuration: ") + error);
    }
}

void WorkerPoolPanel::addWorker() {
    workers_->setValue(workers_->value() + 1);
}

void WorkerPoolPanel::removeWorker() {
    workers_->setValue(workers_->value() - 1);
}

void WorkerPoolPanel::syncCards() {
    const auto snapshot = run_->snapshot();
    QStringList ids;
    if (snapshot) {
        for (const auto& w : snapshot->workers) {
            ids << QString::fromStdString(w.id);
        }
    }
    for (auto it = cards_.begin(); it != cards_.end();) {
        if (!ids.contains(it.key())) {
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
    refresh();
}

void WorkerPoolPanel::refresh() {
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
        syncCards();
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
