
#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <csignal>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "client/queues_client.h"
#include "events/broker_event_sink.h"
#include "events/event_stream.h"
#include "real_server.h"
#include "recording/recording_writer.h"
#include "run/run.h"
#include "runner/channel_actions.h"
#include "runner/run_recording.h"
#include "runner/run_totals.h"
#include "runner/summary_table.h"
#include "test_broker.h"
#include "workers/task_producer.h"

using namespace qs;
using namespace std::chrono_literals;

using qs::test::RealServer;

namespace {

constexpr int kTasks = 10;
const std::string kChannel = "purge.q";

std::unique_ptr<client::QueuesClient> makeClient(const std::string& address,
                                                 const std::string& id) {
    client::ClientOptions options;
    options.address = address;
    options.clientId = id;
    auto made = client::QueuesClient::create(options);
    return made.ok() ? std::move(made).value() : nullptr;
}

// Sends kTasks tasks with the real producer (its TaskSent events go to `stream`).
bool sendTasks(const std::string& address, EventStream& stream, std::string* error) {
    workers::ProducerOptions options;
    options.client.address = address;
    options.events = &stream;
    workers::TaskSpec spec;
    spec.channel = kChannel;
    spec.count = kTasks;
    workers::TaskProducer producer(options, spec);
    if (!producer.run(error))
        return false;
    if (producer.progress().sent != kTasks) {
        *error = "sent " + std::to_string(producer.progress().sent) + ": " +
                 producer.progress().firstError;
        return false;
    }
    return true;
}

// Every event the stream holds now, into the run; returns them too.
std::vector<Event> drainInto(EventStream& stream, Run& run) {
    std::vector<Event> events;
    stream.drain(events);
    run.append(events);
    return events;
}

// EventKind has a toString, which hides QTest's printer: compare names.
std::string kindName(const Event& e) {
    return std::string(toString(e.kind));
}

int countOf(const std::vector<Event>& events, EventKind kind) {
    return static_cast<int>(std::count_if(events.begin(), events.end(),
                                          [kind](const Event& e) { return e.kind == kind; }));
}

}  // namespace

class TestChannelActions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void peekAndPurgeReportedByTheEmbeddedBroker();
    void purgeReportedByTheClientOnly();
    void bothReportsPurgeNothingTwice();
    void runStateBeforeAndAfterThePurge();
    void failedPurgeReportsNothing();
    void summaryShowsPurgedAndReadsTheSameFromTheRecording();
    void clientPathAgainstRealKubemq();

private:
    // The scenario of issue #19: no consumer, 10 sent, a peek of 10, a purge.
    // With `observe`, the embedded broker reports to the run too.
    void sendPeekPurge(test::TestBroker& broker, bool observe, bool reportFromClient, Run& run,
                       std::vector<Event>& peekEvents, std::vector<Event>& purgeEvents);
};

void TestChannelActions::sendPeekPurge(test::TestBroker& broker, bool observe,
                                       bool reportFromClient, Run& run,
                                       std::vector<Event>& peekEvents,
                                       std::vector<Event>& purgeEvents) {
    EventStream stream;
    BrokerEventSink sink(stream);
    if (observe)
        broker.broker().setObserver(&sink);
    std::string error;
    QVERIFY2(sendTasks(broker.address(), stream, &error), error.c_str());
    drainInto(stream, run);
    QCOMPARE(run.ledger().summary().count(MessageState::Waiting), std::uint64_t(kTasks));

    auto console = makeClient(broker.address(), "console");
    QVERIFY(console);
    EventStream* report = reportFromClient ? &stream : nullptr;
    auto peeked = runner::peekChannel(*console, report, kChannel, kTasks, 1s);
    QVERIFY2(peeked.ok(), peeked.ok() ? "" : peeked.error().describe().c_str());
    QCOMPARE(static_cast<int>(peeked.value().messages.size()), kTasks);
    peekEvents = drainInto(stream, run);

    auto purged = runner::purgeChannel(*console, report, kChannel, 1s);
    QVERIFY2(purged.ok(), purged.ok() ? "" : purged.error().describe().c_str());
    QCOMPARE(purged.value(), std::uint64_t(kTasks));
    purgeEvents = drainInto(stream, run);
    broker.broker().setObserver(nullptr);
}

