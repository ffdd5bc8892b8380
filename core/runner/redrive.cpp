#include "runner/redrive.h"

#include <algorithm>
#include <memory>
#include <set>

#include "client/argument_checks.h"
#include "common/clock.h"
#include "common/protocol_limits.h"

namespace qs::runner {

namespace {

constexpr std::size_t kMaxReasons = 10;

// The messages a selective redrive still looks for (RedriveOptions::ids,
// sequences). Without a selection every message is selected.
class Selection {
public:
    explicit Selection(const RedriveOptions& options)
        : active_(options.selects()),
          ids_(options.ids.begin(), options.ids.end()),
          sequences_(options.sequences.begin(), options.sequences.end()),
          size_(ids_.size() + sequences_.size()) {}

    bool active() const { return active_; }
    std::uint64_t size() const { return size_; }
    // True when `m` is selected; it is then no longer looked for, so an ID
    // selects the first waiting message that carries it.
    bool take(const client::QueueMessage& m) {
        if (!active_) {
            return true;
        }
        const bool byId = ids_.erase(m.id) > 0;
        const bool bySequence = sequences_.erase(m.attributes.sequence) > 0;
        return byId || bySequence;
    }
    bool complete() const { return active_ && ids_.empty() && sequences_.empty(); }
    // What was never found: "ID order-3", "sequence 7".
    std::vector<std::string> missing() const {
        std::vector<std::string> out;
        for (const std::string& id : ids_) {
            out.push_back("ID " + id);
        }
        for (std::uint64_t sequence : sequences_) {
            out.push_back("sequence " + std::to_string(sequence));
        }
        return out;
    }

private:
    bool active_;
    std::set<std::string> ids_;
    std::set<std::uint64_t> sequences_;
    std::uint64_t size_;
};

class Redrive {
public:
    Redrive(client::QueuesClient& client, const RedriveOptions& options)
        : client_(client), options_(options), selection_(options) {}

    RedriveReport run() {
        progress_.waiting = selection_.active() ? selection_.size() : waitingInSource();
        bool sawEnd = false;
        for (;;) {
            auto made = client::QueuesClient::create(client_.options());
            if (!made.ok()) {
                report_.error = made.error().describe();
                break;
            }
            receiver_ = std::move(made).value();
            const std::uint64_t sentBefore = sent_;
            sawEnd = pass();
            endPass();
            // A KubeMQ server can hide messages in the transactions of a pass
            // (see settleHeld()); they are back once its stream ended, so
            // another pass looks again, while that finds more to move.
            if (!sawEnd || sent_ == sentBefore || finished()) {
                break;
            }
        }
        if (sawEnd) {
            noteNotFound();
        }
        report_.cancelled = cancelled();
        return report_;
    }

private:
    // Receives until the source has nothing more to hand out (true), or the
    // redrive is finished or failed (false).
    bool pass() {
        seenThisPass_.clear();
        while (!finished()) {
            auto received = receiver_->receive(options_.from, receiveSize(), options_.wait, false);
            if (!received.ok()) {
                report_.error =
                    "receiving from " + options_.from + ": " + received.error().describe();
                return false;
            }
            client::ReceivedBatch& batch = received.value();
            if (batch.empty()) {
                return true;  // nothing more waiting that this redrive does not hold
            }
            const bool anyNew = moveBatch(std::move(batch));
            report();
            if (!report_.error.empty()) {
                return false;
            }
            if (!anyNew) {
                return true;  // only messages this pass has seen came back: do not spin
            }
        }
        return false;
    }

    bool cancelled() const { return options_.cancel != nullptr && options_.cancel->load(); }
    bool maxReached(std::uint64_t more = 0) const {
        return options_.max != 0 && report_.moved + more >= options_.max;
    }
    bool finished() const { return cancelled() || maxReached() || selection_.complete(); }

    // A selection receives as many as a receive may: the messages ahead of
    // a selected one take places in it, and after a peek KubeMQ v2.4.0 hands
    // every waiting message the peek saw to the first receive's
    // subscription (later receives of the pass get none of them).
    int receiveSize() const {
        if (selection_.active()) {
            return protocol::kMaxNumberOfMessages.max;
        }
        if (options_.max == 0) {
            return options_.batch;
        }
        return static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(options_.batch),
                                                        options_.max - report_.moved));
    }

