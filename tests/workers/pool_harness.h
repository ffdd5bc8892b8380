#pragma once

// A real embedded broker on an ephemeral port, one EventStream fed by both the
// broker observer and the workers, and helpers to drain it, replay it into a
// Ledger and wait for conditions. Construct and destroy on the test thread.
#include <QtTest/QtTest>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "client/queues_client.h"
#include "events/broker_event_sink.h"
#include "events/event_stream.h"
#include "events/ledger.h"
#include "test_broker.h"
#include "wait_until.h"
#include "workers/task_producer.h"
#include "workers/worker_pool.h"

namespace qs::test {

class PoolHarness {
public:
    PoolHarness() : stream_(1u << 22), sink_(stream_) {
        if (!broker_.ok()) {
            qFatal("broker did not start: %s", broker_.error().c_str());
        }
        broker_.broker().setObserver(&sink_);
    }
    ~PoolHarness() { broker_.broker().setObserver(nullptr); }

    EventStream& stream() { return stream_; }
    std::string address() const { return broker_.address(); }

    client::ClientOptions clientOptions(const std::string& id = "tester") const {
        client::ClientOptions options;
        options.address = broker_.address();
        options.clientId = id;
        return options;
    }

    std::unique_ptr<client::QueuesClient> client(const std::string& id = "tester") const {
        auto created = client::QueuesClient::create(clientOptions(id));
        if (!created.ok()) {
            qFatal("cannot create client: %s", created.error().describe().c_str());
        }
        return std::move(created).value();
    }

    workers::PoolOptions poolOptions(const std::string& channel) {
        workers::PoolOptions options;
        options.client = clientOptions();
        options.channel = channel;
        options.events = &stream_;
        options.seed = 42;
        return options;
    }

    // Sends spec.count tasks synchronously; fails the test on any send failure.
    bool sendTasks(const workers::TaskSpec& spec) {
        workers::ProducerOptions options;
        options.client = clientOptions("producer");
        options.events = &stream_;
        workers::TaskProducer producer(options, spec);
        std::string error;
        if (!producer.run(&error)) {
            qWarning("producer: %s", error.c_str());
            return false;
        }
        auto p = producer.progress();
        if (p.failed != 0) {
            qWarning("producer: %llu task(s) not sent; first error: %s",
                     static_cast<unsigned long long>(p.failed), p.firstError.c_str());
        }
        return p.sent == static_cast<std::uint64_t>(spec.count) && p.failed == 0;
    }

    // Everything pushed so far, appended to the collected history.
    const std::vector<Event>& collect() {
        stream_.drain(events_);
        return events_;
    }

    // A ledger fed with everything collected so far.
    Ledger ledger(LedgerOptions options = {}) {
        collect();
        Ledger ledger(options);
        ledger.apply(events_);
        return ledger;
    }

    std::vector<Event> eventsOf(EventKind kind, const std::string& actor = {}) {
        collect();
        std::vector<Event> out;
        for (const Event& e : events_) {
            if (e.kind == kind && (actor.empty() || e.actor == actor)) {
                out.push_back(e);
            }
        }
        return out;
    }

    std::size_t countOf(EventKind kind, const std::string& actor = {}) {
        return eventsOf(kind, actor).size();
    }

    // Waits until at least `count` events of `kind` (by `actor`, if given) are
    // in the stream. Use it to wait for the broker's side of a step:
    // - A worker counts a settlement once it is written; the broker applies it
    //   when it reads it, later on a loaded machine. A pool.stop() (or a crash)
    //   that cancels the stream first discards what the server has not read,
    //   as it would for any KubeMQ client: those messages come back and the
    //   ledger records the acks as lost. So before stopping, wait for the
    //   broker's BrokerAcked (BrokerDeadLettered, ...) of every settlement the
    //   test later relies on.
    // - BrokerClientConnected by a worker means its first Get reached the
    //   broker: its poll is on the wire (the Polling state is set before).
    bool waitForEvents(EventKind kind, std::size_t count, const std::string& actor = {},
                       std::chrono::milliseconds timeout = kWaitDeadline) {
        return waitUntil([&] { return countOf(kind, actor) >= count; }, timeout);
    }

private:
    // The stream and the sink outlive the broker: its threads may still be
    // reporting when the destructor unsets the observer.
    EventStream stream_;
    BrokerEventSink sink_;
    TestBroker broker_;
    std::vector<Event> events_;
};

inline double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

inline workers::TaskSpec tasks(const std::string& channel, int count) {
    workers::TaskSpec spec;
    spec.channel = channel;
    spec.count = count;
    return spec;
}

inline workers::WorkerConfig config(int batch, int waitMs, double workMs) {
    workers::WorkerConfig c;
    c.batchSize = batch;
    c.waitMs = waitMs;
    c.work = workers::WorkProfile::fixed(workMs);
    return c;
}

}  // namespace qs::test
