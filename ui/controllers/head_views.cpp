#include "controllers/head_views.h"

#include "controllers/console_run.h"
#include "models/charts_model.h"
#include "models/hand_out_history.h"
#include "models/timeline_model.h"
#include "run/run.h"

namespace qs::ui {

HeadViews::HeadViews(ConsoleRun* run, TimelineModel* timeline, ChartsModel* charts,
                     QObject* parent)
    : QObject(parent), run_(run), timeline_(timeline), charts_(charts) {
    run_->setFollower([this](const Run& r) { follow(r); });
    connect(run_, &ConsoleRun::wasReset, this, &HeadViews::restart);
}

HeadViews::~HeadViews() {
    if (run_ != nullptr) {
        run_->setFollower({});  // takes the run back first: no follow runs on
    }
}

void HeadViews::follow(const Run& run) {
    for (; fed_ < run.eventCount(); ++fed_) {
        // Run::event is a decode: an event neither model reads gives only its time.
        const EventKind kind = run.eventKind(fed_);
        if (!TimelineModel::reads(kind) && !ChartsModel::reads(kind)) {
            timeline_->noteTime(run.eventTimeNs(fed_));
            continue;
        }
        const Event& e = run.event(fed_);
        const bool again = e.kind == EventKind::MessageAssigned && handedOutBefore(run, fed_, e);
        // The run's number for the timeline's key cache; an event the ledger
        // took no message from goes without (no search of every message).
        timeline_->applyEvent(e, again, run.trackedMessageOfEvent(fed_).value_or(0xFFFFFFFFu));
        charts_->applyEvent(e, again, e.kind == EventKind::Acked ? latencyNs(run, e) : -1);
    }
    if (++sincePrune_ >= kPruneEvery) {
        sincePrune_ = 0;
        timeline_->prune();
    } else {
        timeline_->continueCompaction();  // a move to a new key pool, a step a frame
    }
}

std::int64_t HeadViews::latencyNs(const Run& run, const Event& acked) {
    const MessageRecord* r = run.ledger().message(acked.messageId.view());
    return r != nullptr && r->sentNs > 0 ? acked.timeNs - r->sentNs : -1;
}

void HeadViews::restart() {
    fed_ = 0;
    sincePrune_ = 0;
    timeline_->clear();
    charts_->clear();
}

}  // namespace qs::ui
