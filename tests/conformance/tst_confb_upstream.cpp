// Spec §4 cases 73-75: QueuesUpstream results, empty requests and
// correlation of many requests on one stream.
#include <QTest>
#include <map>
#include <memory>

#include "conformance_qt.h"
#include "conformance_streams.h"
#include "test_broker.h"

using namespace qs::test::conf;
using namespace std::chrono_literals;

class TestConfbUpstream : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void case73_perMessageResultsInOrder();
    void case74_emptyRequestIsInBandError();
    void case75_fiftyRequestsFiftyResponses();

private:
    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TestConfbUpstream::init() {
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TestConfbUpstream::cleanup() {
    stub_.reset();
    broker_.reset();
}

void TestConfbUpstream::case73_perMessageResultsInOrder() {
    UpstreamSession stream(broker_->newChannel());
    kubemq::QueuesUpstreamRequest request;
    request.set_requestid("u1");
    *request.add_messages() = makeMessage("q73", "first", "m73-1");
    *request.add_messages() = makeMessage("q73", "", "m73-2");  // Body and Metadata empty
    *request.add_messages() = makeMessage("q73", "third", "m73-3");
    QVERIFY(stream.send(request));

    const auto frame = stream.next(10s);
    QVERIFY(frame);
    const auto& response = frame->message;
    QCOMPARE(qstr(response.refrequestid()), QStringLiteral("u1"));
    QCOMPARE(response.iserror(), false);
    QCOMPARE(response.results_size(), 3);
    QCOMPARE(qstr(response.results(0).messageid()), QStringLiteral("m73-1"));
    QCOMPARE(qstr(response.results(1).messageid()), QStringLiteral("m73-2"));
    QCOMPARE(qstr(response.results(2).messageid()), QStringLiteral("m73-3"));
    QCOMPARE(response.results(0).iserror(), false);
    QVERIFY(response.results(0).sentat() > 0);
    QCOMPARE(response.results(1).iserror(), true);
    QCOMPARE(qstr(response.results(1).error()), qstr(err::k110));
    QCOMPARE(response.results(1).sentat(), qint64(0));
    QCOMPARE(response.results(2).iserror(), false);
    QVERIFY(response.results(2).sentat() > 0);

    // Exactly one response for the request.
    QVERIFY(!stream.next(500ms));

    const auto pulled = pull(*stub_, "q73", 3, 1).reply;
    QCOMPARE(pulled.iserror(), false);
    QCOMPARE(qstrs(idsOf(pulled.messages())),
             (QStringList{QStringLiteral("m73-1"), QStringLiteral("m73-3")}));
}

void TestConfbUpstream::case74_emptyRequestIsInBandError() {
    UpstreamSession stream(broker_->newChannel());
    kubemq::QueuesUpstreamRequest request;
    request.set_requestid("u74");
    QVERIFY(stream.send(request));

    const auto frame = stream.next(10s);
    QVERIFY(frame);
    QCOMPARE(qstr(frame->message.refrequestid()), QStringLiteral("u74"));
    QCOMPARE(frame->message.iserror(), true);
    QCOMPARE(qstr(frame->message.error()), QStringLiteral("no messages to send"));
    QCOMPARE(frame->message.results_size(), 0);
}

void TestConfbUpstream::case75_fiftyRequestsFiftyResponses() {
    UpstreamSession stream(broker_->newChannel());
    for (int i = 0; i < 50; ++i) {
        kubemq::QueuesUpstreamRequest request;
        request.set_requestid("u75-" + std::to_string(i));
        *request.add_messages() = makeMessage("q75", "body " + std::to_string(i));
        QVERIFY(stream.send(request));
    }

    std::map<std::string, int> seen;
    for (int i = 0; i < 50; ++i) {
        const auto frame = stream.next(10s);
        QVERIFY2(frame, qPrintable(QStringLiteral("only %1 responses").arg(i)));
        QCOMPARE(frame->message.iserror(), false);
        QCOMPARE(frame->message.results_size(), 1);
        QCOMPARE(frame->message.results(0).iserror(), false);
        ++seen[frame->message.refrequestid()];
    }
    QCOMPARE(int(seen.size()), 50);
    for (int i = 0; i < 50; ++i) {
        const std::string id = "u75-" + std::to_string(i);
        QVERIFY2(seen.count(id) == 1 && seen[id] == 1, id.c_str());
    }
    QVERIFY(!stream.next(500ms));
}

QTEST_APPLESS_MAIN(TestConfbUpstream)
#include "tst_confb_upstream.moc"