    std::uint64_t waitingInSource() {
        auto info = client_.queuesInfo(options_.from);
        if (!info.ok()) {
            return 0;
        }
        for (const client::QueueChannelInfo& q : info.value().queues) {
            if (q.name == options_.from) {
                return static_cast<std::uint64_t>(std::max<std::int64_t>(q.storedMessages, 0));
            }
        }
        return 0;
    }

    // The copy sent to the target: the message as it was, due now, with the
    // policy the options restore.
    client::QueueMessage copyFor(const client::QueueMessage& m, const std::string& target) const {
        client::QueueMessage copy;
        copy.id = m.id;
        copy.channel = target;
        copy.clientId = m.clientId;
        copy.metadata = m.metadata;
        copy.body = m.body;
        copy.tags = m.tags;
        copy.policy = m.policy;
        copy.policy.delaySeconds = 0;
        copy.policy.maxReceiveCount = options_.maxReceiveCount.value_or(m.policy.maxReceiveCount);
        copy.policy.deadLetterQueue = deadLetterQueueFor(m);
        return copy;
    }

    std::string deadLetterQueueFor(const client::QueueMessage& m) const {
        if (options_.deadLetterQueue) {
            return *options_.deadLetterQueue;
        }
        if (m.policy.deadLetterQueue.empty() && m.attributes.reRouted) {
            return options_.from;  // where it was dead-lettered to: the one thing knowable
        }
        return m.policy.deadLetterQueue;
    }

    std::string targetOf(const client::QueueMessage& m) const {
        return options_.to.empty() ? m.attributes.reRoutedFrom : options_.to;
    }

    void noteFailure(const std::string& id, const std::string& why) {
        if (report_.failures.size() < kMaxReasons) {
            report_.failures.push_back(id + ": " + why);
        }
    }

    // Moves what `batch` selects; true when it held a message not seen before.
    bool moveBatch(client::ReceivedBatch batch) {
        bool anyNew = false;
        std::vector<client::QueueMessage> copies;
        std::vector<std::size_t> indexes;  // batch index of each copy
        auto& messages = batch.messages();
        for (std::size_t i = 0; i < messages.size(); ++i) {
            const client::QueueMessage& m = messages[i].message();
            // A message left in the source comes back in a later pass: it is
            // counted (and tried) once.
            const bool firstTime = seen_.insert(keyOf(messages[i])).second;
            anyNew |= seenThisPass_.insert(keyOf(messages[i])).second;
            if (!firstTime || maxReached(copies.size()) || !selection_.take(m)) {
                continue;  // stays, unsettled
            }
            if (movedIds_.count(m.id) != 0) {
                // Moved once already: dead-lettered again since (a consumer
                // rejects it). Moving it again would feed the loop.
                noteFailure(m.id, "moved once by this redrive and dead-lettered again: left here");
                continue;
            }
            const std::string target = targetOf(m);
            if (target.empty()) {
                ++report_.noTarget;
                noteFailure(m.id, "no target: it names no source channel; give one");
                continue;
            }
            copies.push_back(copyFor(m, target));
            indexes.push_back(i);
        }
        std::vector<std::uint64_t> sent;
        if (!copies.empty()) {
            auto answer = client_.sendBatch(copies);
            if (!answer.ok()) {
                report_.error = "sending to the target: " + answer.error().describe();
                sendFailures_ += copies.size();
            } else {
                sent = settleSent(messages, copies, indexes, answer.value());
            }
        }
        if (sent.size() == messages.size()) {
            ack(batch, sent);  // the whole transaction: acking it closes it
        } else {
            held_.push_back({std::move(batch), std::move(sent)});
        }
        return anyNew;
    }

    // Acks the originals of copies the target took (counted as moved when
    // sent); a failed ack leaves them in both channels.
    void ack(client::ReceivedBatch& batch, const std::vector<std::uint64_t>& sequences) {
        if (sequences.empty()) {
            return;
        }
        if (auto acked = batch.ackRange(sequences); !acked.ok()) {
            for (std::uint64_t sequence : sequences) {
                unmove(sequence, acked.error().describe());
            }
        }
    }

