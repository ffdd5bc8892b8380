#pragma once

#include <QDeadlineTimer>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "controllers/recording_loader.h"

// Hands a recording read whole (recording_loader.h) to the console's run in
// slices, so a large one never holds the UI thread for long: the events go in
// as the pump would have handed them, a second of run time at a time (at most
// kMaxBatch events a batch), and the depth chart samples the work queue at the
// end of each second. The timeline and charts follow the run (HeadViews). Fed
// in slices or all at once, the views end the same.
//
// Threading: UI thread only (it appends to the ConsoleRun). The run and the
// charts must outlive the feed.
namespace qs::ui {

class ConsoleRun;
class ChartsModel;

class RecordingFeed {
public:
    static constexpr std::size_t kMaxBatch = 4096;

    RecordingFeed(std::shared_ptr<const LoadedRecording> recording, ConsoleRun& run,
                  ChartsModel& charts);

    const LoadedRecording& recording() const { return *recording_; }
    // Feeds batches until `deadline` has passed or every event is in; true
    // when every event is in. QDeadlineTimer::Forever feeds it all.
    bool feed(QDeadlineTimer deadline);
    bool done() const { return next_ >= recording_->events.size(); }
    std::size_t fed() const { return next_; }
    // The newest event time fed (the timeline's "now" for a recording).
    std::int64_t endNs() const { return endNs_; }

private:
    void feedBatch();
    void sampleDepth(std::int64_t timeNs);

    std::shared_ptr<const LoadedRecording> recording_;
    ConsoleRun& run_;
    ChartsModel& charts_;
    const std::string channel_;
    std::size_t next_ = 0;
    bool inSecond_ = false;           // a second is being fed (split by kMaxBatch)
    std::int64_t secondStartNs_ = 0;  // its first event's time
    std::int64_t endNs_ = 0;
    std::vector<Event> batch_;
};

}  // namespace qs::ui