void TestChannelActions::peekAndPurgeReportedByTheEmbeddedBroker() {
    test::TestBroker broker;
    QVERIFY2(broker.ok(), broker.error().c_str());
    Run run;
    std::vector<Event> peekEvents;
    std::vector<Event> purgeEvents;
    sendPeekPurge(broker, /*observe=*/true, /*reportFromClient=*/false, run, peekEvents,
                  purgeEvents);
    if (QTest::currentTestFailed())
        return;

    // A peek is seen, not delivered nor returned; a purge is not an ack.
    QCOMPARE(countOf(peekEvents, EventKind::BrokerPeeked), kTasks);
    QCOMPARE(countOf(peekEvents, EventKind::BrokerDelivered), 0);
    QCOMPARE(countOf(peekEvents, EventKind::BrokerReturned), 0);
    QCOMPARE(countOf(purgeEvents, EventKind::BrokerPurged), kTasks);
    QCOMPARE(countOf(purgeEvents, EventKind::BrokerAcked), 0);
    for (const Event& e : purgeEvents) {
        if (e.kind == EventKind::BrokerPurged) {
            QCOMPARE(std::string(e.actor.view()), std::string("console"));
            QVERIFY(!e.messageId.empty());
        }
    }

    const LedgerSummary s = run.ledger().summary();
    QCOMPARE(s.count(MessageState::Purged), std::uint64_t(kTasks));
    QCOMPARE(s.count(MessageState::Waiting), 0u);
    QCOMPARE(s.count(MessageState::Acked), 0u);
    QCOMPARE(s.deliveries, 0u);
    QCOMPARE(s.exactlyOnce, 0u);
    QCOMPARE(s.peeks, std::uint64_t(kTasks));
    QCOMPARE(s.unmatchedBrokerEvents, 0u);
    run.ledger().forEachMessage([](const MessageRecord& m) {
        QCOMPARE(m.state, MessageState::Purged);
        QCOMPARE(m.peekCount, 1u);
        QCOMPARE(m.deliveryCount, 0u);
        QVERIFY(m.deliveries.empty());
        QCOMPARE(m.endDetail, std::string("purged by console"));
    });
}

// As against a real server: no broker observer, only the client's reports.
void TestChannelActions::purgeReportedByTheClientOnly() {
    test::TestBroker broker;
    QVERIFY2(broker.ok(), broker.error().c_str());
    Run run;
    std::vector<Event> peekEvents;
    std::vector<Event> purgeEvents;
    sendPeekPurge(broker, /*observe=*/false, /*reportFromClient=*/true, run, peekEvents,
                  purgeEvents);
    if (QTest::currentTestFailed())
        return;

    QCOMPARE(peekEvents.size(), std::size_t(1));
    QCOMPARE(kindName(peekEvents[0]), std::string("channel-peeked"));
    QCOMPARE(peekEvents[0].value, std::int64_t(kTasks));
    QCOMPARE(purgeEvents.size(), std::size_t(1));
    const Event& purge = purgeEvents[0];
    QCOMPARE(kindName(purge), std::string("channel-purged"));
    QCOMPARE(std::string(toString(purge.source)), std::string("client"));
    QCOMPARE(std::string(purge.actor.view()), std::string("console"));
    QCOMPARE(std::string(purge.channel.view()), kChannel);
    QCOMPARE(purge.value, std::int64_t(kTasks));
    QVERIFY(!purge.transaction.empty());

    const LedgerSummary s = run.ledger().summary();
    QCOMPARE(s.count(MessageState::Purged), std::uint64_t(kTasks));
    QCOMPARE(s.count(MessageState::Waiting), 0u);
    QCOMPARE(s.count(MessageState::Acked), 0u);
    QCOMPARE(s.deliveries, 0u);
    QCOMPARE(s.exactlyOnce, 0u);
    QCOMPARE(s.purgedUnknown, 0u);
}

