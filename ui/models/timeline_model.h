#pragma once

#include <QHash>
#include <QString>
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "events/event.h"
#include "models/message_key_pool.h"
#include "models/timeline_spans.h"
#include "models/timeline_summary.h"
#include "widgets/theme.h"

// The data behind the assignment timeline: one lane per worker, one bar per
// hand-out of a message (from assignment to its end), the polls that produced
// them, and configuration markers. Bars older than the retention window are
// dropped and only counted per outcome. Plain C++ (no signals); UI thread only.
namespace qs::ui {

// A bar is kept per hand-out in the view and in every checkpoint of a time
// cursor (hundreds of thousands in a large recording): it names its message
// by an id in the model's MessageKeyPool and leaves no padding (48 bytes; 64
// with a QString key, 80 before that).
struct TimelineBar {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;   // 0 = still open (in flight)
    std::uint64_t batch = 0;  // lane-local poll number this bar came from
    std::uint64_t sequence = 0;
    std::int32_t receiveCount = 0;
    MessageKeyPool::Id key = MessageKeyPool::kNone;  // TimelineModel::keyOf() for its text
    Outcome outcome = Outcome::InFlight;
    std::uint8_t slot = 0;  // sub-row within the lane
    bool redelivery = false;
};
static_assert(sizeof(TimelineBar) <= 48, "a TimelineBar grew: keep it free of padding");

struct TimelinePoll {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;  // 0 = the Get is still waiting
    int received = -1;       // -1 while waiting
    int requested = 0;
    std::uint64_t batch = 0;
    std::int64_t lastSettleNs = 0;  // end of the batch's last bar (for the group bracket)
};

enum class LaneMarkKind { Started, Paused, Resumed, Crashed, Reconnected, Stopped };

struct LaneMark {
    std::int64_t timeNs = 0;
    LaneMarkKind kind = LaneMarkKind::Started;
};

// Polls per block of TimelineLane::bracketBlocks.
inline constexpr std::uint64_t kPollBlock = 64;

struct TimelineLane {
    QString worker;
    std::deque<TimelineBar> bars;  // sorted by startNs
    TimelineSpans spans;           // the bars packed for the paint: spans[i] is bars[i]
    std::deque<TimelinePoll> polls;
    std::deque<LaneMark> marks;
    std::uint64_t barBase = 0;  // absolute index of bars.front()
    std::uint64_t pollCounter = 0;
    std::int64_t longestClosedNs = 0;
    std::int64_t longestPollNs = 0;  // start to end of its bracket (views search from t0 - this)
    // The longest batch bracket (a poll's end to its batch's last settle) of
    // each block of kPollBlock polls by batch number, from the block of
    // polls.front() on: where it is under a few pixels at the span shown no
    // bracket of the block is drawn, and the paint visits only its waitPolls.
    std::deque<std::int64_t> bracketBlocks;
    std::uint64_t firstBracketBlock = 0;  // the block bracketBlocks.front() is
    // The polls that ended with nothing (drawn as waits), by batch number in
    // order; polls.front().batch and later are held (older ones go at prune).
    std::deque<std::uint64_t> waitPolls;
    // A poll left open behind a newer one, or one that starts before the
    // poll ahead of it: the paint then walks every poll (the index above
    // assumes neither).
    bool pollsIrregular = false;
    int slotsUsed = 1;
    std::array<std::int64_t, 8> slotBusyUntil{};  // INT64_MAX = open bar in the slot
    std::array<std::int64_t, static_cast<int>(Outcome::Count)> pruned{};  // summarised bars
    // The bars the detail budget took, within the retention (setDetailBudget).
    TimelineSummary summary;
    bool paused = false;
    bool crashed = false;
};

struct TimelineMarker {
    std::int64_t timeNs = 0;
    QString text;
};

class TimelineModel {
public:
    static constexpr int kMaxSlots = 8;
    static constexpr std::int64_t kCrashReturnWindowNs = 2'000'000'000;

