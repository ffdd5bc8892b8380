#include "panels/producer_panel.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

#include "client/argument_checks.h"
#include "common/protocol_limits.h"
#include "controllers/run_controller.h"
#include "widgets/limited_spin_box.h"
#include "workers/setting_limits.h"

namespace qs::ui {

namespace {
template <typename W>
W* tip(W* w, const QString& text) {
    w->setToolTip(text);
    return w;
}

QLabel* label(const QString& text, QWidget* buddy) {
    auto* l = new QLabel(text);
    l->setBuddy(buddy);
    l->setToolTip(buddy->toolTip());
    return l;
}

// The client's own channel-name check, said of the queue field.
QString queueProblem(const QString& name) {
    const auto error = client::checkChannelName(name.toStdString(), "Queue name");
    return error ? QString::fromStdString(error->message) : QString();
}

// "80 task(s) at 20/s (max receives 5, dead-letter tasks.dlq)".
QString describeSends(const workers::TaskSpec& spec) {
    QString sends =
        spec.ratePerSecond > 0
            ? QStringLiteral("%1 task(s) at %2/s").arg(spec.count).arg(spec.ratePerSecond)
            : QStringLiteral("%1 task(s) at once").arg(spec.count);
    QStringList policy;
    if (spec.policy.delaySeconds > 0) {
        policy << QStringLiteral("delay %1 s").arg(spec.policy.delaySeconds);
    }
    if (spec.policy.expirationSeconds > 0) {
        policy << QStringLiteral("expires after %1 s").arg(spec.policy.expirationSeconds);
    }
    if (spec.policy.maxReceiveCount > 0) {
        policy << QStringLiteral("max receives %1").arg(spec.policy.maxReceiveCount);
    }
    if (!spec.policy.deadLetterQueue.empty()) {
        policy << QStringLiteral("dead-letter %1")
                      .arg(QString::fromStdString(spec.policy.deadLetterQueue));
    }
    if (!spec.poison.empty()) {
        QStringList numbers;
        for (int n : spec.poison) {
            numbers << QString::number(n);
        }
        policy << QStringLiteral("poison %1").arg(numbers.join(QStringLiteral(", ")));
    }
    if (!policy.isEmpty()) {
        sends += QStringLiteral(" (") + policy.join(QStringLiteral(", ")) + QLatin1Char(')');
    }
    return sends;
}

}  // namespace

ProducerPanel::ProducerPanel(RunController* run, QWidget* parent)
    : QWidget(parent),
      run_(run),
      scenario_(new QLabel),
      channel_(tip(new QLineEdit(run->channel()),
                   QStringLiteral(
                       "The queue (channel) the tasks go to and the workers consume. Changing it\n"
                       "restarts the worker pool on the new queue."))),
      count_(tip(new LimitedSpinBox(workers::limits::kTaskCount),
                 QStringLiteral("How many tasks to enqueue."))),
      body_(tip(new QLineEdit(QStringLiteral("Task #{n}")),
                QStringLiteral(
                    "Message body. {n} becomes the task number, {total} the number of tasks."))),
      tags_(tip(new QLineEdit,
                QStringLiteral(
                    "Tags as key=value pairs separated by commas, e.g. kind=resize, prio=high."))),
      metadata_(
          tip(new QLineEdit, QStringLiteral("Metadata string; {n} and {total} are expanded."))),
      delay_(tip(
          new LimitedSpinBox(protocol::kDelaySeconds),
          QStringLiteral("Delay (seconds): the broker holds each task back this long before any\n"
                         "worker can receive it."))),
      expiration_(
          tip(new LimitedSpinBox(protocol::kExpirationSeconds),
              QStringLiteral("Expiration (seconds): a task nobody received within this time is\n"
                             "dropped by the broker. 0 = never expires."))),
      maxReceive_(
          tip(new LimitedSpinBox(protocol::kMaxReceiveCount),
              QStringLiteral(
                  "Max receive count: after this many negative settlements (NAck) the broker\n"
                  "stops retrying and moves the task to the dead-letter channel (or drops it).\n"
                  "0 = server default (%1). Redeliveries after a crash do not count.")
                  .arg(protocol::kDefaultMaxReceiveCount))),
      deadLetter_(
          tip(new QLineEdit,
              QStringLiteral("Dead-letter channel: where tasks go after their max receive count.\n"
                             "Empty = they are dropped."))),
      burst_(tip(new QRadioButton(QStringLiteral("Burst")),
                 QStringLiteral("Send every task at once: the queue fills up, workers drain it."))),
      steady_(tip(
          new QRadioButton(QStringLiteral("Steady")),
          QStringLiteral("Send at a fixed rate: shows whether the pool keeps up with arrivals."))),
      rate_(tip(new LimitedDoubleSpinBox(workers::limits::kProducerRate),
                QStringLiteral("Tasks per second in steady mode (adjustable while sending)."))),
      poison_(
          tip(new QLineEdit,
              QStringLiteral(
                  "Poison tasks: task numbers that always fail (e.g. 3, 7). They are rejected on\n"
                  "every delivery until MaxReceiveCount sends them to the dead-letter channel."))),
      send_(new QPushButton(QStringLiteral("Send tasks"))),
      stop_(new QPushButton(QStringLiteral("Stop"))),
      progress_(new QProgressBar),
      status_(new QLabel),
      formScroll_(new QScrollArea) {
    count_->setValue(20);
    count_->setGroupSeparatorShown(true);
    delay_->setSuffix(QStringLiteral(" s"));
    expiration_->setSuffix(QStringLiteral(" s"));
    expiration_->setSpecialValueText(QStringLiteral("never"));
    maxReceive_->setValue(3);
    maxReceive_->setSpecialValueText(
        QStringLiteral("default (%1)").arg(protocol::kDefaultMaxReceiveCount));
    deadLetter_->setText(QStringLiteral("tasks.dlq"));
    deadLetter_->setPlaceholderText(QStringLiteral("none: drop"));
    rate_->setSpecialValueText(QStringLiteral("all at once"));  // a rate of 0
    rate_->setValue(5);
    rate_->setSuffix(QStringLiteral(" /s"));
    rate_->setEnabled(false);
    burst_->setChecked(true);
    burst_->setObjectName(QStringLiteral("burstMode"));
    steady_->setObjectName(QStringLiteral("steadyMode"));
    rate_->setObjectName(QStringLiteral("producerRate"));
    rate_->setAccessibleName(QStringLiteral("Steady rate"));
    // Fields whose label sits outside their own parent (a field with its limit line).
    count_->setAccessibleName(QStringLiteral("Tasks"));
    delay_->setAccessibleName(QStringLiteral("Delay"));
    expiration_->setAccessibleName(QStringLiteral("Expires after"));
    maxReceive_->setAccessibleName(QStringLiteral("Max receives"));
    count_->setObjectName(QStringLiteral("taskCount"));
    poison_->setObjectName(QStringLiteral("poisonTasks"));
    channel_->setObjectName(QStringLiteral("producerQueue"));
    body_->setObjectName(QStringLiteral("bodyTemplate"));
    poison_->setPlaceholderText(QStringLiteral("e.g. 3, 7"));
    tags_->setPlaceholderText(QStringLiteral("key=value, …"));
    send_->setToolTip(QStringLiteral("Enqueue the tasks (Ctrl+Return)."));
    send_->setDefault(true);
    send_->setObjectName(QStringLiteral("sendButton"));
    stop_->setToolTip(QStringLiteral("Stop sending; tasks already sent stay in the queue."));
    stop_->setEnabled(false);
    progress_->setObjectName(QStringLiteral("producerProgress"));
    progress_->setToolTip(
        QStringLiteral("Tasks of the current send accepted by the broker so far."));
    progress_->setAccessibleName(QStringLiteral("Send progress"));
    clearProgress();  // never "0 / 100 sent" before a send
    status_->setObjectName(QStringLiteral("producerStatus"));
    status_->setWordWrap(true);
    // Two lines held open: an error never has to fight the form for room (the
    // dock's layout gives a panel its minimum, which ignores wrapped text).
    status_->setMinimumHeight(2 * status_->fontMetrics().lineSpacing());
    scenario_->setWordWrap(true);
    scenario_->setTextFormat(Qt::PlainText);  // a scenario's name is not markup
    scenario_->setObjectName(QStringLiteral("scenarioNote"));
    scenario_->hide();

    // Above the fold: what to send, how, Send itself and what came of it.
    auto* mode = new QHBoxLayout;
    mode->setContentsMargins(0, 0, 0, 0);
    mode->addWidget(burst_);
    mode->addWidget(steady_);
    mode->addWidget(rate_, 1);
    auto* action = new QGridLayout;
    action->setContentsMargins(0, 0, 0, 0);
    action->setColumnStretch(1, 1);
    action->addWidget(label(QStringLiteral("Queue"), channel_), 0, 0, Qt::AlignRight);
    action->addWidget(channel_, 0, 1, 1, 2);
    action->addWidget(label(QStringLiteral("Tasks"), count_), 1, 0, Qt::AlignRight);
    action->addWidget(fieldWithProblem(count_, count_->problemLabel()), 1, 1, 1, 2);
    action->addWidget(label(QStringLiteral("Mode"), burst_), 2, 0, Qt::AlignRight);
    action->addLayout(mode, 2, 1, 1, 2);
    action->addWidget(rate_->problemLabel(), 3, 1, 1, 2);
    action->addWidget(send_, 4, 0, 1, 2);
    action->addWidget(stop_, 4, 2);
    action->addWidget(progress_, 5, 0, 1, 3);
    action->addWidget(status_, 6, 0, 1, 3);

    // Below it, scrolling when the dock is short: the rest of the message.
    auto* form = new QFormLayout;
    form->setLabelAlignment(Qt::AlignRight);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(label(QStringLiteral("Body"), body_), body_);
    form->addRow(label(QStringLiteral("Tags"), tags_), tags_);
    form->addRow(label(QStringLiteral("Metadata"), metadata_), metadata_);

    auto* policy = new QFormLayout;
    policy->setLabelAlignment(Qt::AlignRight);
    policy->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    policy->addRow(label(QStringLiteral("Delay"), delay_),
                   fieldWithProblem(delay_, delay_->problemLabel()));
    policy->addRow(label(QStringLiteral("Expires after"), expiration_),
                   fieldWithProblem(expiration_, expiration_->problemLabel()));
    policy->addRow(label(QStringLiteral("Max receives"), maxReceive_),
                   fieldWithProblem(maxReceive_, maxReceive_->problemLabel()));
    policy->addRow(label(QStringLiteral("Dead-letter"), deadLetter_), deadLetter_);
    policy->addRow(label(QStringLiteral("Poison tasks"), poison_), poison_);
    auto* policyBox = new QGroupBox(QStringLiteral("Policy"));
    policyBox->setLayout(policy);

    auto* details = new QWidget;
    auto* detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(scenario_);
    detailsLayout->addLayout(form);
    detailsLayout->addWidget(policyBox);
    detailsLayout->addStretch(1);
    formScroll_->setWidget(details);
    formScroll_->setWidgetResizable(true);
    formScroll_->setFrameShape(QFrame::NoFrame);
    formScroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // A sliver of the form is enough to show there is more; Send and the errors come first.
    formScroll_->setMinimumHeight(fontMetrics().height() * 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(action);
    layout->addWidget(formScroll_, 1);

    // Tab follows the panel top to bottom: what to send and Send, then the details.
    const QList<QWidget*> order = {channel_, count_,      burst_,      steady_,     rate_,
                                   send_,    stop_,       body_,       tags_,       metadata_,
                                   delay_,   expiration_, maxReceive_, deadLetter_, poison_};
    for (qsizetype i = 1; i < order.size(); ++i) {
        setTabOrder(order[i - 1], order[i]);
    }

    connect(steady_, &QRadioButton::toggled, rate_, &QWidget::setEnabled);
    connect(rate_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (steady_->isChecked()) {
            run_->setProducerRate(v);
        }
    });
    connect(send_, &QPushButton::clicked, this, &ProducerPanel::send);
    connect(stop_, &QPushButton::clicked, this, &ProducerPanel::stop);
    connect(channel_, &QLineEdit::editingFinished, this, [this] {
        // A queue the protocol refuses is said here; the run keeps its queue.
        const QString problem = queueProblem(channel_->text().trimmed());
        if (!problem.isEmpty()) {
            showError(problem);
            return;
        }
        run_->setChannel(channel_->text());
    });
    connect(run_, &RunController::runReset, this, &ProducerPanel::clearProgress);
    connect(run_, &RunController::poolChanged, this, [this] {
        if (!channel_->hasFocus()) {
            channel_->setText(run_->channel());
        }
    });
}

void ProducerPanel::setCount(int n) {
    count_->setValue(n);
}

void ProducerPanel::setBodyTemplate(const QString& text) {
    body_->setText(text);
}

void ProducerPanel::showScenario(const QString& name, const workers::TaskSpec& spec) {
    scenarioName_ = name;
    scenarioSpec_ = spec;
    scenario_->setText(QStringLiteral("Scenario \"%1\" sends %2 to %3. The form keeps your own "
                                      "settings for your next send.")
                           .arg(name, describeSends(spec), QString::fromStdString(spec.channel)));
    scenario_->show();
}

void ProducerPanel::scenarioEnded(const QString& how) {
    if (scenario_->isHidden()) {
        return;
    }
    // Its producer is gone by now: the bar shows what it sent in the end, not
    // the count of the last refresh before it went ("79 / 80 sent").
    const workers::ProducerProgress sent = run_->runCounters().producer;
    if (!run_->producerProgress() && sent.total > 0) {
        showProgress(static_cast<int>(sent.sent), static_cast<int>(sent.total));
    }
    scenario_->setText(QStringLiteral("Scenario \"%1\" %2; it sent %3 to %4. The form "
                                      "holds your own settings for your next send.")
                           .arg(scenarioName_, how.isEmpty() ? QStringLiteral("has ended") : how,
                                describeSends(scenarioSpec_),
                                QString::fromStdString(scenarioSpec_.channel)));
}

QString ProducerPanel::scenarioNote() const {
    return scenario_->text();
}

QString ProducerPanel::progressText() const {
    return progress_->text();
}

QString ProducerPanel::errorText() const {
    return status_->property("errorText").toString();
}

// The bar counts the current send (the user's or a scenario's), never a
// default range: "0 / 100 sent" beside Tasks 20 read as a bug.
void ProducerPanel::showProgress(int sent, int total) {
    progress_->setFormat(QStringLiteral("%v / %m sent"));
    progress_->setRange(0, std::max(total, 1));
    progress_->setValue(sent);
    if (total == 0) {
        progress_->setFormat(QStringLiteral("0 tasks to send"));
    }
}

workers::TaskSpec ProducerPanel::specFromForm(QString* error) const {
    workers::TaskSpec spec;
    error->clear();
    spec.channel = run_->channel().toStdString();
    spec.count = count_->value();
    spec.bodyTemplate = body_->text().toStdString();
    spec.metadataTemplate = metadata_->text().toStdString();
    const QStringList pairs = tags_->text().split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& pair : pairs) {
        const QString p = pair.trimmed();
        const auto eq = p.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            *error = QStringLiteral("Tag \"%1\" is not key=value").arg(p);
            return spec;
        }
        spec.tags[p.left(eq).trimmed().toStdString()] = p.mid(eq + 1).trimmed().toStdString();
    }
    spec.policy.delaySeconds = delay_->value();
    spec.policy.expirationSeconds = expiration_->value();
    spec.policy.maxReceiveCount = maxReceive_->value();
    spec.policy.deadLetterQueue = deadLetter_->text().trimmed().toStdString();
    spec.ratePerSecond = steady_->isChecked() ? rate_->value() : 0.0;
    const QStringList numbers =
        poison_->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
    for (const QString& n : numbers) {
        bool ok = false;
        const int v = n.toInt(&ok);
        if (!ok || v < 1 || v > spec.count) {
            *error = QStringLiteral("Poison task \"%1\" is not a task number between 1 and %2")
                         .arg(n)
                         .arg(spec.count);
            return spec;
        }
        spec.poison.push_back(v);
    }
    if (const std::string problem = spec.validate(); !problem.empty()) {
        *error = QString::fromStdString(problem);
    }
    return spec;
}

