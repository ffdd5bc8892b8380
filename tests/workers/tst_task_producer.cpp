// The producer: templates, poison tasks, policies, rates, progress, errors;
// plus the small pure helpers of the workers library.
#include <QtTest/QtTest>
#include <atomic>
#include <random>

#include "pool_harness.h"
#include "workers/poison.h"
#include "workers/task_template.h"

using namespace qs;
using namespace qs::test;
using workers::TaskProducer;

class TstTaskProducer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void templates() {
        QCOMPARE(workers::expandTaskTemplate("Task #{n}", 7, 10), std::string("Task #7"));
        QCOMPARE(workers::expandTaskTemplate("{n}/{total} {x} {\"a\":1}", 1, 2),
                 std::string("1/2 {x} {\"a\":1}"));
        QVERIFY(workers::isPoison({{"poison", "true"}}, "x"));
        QVERIFY(workers::isPoison({}, "Task [poison] #3"));
        QVERIFY(!workers::isPoison({{"poison", "false"}}, "Task #3"));
    }

    void workProfiles() {
        std::mt19937_64 rng(1);
        QCOMPARE(workers::WorkProfile::fixed(2.5).sample(rng), std::chrono::nanoseconds(2'500'000));
        QCOMPARE(workers::WorkProfile::none().sample(rng), std::chrono::nanoseconds(0));
        auto u = workers::WorkProfile::uniform(10, 20);
        auto e = workers::WorkProfile::exponential(5);
        double sum = 0;
        for (int i = 0; i < 2000; ++i) {
            auto d = u.sample(rng);
            QVERIFY(d >= std::chrono::milliseconds(10) && d <= std::chrono::milliseconds(20));
            sum += static_cast<double>(e.sample(rng).count()) / 1e6;
        }
        QVERIFY(sum / 2000 > 4.0 && sum / 2000 < 6.0);  // mean 5 ms
        workers::WorkProfile p;
        std::string error;
        QVERIFY(workers::parseWorkSpec("uniform:1:2", &p, &error));
        QCOMPARE(p, workers::WorkProfile::uniform(1, 2));
        QVERIFY(workers::parseWorkSpec("15", &p, &error));
        QCOMPARE(p, workers::WorkProfile::fixed(15));
        QVERIFY(!workers::parseWorkSpec("uniform:3:2", &p, &error));
        QVERIFY(!workers::parseWorkSpec("-1", &p, &error));
        QVERIFY(!workers::parseWorkSpec("gauss:1", &p, &error));
        QVERIFY(!workers::WorkProfile::uniform(5, 1).validate().empty());
    }

    // Tasks arrive with the template, tags, metadata, policy and poison tag;
    // TaskSent events carry the ids the broker stored.
    void sendsWhatTheSpecSays() {
        PoolHarness h;
        workers::TaskSpec spec = tasks("q.prod", 5);
        spec.bodyTemplate = "Job {n} of {total}";
        spec.metadataTemplate = "meta-{n}";
        spec.tags = {{"team", "blue"}};
        spec.policy.maxReceiveCount = 4;
        spec.policy.deadLetterQueue = "q.prod.dead";
        spec.poison = {4};
        spec.sendBatchSize = 2;  // three batch requests
        QVERIFY(h.sendTasks(spec));
        auto client = h.client();
        auto got = client->receive("q.prod", 5, std::chrono::milliseconds(1000));
        QVERIFY(got.ok());
        QCOMPARE(got->size(), 5u);
        const auto sent = h.eventsOf(EventKind::TaskSent);
        QCOMPARE(sent.size(), 5u);
        for (std::size_t i = 0; i < 5; ++i) {
            const auto& m = got->messages()[i].message();
            const int n = static_cast<int>(i) + 1;
            QCOMPARE(m.body, "Job " + std::to_string(n) + " of 5");
            QCOMPARE(m.metadata, "meta-" + std::to_string(n));
            QCOMPARE(m.tags.at("team"), std::string("blue"));
            QCOMPARE(m.policy.maxReceiveCount, 4);
            QCOMPARE(m.policy.deadLetterQueue, std::string("q.prod.dead"));
            QCOMPARE(m.tags.count("poison"), n == 4 ? 1u : 0u);
            QCOMPARE(m.clientId, std::string("producer"));
            QCOMPARE(m.id, sent[i].messageId);
            QCOMPARE(sent[i].count2, n);
            QCOMPARE(sent[i].detail, m.body);  // the body as sent is in the run
        }
        QVERIFY(got->ackAll().ok());
    }

    // A long body's event carries its first 200 bytes, cut between characters.
    void aLongBodysEventCarriesItsStart() {
        PoolHarness h;
        workers::TaskSpec spec = tasks("q.long", 1);
        spec.bodyTemplate = std::string(199, 'x') + "\u00e9 and more";  // é spans bytes 199-200
        QVERIFY(h.sendTasks(spec));
        const auto sent = h.eventsOf(EventKind::TaskSent);
        QCOMPARE(sent.size(), 1u);
        QCOMPARE(sent[0].detail, std::string(199, 'x'));
    }

    // Rate pacing with live rate change and progress callbacks.
    void rateAndProgress() {
        PoolHarness h;
        workers::TaskSpec spec = tasks("q.rate", 12);
        spec.ratePerSecond = 20;
        workers::ProducerOptions options;
        options.client = h.clientOptions("producer");
        options.events = &h.stream();
        TaskProducer producer(options, spec);
        std::atomic<int> callbacks{0};
        producer.setProgressCallback([&](const workers::ProducerProgress&) { ++callbacks; });
        const auto start = std::chrono::steady_clock::now();
        QVERIFY(producer.start());
        QVERIFY(waitUntil([&] { return producer.progress().sent >= 4; }));
        producer.setRate(0);  // the rest at once
        producer.wait();
        const double took = secondsSince(start);
        QVERIFY2(took >= 0.1, "a rate of 20/s sent 4 tasks in under 0.1 s");
        QVERIFY(took < 5.0);
        const auto p = producer.progress();
        QCOMPARE(p.sent, 12u);
        QCOMPARE(p.failed, 0u);
        QVERIFY(p.finished);
        QVERIFY(callbacks.load() >= 2);
    }

    // Stop ends a slow producer early; the rest is not sent.
    void stopEarly() {
        PoolHarness h;
        workers::TaskSpec spec = tasks("q.stop", 1000);
        spec.ratePerSecond = 5;
        workers::ProducerOptions options;
        options.client = h.clientOptions("producer");
        TaskProducer producer(options, spec);
        QVERIFY(producer.start());
        QVERIFY(waitUntil([&] { return producer.progress().sent >= 1; }));
        const auto start = std::chrono::steady_clock::now();
        producer.stop();
        producer.wait();
        QVERIFY(secondsSince(start) < 1.0);
        QVERIFY(producer.progress().sent < 10);
        QVERIFY(producer.progress().stopped);
    }

    // Bad specs are refused before anything is sent; server refusals are
    // counted and reported as SendFailed.
    void errors() {
        PoolHarness h;
        workers::ProducerOptions options;
        options.client = h.clientOptions("producer");
        options.events = &h.stream();
        std::string error;
        {
            workers::TaskSpec spec = tasks("bad channel", 1);
            TaskProducer producer(options, spec);
            QVERIFY(!producer.run(&error));
            QVERIFY(!error.empty());
        }
        {
            workers::TaskSpec spec = tasks("q.err", 2);
            spec.poison = {3};
            TaskProducer producer(options, spec);
            QVERIFY(!producer.run(&error));
            QVERIFY(error.find("poison") != std::string::npos);
        }
        {
            // Validation off on the client: the broker refuses in-band.
            workers::ProducerOptions raw = options;
            raw.client.validateArguments = false;
            workers::TaskSpec spec = tasks("q.err", 3);
            spec.policy.expirationSeconds = 50000;
            TaskProducer producer(raw, spec);
            // The spec check itself catches it first.
            QVERIFY(!producer.run(&error));
            QVERIFY(error.find("133") != std::string::npos ||
                    error.find("xpiration") != std::string::npos);
        }
        {
            workers::ProducerOptions down = options;
            down.client.address = "127.0.0.1:1";
            down.client.callTimeout = std::chrono::milliseconds(500);
            TaskProducer producer(down, tasks("q.err", 3));
            QVERIFY(producer.run(&error));
            QCOMPARE(producer.progress().failed, 3u);
            QCOMPARE(producer.progress().sent, 0u);
            const auto failedEvents = h.eventsOf(EventKind::SendFailed);
            QCOMPARE(failedEvents.size(), 3u);
            // The transport's own text travels with the failure, for diagnosis.
            const std::string why = producer.progress().firstError;
            QVERIFY2(why.find("send batch") != std::string::npos, why.c_str());
            QCOMPARE(failedEvents.front().detail, why);
        }
    }
};

QTEST_APPLESS_MAIN(TstTaskProducer)
#include "tst_task_producer.moc"
