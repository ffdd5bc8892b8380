#include "widgets/worker_card.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QToolButton>
#include <QVBoxLayout>

#include "widgets/theme.h"

namespace qs::ui {

using workers::ItemStatus;
using workers::WorkerState;

BatchStrip::BatchStrip(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(14);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(QStringLiteral(
        "The batch this worker holds: one square per task, in the order it works on them.\n"
        "Blue = waiting / being worked on (outlined), green = acked, orange = rejected,\n"
        "red = abandoned at a crash, pink = left unsettled when the worker stopped (the broker\n"
        "will redeliver both). A dark corner marks a redelivery."));
}

void BatchStrip::setBatch(const std::vector<workers::BatchItem>& items, int current, bool crashed) {
    bool same = items.size() == items_.size() && current == current_ && crashed == crashed_;
    for (std::size_t i = 0; same && i < items.size(); ++i) {
        same = items[i].status == items_[i].status && items[i].sequence == items_[i].sequence;
    }
    if (same) {
        return;
    }
    items_ = items;
    current_ = current;
    crashed_ = crashed;
    update();
}

void BatchStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const Theme& t = Theme::current();
    if (items_.empty()) {
        p.setPen(t.mutedText);
        QFont f = font();
        f.setItalic(true);
        p.setFont(f);
        p.drawText(rect(), Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("no batch"));
        return;
    }
    const int n = static_cast<int>(items_.size());
    const double size = std::min<double>(height() - 2, std::max(3.0, (width() - 2.0) / n - 2.0));
    for (int i = 0; i < n; ++i) {
        const auto& item = items_[static_cast<std::size_t>(i)];
        QColor c = t.outcome(Outcome::InFlight);
        switch (item.status) {
            case ItemStatus::Pending:
                c.setAlpha(110);
                break;
            case ItemStatus::Working:
            case ItemStatus::Done:
                break;
            case ItemStatus::Acked:
            case ItemStatus::AutoAcked:
                c = t.outcome(Outcome::Acked);
                break;
            case ItemStatus::Rejected:
                c = t.outcome(Outcome::Rejected);
                break;
            case ItemStatus::Requeued:
                c = t.outcome(Outcome::Requeued);
                break;
            case ItemStatus::Abandoned:
                c = t.outcome(crashed_ ? Outcome::Returned : Outcome::ReturnedClosed);
                break;
            case ItemStatus::VisibilityExpired:  // the broker sent it back: receive count + 1
                c = t.outcome(Outcome::Rejected);
                break;
        }
        const QRectF r(1 + i * (size + 2), (height() - size) / 2, size, size);
        p.fillRect(r, c);
        if (item.redelivered && size >= 6) {
            p.fillRect(QRectF(r.topLeft(), QSizeF(size / 3, size / 3)),
                       t.outcome(Outcome::Returned).darker(150));
        }
        if (i == current_) {
            p.setPen(QPen(t.text, 1.5));
            p.drawRect(r.adjusted(-1, -1, 1, 1));
        }
    }
}

QString WorkerCard::stateText(WorkerState s) {
    switch (s) {
        case WorkerState::Starting:
            return QStringLiteral("starting");
        case WorkerState::Polling:
            return QStringLiteral("polling");
        case WorkerState::Waiting:
            return QStringLiteral("waiting");
        case WorkerState::Processing:
            return QStringLiteral("processing");
        case WorkerState::Idle:
            return QStringLiteral("idle");
        case WorkerState::Paused:
            return QStringLiteral("paused");
        case WorkerState::Crashed:
            return QStringLiteral("crashed");
        case WorkerState::Stopped:
            return QStringLiteral("stopped");
    }
    return {};
}

QColor WorkerCard::stateColor(WorkerState s) {
    const Theme& t = Theme::current();
    switch (s) {
        case WorkerState::Polling:
            return t.mutedText;
        case WorkerState::Processing:
            return t.outcome(Outcome::InFlight);
        case WorkerState::Idle:
            return t.outcome(Outcome::Acked);
        case WorkerState::Paused:
        case WorkerState::Waiting:
            return t.waitingColor();
        case WorkerState::Crashed:
            return t.outcome(Outcome::Returned);
        case WorkerState::Stopped:
            return t.outcome(Outcome::Expired);
        case WorkerState::Starting:
            break;
    }
    return t.mutedText;
}

