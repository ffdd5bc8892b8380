#include "models/lease_board_model.h"

#include <QFont>
#include <algorithm>

#include "common/clock.h"
#include "controllers/console_run.h"
#include "controllers/time_cursor.h"
#include "models/core_text.h"
#include "run/run.h"
#include "widgets/theme.h"

namespace qs::ui {
namespace {

QString secondsText(std::int64_t ns) {
    return QStringLiteral("%1 s").arg(static_cast<double>(ns) / 1e9, 0, 'f', 1);
}

// Same messages in the same order: only their values changed.
bool sameRows(const std::vector<Lease>& a, const std::vector<Lease>& b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].message != b[i].message) {
            return false;
        }
    }
    return true;
}

}  // namespace

LeaseBoardModel::LeaseBoardModel(const ConsoleRun* run, const TimeCursor* cursor, QObject* parent)
    : QAbstractTableModel(parent), run_(run), cursor_(cursor) {
    rebuildTimer_.setSingleShot(true);
    rebuildTimer_.setInterval(kRebuildMs);
    connect(&rebuildTimer_, &QTimer::timeout, this, &LeaseBoardModel::rebuild);
    tickTimer_.setInterval(kTickMs);
    connect(&tickTimer_, &QTimer::timeout, this, &LeaseBoardModel::tick);
    // The cursor moves on every append while live, on every seek, and on a
    // reset: all a rebuild is needed for. A fixed cursor stays put as the run grows.
    connect(cursor_, &TimeCursor::moved, this, &LeaseBoardModel::scheduleRebuild);
    // A new run: the rows name messages of the old one, so they go at once.
    connect(run_, &ConsoleRun::wasReset, this, [this] {
        beginResetModel();
        leases_.clear();
        endResetModel();
    });
    tickTimer_.start();
}

int LeaseBoardModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(leases_.size());
}

int LeaseBoardModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

std::int64_t LeaseBoardModel::nowNs() const {
    return cursor_->isLive() && liveClock_ ? monotonicNanos() : cursor_->timeNs();
}

QString LeaseBoardModel::heldText(const Lease& lease) const {
    return lease.handedOutNs == 0 ? QStringLiteral("—") : secondsText(lease.heldNs(nowNs()));
}

QString LeaseBoardModel::visibilityText(const Lease& lease) const {
    if (!lease.hasVisibilityTimer()) {
        return {};
    }
    const std::int64_t left = lease.visibleInNs(nowNs());
    return left > 0 ? QStringLiteral("visible again in %1").arg(secondsText(left))
                    : QStringLiteral("visibility ran out: the broker takes it back");
}

QVariant LeaseBoardModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const Lease& l = leases_[static_cast<std::size_t>(index.row())];
    if (l.message >= run_->run().messageCount()) {
        return {};  // rows of a run just reset, until the reset reaches the model
    }
    const bool oldest = index.row() == 0;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
            case Task:  // the number every other view calls it by (its first-seen order)
                return QStringLiteral("Task #%1").arg(l.message + 1);
            case MessageId:
                return fromView(run_->run().messageId(l.message));
            case Worker:
                return fromView(l.worker.view());
            case Transaction:
                return fromView(l.transaction);
            case HeldFor:
                return heldText(l);
            case Receives:
                return l.maxReceiveCount > 0
                           ? QStringLiteral("%1 / %2").arg(l.receiveCount).arg(l.maxReceiveCount)
                           : QString::number(l.receiveCount);
            case Channel:
                return fromView(l.channel.view());
            case Note: {
                QStringList notes;
                if (oldest) {
                    notes << QStringLiteral("oldest");
                }
                if (const QString visibility = visibilityText(l); !visibility.isEmpty()) {
                    notes << visibility;
                }
                if (l.lastChance()) {
                    notes << QStringLiteral("last receive: a reject dead-letters it");
                }
                return notes.join(QStringLiteral(" · "));
            }
            default:
                return {};
        }
    }
    if (role == Qt::UserRole) {  // sortable numbers for tests and proxies
        return index.column() == HeldFor ? QVariant::fromValue(l.heldNs(nowNs()))
                                         : QVariant(l.receiveCount);
    }
    if (role == Qt::BackgroundRole && oldest) {
        QColor c = Theme::current().inFlightColor();
        c.setAlpha(70);
        return c;
    }
    if (role == Qt::ForegroundRole && l.lastChance() &&
        (index.column() == Receives || index.column() == Note)) {
        return Theme::current().outcome(Outcome::DeadLettered);
    }
    if (role == Qt::FontRole && oldest) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == Receives) {
            return l.maxReceiveCount > 0 ? QStringLiteral(
                                               "Receive count this hand-out showed, of the run's "
                                               "MaxReceiveCount %1.")
                                               .arg(l.maxReceiveCount)
                                         : QStringLiteral(
                                               "Receive count this hand-out showed (the run's "
                                               "MaxReceiveCount is not known).");
        }
        if (index.column() == HeldFor) {
            return QStringLiteral("Time since the worker was handed it.");
        }
        if (index.column() == Note && l.hasVisibilityTimer()) {
            return QStringLiteral(
                "Received on the v1 stream: unless the worker settles it or extends its "
                "visibility first, the broker takes it back then (receive count + 1) and "
                "the worker's late ack is refused.");
        }
        if (index.column() == MessageId || index.column() == Transaction) {
            return index.data().toString();  // whole, when the cell elides it
        }
    }
    return {};
}