    // A transaction that keeps messages unsettled stays open until the pass
    // ends, so the next receive hands out the messages behind them and
    // nothing is settled that should not be (a reject would raise the
    // receive count). Its moved messages are acked only then: an ack frees a
    // place in the transaction's KubeMQ subscription, which the server fills
    // with the next message, hidden from later receives until the stream
    // ends (an acked batch's subscription does the same: hence the passes,
    // run()). Then every transaction is closed,
    // the newest first: what did not move goes back at its place, same
    // sequence, same receive count. If the stream is gone the server returns
    // it all the same, so a failed close changes nothing.
    void settleHeld() {
        for (HeldBatch& held : held_) {
            ack(held.batch, held.movedSequences);
        }
        for (auto it = held_.rbegin(); it != held_.rend(); ++it) {
            static_cast<void>(it->batch.close());
        }
        held_.clear();
    }

    // The copies the target took: counted per target; the refused ones noted.
    std::vector<std::uint64_t> settleSent(const std::vector<client::ReceivedMessage>& messages,
                                          const std::vector<client::QueueMessage>& copies,
                                          const std::vector<std::size_t>& indexes,
                                          const client::BatchSendResult& sent) {
        std::vector<std::uint64_t> sequences;
        for (std::size_t k = 0; k < copies.size(); ++k) {
            const bool answered = k < sent.results.size();
            const client::ReceivedMessage& original = messages[indexes[k]];
            if (!answered || sent.results[k].isError) {
                ++refused_;
                noteFailure(copies[k].id, answered ? sent.results[k].error : "no answer");
                continue;
            }
            sequences.push_back(original.sequence());
            movedIds_.insert(copies[k].id);
            if (options_.report) {
                options_.report(redriveEvent(client_.options().clientId, copies[k].id,
                                             options_.from, copies[k].channel));
            }
            acked_[original.sequence()] = {copies[k].id, copies[k].channel};
            ++report_.moved;
            ++report_.movedTo[copies[k].channel];
            ++sent_;
        }
        return sequences;
    }

    // A copy was sent but the original's ack failed: it is in both channels.
    void unmove(std::uint64_t sequence, const std::string& why) {
        auto it = acked_.find(sequence);
        if (it == acked_.end()) {
            return;
        }
        addDuplicate(it->second.id, why);
        --report_.moved;
        if (--report_.movedTo[it->second.target] == 0) {
            report_.movedTo.erase(it->second.target);
        }
        acked_.erase(it);
    }

    void addDuplicate(const std::string& id, const std::string& why) {
        ++report_.duplicated;
        report_.duplicateIds.push_back(id);
        noteFailure(id, "sent, but its ack failed (" + why + "): it is in both channels");
    }

    // Settles the pass and ends its stream: the server applies what was
    // written to it and returns whatever it still held for it.
    void endPass() {
        settleHeld();
        receiver_->shutdown();
        collectAckFailures();
        receiver_.reset();
    }

    // Acks fail on the server's side after the fact (no answer means done):
    // the errors collected on the stream name their sequences.
    void collectAckFailures() {
        for (const client::SettlementError& e : receiver_->takeSettlementErrors()) {
            for (std::uint64_t sequence : e.sequences) {
                unmove(sequence, e.message);
            }
        }
    }

    // The source held nothing more: what the selection names was not there.
    void noteNotFound() {
        for (const std::string& what : selection_.missing()) {
            ++report_.notFound;
            noteFailure(what, "not waiting in " + options_.from + " (moved, expired or never there)");
        }
    }

    static std::string keyOf(const client::ReceivedMessage& m) {
        return m.message().id + "/" + std::to_string(m.sequence());
    }

    void report() {
        report_.failed = sendFailures_ + refused_;
        progress_.moved = report_.moved;
        progress_.failed = report_.failed + report_.noTarget;
        if (options_.progress) {
            options_.progress(progress_);
        }
    }

