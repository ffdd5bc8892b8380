#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "events/ledger.h"
#include "run/spilling_chunks.h"
#include "run/message_changes.h"
#include "run/run_state.h"
#include "run/text_log.h"
#include "run/word_changes.h"

namespace qs::run {

// What the ledger decided, event by event, in the shape of RunState: the head
// state (every message, worker and the summary after the newest event) and,
// for every event, the values it changed. Replaying the changes of events
// [from, to) onto the state after `from` gives the state after `to` without
// asking the ledger again, so a past state cannot disagree with the ledger.
//
// It is the head Ledger's observer: begin(i) before the ledger applies event i,
// end(summary) after. Message ids are not copied: a message's row names its id
// in the run's TextLog, which holds the id of every event the ledger is
// given (the Run stores each event before the ledger applies it). A message
// keeps its row however its id's text is numbered (the log gives a text
// named again after long a new id): the row is found by the ledger's record.
// Threading: that of its Run (one owner thread).
class ChangeLog final : public LedgerObserver {
public:
    // `texts` (not owned) outlives the log.
    explicit ChangeLog(const TextLog& texts) : texts_(&texts) {}

    static constexpr std::size_t kPageSize = 1024;  // messages per checkpoint page
    // The head's messages, by row: in chunks of a page, so a growing run never
    // copies them all at once (and a checkpoint page is one chunk). With a
    // spill file, old pages (settled messages, mostly) leave RAM.
    using MessageRows = SpillingChunks<MessageAt, kPageSize>;

    // Where each change list stood after some event (a checkpoint's position).
    struct Offsets {
        std::size_t messages = 0;
        std::size_t workers = 0;
        std::size_t summary = 0;
    };

    // `messageText`: the TextLog id of the event's message id (kEmpty: none).
    void begin(std::uint64_t eventIndex, std::uint32_t messageText) {
        event_ = static_cast<std::uint32_t>(eventIndex);
        eventText_ = messageText;
        touched_.clear();
    }
    void end(const LedgerSummary& summary);

    void messageChanged(const MessageRecord& message) override;
    void workerChanged(const WorkerStats& worker) override;

    // Applies the changes of events [state.events, toEvent) to `state`, whose
    // change lists stood at `from`. Leaves state.events alone.
    void replay(RunState& state, Offsets from, std::uint64_t toEvent) const;
    // Applies the changes of events [state.events, toEvent) to a complete
    // state (Run::completeState's channels and holdings kept up to date as
    // its messages change). Leaves state.events alone.
    void advance(RunState& state, std::uint64_t toEvent) const;
    // Where each change list stood after the first `eventCount` events.
    Offsets offsetsAfter(std::uint64_t eventCount) const;

    Offsets offsets() const;
    const MessageRows& messages() const { return messages_; }
    const std::vector<WorkerAt>& workers() const { return workers_; }
    const LedgerSummary& summary() const { return summary_; }
    // The head's messages per channel and state, kept as messages change (a
    // few channels: searched, not hashed). Sorted by first appearance.
    const std::vector<ChannelAt>& channels() const { return channels_; }
    // Rows of the head's messages in flight, ascending: a few hundred at most
    // where messages() holds millions (and spilled ones are read from disk).
    std::vector<std::uint32_t> inFlightRows() const;
    // Rows of the messages the current event touched (changed or not), in
    // the order the ledger reported them; a row may repeat.
    const std::vector<std::uint32_t>& touchedByEvent() const { return touched_; }
    std::string messageId(std::uint32_t index) const {
        return std::string(texts_->text(textOfRow_[index]));
    }
    // The row of the message with this id: by the id's recent number in the
    // TextLog, else (an id not named for long) a search from the newest row.
    std::optional<std::uint32_t> messageIndex(std::string_view id) const;
    // The row of the message whose id has TextLog id `text`, if an event
    // named a tracked message by it (no search).
    std::optional<std::uint32_t> rowOfText(std::uint32_t text) const {
        if (text == TextLog::kEmpty || text >= rowOfText_.size())
            return std::nullopt;
        const std::uint32_t row = rowOfText_[text];
        return row == 0 ? std::nullopt : std::optional<std::uint32_t>(row - 1);
    }