QVariant LeaseBoardModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case Task:
            return QStringLiteral("Task");
        case MessageId:
            return QStringLiteral("Message ID");
        case Worker:
            return QStringLiteral("Held by");
        case Transaction:
            return QStringLiteral("Transaction");
        case HeldFor:
            return QStringLiteral("Held for");
        case Receives:
            return QStringLiteral("Receives");
        case Channel:
            return QStringLiteral("Channel");
        case Note:
            return QStringLiteral("Note");
        default:
            return {};
    }
}

void LeaseBoardModel::setLiveClock(bool live) {
    liveClock_ = live;
    tick();
}

void LeaseBoardModel::setActive(bool active) {
    if (active == active_) {
        return;
    }
    active_ = active;
    if (active_) {
        tickTimer_.start();
        rebuild();
    } else {
        rebuildTimer_.stop();
        tickTimer_.stop();
    }
}

void LeaseBoardModel::scheduleRebuild() {
    if (active_ && !rebuildTimer_.isActive()) {
        rebuildTimer_.start();
    }
}

void LeaseBoardModel::rebuild() {
    rebuildTimer_.stop();
    const Run& run = run_->run();
    std::vector<Lease> next = cursor_->isLive() ? leasesNow(run) : leasesAt(run, cursor_->state());
    if (sameRows(leases_, next)) {
        leases_ = std::move(next);
        if (!leases_.empty()) {
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        }
        followVisibilityTimers();
        return;
    }
    beginResetModel();
    leases_ = std::move(next);
    endResetModel();
    followVisibilityTimers();
}

// A countdown in tenths of a second needs a faster tick than "held for".
void LeaseBoardModel::followVisibilityTimers() {
    const bool counting = std::any_of(leases_.begin(), leases_.end(),
                                      [](const Lease& l) { return l.hasVisibilityTimer(); });
    const int interval = counting ? kVisibilityTickMs : kTickMs;
    if (tickTimer_.interval() != interval) {
        tickTimer_.setInterval(interval);
    }
}

void LeaseBoardModel::tick() {
    if (!leases_.empty()) {
        Q_EMIT dataChanged(index(0, HeldFor), index(rowCount() - 1, Note),
                           {Qt::DisplayRole, Qt::UserRole});
    }
}

QString LeaseBoardModel::summaryText() const {
    if (leases_.empty()) {
        return cursor_->isLive() ? QStringLiteral("Nothing in flight.")
                                 : QStringLiteral("Nothing was in flight at the cursor.");
    }
    const Lease& oldest = leases_.front();
    QString text = QStringLiteral("%1 in flight · oldest held %2 by %3")
                       .arg(leases_.size())
                       .arg(heldText(oldest), fromView(oldest.worker.view()));
    int last = 0;
    for (const Lease& l : leases_) {
        last += l.lastChance() ? 1 : 0;
    }
    if (last > 0) {
        text += QStringLiteral(" · %1 on its last receive").arg(last);
    }
    return text;
}

}  // namespace qs::ui