WorkerCard::WorkerCard(const QString& id, QWidget* parent)
    : QFrame(parent),
      id_(id),
      name_(new QLabel(id, this)),
      state_(new QLabel(this)),
      counters_(new QLabel(this)),
      batch_(new BatchStrip(this)),
      pause_(new QToolButton(this)),
      slow_(new QToolButton(this)),
      crash_(new QToolButton(this)),
      restart_(new QToolButton(this)) {
    setObjectName(QStringLiteral("workerCard_") + id);
    setFrameShape(QFrame::StyledPanel);
    QFont bold = font();
    bold.setBold(true);
    name_->setFont(bold);
    state_->setAlignment(Qt::AlignCenter);
    state_->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("processing")) + 16);
    state_->setToolTip(
        QStringLiteral("polling: a Get is open at the broker (it returns when the batch is full or "
                       "the wait ends)\n"
                       "processing: working on a task of its batch · idle: between batches\n"
                       "paused: not polling · crashed: dropped its connection without acking\n"
                       "waiting: backing off after an error or before an automatic restart"));
    counters_->setToolTip(QStringLiteral(
        "received: tasks handed to this worker · acked: settled positively\n"
        "rejected: NAcked back to the queue · redelivered: tasks it got that someone had before"));

    pause_->setText(QStringLiteral("Pause"));
    pause_->setCheckable(true);
    pause_->setToolTip(QStringLiteral(
        "Pause: stop polling after the current step. Tasks already in its batch stay reserved\n"
        "to it (invisible to others) until it resumes and settles them."));
    slow_->setText(QStringLiteral("Slow"));
    slow_->setCheckable(true);
    slow_->setToolTip(QStringLiteral(
        "Slow: make this worker's work take 4× as long. Watch how a slow consumer holding a\n"
        "big batch delays tasks other workers could have done."));
    crash_->setText(QStringLiteral("Crash"));
    crash_->setToolTip(QStringLiteral(
        "Crash: drop the connection mid-batch without acking, like a killed process.\n"
        "The broker returns its unacked tasks to the queue and another worker gets them:\n"
        "at-least-once delivery."));
    restart_->setText(QStringLiteral("Restart"));
    restart_->setToolTip(
        QStringLiteral("Restart: reconnect a crashed or stopped worker; it polls again."));
    for (QToolButton* b : {pause_, slow_, crash_, restart_}) {
        b->setAutoRaise(false);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    }

    // Two independent rows, not a grid: the counters share a row with the
    // stretchy batch strip, so six-digit counts never widen the card past the
    // dock (a shared grid column made it as wide as name + state + counters).
    top_ = new QHBoxLayout;
    top_->setSpacing(3);
    top_->addWidget(name_);
    top_->addSpacing(5);
    top_->addWidget(state_);
    top_->addStretch(1);
    actions_ = new QHBoxLayout;
    actions_->setSpacing(3);
    for (QToolButton* b : {pause_, slow_, crash_, restart_}) {
        actions_->addWidget(b);
    }
    top_->addLayout(actions_);
    bottom_ = new QHBoxLayout;
    bottom_->setSpacing(8);
    bottom_->addWidget(batch_, 1);
    bottom_->addWidget(counters_);
    rows_ = new QVBoxLayout(this);
    rows_->setContentsMargins(8, 6, 8, 6);
    rows_->setSpacing(3);
    rows_->addLayout(top_);
    rows_->addLayout(bottom_);
    counters_->setObjectName(QStringLiteral("workerCounters"));
    batch_->setMinimumWidth(40);

    connect(pause_, &QToolButton::clicked, this,
            [this](bool on) { Q_EMIT pauseRequested(id_, on); });
    connect(slow_, &QToolButton::clicked, this,
            [this](bool on) { Q_EMIT slowRequested(id_, on ? 4.0 : 1.0); });
    connect(crash_, &QToolButton::clicked, this, [this] { Q_EMIT crashRequested(id_); });
    connect(restart_, &QToolButton::clicked, this, [this] { Q_EMIT restartRequested(id_); });
}

void WorkerCard::setSnapshot(const workers::WorkerSnapshot& s) {
    const QColor c = stateColor(s.state);
    if (state_->text().isEmpty() || s.state != lastState_) {
        lastState_ = s.state;
        state_->setText(stateText(s.state));
        state_->setStyleSheet(
            QStringLiteral("QLabel { background: %1; color: white; border-radius: 3px; "
                           "padding: 1px 6px; font-weight: bold; }")
                .arg(c.name()));
    }
    const auto& k = s.counters;
    counters_->setText(QStringLiteral("recv %1 · ack %2 · rej %3 · redeliv %4")
                           .arg(k.received)
                           .arg(k.acked)
                           .arg(k.rejected)
                           .arg(k.redelivered));
    batch_->setBatch(s.batch, s.currentIndex, s.state == WorkerState::Crashed);
    const bool down = s.state == WorkerState::Crashed || s.state == WorkerState::Stopped;
    pause_->setChecked(s.state == WorkerState::Paused);
    pause_->setEnabled(!down && !readOnly_);
    slow_->setChecked(s.slowdown > 1.0);
    slow_->setEnabled(!down && !readOnly_);
    crash_->setEnabled(!down && !readOnly_);
    restart_->setEnabled(down && !readOnly_);
    if (!s.lastError.empty()) {
        setToolTip(QStringLiteral("Last error: ") + QString::fromStdString(s.lastError));
    }
}

void WorkerCard::setReadOnly(bool readOnly) {
    readOnly_ = readOnly;
    for (QToolButton* b : {pause_, slow_, crash_, restart_}) {
        b->setEnabled(b->isEnabled() && !readOnly);
    }
}

int WorkerCard::oneRowWidth() const {
    int width = name_->sizeHint().width() + 5 + state_->minimumWidth();
    for (const QToolButton* b : {pause_, slow_, crash_, restart_}) {
        width += b->sizeHint().width() + actions_->spacing();
    }
    const QMargins m = rows_->contentsMargins();
    return width + 3 * top_->spacing() + m.left() + m.right() + 2 * frameWidth();
}

void WorkerCard::setCompact(bool compact) {
    if (compact == compact_) {
        return;
    }
    compact_ = compact;
    counters_->setWordWrap(compact);  // large counts take two lines, not more width
    // Wide:    name state ...... buttons  /  batch ...... counters
    // Compact: name state  /  counters  /  batch ...... buttons
    if (compact) {
        top_->removeItem(actions_);
        actions_->setParent(nullptr);
        bottom_->removeWidget(counters_);
        rows_->insertWidget(1, counters_);
        bottom_->addLayout(actions_);
    } else {
        bottom_->removeItem(actions_);
        actions_->setParent(nullptr);
        rows_->removeWidget(counters_);
        bottom_->addWidget(counters_);
        top_->addLayout(actions_);
    }
}

QString WorkerCard::countersText() const {
    return counters_->text();
}

}  // namespace qs::ui
