#pragma once

#include <QObject>
#include <QPointer>
#include <cstdint>

#include "events/event.h"

// The live timeline and charts as projections of the console's Run at its
// head: after each append they read the Run's own new events, and whether a
// hand-out is a redelivery from the message's trail in the Run
// (hand_out_history.h), as their projections at the time cursor do. So the
// head and any instant are drawn from one truth, live or while a recording
// is fed in, and neither model keeps a set of handed-out messages of its own.
// A reset of the run empties both.
//
// Threading: it follows the run where the run is appended
// (ConsoleRun::setFollower): live, on the run's ingest thread, the two models
// lent with the run; else on the UI thread. Made, reset and destroyed on the
// UI thread. Owns nothing: the two models must outlive it (the run need not).
namespace qs {
class Run;
}

namespace qs::ui {

class ConsoleRun;
class TimelineModel;
class ChartsModel;

class HeadViews : public QObject {
public:
    HeadViews(ConsoleRun* run, TimelineModel* timeline, ChartsModel* charts,
              QObject* parent = nullptr);
    ~HeadViews() override;

    // The time from an acked event's send, by the run's head ledger; -1 if
    // unknown (the live charts' latency, and the charts' at a time cursor).
    static std::int64_t latencyNs(const Run& run, const Event& acked);

    // Events of the run the two models have been fed.
    std::uint64_t fedEvents() const { return fed_; }

private:
    void follow(const Run& run);
    void restart();


    // Appends between two prunes of the timeline's old bars: often, so each
    // moves few bars into the summaries (TimelineModel::setDetailBudget).
    static constexpr int kPruneEvery = 2;

    QPointer<ConsoleRun> run_;
    TimelineModel* timeline_;
    ChartsModel* charts_;
    std::uint64_t fed_ = 0;
    int sincePrune_ = 0;
};

}  // namespace qs::ui