void ProducerPanel::send() {
    QString error = queueProblem(channel_->text().trimmed());
    if (!error.isEmpty()) {
        showError(error);  // not sent to the run's old queue behind the user's back
        return;
    }
    if (channel_->text().trimmed() != run_->channel()) {
        run_->setChannel(channel_->text());
    }
    const workers::TaskSpec spec = specFromForm(&error);
    if (error.isEmpty()) {
        run_->startProducer(spec, &error);  // sets error when it cannot start
    }
    if (!error.isEmpty()) {
        showError(error);
        return;
    }
    status_->setProperty("errorText", QString());
    status_->clear();
    scenario_->clear();  // the user's own send: the last scenario's note has served
    scenario_->hide();
    showProgress(0, spec.count);
    Q_EMIT tasksStarted(spec);
    refresh();
}

void ProducerPanel::showError(const QString& error) {
    status_->setProperty("errorText", error);
    status_->setText(
        QStringLiteral("<span style='color:#d93040'>%1</span>").arg(error.toHtmlEscaped()));
    // A long error may need more than the two lines held open.
    status_->setMinimumHeight(std::max(2 * status_->fontMetrics().lineSpacing(),
                                       status_->heightForWidth(status_->width())));
}

void ProducerPanel::stop() {
    const auto before = run_->producerProgress();
    run_->stopProducer();
    if (before && before->running) {
        showProgress(static_cast<int>(before->sent), static_cast<int>(before->total));
        status_->setText(QStringLiteral("Stopped after %1 task(s).").arg(before->sent));
    }
    refresh();
}

void ProducerPanel::clearProgress() {
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setFormat(QStringLiteral("Nothing sent yet"));
    status_->clear();
    status_->setProperty("errorText", QString());
}

void ProducerPanel::refresh() {
    const auto p = run_->producerProgress();
    if (!p) {
        send_->setEnabled(true);
        stop_->setEnabled(false);
        return;  // the bar keeps the last send's count (a scenario's producer is dropped at its
                 // end)
    }
    showProgress(static_cast<int>(p->sent), static_cast<int>(p->total));
    send_->setEnabled(!p->running);
    stop_->setEnabled(p->running);
    if (p->failed > 0) {
        status_->setText(QStringLiteral("%1 task(s) could not be sent").arg(p->failed));
    } else if (p->finished && !p->stopped) {
        status_->setText(QStringLiteral("All %1 task(s) sent.").arg(p->sent));
    } else if (p->stopped) {
        status_->setText(QStringLiteral("Stopped after %1 task(s).").arg(p->sent));
    }
}

}  // namespace qs::ui