// The console against the embedded broker: the broker's events and the
// client's report of the same purge. Tasks sent between the two reports (the
// console pushes its report after the call returns) stay waiting.
void TestChannelActions::bothReportsPurgeNothingTwice() {
    test::TestBroker broker;
    QVERIFY2(broker.ok(), broker.error().c_str());
    Run run;
    std::vector<Event> peekEvents;
    std::vector<Event> purgeEvents;
    sendPeekPurge(broker, /*observe=*/true, /*reportFromClient=*/true, run, peekEvents,
                  purgeEvents);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(countOf(purgeEvents, EventKind::BrokerPurged), kTasks);
    QCOMPARE(countOf(purgeEvents, EventKind::ChannelPurged), 1);
    QCOMPARE(kindName(purgeEvents.back()), std::string("channel-purged"));  // after the broker's
    QCOMPARE(run.ledger().summary().count(MessageState::Purged), std::uint64_t(kTasks));
    QCOMPARE(run.ledger().summary().purgedUnknown, 0u);

    // A second purge whose report reaches the run only after ten more tasks.
    EventStream stream;
    BrokerEventSink sink(stream);
    broker.broker().setObserver(&sink);
    std::string error;
    QVERIFY2(sendTasks(broker.address(), stream, &error), error.c_str());
    auto console = makeClient(broker.address(), "console");
    QVERIFY(console);
    runner::PurgeOutcome purge = runner::purgeChannel(*console, kChannel, 1s);
    QVERIFY(purge.removed.ok());
    QCOMPARE(purge.removed.value(), std::uint64_t(kTasks));
    QVERIFY(purge.report.has_value());
    drainInto(stream, run);
    QCOMPARE(run.ledger().summary().count(MessageState::Purged), std::uint64_t(2 * kTasks));
    QVERIFY2(sendTasks(broker.address(), stream, &error), error.c_str());
    broker.broker().setObserver(nullptr);
    stream.push(*purge.report);
    drainInto(stream, run);
    QCOMPARE(run.ledger().summary().count(MessageState::Waiting), std::uint64_t(kTasks));
    QCOMPARE(run.ledger().summary().count(MessageState::Purged), std::uint64_t(2 * kTasks));
    QCOMPARE(run.ledger().summary().purgedUnknown, 0u);
}

void TestChannelActions::runStateBeforeAndAfterThePurge() {
    test::TestBroker broker;
    QVERIFY2(broker.ok(), broker.error().c_str());
    for (const bool observe : {true, false}) {
        Run run;
        std::vector<Event> peekEvents;
        std::vector<Event> purgeEvents;
        sendPeekPurge(broker, observe, /*reportFromClient=*/!observe, run, peekEvents, purgeEvents);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(!purgeEvents.empty());
        const std::int64_t purgedAt = purgeEvents.front().timeNs;
        const RunState before = run.stateAt(purgedAt - 1);
        QCOMPARE(before.count(MessageState::Waiting), std::uint64_t(kTasks));
        QCOMPARE(before.count(MessageState::Purged), 0u);
        QCOMPARE(before.summary.deliveries, 0u);
        const ChannelAt* channelBefore = before.channel(kChannel);
        QVERIFY(channelBefore != nullptr);
        QCOMPARE(channelBefore->count(MessageState::Waiting), std::uint64_t(kTasks));

        const RunState after = run.stateAt(purgeEvents.back().timeNs);
        QCOMPARE(after.count(MessageState::Waiting), 0u);
        QCOMPARE(after.count(MessageState::Purged), std::uint64_t(kTasks));
        QCOMPARE(after.count(MessageState::Acked), 0u);
        QCOMPARE(after.channel(kChannel)->count(MessageState::Purged), std::uint64_t(kTasks));
        for (const MessageAt& m : after.messages) {
            QCOMPARE(m.state, MessageState::Purged);
            QCOMPARE(m.deliveries, 0u);
        }
        // The head agrees with the ledger.
        QCOMPARE(run.head().count(MessageState::Purged), std::uint64_t(kTasks));
    }
}

void TestChannelActions::failedPurgeReportsNothing() {
    test::TestBroker broker;
    QVERIFY2(broker.ok(), broker.error().c_str());
    auto console = makeClient(broker.address(), "console");
    QVERIFY(console);
    EventStream stream;
    auto purged = runner::purgeChannel(*console, &stream, "", 1s);
    QVERIFY(!purged.ok());
    auto peeked = runner::peekChannel(*console, &stream, "", 1, 1s);
    QVERIFY(!peeked.ok());
    std::vector<Event> events;
    stream.drain(events);
    QVERIFY(events.empty());
}

