#pragma once

#include <QAbstractTableModel>
#include <QTimer>

#include "runner/poll_fairness.h"

// Poll efficiency and fairness of the console's workers at the time cursor:
// one row per worker (polls, empty polls, messages per poll, time waited,
// share against a fair share, hoarding), and Jain's index over them. A
// projection of the core: runner::computePollFairness over the ledger's
// worker statistics, the same numbers `queuescope run` prints.
//
// Live it reads the head ledger. At a past cursor it reads the workers of
// Run::stateAt(t); the ledger does not keep the hoarding figures (most held,
// empty polls while others held) per instant, so those show "—" there.
//
// Updates are coalesced as the lease board's are (kRebuildMs after a move of
// the cursor); the same workers update in place (a selection survives).
// While inactive (its dock hidden) it does no work.
//
// Threading: UI thread only.
namespace qs::ui {

class ConsoleRun;
class TimeCursor;

class PollFairnessModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Worker,
        Polls,
        EmptyPolls,
        MessagesPerPoll,
        WaitSeconds,
        Share,
        FairShare,
        MaxHeld,
        EmptyWhileOthersHeld,
        ColumnCount
    };
    static constexpr int kRebuildMs = 250;

    // Neither is owned; both must outlive the model.
    PollFairnessModel(const ConsoleRun* run, const TimeCursor* cursor, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    const runner::PollFairness& fairness() const { return fairness_; }
    // False at a past cursor: the hoarding columns are unknown there.
    bool hoardingKnown() const { return hoardingKnown_; }
    // "Jain's index 0.67 (1 = even) · 12 polls, 3 empty (0.50/s) · 0 empty while others held"
    QString summaryText() const;

    // Inactive: no rebuilds; becoming active rebuilds at once.
    void setActive(bool active);
    bool isActive() const { return active_; }
    // Rebuilds from the core now (tests; otherwise the coalescing timer does).
    void rebuild();

private:
    void scheduleRebuild();
    QVariant displayText(const runner::WorkerPollFairness& w, int column) const;

    const ConsoleRun* run_;
    const TimeCursor* cursor_;
    runner::PollFairness fairness_;
    bool hoardingKnown_ = true;
    QTimer rebuildTimer_;
    bool active_ = true;
};

}  // namespace qs::ui
