#include "models/timeline_model.h"

#include <algorithm>
#include <limits>

#include "models/core_text.h"

namespace qs::ui {

namespace {
constexpr std::int64_t kOpen = std::numeric_limits<std::int64_t>::max();
constexpr std::size_t kMaxBarsPerLane = 200000;
constexpr std::size_t kMaxMarkers = 2000;
// A key pool smaller than this is never compacted (a copy costs more than it frees).
constexpr std::size_t kMinKeysToCompact = 65536;
}  // namespace

void TimelineModel::clear() {
    lanes_.clear();
    laneIndex_.clear();
    open_.clear();
    markers_.clear();
    handouts_.clear();
    keys_ = std::make_shared<MessageKeyPool>();
    compaction_ = KeyCompaction();
    keyCache_ = KeyCache();
    firstNs_ = 0;
    lastNs_ = 0;
    detailFromNs_ = 0;
}

int TimelineModel::laneOf(const QString& worker) const {
    return laneIndex_.value(worker, -1);
}

std::size_t TimelineModel::barCount() const {
    std::size_t n = 0;
    for (const auto& l : lanes_) {
        n += l.bars.size();
    }
    return n;
}

void TimelineModel::addMarker(std::int64_t timeNs, const QString& text) {
    markers_.push_back({timeNs, text});
    if (markers_.size() > kMaxMarkers) {
        markers_.pop_front();
    }
}

void TimelineModel::addLane(std::string_view worker, bool paused, bool crashed) {
    TimelineLane& l = lane(worker);
    l.paused = paused;
    l.crashed = crashed;
}

TimelineLane& TimelineModel::lane(std::string_view worker) {
    const QString name = fromView(worker);
    const auto it = laneIndex_.constFind(name);
    if (it != laneIndex_.constEnd()) {
        return lanes_[static_cast<std::size_t>(it.value())];
    }
    // Keep lanes in natural worker order (worker-2 before worker-10).
    TimelineLane l;
    l.worker = name;
    auto pos = std::find_if(lanes_.begin(), lanes_.end(), [&](const TimelineLane& o) {
        return o.worker.size() != name.size() ? o.worker.size() > name.size() : o.worker > name;
    });
    const int at = static_cast<int>(pos - lanes_.begin());
    lanes_.insert(pos, std::move(l));
    laneIndex_.clear();
    for (int i = 0; i < static_cast<int>(lanes_.size()); ++i) {
        laneIndex_.insert(lanes_[static_cast<std::size_t>(i)].worker, i);
    }
    for (auto& entry : open_) {
        if (entry.first >= at) {
            ++entry.first;
        }
    }
    return lanes_[static_cast<std::size_t>(at)];
}

TimelineModel::KeyCache::Slot* TimelineModel::KeyCache::slotFor(std::uint32_t runMessage) {
    if (runMessage == 0xFFFFFFFFu) {
        return nullptr;
    }
    if (slots.empty()) {
        slots.resize(kSlots);
    }
    return &slots[runMessage & (kSlots - 1)];
}

MessageKeyPool::Id TimelineModel::knownKey(const Event& e) {
    KeyCache::Slot* slot = keyCache_.slotFor(keyCache_.current);
    if (slot != nullptr && slot->runMessage == keyCache_.current && slot->channel == e.channel) {
        return slot->key;
    }
    const MessageKeyPool::Id key = keys_->find(e.channel, e.messageId);
    if (slot != nullptr && key != MessageKeyPool::kNone) {
        *slot = {keyCache_.current, e.channel, key};
    }
    return key;
}

MessageKeyPool::Id TimelineModel::internKey(const Event& e) {
    KeyCache::Slot* slot = keyCache_.slotFor(keyCache_.current);
    if (slot != nullptr && slot->runMessage == keyCache_.current && slot->channel == e.channel) {
        return slot->key;
    }
    const MessageKeyPool::Id key = keys_->intern(e.channel, e.messageId);
    if (slot != nullptr) {
        *slot = {keyCache_.current, e.channel, key};
    }
    return key;
}

TimelineBar* TimelineModel::openBar(MessageKeyPool::Id key, int* laneIndex) {
    if (key == MessageKeyPool::kNone) {
        return nullptr;
    }
    const auto it = open_.constFind(key);
    if (it == open_.constEnd()) {
        return nullptr;
    }
    TimelineLane& l = lanes_[static_cast<std::size_t>(it->first)];
    if (it->second < l.barBase || it->second - l.barBase >= l.bars.size()) {
        return nullptr;
    }
    if (laneIndex) {
        *laneIndex = it->first;
    }
    return &l.bars[static_cast<std::size_t>(it->second - l.barBase)];
}

// The broker may report a settlement by the copy's sequence alone (the
// ledger finds the message by it too): the open bar of that consumer's lane
// with that sequence.
TimelineBar* TimelineModel::openBarBySequence(const Event& e, int* laneIndex) {
    const int li = laneIndex_.value(fromView(e.actor), -1);
    if (li < 0 || e.sequence == 0) {
        return nullptr;
    }
    TimelineLane& l = lanes_[static_cast<std::size_t>(li)];
    for (auto it = open_.cbegin(); it != open_.cend(); ++it) {
        if (it->first != li || it->second < l.barBase || it->second - l.barBase >= l.bars.size()) {
            continue;
        }
        TimelineBar& b = l.bars[static_cast<std::size_t>(it->second - l.barBase)];
        if (b.sequence == e.sequence && keys_->channel(b.key) == e.channel) {
            *laneIndex = li;
            return &b;
        }
    }
    return nullptr;
}

void TimelineModel::dropSpans() {
    for (TimelineLane& l : lanes_) {
        l.spans = TimelineSpans();
    }
}

void TimelineModel::rebuildSpans() {
    for (TimelineLane& l : lanes_) {
        l.spans = TimelineSpans();
        for (const TimelineBar& b : l.bars) {
            l.spans.push_back({b.startNs, b.endNs, b.key,
                               static_cast<std::uint8_t>(b.outcome), b.slot});
        }
    }
}

void TimelineModel::closeBar(int laneIndex, TimelineBar& bar, std::int64_t t, Outcome outcome) {
    TimelineLane& l = lanes_[static_cast<std::size_t>(laneIndex)];
    bar.endNs = std::max(t, bar.startNs + 1);
    bar.outcome = outcome;
    const auto open = open_.constFind(bar.key);
    if (open != open_.constEnd() && open->second >= l.barBase &&
        open->second - l.barBase < l.spans.size()) {
        TimelineSpan& span = l.spans[static_cast<std::size_t>(open->second - l.barBase)];
        span.endNs = bar.endNs;
        span.outcome = static_cast<std::uint8_t>(outcome);
    }
    l.slotBusyUntil[bar.slot] = bar.endNs;
    l.longestClosedNs = std::max(l.longestClosedNs, bar.endNs - bar.startNs);
    for (auto it = l.polls.rbegin(); it != l.polls.rend(); ++it) {
        if (it->batch == bar.batch) {
            it->lastSettleNs = std::max(it->lastSettleNs, bar.endNs);
            l.longestPollNs = std::max(l.longestPollNs, it->lastSettleNs - it->startNs);
            if (it->endNs != 0) {
                noteBracket(l, it->batch, it->lastSettleNs - it->endNs);
            }
            break;
        }
        if (it->batch < bar.batch) {
            break;
        }
    }
    open_.remove(bar.key);
}

void TimelineModel::pushPoll(TimelineLane& l, const TimelinePoll& p) {
    if (!l.polls.empty() &&
        (l.polls.back().endNs == 0 || p.startNs < l.polls.back().startNs)) {
        l.pollsIrregular = true;
    }
    l.polls.push_back(p);
}

void TimelineModel::noteBracket(TimelineLane& l, std::uint64_t batch, std::int64_t bracketNs) {
    const std::uint64_t block = batch / kPollBlock;
    if (l.bracketBlocks.empty()) {
        l.firstBracketBlock = block;
    }
    for (; block < l.firstBracketBlock; --l.firstBracketBlock) {  // an older poll's batch
        l.bracketBlocks.push_front(0);
    }
    while (l.firstBracketBlock + l.bracketBlocks.size() <= block) {
        l.bracketBlocks.push_back(0);
    }
    std::int64_t& longest = l.bracketBlocks[static_cast<std::size_t>(block - l.firstBracketBlock)];
    longest = std::max(longest, bracketNs);
}

void TimelineModel::applyEvent(const Event& e) {
    applyOne(e, nullptr);
}

void TimelineModel::applyEvent(const Event& e, bool handedOutBefore) {
    applyOne(e, &handedOutBefore);
}

void TimelineModel::applyEvent(const Event& e, bool handedOutBefore, std::uint32_t runMessage) {
    keyCache_.current = runMessage;
    applyOne(e, &handedOutBefore);
    keyCache_.current = 0xFFFFFFFFu;
}

bool TimelineModel::reads(EventKind kind) {
    switch (kind) {  // the kinds applyOne() handles
        case EventKind::PollStarted:
        case EventKind::PollReturned:
        case EventKind::MessageAssigned:
        case EventKind::Redelivered:
        case EventKind::Acked:
        case EventKind::Rejected:
        case EventKind::Requeued:
        case EventKind::BrokerAcked:
        case EventKind::BrokerNacked:
        case EventKind::BrokerRequeued:
        case EventKind::BrokerDeadLettered:
        case EventKind::BrokerExpired:
        case EventKind::BrokerReturned:
        case EventKind::WorkerStarted:
        case EventKind::WorkerPaused:
        case EventKind::WorkerResumed:
        case EventKind::WorkerCrashed:
        case EventKind::WorkerReconnected:
        case EventKind::WorkerStopped:
        case EventKind::ConfigChanged:
            return true;
        default:
            return false;
    }
}

void TimelineModel::noteTime(std::int64_t timeNs) {
    if (firstNs_ == 0) {
        firstNs_ = timeNs;
    }
    lastNs_ = std::max(lastNs_, timeNs);
}

void TimelineModel::applyOne(const Event& e, const bool* handedOutBefore) {
    noteTime(e.timeNs);
    switch (e.kind) {
        case EventKind::PollStarted: {
            TimelineLane& l = lane(e.actor);
            TimelinePoll p;
            p.startNs = e.timeNs;
            p.requested = static_cast<int>(e.value);
            p.batch = ++l.pollCounter;
            pushPoll(l, p);
            break;
        }
        case EventKind::PollReturned: {
            TimelineLane& l = lane(e.actor);
            TimelinePoll* p = nullptr;
            if (!l.polls.empty() && l.polls.back().endNs == 0) {
                p = &l.polls.back();
            } else {
                TimelinePoll np;
                np.startNs = e.timeNs - e.count2 * 1'000'000;
                np.batch = ++l.pollCounter;
                pushPoll(l, np);
                p = &l.polls.back();
            }
            p->endNs = std::max(e.timeNs, p->startNs + 1);
            p->received = static_cast<int>(e.value);
            p->lastSettleNs = p->endNs;
            l.longestPollNs = std::max(l.longestPollNs, p->endNs - p->startNs);
            if (p->received == 0) {
                l.waitPolls.push_back(p->batch);
            }
            break;
        }
        case EventKind::MessageAssigned: {
            const MessageKeyPool::Id key = internKey(e);
            int prevLane = -1;
            if (TimelineBar* prev = openBar(key, &prevLane)) {
                // Handed out again: the old hand-out ended unsettled (a crash
                // reported later colours it as one, see blameCrash()).
                closeBar(prevLane, *prev, e.timeNs, Outcome::ReturnedClosed);
            }
            TimelineLane& l = lane(e.actor);
            const int li = laneIndex_.value(fromView(e.actor));
            TimelineBar b;
            b.startNs = e.timeNs;
            b.key = key;
            b.batch = l.pollCounter;
            b.receiveCount = e.receiveCount;
            b.sequence = e.sequence;
            bool before = false;
            if (handedOutBefore != nullptr) {
                before = *handedOutBefore;
            } else {
                if (handouts_.size() > 300000) {
                    handouts_.clear();  // bounded; very old tasks lose only the redelivery notch
                }
                int& seen = handouts_[key];
                before = seen > 0;
                ++seen;
            }
            b.redelivery = before || e.receiveCount > 1 || prevLane >= 0;
            // First sub-row free at this time; else the one that frees up first.
            int slot = -1;
            int best = 0;
            for (int s = 0; s < kMaxSlots; ++s) {
                if (l.slotBusyUntil[static_cast<std::size_t>(s)] <= e.timeNs) {
                    slot = s;
                    break;
                }
                if (l.slotBusyUntil[static_cast<std::size_t>(s)] <
                    l.slotBusyUntil[static_cast<std::size_t>(best)]) {
                    best = s;
                }
            }
            if (slot < 0) {
                slot = best;
            }
            b.slot = static_cast<std::uint8_t>(slot);
            l.slotBusyUntil[static_cast<std::size_t>(slot)] = kOpen;
            l.slotsUsed = std::max(l.slotsUsed, slot + 1);
            open_.insert(key, {li, l.barBase + l.bars.size()});
            l.spans.push_back({b.startNs, 0, key,
                               static_cast<std::uint8_t>(b.outcome), b.slot});
            l.bars.push_back(std::move(b));
            break;
        }
        case EventKind::Redelivered: {
            if (TimelineBar* b = openBar(knownKey(e))) {
                b->redelivery = true;
            }
            break;
        }
        // A hand-out ends at the first report of its settlement, the worker's
        // or the broker's, as the core ledger settles it (the other report
        // then finds no open bar).
        case EventKind::Acked:
        case EventKind::Rejected:
        case EventKind::Requeued:
        case EventKind::BrokerAcked:
        case EventKind::BrokerNacked:
        case EventKind::BrokerRequeued:
        case EventKind::BrokerDeadLettered:
        case EventKind::BrokerExpired:
        case EventKind::BrokerReturned: {
            int li = -1;
            TimelineBar* b = e.messageId.empty() && e.source == EventSource::Broker
                                 ? openBarBySequence(e, &li)
                                 : openBar(knownKey(e), &li);
            if (!b) {
                break;
            }
            Outcome o = Outcome::Acked;
            if (e.kind == EventKind::Rejected || e.kind == EventKind::BrokerNacked) {
                o = Outcome::Rejected;
            } else if (e.kind == EventKind::Requeued || e.kind == EventKind::BrokerRequeued) {
                o = Outcome::Requeued;
            } else if (e.kind == EventKind::BrokerDeadLettered) {
                o = Outcome::DeadLettered;
            } else if (e.kind == EventKind::BrokerExpired) {
                o = Outcome::Expired;
            } else if (e.kind == EventKind::BrokerReturned) {
                // The stream ended unsettled; a crash is only known when its
                // worker says so (blameCrash()).
                o = Outcome::ReturnedClosed;
            }
            closeBar(li, *b, e.timeNs, o);
            break;
        }
        case EventKind::WorkerStarted:
        case EventKind::WorkerPaused:
        case EventKind::WorkerResumed:
        case EventKind::WorkerCrashed:
        case EventKind::WorkerReconnected:
        case EventKind::WorkerStopped: {
            TimelineLane& l = lane(e.actor);
            const int li = laneIndex_.value(fromView(e.actor));
            LaneMark m;
            m.timeNs = e.timeNs;
            switch (e.kind) {
                case EventKind::WorkerStarted:
                    m.kind = LaneMarkKind::Started;
                    break;
                case EventKind::WorkerPaused:
                    m.kind = LaneMarkKind::Paused;
                    break;
                case EventKind::WorkerResumed:
                    m.kind = LaneMarkKind::Resumed;
                    break;
                case EventKind::WorkerCrashed:
                    m.kind = LaneMarkKind::Crashed;
                    break;
                case EventKind::WorkerReconnected:
                    m.kind = LaneMarkKind::Reconnected;
                    break;
                default:
                    m.kind = LaneMarkKind::Stopped;
                    break;
            }
            l.marks.push_back(m);
            l.paused = e.kind == EventKind::WorkerPaused;
            l.crashed = e.kind == EventKind::WorkerCrashed;
            if (e.kind == EventKind::WorkerCrashed || e.kind == EventKind::WorkerStopped) {
                // Unsettled hand-outs of this worker go back to the queue. The open
                // bars are found through open_, not by walking the lane's history.
                std::vector<TimelineBar*> held;
                for (auto it = open_.cbegin(); it != open_.cend(); ++it) {
                    if (it->first == li && it->second >= l.barBase &&
                        it->second - l.barBase < l.bars.size()) {
                        held.push_back(&l.bars[static_cast<std::size_t>(it->second - l.barBase)]);
                    }
                }
                const Outcome returned = e.kind == EventKind::WorkerCrashed
                                             ? Outcome::Returned
                                             : Outcome::ReturnedClosed;
                for (TimelineBar* b : held) {
                    if (b->endNs == 0) {
                        closeBar(li, *b, e.timeNs, returned);
                    }
                }
                if (e.kind == EventKind::WorkerCrashed) {
                    blameCrash(l, e.timeNs);
                }
                if (!l.polls.empty() && l.polls.back().endNs == 0) {
                    TimelinePoll& p = l.polls.back();
                    p.endNs = std::max(e.timeNs, p.startNs + 1);
                    p.received = 0;
                    l.longestPollNs = std::max(l.longestPollNs, p.endNs - p.startNs);
                    l.waitPolls.push_back(p.batch);
                }
            }
            break;
        }
        case EventKind::ConfigChanged: {
            QString text = QString::fromStdString(e.detail);
            if (!e.actor.empty() && e.source == EventSource::Worker) {
                text = fromView(e.actor) + QStringLiteral(": ") + text;
            }
            addMarker(e.timeNs, text);
            break;
        }
        default:
            break;
    }
}

void TimelineModel::apply(const std::vector<Event>& batch) {
    for (const Event& e : batch) {
        applyEvent(e);
    }
    if (++sincePrune_ >= 8) {
        sincePrune_ = 0;
        prune();
    }
}

void TimelineModel::blameCrash(TimelineLane& l, std::int64_t crashNs) {
    const std::int64_t from = crashNs - kCrashReturnWindowNs;
    for (std::size_t i = l.bars.size(); i-- > 0;) {
        TimelineBar& b = l.bars[i];
        if (b.startNs < from - l.longestClosedNs) {
            break;  // sorted by start: no earlier bar can have ended in the window
        }
        if (b.outcome == Outcome::ReturnedClosed && b.endNs >= from && b.endNs <= crashNs) {
            b.outcome = Outcome::Returned;
            l.spans[i].outcome = static_cast<std::uint8_t>(Outcome::Returned);
        }
    }
}

void TimelineModel::prune() {
    const std::int64_t cutoff = lastNs_ - retentionNs_;
    for (auto& l : lanes_) {
        while (!l.bars.empty()) {
            const TimelineBar& b = l.bars.front();
            const bool old = b.endNs != 0 && b.endNs < cutoff;
            if (!old && l.bars.size() <= kMaxBarsPerLane) {
                break;
            }
            dropOldestBar(l, false);
        }
        l.summary.dropBefore(cutoff);
    }
    keepToBudget();
    // Polls before the bars held are not drawn (a summary has none).
    const std::int64_t pollCutoff = std::max(cutoff, detailFromNs_);
    for (auto& l : lanes_) {
        while (!l.polls.empty() && l.polls.front().endNs != 0 &&
               std::max(l.polls.front().endNs, l.polls.front().lastSettleNs) < pollCutoff) {
            l.polls.pop_front();
        }
        while (!l.waitPolls.empty() &&
               (l.polls.empty() || l.waitPolls.front() < l.polls.front().batch)) {
            l.waitPolls.pop_front();
        }
        while (!l.bracketBlocks.empty() &&
               (l.polls.empty() || l.firstBracketBlock < l.polls.front().batch / kPollBlock)) {
            l.bracketBlocks.pop_front();
            ++l.firstBracketBlock;
        }
        while (!l.marks.empty() && l.marks.front().timeNs < cutoff && l.marks.size() > 1) {
            l.marks.pop_front();
        }
    }
    while (!markers_.empty() && markers_.front().timeNs < cutoff) {
        markers_.pop_front();
    }
    // A pool shared with copies (a time cursor's checkpoints) stays: they keep
    // its messages anyway, and a seek would pay for a copy that frees nothing.
    if (!compacting() && keys_.use_count() == 1 && keys_->size() >= kMinKeysToCompact &&
        keys_->size() > 2 * barCount()) {
        startCompaction();
    }
    compactSome(kCompactionStep);
}

void TimelineModel::continueCompaction() {
    compactSome(kCompactionStep);
}

void TimelineModel::dropOldestBar(TimelineLane& l, bool summarise) {
    const TimelineBar& b = l.bars.front();
    if (b.endNs == 0) {
        open_.remove(b.key);
    }
    if (summarise) {
        l.summary.add(b.startNs, b.slot, b.outcome);
    }
    ++l.pruned[static_cast<int>(b.outcome)];
    l.bars.pop_front();
    l.spans.pop_front();
    ++l.barBase;
}

void TimelineModel::keepToBudget() {
    const std::size_t bars = barCount();
    if (detailBudget_ == 0 || bars <= detailBudget_) {
        return;
    }
    // A little under the budget, so a live timeline cuts a few hundred bars
    // every other frame rather than thousands in one (4 ms at 12,500).
    const std::int64_t cut = timeAfterOldest(bars - detailBudget_ + detailBudget_ / 64);
    for (TimelineLane& l : lanes_) {
        while (!l.bars.empty() && l.bars.front().startNs < cut) {
            dropOldestBar(l, true);
        }
    }
    detailFromNs_ = std::max(detailFromNs_, cut);
}

// A binary search over time; each step counts by a binary search per lane.
std::int64_t TimelineModel::timeAfterOldest(std::size_t bars) const {
    const auto startingBefore = [this](std::int64_t t) {
        std::size_t n = 0;
        for (const TimelineLane& l : lanes_) {
            n += static_cast<std::size_t>(
                std::partition_point(l.bars.begin(), l.bars.end(),
                                     [t](const TimelineBar& b) { return b.startNs < t; }) -
                l.bars.begin());
        }
        return n;
    };
    std::int64_t lo = lastNs_ + 1;  // the oldest bar's start
    for (const TimelineLane& l : lanes_) {
        if (!l.bars.empty()) {
            lo = std::min(lo, l.bars.front().startNs);
        }
    }
    std::int64_t hi = lastNs_ + 1;
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (startingBefore(mid) >= bars) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return hi;
}

// The bars' messages move to a new pool under new ids; copies of this model
// made before (checkpoints) keep the old pool. A message seen again later gets
// a new id, so the hand-out count behind redelivery detection (handouts_)
// keeps only the messages a bar still names. Until the move ends, every bar
// (those added meanwhile too) keeps its id in the old pool.
void TimelineModel::startCompaction() {
    compaction_.fresh = std::make_shared<MessageKeyPool>();
    compaction_.moved.assign(keys_->size(), MessageKeyPool::kNone);
    compaction_.scannedEnd.assign(lanes_.size(), 0);
    compaction_.lane = 0;
}

MessageKeyPool::Id TimelineModel::movedKey(MessageKeyPool::Id key) {
    if (key >= compaction_.moved.size()) {  // a message first seen after the move began
        compaction_.moved.resize(keys_->size(), MessageKeyPool::kNone);
    }
    MessageKeyPool::Id& to = compaction_.moved[key];
    if (to == MessageKeyPool::kNone) {
        to = compaction_.fresh->intern(keys_->channel(key), keys_->messageId(key));
    }
    return to;
}

// Lanes are visited in turn, each from where its scan stopped to its newest
// bar: bars added meanwhile are scanned too, so the end only looks ids up.
// The scan is done when a whole round of lanes finds nothing left to scan.
void TimelineModel::compactSome(std::size_t budget) {
    if (!compacting()) {
        return;
    }
    if (keys_.use_count() != 1) {
        compaction_ = KeyCompaction();  // a copy shares the pool now: the move would free nothing
        return;
    }
    std::vector<std::uint64_t>& scanned = compaction_.scannedEnd;
    scanned.resize(lanes_.size(), 0);  // a new lane: from its first bar
    std::size_t lanesDone = 0;  // lanes in a row found with nothing left to scan
    while (lanesDone < lanes_.size()) {
        if (compaction_.lane >= lanes_.size()) {
            compaction_.lane = 0;
        }
        const TimelineLane& l = lanes_[compaction_.lane];
        const std::uint64_t end = l.barBase + l.bars.size();
        std::uint64_t i = std::max(scanned[compaction_.lane], l.barBase);  // older bars may have gone
        if (i == end) {
            ++lanesDone;
            ++compaction_.lane;
            continue;
        }
        lanesDone = 0;
        for (; i < end && budget > 0; ++i, --budget) {
            movedKey(l.bars[static_cast<std::size_t>(i - l.barBase)].key);
        }
        scanned[compaction_.lane] = i;
        if (i < end) {
            return;  // the rest in the next steps
        }
        ++compaction_.lane;
    }
    finishCompaction();
}

// Every bar has been scanned: each only looks its new id up.
void TimelineModel::finishCompaction() {
    for (TimelineLane& l : lanes_) {
        for (std::size_t i = 0; i < l.bars.size(); ++i) {
            TimelineBar& b = l.bars[i];
            b.key = movedKey(b.key);
            if (i < l.spans.size()) {
                l.spans[i].key = b.key;
            }
        }
    }
    compaction_.moved.resize(keys_->size(), MessageKeyPool::kNone);
    const std::vector<MessageKeyPool::Id>& moved = compaction_.moved;
    QHash<MessageKeyPool::Id, std::pair<int, std::uint64_t>> open;
    for (auto it = open_.cbegin(); it != open_.cend(); ++it) {
        if (moved[it.key()] != MessageKeyPool::kNone) {
            open.insert(moved[it.key()], it.value());
        }
    }
    QHash<MessageKeyPool::Id, int> handouts;
    for (auto it = handouts_.cbegin(); it != handouts_.cend(); ++it) {
        if (moved[it.key()] != MessageKeyPool::kNone) {
            handouts.insert(moved[it.key()], it.value());
        }
    }
    open_ = std::move(open);
    handouts_ = std::move(handouts);
    keys_ = std::move(compaction_.fresh);
    compaction_ = KeyCompaction();
    keyCache_ = KeyCache();  // its ids were the old pool's
}

std::vector<std::pair<int, const TimelineBar*>> TimelineModel::openBars() const {
    std::vector<std::pair<int, const TimelineBar*>> out;
    out.reserve(static_cast<std::size_t>(open_.size()));
    for (auto it = open_.constBegin(); it != open_.constEnd(); ++it) {
        const TimelineLane& l = lanes_[static_cast<std::size_t>(it->first)];
        if (it->second >= l.barBase && it->second - l.barBase < l.bars.size()) {
            out.emplace_back(it->first, &l.bars[static_cast<std::size_t>(it->second - l.barBase)]);
        }
    }
    return out;
}

std::vector<std::pair<int, const TimelineBar*>> TimelineModel::barsOf(const QString& text) const {
    std::vector<std::pair<int, const TimelineBar*>> out;
    const MessageKeyPool::Id key = keys_->find(text);
    if (key == MessageKeyPool::kNone) {
        return out;
    }
    for (int li = 0; li < static_cast<int>(lanes_.size()); ++li) {
        for (const auto& b : lanes_[static_cast<std::size_t>(li)].bars) {
            if (b.key == key) {
                out.emplace_back(li, &b);
            }
        }
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.second->startNs < b.second->startNs; });
    return out;
}

}  // namespace qs::ui