// The headless summary gains a "purged" row only when a run purged, and
// `queuescope summary` of the recording prints the same text.
void TestChannelActions::summaryShowsPurgedAndReadsTheSameFromTheRecording() {
    test::TestBroker broker;
    QVERIFY2(broker.ok(), broker.error().c_str());
    Run run;
    std::vector<Event> peekEvents;
    std::vector<Event> purgeEvents;
    sendPeekPurge(broker, /*observe=*/true, /*reportFromClient=*/true, run, peekEvents,
                  purgeEvents);
    if (QTest::currentTestFailed())
        return;

    runner::Scenario scenario;
    scenario.name = "peek-and-purge";
    scenario.channel = kChannel;
    scenario.tasks.count = kTasks;
    scenario.workers.push_back(runner::WorkerGroup{});  // a valid scenario file needs one
    runner::RunResult live;
    live.started = true;
    live.producer.total = kTasks;
    live.producer.sent = kTasks;
    live.producer.finished = true;
    live.eventsRecorded = run.eventCount();
    runner::computeLedgerTotals(run.ledger(), kChannel, true, false, live);
    const std::string text = runner::formatSummary(scenario, live);
    QVERIFY2(text.find("purged ") != std::string::npos, text.c_str());
    QCOMPARE(live.tasksLost, 0u);  // purged is an end state

    runner::RunResult quiet = live;
    quiet.totals.byState[static_cast<int>(MessageState::Purged)] = 0;
    QVERIFY(runner::formatSummary(scenario, quiet).find("purged ") == std::string::npos);

    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("purge.qsrun")).toStdString();
    std::string error;
    auto writer = recording::RecordingWriter::create(path, run.streamTimeNs(0), {}, &error);
    QVERIFY2(writer, error.c_str());
    runner::recordRunSettings(*writer, scenario, runner::RunOptions{}, LedgerOptions{}, 1);
    std::vector<Event> all;
    for (std::uint64_t i = 0; i < run.eventCount(); ++i)
        all.push_back(run.event(i));
    writer->append(all);
    runner::recordRunOutcome(*writer, live);
    QVERIFY2(writer->close(&error), error.c_str());

    runner::ReplayedRun replayed;
    QVERIFY2(runner::replayRecording(path, &replayed, &error), error.c_str());
    QCOMPARE(replayed.result.totals.count(MessageState::Purged), std::uint64_t(kTasks));
    QCOMPARE(runner::formatSummary(replayed.scenario, replayed.result), text);
}

// The client-side path against the real KubeMQ v2.4.0, which has no observer.
void TestChannelActions::clientPathAgainstRealKubemq() {
#if defined(QUEUESCOPE_UNDER_TSAN)
    // Starting the server forks this multi-threaded process, which
    // ThreadSanitizer refuses; the release and asan stages run this check.
    QSKIP("ThreadSanitizer cannot fork this process to start the real KubeMQ server");
#endif
    if (!RealServer::present())
        QSKIP(qPrintable(RealServer::absentMessage()));
    RealServer server;
    QString why;
    QVERIFY2(server.start(&why), qPrintable(QStringLiteral("cannot start kubemq: ") + why));

    Run run;
    EventStream stream;
    std::string error;
    QVERIFY2(sendTasks(server.address(), stream, &error), error.c_str());
    drainInto(stream, run);
    QCOMPARE(run.ledger().summary().count(MessageState::Waiting), std::uint64_t(kTasks));

    auto console = makeClient(server.address(), "console");
    QVERIFY(console);
    auto peeked = runner::peekChannel(*console, &stream, kChannel, kTasks, 1s);
    QVERIFY2(peeked.ok(), peeked.ok() ? "" : peeked.error().describe().c_str());
    QCOMPARE(static_cast<int>(peeked.value().messages.size()), kTasks);
    drainInto(stream, run);
    QCOMPARE(run.ledger().summary().count(MessageState::Waiting), std::uint64_t(kTasks));

    auto purged = runner::purgeChannel(*console, &stream, kChannel, 1s);
    QVERIFY2(purged.ok(), purged.ok() ? "" : purged.error().describe().c_str());
    QCOMPARE(purged.value(), std::uint64_t(kTasks));
    drainInto(stream, run);

    const LedgerSummary s = run.ledger().summary();
    QCOMPARE(s.count(MessageState::Purged), std::uint64_t(kTasks));
    QCOMPARE(s.count(MessageState::Waiting), 0u);
    QCOMPARE(s.deliveries, 0u);
    QCOMPARE(s.count(MessageState::Acked), 0u);
    // The server agrees: nothing is left to peek.
    auto empty = console->peek(kChannel, kTasks, 1s);
    QVERIFY(empty.ok());
    QCOMPARE(empty.value().messages.size(), std::size_t(0));
}

QTEST_APPLESS_MAIN(TestChannelActions)
#include "tst_channel_actions.moc"
