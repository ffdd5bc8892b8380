#pragma once

#include <QAbstractTableModel>
#include <QTimer>
#include <cstdint>
#include <vector>

#include "run/leases.h"

// The in-flight lease board: one row per message in flight at the time
// cursor (qs::leasesAt / leasesNow over the console's Run), oldest hand-out
// first. It keeps no state of its own beyond the last projection: every
// rebuild asks the core again.
//
// Updates are coalesced: appends to the run mark it stale and one rebuild
// follows within kRebuildMs; a 1 s tick advances the "held for" column (every
// kVisibilityTickMs while a v1-stream lease counts down its visibility in the
// note: "visible again in 1.2 s"). At a past cursor the board is the leases of
// Run::stateAt(t) and stands still.
// While inactive (its dock hidden) it does no work at all.
//
// Threading: UI thread only.
namespace qs::ui {

class ConsoleRun;
class TimeCursor;

class LeaseBoardModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Task,
        MessageId,
        Worker,
        Transaction,
        HeldFor,
        Receives,
        Channel,
        Note,
        ColumnCount
    };
    static constexpr int kRebuildMs = 250;
    static constexpr int kTickMs = 1000;
    static constexpr int kVisibilityTickMs = 100;

    // Neither is owned; both must outlive the model.
    LeaseBoardModel(const ConsoleRun* run, const TimeCursor* cursor, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    const std::vector<Lease>& leases() const { return leases_; }
    // The instant "held for" is measured at: the wall (monotonic) clock while
    // the cursor is live on a live run, else the cursor's time.
    std::int64_t nowNs() const;
    // A recorded run has no "now": its ages stop at the cursor (or its end).
    void setLiveClock(bool live);
    // Inactive: no rebuilds, no ticks; becoming active rebuilds at once.
    void setActive(bool active);
    bool isActive() const { return active_; }
    // Rebuilds from the core now (tests; otherwise the coalescing timer does).
    void rebuild();
    // "3 in flight · oldest held 12 s by worker-2 · 1 on its last receive".
    QString summaryText() const;

private:
    void scheduleRebuild();
    void followVisibilityTimers();
    void tick();
    QString heldText(const Lease& lease) const;
    QString visibilityText(const Lease& lease) const;  // empty without a visibility timer

    const ConsoleRun* run_;
    const TimeCursor* cursor_;
    std::vector<Lease> leases_;
    QTimer rebuildTimer_;
    QTimer tickTimer_;
    bool active_ = true;
    bool liveClock_ = true;
};

}  // namespace qs::ui