    void apply(const std::vector<Event>& batch);
    // One event, with no pruning: a feed that is not batched (TimelineAtCursor
    // reads the Run's events in place) calls prune() itself.
    void applyEvent(const Event& event);
    // One event whose hand-out history the caller knows (TimelineAtCursor
    // asks the Run, hand_out_history.h): a MessageAssigned is drawn as a
    // redelivery when `handedOutBefore` (or by its receive count, or when it
    // ends an open hand-out); the model's own count of hand-outs is neither
    // read nor grown, so a copy of the model stays smaller.
    void applyEvent(const Event& event, bool handedOutBefore);
    // The same for the run's event naming the run's message `runMessage`
    // (Run::messageOfEvent): the message's key is looked up by that number
    // in a small cache first, not by its text in the key pool (the head's
    // feed, thousands of events a frame, names the same few messages again).
    void applyEvent(const Event& event, bool handedOutBefore, std::uint32_t runMessage);
    // Whether an event of `kind` changes more than the model's first / last
    // time: a feed that reads the Run's events in place decodes only these
    // and gives the others' times to noteTime() (Run::event is a decode).
    static bool reads(EventKind kind);
    void noteTime(std::int64_t timeNs);  // what applyEvent() does for any other kind
    // Summarises and drops the bars older than the retention window; then,
    // when the key pool names more than twice the messages the bars left
    // name, moves those to a new pool (a long live run would otherwise keep
    // an entry for every message it ever saw), unless a copy shares the pool.
    // The move to a new pool interns the bars' messages a few thousand at a
    // time (kCompactionStep per call: prune() and continueCompaction()), and
    // the bars take their new ids in one pass at the end; done at once, the
    // move of ~90,000 bars added 20-23 ms to one frame every ~5 s of a live
    // run at 100,000 events/s.
    void prune();
    // The next step of a move to a new key pool under way (none: nothing);
    // a live feed calls it every frame.
    void continueCompaction();
    bool compacting() const { return compaction_.fresh != nullptr; }
    // Bars interned per step: 0.8-1.0 ms a frame at 100,000 events/s, for
    // ~50 frames every ~10 s. Steps of 1,024 made the move twice as long, with
    // both pools held meanwhile: resident memory +20 % after 10 s, not +9 %.
    static constexpr std::size_t kCompactionStep = 2048;
    void clear();
    // A copy kept aside (a time cursor's checkpoint) is never painted: its
    // packed spans go (24 bytes a bar), and come back from the bars when the
    // copy is shown again.
    void dropSpans();
    void rebuildSpans();

    // Bars ending before (newest event - retention) are summarised and dropped.
    void setRetentionNs(std::int64_t ns) { retentionNs_ = ns; }
    std::int64_t retentionNs() const { return retentionNs_; }
    // At most `bars` hand-outs are held one by one (0, the default: no
    // limit): beyond it, prune() moves the oldest of all lanes into their
    // lanes' summaries (TimelineLane::summary), down to 63/64 of the budget, and
    // their polls go. A live timeline at 100,000 events/s would otherwise
    // hold ~2 million bars for its 180 s.
    void setDetailBudget(std::size_t bars) { detailBudget_ = bars; }
    std::size_t detailBudget() const { return detailBudget_; }
    // Every hand-out that started from this time on is a bar; before it, a
    // lane has its summary. 0 while the budget never cut.
    std::int64_t detailFromNs() const { return detailFromNs_; }

    const std::vector<TimelineLane>& lanes() const { return lanes_; }
    const std::deque<TimelineMarker>& markers() const { return markers_; }
    int laneOf(const QString& worker) const;
    std::int64_t firstTimeNs() const { return firstNs_; }
    std::int64_t lastTimeNs() const { return lastNs_; }
    std::size_t barCount() const;

    // Adds a marker that did not come from an event (e.g. "run started").
    void addMarker(std::int64_t timeNs, const QString& text);
    // A worker's lane as it stood before the first event applied (a
    // projection that starts mid-run: TimelineAtCursor): paused / crashed then.
    void addLane(std::string_view worker, bool paused, bool crashed);

    // Bars still in flight, with their lane.
    std::vector<std::pair<int, const TimelineBar*>> openBars() const;

