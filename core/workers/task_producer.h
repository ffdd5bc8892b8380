#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "client/client_options.h"
#include "client/queue_message.h"
#include "events/event.h"
#include "workers/setting_limits.h"

namespace qs {
class EventStream;
}

namespace qs::client {
class QueuesClient;
}

namespace qs::workers {

// What to enqueue.
// Ranges: workers/setting_limits.h (count, rate) and the protocol's policy limits.
struct TaskSpec {
    std::string channel;
    int count = limits::kTaskCount.defaultValue;
    std::string bodyTemplate = "Task #{n}";  // see expandTaskTemplate()
    std::string metadataTemplate;
    std::map<std::string, std::string> tags;
    client::MessagePolicy policy;
    double ratePerSecond = 0.0;  // 0 = all at once (in batches of sendBatchSize)
    std::vector<int> poison;     // task numbers sent as poison (tag poison=true)
    int sendBatchSize = 100;     // messages per SendQueueMessagesBatch request
    // The number `{n}` (and TaskSent's count2) gives the spec's first task; the
    // console continues its run's numbering across sends with it, so a second
    // send's first body reads "Task #101". `poison` still counts from 1 (the
    // spec's own first task).
    std::int64_t firstNumber = 1;

    std::string validate() const;  // empty = fine
};

struct ProducerProgress {
    std::uint64_t total = 0;
    std::uint64_t sent = 0;    // accepted by the broker
    std::uint64_t failed = 0;  // refused (in-band error) or not sent (transport error)
    bool running = false;
    bool finished = false;  // every task was attempted (or the producer was stopped)
    bool stopped = false;   // stop() ended it early
    // The server's or transport's text for the first failed task (also in the
    // SendFailed event), e.g. "send batch: failed to connect ..."; empty = none.
    std::string firstError;
};

struct ProducerOptions {
    client::ClientOptions client;   // address, auth, TLS; clientId defaults to "producer"
    EventStream* events = nullptr;  // not owned; must outlive the producer
};

// Bytes of a task's body its TaskSent event carries (detail): the body as
// sent is a fact of the run, shown and recorded with it.
inline constexpr std::size_t kBodyExcerptBytes = 200;

// Enqueues numbered tasks from a template, at once or at a rate, on its own
// client and thread. Emits TaskSent (before each request, with the
// client-assigned MessageID; value = delay seconds, count2 = task number,
// detail = the body's first kBodyExcerptBytes bytes; the tasks of one request
// share its time and reach the stream together) and SendFailed (detail =
// error) events.
//
// Threading: start(), stop(), wait(), setRate() and progress() are safe from
// any thread. The progress callback runs on the producer thread after each
// request; keep it short. The destructor stops and joins.
class TaskProducer {
public:
    using ProgressCallback = std::function<void(const ProducerProgress&)>;

    TaskProducer(ProducerOptions options, TaskSpec spec);
    ~TaskProducer();
    TaskProducer(const TaskProducer&) = delete;
    TaskProducer& operator=(const TaskProducer&) = delete;

    void setProgressCallback(ProgressCallback callback);  // before start()

    // Starts the background thread. False (with *error) on an invalid spec or
    // options; nothing is sent then.
    bool start(std::string* error = nullptr);
    // Sends everything on the calling thread (what start() does in the
    // background). Returns when done or stopped.
    bool run(std::string* error = nullptr);
    void stop();  // remaining tasks are not sent; in-flight requests finish or are cancelled
    void wait();  // joins the thread started by start()

    // Live; 0 = send the rest at once; outside limits::kProducerRate: ignored.
    void setRate(double ratePerSecond);
    ProducerProgress progress() const;
    const TaskSpec& spec() const { return spec_; }

    // The message for the spec's task n (1-based; its body says firstNumber + n - 1),
    // as it will be sent (without id).
    client::QueueMessage makeTask(int n) const;

private:
    bool prepare(std::string* error);
    void sendAll();
    void sendChunk(int first, int count);
    void report();

    const ProducerOptions options_;
    const TaskSpec spec_;
    std::unique_ptr<client::QueuesClient> client_;
    std::thread thread_;
    ProgressCallback callback_;
    std::vector<bool> poison_;
    std::vector<Event> sentEvents_;  // a request's TaskSent events (producer thread only)

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::atomic<double> rate_;
    std::atomic<bool> stopRequested_{false};
    std::atomic<std::uint64_t> sent_{0};
    std::atomic<std::uint64_t> failed_{0};
    std::atomic<bool> running_{false};
    std::atomic<bool> finished_{false};
    std::string firstError_;  // guarded by mutex_
};

}  // namespace qs::workers