    // Pages of messages() changed since the last call (see Checkpoints).
    std::vector<std::uint32_t> takeChangedPages();
    std::size_t changeBytes() const;  // the change lists (in RAM)
    // The change lists' old entries, and the old chunks of the head's
    // messages and their columns, leave RAM for `file` (SpillingChunks).
    void spillTo(const std::shared_ptr<SpillFile>& file, std::size_t chunksInRam);
    std::uint64_t spilledBytes() const;
    // Why a change list stopped spilling ("" = none did).
    std::string spillError() const;
    std::size_t stateBytes() const;   // head state, message ids, indexes

private:
    static constexpr std::uint32_t kLifecycleField = kWorkerCounterCount;
    static constexpr std::uint32_t kWorkerFields = kWorkerCounterCount + 1;


    // Names of the few workers and channels a run has, by text, without
    // interning (Name's process-wide table) on every change.
    class NameCache {
    public:
        Name of(std::string_view text);

    private:
        static constexpr std::size_t kMaxEntries = 64;
        std::vector<std::pair<std::string, Name>> entries_;  // last found last
    };

    MessageAt viewOf(const MessageRecord& message, const MessageAt* before);
    static void setWorkerField(WorkerAt& worker, std::uint32_t field, std::int64_t value);
    static std::int64_t workerField(const WorkerAt& worker, std::uint32_t field);
    static void applyWorkerChange(WorkerAt& worker, const WordChanges::Change& change);
    // Applies the message changes from `from` to `toEvent` to state.messages;
    // `seen(before, after)` hears of each first (before = null for a new message).
    template <typename Seen>
    void replayMessages(RunState& state, std::size_t from, std::uint64_t toEvent,
                        Seen seen) const;
    void applySummaryChanges(LedgerSummary& summary, std::size_t from,
                             std::uint64_t toEvent) const;
    static std::int64_t lifecycleValue(std::optional<EventKind> lifecycle) {
        return lifecycle ? static_cast<std::int64_t>(*lifecycle) + 1 : 0;
    }
    std::uint32_t messageRow(const MessageRecord& message, bool& created);
    void noteTextOfRow(const MessageRecord& message, std::uint32_t row);
    std::uint32_t workerRow(const WorkerStats& worker);
    void markChanged(std::uint32_t message);
    void countInChannel(const MessageAt& message, std::int64_t delta);

    std::uint32_t event_ = 0;
    NameCache workerNames_;
    NameCache channelNames_;
    // Per message, text or record, so in chunks: no copy of them all as they
    // grow, and with a spill file their old chunks leave RAM.
    using Column = SpillingChunks<std::uint32_t, 4096>;
    MessageRows messages_;
    const TextLog* texts_;
    std::uint32_t eventText_ = TextLog::kEmpty;  // the current event's message id
    Column textOfRow_;  // row -> its MessageID's first TextLog id
    Column rowOfText_;  // TextLog id -> row + 1 (0 = no message)
    // Row of each ledger record (MessageRecord::ordinal): no hashing of the
    // MessageID on every change. Records of one id made again after the
    // ledger forgot it map to its row.
    Column rowOfRecord_;
    std::vector<WorkerAt> workers_;
    std::unordered_map<const WorkerStats*, std::uint32_t> rowOfWorker_;
    LedgerSummary summary_;
    std::vector<ChannelAt> channels_;
    std::unordered_set<std::uint32_t> inFlight_;  // rows, kept as messages change
    std::vector<std::uint32_t> touched_;

    MessageChanges messageChanges_;
    // New values of words: a worker's counter (slot = row * kWorkerFields +
    // field; field kLifecycleField = the lifecycle) or a summary word.
    WordChanges workerChanges_;
    WordChanges summaryChanges_;

    std::vector<bool> pageChanged_;
    std::vector<std::uint32_t> changedPages_;
};

}  // namespace qs::run
