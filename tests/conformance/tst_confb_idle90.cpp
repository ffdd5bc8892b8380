// Spec §4 case 71 (§2.8.4): the downstream API has no server visibility
// timeout — unsettled messages stay reserved through 90 s of inactivity.
// Alone in its own executable because it has to sit idle for 90 s.
#include <QTest>
#include <memory>
#include <thread>

#include "conformance_qt.h"
#include "conformance_streams.h"
#include "test_broker.h"

using namespace qs::test::conf;
using namespace std::chrono_literals;

class TestConfbIdle90 : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void case71_noServerVisibilityTimeout();

private:
    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TestConfbIdle90::initTestCase() {
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TestConfbIdle90::cleanupTestCase() {
    stub_.reset();
    broker_.reset();
}

void TestConfbIdle90::case71_noServerVisibilityTimeout() {
    QCOMPARE(qstr(sendMany(*stub_, "q71", 2, "m71")), QString());
    DownstreamSession holder(broker_->newChannel());
    const auto held = holder.get("hold71", "q71", 2, 5000);
    QVERIFY(held);
    QCOMPARE(held->message.messages_size(), 2);

    std::this_thread::sleep_for(90s);

    // Nothing arrived on the holder's stream while idle.
    QVERIFY(!holder.next(0ms));

    DownstreamSession other(broker_->newChannel());
    const auto frame = other.get("other71", "q71", 2, 2000);
    QVERIFY(frame);
    QCOMPARE(frame->message.iserror(), false);
    QCOMPARE(frame->message.messages_size(), 0);

    // The holder's transaction still owns both messages.
    const auto offsets = holder.activeOffsets("offsets71", held->message.transactionid());
    QVERIFY(offsets);
    QCOMPARE(offsets->message.iserror(), false);
    QCOMPARE(qints(offsetSet(offsets->message)), (QList<qint64>{1, 2}));
}

QTEST_APPLESS_MAIN(TestConfbIdle90)
#include "tst_confb_idle90.moc"
