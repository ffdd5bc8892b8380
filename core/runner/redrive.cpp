#include "runner/redrive.h"

#include <algorithm>
#include <set>

#include "client/argument_checks.h"

namespace qs::runner {

namespace {

constexpr std::size_t kMaxReasons = 10;

// What one receive of the redrive did.
struct BatchOutcome {
    std::uint64_t moved = 0;
    bool anyNew = false;  // at least one message not seen in an earlier batch
};

class Redrive {
public:
    Redrive(client::QueuesClient& client, const RedriveOptions& options)
        : client_(client), options_(options) {}

    RedriveReport run() {
        progress_.waiting = waitingInSource();
        while (!finished()) {
            const int want = static_cast<int>(
                std::min<std::uint64_t>(static_cast<std::uint64_t>(options_.batch), remaining()));
            auto received = client_.receive(options_.from, want, options_.wait, false);
            if (!received.ok()) {
                report_.error =
                    "receiving from " + options_.from + ": " + received.error().describe();
                break;
            }
            client::ReceivedBatch& batch = received.value();
            if (batch.empty()) {
                break;  // the source is empty (or holds only what cannot move)
            }
            const BatchOutcome outcome = moveBatch(batch);
            report(outcome);
            if (!outcome.anyNew || !report_.error.empty()) {
                break;  // only messages that cannot move are left: do not spin on them
            }
        }
        collectAckFailures();
        report_.cancelled = cancelled();
        return report_;
    }

private:
    bool cancelled() const { return options_.cancel != nullptr && options_.cancel->load(); }
    std::uint64_t remaining() const {
        return options_.max == 0 ? static_cast<std::uint64_t>(options_.batch)
                                 : options_.max - report_.moved;
    }
    bool finished() const {
        return cancelled() || (options_.max != 0 && report_.moved >= options_.max);
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

    // The copy sent to the target: the message as it was, due now.
    static client::QueueMessage copyFor(const client::QueueMessage& m, const std::string& target) {
        client::QueueMessage copy;
        copy.id = m.id;
        copy.channel = target;
        copy.clientId = m.clientId;
        copy.metadata = m.metadata;
        copy.body = m.body;
        copy.tags = m.tags;
        copy.policy = m.policy;
        copy.policy.delaySeconds = 0;
        return copy;
    }

    std::string targetOf(const client::QueueMessage& m) const {
        return options_.to.empty() ? m.attributes.reRoutedFrom : options_.to;
    }

    void noteFailure(const std::string& id, const std::string& why) {
        if (report_.failures.size() < kMaxReasons) {
            report_.failures.push_back(id + ": " + why);
        }
    }

    BatchOutcome moveBatch(client::ReceivedBatch& batch) {
        BatchOutcome outcome;
        std::vector<client::QueueMessage> copies;
        std::vector<std::size_t> indexes;  // batch index of each copy
        auto& messages = batch.messages();
        for (std::size_t i = 0; i < messages.size(); ++i) {
            const client::QueueMessage& m = messages[i].message();
            // A message left in the source comes back in a later batch:
            // it is counted once.
            const bool firstTime = seen_.insert(keyOf(messages[i])).second;
            outcome.anyNew |= firstTime;
            const std::string target = targetOf(m);
            if (target.empty()) {
                if (firstTime) {
                    ++report_.noTarget;
                    noteFailure(m.id, "no target: it names no source channel; give one");
                }
                continue;
            }
            copies.push_back(copyFor(m, target));
            indexes.push_back(i);
        }
        std::vector<std::uint64_t> sentSequences;
        if (!copies.empty()) {
            auto sent = client_.sendBatch(copies);
            if (!sent.ok()) {
                report_.error = "sending to the target: " + sent.error().describe();
                sendFailures_ += copies.size();
            } else {
                sentSequences = settleSent(messages, copies, indexes, sent.value());
            }
        }
        if (!sentSequences.empty()) {
            if (auto acked = batch.ackRange(sentSequences); acked.ok()) {
                outcome.moved = sentSequences.size();
                for (std::uint64_t sequence : sentSequences) {
                    ++report_.movedTo[acked_[sequence].target];
                }
            } else {
                markDuplicated(messages, sentSequences, acked.error().describe());
            }
        }
        // What did not move goes back where it was; if the stream is gone the
        // server returns it all the same, so a failed close changes nothing.
        static_cast<void>(batch.close());
        return outcome;
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
                if (refused_.insert(keyOf(original)).second) {
                    noteFailure(copies[k].id, answered ? sent.results[k].error : "no answer");
                }
                continue;
            }
            refused_.erase(keyOf(original));  // a later try went through
            sequences.push_back(original.sequence());
            acked_[original.sequence()] = {copies[k].id, copies[k].channel};
        }
        return sequences;
    }

    void markDuplicated(const std::vector<client::ReceivedMessage>& messages,
                        const std::vector<std::uint64_t>& sequences, const std::string& why) {
        for (const client::ReceivedMessage& m : messages) {
            if (std::find(sequences.begin(), sequences.end(), m.sequence()) != sequences.end()) {
                addDuplicate(m.message().id, why);
            }
        }
    }

    void addDuplicate(const std::string& id, const std::string& why) {
        ++report_.duplicated;
        report_.duplicateIds.push_back(id);
        noteFailure(id, "sent, but its ack failed (" + why + "): it is in both channels");
    }

    // Acks fail on the server's side after the fact (no answer means done):
    // the errors collected on the stream name their sequences.
    void collectAckFailures() {
        for (const client::SettlementError& e : client_.takeSettlementErrors()) {
            for (std::uint64_t sequence : e.sequences) {
                if (auto it = acked_.find(sequence); it != acked_.end()) {
                    addDuplicate(it->second.id, e.message);
                    --report_.moved;
                    --report_.movedTo[it->second.target];
                }
            }
        }
    }

    static std::string keyOf(const client::ReceivedMessage& m) {
        return m.message().id + "/" + std::to_string(m.sequence());
    }

    void report(const BatchOutcome& outcome) {
        report_.moved += outcome.moved;
        report_.failed = sendFailures_ + refused_.size();
        progress_.moved = report_.moved;
        progress_.failed = report_.failed + report_.noTarget;
        if (options_.progress) {
            options_.progress(progress_);
        }
    }

    client::QueuesClient& client_;
    const RedriveOptions& options_;
    RedriveReport report_;
    RedriveProgress progress_;
    std::set<std::string> refused_;   // "id/sequence" the target refused (and still in the source)
    std::uint64_t sendFailures_ = 0;  // copies of a batch whose send failed as a whole
    std::set<std::string> seen_;      // "id/sequence" of every message received
    struct Sent {
        std::string id;
        std::string target;
    };
    std::map<std::uint64_t, Sent> acked_;  // source sequence -> the copy sent for it
};

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
    return {};
}

RedriveReport redrive(client::QueuesClient& client, const RedriveOptions& options) {
    if (std::string problem = checkRedriveOptions(options); !problem.empty()) {
        RedriveReport report;
        report.error = problem;
        return report;
    }
    return Redrive(client, options).run();
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
