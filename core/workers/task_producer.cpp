#include "workers/task_producer.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "client/argument_checks.h"
#include "client/queues_client.h"
#include "common/clock.h"
#include "common/ids.h"
#include "events/event_stream.h"
#include "workers/poison.h"
#include "workers/setting_limits.h"
#include "workers/task_template.h"

namespace qs::workers {

namespace {

// What a TaskSent event says of the body: its first kBodyExcerptBytes bytes,
// cut at a UTF-8 character boundary (most bodies fit whole, without a heap
// allocation).
std::string bodyExcerpt(const std::string& body) {
    if (body.size() <= kBodyExcerptBytes)
        return body;
    std::size_t cut = kBodyExcerptBytes;
    while (cut > 0 && (static_cast<unsigned char>(body[cut]) & 0xC0) == 0x80)
        --cut;
    return body.substr(0, cut);
}
using Clock = std::chrono::steady_clock;
}  // namespace

std::string TaskSpec::validate() const {
    if (std::string problem = limits::kTaskCount.problem(count); !problem.empty()) {
        return problem;
    }
    if (!limits::kProducerRate.contains(ratePerSecond)) {
        return limits::kProducerRate.problem(ratePerSecond) + "; 0 = all at once";
    }
    if (sendBatchSize < 1) {
        return "send batch size must be >= 1";
    }
    if (firstNumber < 1) {
        return "the first task number must be >= 1";
    }
    for (int n : poison) {
        if (n < 1 || n > count) {
            return "poison task number " + std::to_string(n) + " is outside 1.." +
                   std::to_string(count);
        }
    }
    if (bodyTemplate.empty() && metadataTemplate.empty()) {
        return "a task needs a body or metadata";
    }
    if (count > 0) {
        client::QueueMessage probe;
        probe.channel = channel;
        probe.body = expandTaskTemplate(bodyTemplate, firstNumber, count);
        probe.metadata = expandTaskTemplate(metadataTemplate, firstNumber, count);
        probe.tags = tags;
        probe.policy = policy;
        if (auto problem = client::checkMessage(probe)) {
            return problem->message;
        }
    } else if (auto problem = client::checkChannelName(channel)) {
        return problem->message;
    }
    return {};
}

TaskProducer::TaskProducer(ProducerOptions options, TaskSpec spec)
    : options_(std::move(options)), spec_(std::move(spec)), rate_(spec_.ratePerSecond) {}

TaskProducer::~TaskProducer() {
    stop();
    wait();
}

void TaskProducer::setProgressCallback(ProgressCallback callback) {
    callback_ = std::move(callback);
}

client::QueueMessage TaskProducer::makeTask(int n) const {
    client::QueueMessage m;
    m.channel = spec_.channel;
    const std::int64_t number = spec_.firstNumber + n - 1;
    m.body = expandTaskTemplate(spec_.bodyTemplate, number, spec_.count);
    m.metadata = expandTaskTemplate(spec_.metadataTemplate, number, spec_.count);
    m.tags = spec_.tags;
    m.policy = spec_.policy;
    if (n >= 1 && static_cast<std::size_t>(n) < poison_.size() && poison_[n]) {
        m.tags[std::string(kPoisonTag)] = "true";
    }
    return m;
}

bool TaskProducer::prepare(std::string* error) {
    if (running_.load() || thread_.joinable()) {
        if (error) {
            *error = "producer already started";
        }
        return false;
    }
    if (std::string problem = spec_.validate(); !problem.empty()) {
        if (error) {
            *error = problem;
        }
        return false;
    }
    client::ClientOptions options = options_.client;
    if (options.clientId.empty()) {
        options.clientId = "producer";
    }
    auto created = client::QueuesClient::create(options);
    if (!created.ok()) {
        if (error) {
            *error = created.error().describe();
        }
        return false;
    }
    {
        std::lock_guard lock(mutex_);
        client_ = std::move(created).value();
    }
    poison_.assign(static_cast<std::size_t>(spec_.count) + 1, false);
    for (int n : spec_.poison) {
        poison_[n] = true;
    }
    running_ = true;
    return true;
}

bool TaskProducer::start(std::string* error) {
    if (!prepare(error)) {
        return false;
    }
    thread_ = std::thread([this] { sendAll(); });
    return true;
}

bool TaskProducer::run(std::string* error) {
    if (!prepare(error)) {
        return false;
    }
    sendAll();
    return true;
}

void TaskProducer::stop() {
    {
        std::lock_guard lock(mutex_);
        stopRequested_ = true;
    }
    wake_.notify_all();
    std::lock_guard lock(mutex_);
    if (client_ && running_.load()) {
        client_->cancel();
    }
}

void TaskProducer::wait() {
    if (thread_.joinable()) {
        thread_.join();
    }
}

void TaskProducer::setRate(double ratePerSecond) {
    if (!limits::kProducerRate.contains(ratePerSecond)) {
        return;
    }
    {
        std::lock_guard lock(mutex_);
        rate_ = ratePerSecond;
    }
    wake_.notify_all();
}

ProducerProgress TaskProducer::progress() const {
    ProducerProgress p;
    p.total = static_cast<std::uint64_t>(spec_.count);
    p.sent = sent_.load();
    p.failed = failed_.load();
    p.running = running_.load();
    p.finished = finished_.load();
    p.stopped = stopRequested_.load();
    std::lock_guard lock(mutex_);
    p.firstError = firstError_;
    return p;
}

void TaskProducer::report() {
    if (callback_) {
        callback_(progress());
    }
}

void TaskProducer::sendChunk(int first, int count) {
    std::vector<client::QueueMessage> messages;
    messages.reserve(static_cast<std::size_t>(count));
    EventStream* events = options_.events;
    const bool eventsOn = events != nullptr && events->isEnabled();
    const std::string& clientId = client_->options().clientId;
    // Interned once for the chunk's events (makeTask() puts every task on spec_.channel).
    const Name actorName = eventsOn ? Name(clientId) : Name();
    const Name channelName = eventsOn ? Name(spec_.channel) : Name();
    const std::int64_t sentNs = eventsOn ? monotonicNanos() : 0;  // one request, one time
    for (int n = first; n < first + count; ++n) {
        client::QueueMessage m = makeTask(n);
        m.id = newNuid();
        m.clientId = clientId;
        if (eventsOn) {
            Event& e = sentEvents_.emplace_back();  // built in place, handed over at once
            e.timeNs = sentNs;
            e.kind = EventKind::TaskSent;
            e.source = EventSource::Producer;
            e.actor = actorName;
            e.channel = channelName;
            e.messageId = m.id;
            e.value = m.policy.delaySeconds;
            e.count2 = spec_.firstNumber + n - 1;
            e.detail = bodyExcerpt(m.body);
        }
        messages.push_back(std::move(m));
    }
    if (eventsOn) {
        events->push(sentEvents_);  // leaves it empty, capacity kept
    }
    auto failOne = [&](std::size_t i, const std::string& why) {
        if (failed_.fetch_add(1) == 0) {
            std::lock_guard lock(mutex_);
            firstError_ = why;
        }
        if (eventsOn) {
            Event e;
            e.timeNs = monotonicNanos();
            e.kind = EventKind::SendFailed;
            e.source = EventSource::Producer;
            e.actor = actorName;
            e.channel = messages[i].channel;
            e.messageId = messages[i].id;
            e.count2 = spec_.firstNumber + first + static_cast<int>(i) - 1;
            e.detail = why;
            events->push(std::move(e));
        }
    };
    auto failAll = [&](const std::string& why, std::size_t from) {
        for (std::size_t i = from; i < messages.size(); ++i)
            failOne(i, why);
    };
    if (messages.size() == 1) {
        auto result = client_->send(messages.front());
        if (!result.ok()) {
            failAll(result.error().describe(), 0);
        } else if (result->isError) {
            failAll(result->error, 0);
        } else {
            sent_.fetch_add(1);
        }
    } else {
        auto result = client_->sendBatch(messages);
        if (!result.ok()) {
            failAll(result.error().describe(), 0);
        } else {
            const auto& results = result->results;
            for (std::size_t i = 0; i < messages.size(); ++i) {
                if (i >= results.size()) {
                    failAll("no result for this message in the batch response", i);
                    break;
                }
                if (results[i].isError) {
                    failOne(i, results[i].error);
                } else {
                    sent_.fetch_add(1);
                }
            }
        }
    }
    report();
}

void TaskProducer::sendAll() {
    const int total = spec_.count;
    int next = 1;
    // Rate pacing: the schedule restarts whenever the rate changes, so a new
    // rate applies from now on without a burst to catch up.
    double rate = rate_.load();
    auto epoch = Clock::now();
    int sentAtEpoch = 0;
    while (next <= total && !stopRequested_.load()) {
        if (double r = rate_.load(); r != rate) {
            rate = r;
            epoch = Clock::now();
            sentAtEpoch = next - 1;
        }
        int chunk = 0;
        if (rate <= 0.0) {
            chunk = std::min(spec_.sendBatchSize, total - next + 1);
        } else {
            const double elapsed = std::chrono::duration<double>(Clock::now() - epoch).count();
            const auto due = static_cast<long long>(std::floor(elapsed * rate)) + 1;
            const long long owed = due - (next - 1 - sentAtEpoch);
            if (owed <= 0) {
                const double nextAt = static_cast<double>(next - sentAtEpoch) / rate;
                auto wakeAt = epoch + std::chrono::duration_cast<Clock::duration>(
                                          std::chrono::duration<double>(nextAt));
                std::unique_lock lock(mutex_);
                wake_.wait_until(lock, wakeAt, [this, rate] {
                    return stopRequested_.load() || rate_.load() != rate;
                });
                continue;
            }
            chunk = static_cast<int>(
                std::min<long long>({owed, spec_.sendBatchSize, total - next + 1}));
        }
        sendChunk(next, chunk);
        next += chunk;
    }
    finished_ = true;
    running_ = false;
    report();
}

}  // namespace qs::workers