    client::QueuesClient& client_;  // sends and asks; each pass receives on a client of its own
    std::unique_ptr<client::QueuesClient> receiver_;  // the pass's stream and transactions
    const RedriveOptions& options_;
    Selection selection_;
    RedriveReport report_;
    RedriveProgress progress_;
    std::uint64_t refused_ = 0;       // copies the target refused (still in the source)
    std::uint64_t sendFailures_ = 0;  // copies of a batch whose send failed as a whole
    std::set<std::string> seen_;          // "id/sequence" of every message received
    std::set<std::string> seenThisPass_;  // the same, in this pass over the source
    std::uint64_t sent_ = 0;              // copies the target took
    std::set<std::string> movedIds_;      // MessageIDs of those copies: each moves once
    struct HeldBatch {
        client::ReceivedBatch batch;
        std::vector<std::uint64_t> movedSequences;  // sent to the target, to ack at the end
    };
    std::vector<HeldBatch> held_;  // transactions with messages left unsettled
    struct Sent {
        std::string id;
        std::string target;
    };
    std::map<std::uint64_t, Sent> acked_;  // source sequence -> the copy sent for it
};

}  // namespace

namespace {

std::string checkSelection(const RedriveOptions& options) {
    for (const std::string& id : options.ids) {
        if (id.empty()) {
            return "a selected message ID is empty";
        }
    }
    for (std::uint64_t sequence : options.sequences) {
        if (sequence == 0) {
            return "a selected sequence is 0 (sequences start at 1)";
        }
    }
    return {};
}

std::string checkPolicy(const RedriveOptions& options) {
    if (options.maxReceiveCount) {
        if (std::string bad = protocol::kMaxReceiveCount.problem(*options.maxReceiveCount);
            !bad.empty()) {
            return bad;
        }
    }
    if (options.deadLetterQueue) {
        if (auto bad = client::checkChannelName(*options.deadLetterQueue, "dead-letter queue")) {
            return bad->message;
        }
        if (!options.to.empty() && *options.deadLetterQueue == options.to) {
            return "the dead-letter queue is the target channel: a message over its max receive "
                   "count would stay where it is; name another";
        }
    }
    return {};
}

}  // namespace

std::string checkRedriveOptions(const RedriveOptions& options) {
    if (auto bad = client::checkChannelName(options.from, "source channel")) {
        return bad->message;
    }
    if (!options.to.empty()) {
        if (auto bad = client::checkChannelName(options.to, "target channel")) {
            return bad->message;
        }
        if (options.to == options.from) {
            return "the target channel is the source channel";
        }
    }
    if (auto bad = client::checkMaxMessages(options.batch)) {
        return bad->message;
    }
    if (auto bad = client::checkWaitTimeout(options.wait)) {
        return bad->message;
    }
    if (options.max > static_cast<std::uint64_t>(kRedriveMax.max)) {
        return std::string(kRedriveMax.name) + " must be " + kRedriveMax.bounds() + " (got " +
               std::to_string(options.max) + ")";
    }
    if (std::string bad = checkSelection(options); !bad.empty()) {
        return bad;
    }
    return checkPolicy(options);
}

RedriveReport redrive(client::QueuesClient& client, const RedriveOptions& options) {
    if (std::string problem = checkRedriveOptions(options); !problem.empty()) {
        RedriveReport report;
        report.error = problem;
        return report;
    }
    return Redrive(client, options).run();
}

Event redriveEvent(std::string_view clientId, std::string_view messageId, std::string_view from,
                   std::string_view to) {
    Event e;
    e.timeNs = monotonicNanos();
    e.kind = EventKind::MessageRedriven;
    e.source = EventSource::Client;
    e.actor = clientId;
    e.messageId = messageId;
    e.channel = to;
    e.detail = std::string(from);
    return e;
}

std::string describe(const RedriveReport& r) {
    std::string out = "moved " + std::to_string(r.moved);
    if (!r.movedTo.empty()) {
        out += " (";
        bool first = true;
        for (const auto& [channel, count] : r.movedTo) {
            out += (first ? "" : ", ") + channel + ": " + std::to_string(count);
            first = false;
        }
        out += ")";
    }
    out += ", failed " + std::to_string(r.failed) + ", no target " + std::to_string(r.noTarget) +
           ", duplicated " + std::to_string(r.duplicated);
    if (r.notFound > 0) {
        out += ", not found " + std::to_string(r.notFound);
    }
    if (r.cancelled) {
        out += " (cancelled)";
    }
    for (const std::string& why : r.failures) {
        out += "\n  " + why;
    }
    if (!r.error.empty()) {
        out += "\nstopped: " + r.error;
    }
    return out;
}

}  // namespace qs::runner
