#include "analysis/recorded_run.h"

#include <algorithm>
#include <limits>
#include <variant>

#include "recording/recording_reader.h"

namespace qs::analysis {

namespace {

// The replay's ledger options, with every history kept: a trace and a
// report show every delivery, not the last 32 of a message's.
LedgerOptions keepEverything(LedgerOptions options) {
    options.maxDeliveriesPerMessage = std::numeric_limits<std::uint32_t>::max();
    options.maxFinishedMessages = std::numeric_limits<std::size_t>::max();
    options.maxPendingDerivedEvents = 0;
    return options;
}

DepthSample sampleOf(const ChannelAt& channel, std::int64_t timeNs) {
    DepthSample s;
    s.timeNs = timeNs;
    s.waiting = channel.count(MessageState::Waiting);
    s.delayed = channel.count(MessageState::Delayed);
    s.inFlight = channel.count(MessageState::InFlight);
    s.deadLettered = channel.count(MessageState::DeadLettered);
    return s;
}

bool sameCounts(const DepthSample& a, const DepthSample& b) {
    return a.waiting == b.waiting && a.delayed == b.delayed && a.inFlight == b.inFlight &&
           a.deadLettered == b.deadLettered;
}

}  // namespace

std::unique_ptr<RecordedRun> RecordedRun::load(const std::string& path, std::string* error) {
    std::unique_ptr<RecordedRun> r(new RecordedRun());
    r->path_ = path;
    runner::ReplayVisitor visitor;
    visitor.opened = [&r](const recording::RecordingReader& reader,
                          const LedgerOptions& ledgerOptions) {
        r->settings_ = reader.settings();
        r->originNs_ = reader.originNs();
        // The replay's own options are read by then: the run keeps the same
        // rules (max receive count...) and every history.
        RunModelOptions options;
        options.ledger = keepEverything(ledgerOptions);
        r->run_ = std::make_unique<Run>(options);
    };
    visitor.applied = [&r](const Event& e) { r->see(e); };
    if (!runner::replayRecording(path, &r->replay_, error, visitor)) {
        return nullptr;
    }
    if (!r->run_) {  // cannot happen for a readable file; keeps the accessors safe
        r->run_ = std::make_unique<Run>();
    }
    r->finish();
    return r;
}

void RecordedRun::see(const Event& e) {
    run_->append(e);
    const std::int64_t t = std::max(endNs_, sinceOrigin(e.timeNs));
    endNs_ = t;
    if (e.kind == EventKind::TaskSent && !e.messageId.empty()) {
        labels_.try_emplace(std::string(e.messageId.view()), TaskLabel{e.count2, e.detail});
    } else if (e.kind == EventKind::WorkerCrashed) {
        crashes_.push_back({std::string(e.actor.view()), t, e.value});
    } else if (e.kind == EventKind::PollStarted) {
        pollStarted_[std::string(e.actor.view())] = PollRecord{e.value, e.count2, 0, 0};
    } else if (e.kind == EventKind::PollReturned) {
        PollRecord p = pollStarted_[std::string(e.actor.view())];
        p.received = e.value;
        p.waitedMs = e.count2;
        polls_[std::string(e.actor.view()) + '\n' + std::string(e.transaction.view())] = p;
    }
    sampleDepth(t);
}

void RecordedRun::sampleDepth(std::int64_t timeNs) {
    for (const ChannelAt& channel : run_->channelsNow()) {
        const std::string_view name = channel.channel.view();
        auto it = std::find_if(depth_.begin(), depth_.end(),
                               [name](const ChannelDepth& d) { return d.channel == name; });
        if (it == depth_.end()) {
            depth_.push_back({std::string(name), {}});
            it = depth_.end() - 1;
        }
        const DepthSample now = sampleOf(channel, timeNs);
        std::vector<DepthSample>& samples = it->samples;
        if (!samples.empty() && sameCounts(samples.back(), now)) {
            continue;
        }
        // The events of one operation share a time: one sample for them all.
        if (!samples.empty() && samples.back().timeNs == timeNs) {
            samples.back() = now;
        } else {
            samples.push_back(now);
        }
    }
}

void RecordedRun::finish() {
    messages_.clear();
    run_->ledger().forEachMessage([this](const MessageRecord& m) { messages_.push_back(&m); });
    auto sentAt = [](const MessageRecord* m) {
        return m->sentNs != 0 ? m->sentNs : m->firstSeenNs;
    };
    std::sort(messages_.begin(), messages_.end(),
              [&sentAt](const MessageRecord* a, const MessageRecord* b) {
                  return sentAt(a) != sentAt(b) ? sentAt(a) < sentAt(b) : a->ordinal < b->ordinal;
              });
}

std::vector<JourneyStep> RecordedRun::journey(const MessageRecord& message) const {
    return journeyOf(message, originNs_ + endNs_);
}

std::string RecordedRun::setting(const std::string& key) const {
    const auto it = settings_.find(key);
    if (it == settings_.end()) {
        return {};
    }
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::string>) {
                return v;
            } else {
                return std::to_string(v);
            }
        },
        it->second);
}

const PollRecord* RecordedRun::poll(std::string_view worker, std::string_view transaction) const {
    std::string key(worker);
    key += '\n';
    key += transaction;
    const auto it = polls_.find(key);
    return it == polls_.end() ? nullptr : &it->second;
}

const TaskLabel* RecordedRun::label(std::string_view messageId) const {
    const auto it = labels_.find(std::string(messageId));
    return it == labels_.end() ? nullptr : &it->second;
}

std::string RecordedRun::taskName(const MessageRecord& message) const {
    const TaskLabel* l = label(message.messageId);
    if (l == nullptr) {
        return "message " + message.messageId.str();
    }
    if (!l->body.empty()) {
        return l->body;
    }
    return "task " + std::to_string(l->number);
}

}  // namespace qs::analysis
