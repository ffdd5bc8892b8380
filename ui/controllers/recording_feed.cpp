#include "controllers/recording_feed.h"

#include <algorithm>

#include "controllers/console_run.h"
#include "models/charts_model.h"
#include "run/run.h"

namespace qs::ui {

namespace {

constexpr std::int64_t kSecondNs = 1'000'000'000LL;

}  // namespace

RecordingFeed::RecordingFeed(std::shared_ptr<const LoadedRecording> recording, ConsoleRun& run,
                             ChartsModel& charts)
    : recording_(std::move(recording)),
      run_(run),
      charts_(charts),
      channel_(recording_->channel.toStdString()) {
    batch_.reserve(kMaxBatch);
}

bool RecordingFeed::feed(QDeadlineTimer deadline) {
    while (!done()) {
        feedBatch();
        if (deadline.hasExpired()) {
            break;
        }
    }
    return done();
}

// One batch: the events up to the end of the current second (or kMaxBatch of
// them); the depth chart is sampled when the second is complete.
void RecordingFeed::feedBatch() {
    const std::vector<Event>& events = recording_->events;
    if (!inSecond_) {
        secondStartNs_ = events[next_].timeNs;
        inSecond_ = true;
    }
    while (next_ < events.size() && batch_.size() < kMaxBatch &&
           events[next_].timeNs - secondStartNs_ < kSecondNs) {
        batch_.push_back(events[next_]);
        ++next_;
    }
    const bool secondEnded =
        next_ >= events.size() || events[next_].timeNs - secondStartNs_ >= kSecondNs;
    if (!batch_.empty()) {
        run_.append(batch_);  // the timeline and charts follow the run (HeadViews)
        endNs_ = std::max(endNs_, batch_.back().timeNs);
        batch_.clear();
    }
    if (secondEnded) {
        sampleDepth(events[next_ - 1].timeNs);
        inSecond_ = false;
    }
}

void RecordingFeed::sampleDepth(std::int64_t timeNs) {
    const ChannelAt* c = run_.run().channelNow(channel_);
    charts_.sampleDepth(timeNs, c ? static_cast<qint64>(c->count(MessageState::Waiting)) : 0,
                        c ? static_cast<qint64>(c->count(MessageState::InFlight)) : 0);
}

}  // namespace qs::ui