    // Every bar of one message across lanes, in time order (lane, index into bars).
    std::vector<std::pair<int, const TimelineBar*>> barsOf(const QString& key) const;
    // A bar's message as the other views name it (messageKey()).
    QString keyOf(const TimelineBar& bar) const { return keys_->key(bar.key); }
    // The id bars of the message `key` (messageKey()) carry; kNone if none has.
    MessageKeyPool::Id keyId(const QString& key) const { return keys_->find(key); }
    // Messages the key pool holds (at least those the bars name).
    std::size_t keyCount() const { return keys_->size(); }

private:
    // `handedOutBefore` null: the model's own count decides.
    void applyOne(const Event& event, const bool* handedOutBefore);
    TimelineLane& lane(std::string_view worker);
    // Appends a poll to the lane, noting when the polls stop being regular
    // (TimelineLane::pollsIrregular).
    static void pushPoll(TimelineLane& lane, const TimelinePoll& poll);
    // A bracket of `bracketNs` in poll `batch`'s block (TimelineLane::bracketBlocks).
    static void noteBracket(TimelineLane& lane, std::uint64_t batch, std::int64_t bracketNs);
    void startCompaction();
    // Interns up to `budget` bars' messages into the new pool; when every
    // bar has been (those added meanwhile too), the bars, open_ and handouts_
    // take the new ids.
    void compactSome(std::size_t budget);
    // The new id of old id `key`, interned into the new pool on first sight.
    MessageKeyPool::Id movedKey(MessageKeyPool::Id key);
    void finishCompaction();
    // Drops lane l's oldest bar, into its summary when `summarise`.
    void dropOldestBar(TimelineLane& l, bool summarise);
    // Moves the oldest bars into the summaries when over the detail budget.
    void keepToBudget();
    // The earliest start time such that at least `bars` bars start before it.
    std::int64_t timeAfterOldest(std::size_t bars) const;
    TimelineBar* openBar(MessageKeyPool::Id key, int* laneIndex = nullptr);
    // The id of the message an event names, kNone if no bar named it yet.
    MessageKeyPool::Id knownKey(const Event& event);
    // The id of the message an event names, made on first sight.
    MessageKeyPool::Id internKey(const Event& event);
    TimelineBar* openBarBySequence(const Event& brokerReturned, int* laneIndex);
    // `bar` must be open (its index is read from open_).
    void closeBar(int laneIndex, TimelineBar& bar, std::int64_t t, Outcome outcome);
    // The broker sees a crashed client's stream end before the worker reports
    // the crash: the lane's returns up to kCrashReturnWindowNs before it were
    // the crash's (as the core ledger decides, Ledger::blameCrashForReturns).
    static void blameCrash(TimelineLane& lane, std::int64_t crashNs);

    std::vector<TimelineLane> lanes_;
    QHash<QString, int> laneIndex_;
    // Shared by the copies of this model (a time cursor's checkpoints): ids
    // are only ever added. clear() starts a new one.
    std::shared_ptr<MessageKeyPool> keys_ = std::make_shared<MessageKeyPool>();
    // key -> (lane, absolute bar index) of its open bar
    QHash<MessageKeyPool::Id, std::pair<int, std::uint64_t>> open_;
    std::deque<TimelineMarker> markers_;
    QHash<MessageKeyPool::Id, int> handouts_;  // hand-outs seen per message (redelivery detection)
    // A move to a new key pool under way (compactSome). A copy of the model (a
    // checkpoint) starts with none: the copy keeps the pool it shares.
    struct KeyCompaction {
        std::shared_ptr<MessageKeyPool> fresh;  // null: none under way
        std::vector<MessageKeyPool::Id> moved;  // old id -> new id (kNone: not yet)
        std::vector<std::uint64_t> scannedEnd;  // per lane: bars scanned before this (absolute)
        std::size_t lane = 0;                   // the lane the scan is in
        KeyCompaction() = default;
        KeyCompaction(const KeyCompaction&) {}
        KeyCompaction(KeyCompaction&&) = default;
        KeyCompaction& operator=(const KeyCompaction&) {
            fresh.reset();
            moved.clear();
            scannedEnd.clear();
            lane = 0;
            return *this;
        }
        KeyCompaction& operator=(KeyCompaction&&) = default;
        ~KeyCompaction() = default;
    };
    KeyCompaction compaction_;
    // Keys by the run's message number (applyEvent with runMessage):
    // direct-mapped, the slot checked against the number and channel (a
    // dead-lettered copy is the same message in another channel). Ids of
    // the current pool only: emptied when the pool changes. A copy of the
    // model (a checkpoint) starts with none.
    struct KeyCache {
        static constexpr std::size_t kSlots = 32768;  // a power of two
        struct Slot {
            std::uint32_t runMessage = 0xFFFFFFFFu;
            Name channel;
            MessageKeyPool::Id key = MessageKeyPool::kNone;
        };
        std::vector<Slot> slots;  // empty until first used
        std::uint32_t current = 0xFFFFFFFFu;  // the event being applied's message (none)
        KeyCache() = default;
        KeyCache(const KeyCache&) {}
        KeyCache(KeyCache&&) = default;
        KeyCache& operator=(const KeyCache&) {
            slots.clear();
            current = 0xFFFFFFFFu;
            return *this;
        }
        KeyCache& operator=(KeyCache&&) = default;
        ~KeyCache() = default;
        Slot* slotFor(std::uint32_t runMessage);  // null: no message number given
    };
    KeyCache keyCache_;
    std::int64_t retentionNs_ = 180'000'000'000LL;
    std::size_t detailBudget_ = 0;
    std::int64_t detailFromNs_ = 0;
    std::int64_t firstNs_ = 0;
    std::int64_t lastNs_ = 0;
    int sincePrune_ = 0;
};

}  // namespace qs::ui
