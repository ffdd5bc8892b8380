#include "models/poll_fairness_model.h"

#include <algorithm>

#include "controllers/console_run.h"
#include "controllers/time_cursor.h"
#include "run/run.h"

namespace qs::ui {

namespace {

// The statistics RunState keeps per worker at an instant, in the ledger's
// shape, sorted by name as Ledger::workers() is. Hoarding stays 0 (unknown).
std::vector<WorkerStats> statsAt(const RunState& state) {
    std::vector<WorkerStats> out;
    for (const WorkerAt& w : state.workers) {
        WorkerStats s;
        s.worker = w.worker.str();
        s.received = static_cast<std::uint64_t>(w.count(WorkerCounter::Received));
        s.polls = static_cast<std::uint64_t>(w.count(WorkerCounter::Polls));
        s.emptyPolls = static_cast<std::uint64_t>(w.count(WorkerCounter::EmptyPolls));
        s.pollWaitNs = w.count(WorkerCounter::PollWaitNs);
        out.push_back(std::move(s));
    }
    std::sort(out.begin(), out.end(),
              [](const WorkerStats& a, const WorkerStats& b) { return a.worker < b.worker; });
    return out;
}

QString percent(double fraction) {
    return QStringLiteral("%1%").arg(fraction * 100.0, 0, 'f', 0);
}

}  // namespace

PollFairnessModel::PollFairnessModel(const ConsoleRun* run, const TimeCursor* cursor,
                                     QObject* parent)
    : QAbstractTableModel(parent), run_(run), cursor_(cursor) {
    rebuildTimer_.setSingleShot(true);
    rebuildTimer_.setInterval(kRebuildMs);
    connect(&rebuildTimer_, &QTimer::timeout, this, &PollFairnessModel::rebuild);
    // The cursor moves on every append while live, on every seek and on a reset.
    connect(cursor_, &TimeCursor::moved, this, &PollFairnessModel::scheduleRebuild);
    connect(run_, &ConsoleRun::wasReset, this, &PollFairnessModel::rebuild);
}

int PollFairnessModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(fairness_.workers.size());
}

int PollFairnessModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PollFairnessModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    static const char* const names[ColumnCount] = {
        "Worker",     "Polls",     "Empty",
        "Msgs/poll",  "Waited",    "Share",
        "Fair share", "Most held", "Empty while others held"};
    static const char* const tips[ColumnCount] = {
        "The worker's client id.",
        "Receive requests (pulls) that returned.",
        "Polls that returned no message.",
        "Messages received per poll: how much of its batch size each poll used.",
        "Time spent waiting inside polls (the long-poll wait).",
        "Its part of all hand-outs.",
        "What an even split would give each worker.",
        "The most messages it held unsettled at once (hoarding). Known live only.",
        "Its empty polls that ended while other workers held unsettled messages: work it could "
        "have done. Known live only."};
    if (section < 0 || section >= ColumnCount) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        return QString::fromLatin1(names[section]);
    }
    if (role == Qt::ToolTipRole) {
        return QString::fromLatin1(tips[section]);
    }
    return {};
}

QVariant PollFairnessModel::displayText(const runner::WorkerPollFairness& w, int column) const {
    const QString unknown = QStringLiteral("—");
    switch (column) {
        case Worker:
            return QString::fromStdString(w.worker);
        case Polls:
            return QString::number(w.polls);
        case EmptyPolls:
            return QString::number(w.emptyPolls);
        case MessagesPerPoll:
            return QString::number(w.messagesPerPoll, 'f', 1);
        case WaitSeconds:
            return QStringLiteral("%1 s").arg(w.waitSeconds, 0, 'f', 2);
        case Share:
            return percent(w.share);
        case FairShare:
            return percent(w.fairShare);
        case MaxHeld:
            return hoardingKnown_ ? QVariant(QString::number(w.maxHeld)) : QVariant(unknown);
        case EmptyWhileOthersHeld:
            return hoardingKnown_ ? QVariant(QString::number(w.emptyPollsWhileOthersHeld))
                                  : QVariant(unknown);
        default:
            return {};
    }
}

QVariant PollFairnessModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) {
        return {};
    }
    const runner::WorkerPollFairness& w = fairness_.workers[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole) {
        return displayText(w, index.column());
    }
    if (role == Qt::TextAlignmentRole && index.column() != Worker) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QString PollFairnessModel::summaryText() const {
    if (fairness_.workers.empty()) {
        return QStringLiteral("No worker has polled yet.");
    }
    QString text = QStringLiteral("Jain's index %1 (1 = even) · %2 polls, %3 empty (%4/s)")
                       .arg(fairness_.jainIndex, 0, 'f', 2)
                       .arg(fairness_.polls)
                       .arg(fairness_.emptyPolls)
                       .arg(fairness_.emptyPollsPerSecond, 0, 'f', 2);
    if (hoardingKnown_) {
        text += QStringLiteral(" · %1 empty while others held")
                    .arg(fairness_.emptyPollsWhileOthersHeld);
    } else {
        text += QStringLiteral(" · at the cursor: hoarding known live only");
    }
    return text;
}

void PollFairnessModel::setActive(bool active) {
    active_ = active;
    if (active_) {
        rebuild();
    } else {
        rebuildTimer_.stop();
    }
}

void PollFairnessModel::scheduleRebuild() {
    if (active_ && !rebuildTimer_.isActive()) {
        rebuildTimer_.start();
    }
}

void PollFairnessModel::rebuild() {
    rebuildTimer_.stop();
    const Run& run = run_->run();
    const bool live = cursor_->isLive();
    const std::int64_t endNs = live ? cursor_->headNs() : cursor_->timeNs();
    const double elapsed = static_cast<double>(endNs - cursor_->startNs()) / 1e9;
    runner::PollFairness next = runner::computePollFairness(
        live ? run.ledger().workerCounts() : statsAt(cursor_->state()), elapsed);
    // The same workers: the rows change in place, so a selection survives the
    // rebuilds that follow every append while live.
    const bool sameRows = std::equal(
        next.workers.begin(), next.workers.end(), fairness_.workers.begin(),
        fairness_.workers.end(),
        [](const auto& a, const auto& b) { return a.worker == b.worker; });
    if (!sameRows) {
        beginResetModel();
    }
    hoardingKnown_ = live;
    fairness_ = std::move(next);
    if (sameRows) {
        if (rowCount() > 0) {
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        }
    } else {
        endResetModel();
    }
}

}  // namespace qs::ui
