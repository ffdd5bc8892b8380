#include <QTest>
#include <algorithm>

#include "controllers/console_run.h"
#include "event_factory.h"
#include "models/explainer.h"
#include "models/message_key.h"

using namespace qs;
using namespace qs::ui;
using qs::ui::test::ev;

class TestExplainer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void namesRedeliveryAfterCrash();
    void explainsRejectionAndDeadLetter();
    void floodsAreSummarised();
    void configChangesInPlainWords();
    void theLastNackSaysDeadLetteredNotRequeued();
    void theLastNackWithoutABrokerSaysDeadLettered();
    void floodsAreSummarisedPerSecondAcrossAppends();
    void explainsOnlyWhatIsNewAndStartsOverOnReset();
    void visibilityExpiryOnTheV1Stream();
};

namespace {
// A run and its explainer; say() appends a batch and returns what is new.
struct Explained {
    ConsoleRun run;
    Explainer x{&run};
    std::vector<Explanation> say(const std::vector<Event>& batch) {
        run.append(batch);
        return x.explainNew();
    }
};

QString joined(const std::vector<Explanation>& lines) {
    QStringList out;
    for (const auto& l : lines) {
        out << l.text;
    }
    return out.join(QLatin1Char('\n'));
}
}  // namespace

void TestExplainer::namesRedeliveryAfterCrash() {
    Explained x;
    x.x.setLabelFunction([](const QString& key) -> QString {
        return QStringLiteral("Task #") + key.section(QLatin1Char('\n'), 1);
    });
    x.say({ev(EventKind::MessageAssigned, 0, "worker-1", "7", 7, 1)});
    Event crash = ev(EventKind::WorkerCrashed, 10, "worker-1");
    crash.value = 1;
    const auto crashLines = x.say({crash});
    QVERIFY2(joined(crashLines)
                 .contains(QStringLiteral("worker-1 crashed holding 1 unacknowledged task")),
             qPrintable(joined(crashLines)));
    const auto lines = x.say({ev(EventKind::MessageAssigned, 20, "worker-2", "7", 7, 1)});
    QCOMPARE(lines.size(), 1u);
    QVERIFY2(lines[0].text.startsWith(QStringLiteral(
                 "Task #7 came back to the queue because worker-1 crashed before acking it; "
                 "worker-2 received it at ")),
             qPrintable(lines[0].text));
    QVERIFY(lines[0].kind == Explanation::Kind::Redelivery);
    QCOMPARE(lines[0].key, messageKey("tasks", "7"));
}

void TestExplainer::explainsRejectionAndDeadLetter() {
    Explained x;
    x.say({ev(EventKind::MessageAssigned, 0, "worker-1", "3", 3, 1)});
    const auto rej = x.say({ev(EventKind::Rejected, 5, "worker-1", "3", 3, 1)});
    QVERIFY(joined(rej).contains(QStringLiteral("rejected it (NAck)")));
    const auto again = x.say({ev(EventKind::MessageAssigned, 9, "worker-2", "3", 4, 2)});
    QVERIFY(joined(again).contains(QStringLiteral("because worker-1 rejected it (NAck)")));
    Event dl = ev(EventKind::BrokerDeadLettered, 20, "", "3", 4, 2);
    dl.source = EventSource::Broker;
    dl.detail = "tasks.dlq";
    QVERIFY(joined(x.say({dl})).contains(QStringLiteral("dead-letter channel tasks.dlq")));
}

void TestExplainer::floodsAreSummarised() {
    Explained x;
    std::vector<Event> batch;
    for (int i = 0; i < 100; ++i) {
        batch.push_back(ev(EventKind::MessageAssigned, 0, "worker-1", std::to_string(i), i + 1, 1));
        batch.push_back(ev(EventKind::Rejected, 1, "worker-1", std::to_string(i), i + 1, 1));
    }
    const auto lines = x.say(batch);
    QVERIFY(lines.size() <= 12);  // 6 rejections, 6 redeliveries: the second is still open
    QVERIFY(!joined(lines).contains(QStringLiteral("more rejections")));
    const auto leftOut = x.x.sayWhatWasLeftOut();  // the run went quiet
    QCOMPARE(leftOut.size(), 1u);
    QCOMPARE(leftOut[0].text, QStringLiteral("… and 94 more rejections in the same second."));
    QVERIFY(x.x.sayWhatWasLeftOut().empty());
}

// The quota is per second of the run, not per append: thirty appends in one
// second say 6 rejections; the first event of the next second says the rest.
void TestExplainer::floodsAreSummarisedPerSecondAcrossAppends() {
    Explained x;
    std::vector<Explanation> lines;
    for (int i = 0; i < 30; ++i) {
        const std::string id = std::to_string(i);
        const auto said = x.say({ev(EventKind::MessageAssigned, i * 30, "worker-1", id, i + 1, 1),
                                 ev(EventKind::Rejected, i * 30 + 1, "worker-1", id, i + 1, 1)});
        lines.insert(lines.end(), said.begin(), said.end());
    }
    const auto rejections = std::count_if(lines.begin(), lines.end(), [](const Explanation& e) {
        return e.kind == Explanation::Kind::Rejection;
    });
    QCOMPARE(rejections, 6);
    const auto next = x.say({ev(EventKind::MessageAssigned, 1500, "worker-2", "late", 99, 1)});
    QVERIFY2(joined(next).contains(QStringLiteral("… and 24 more rejections in the same second.")),
             qPrintable(joined(next)));
}

void TestExplainer::configChangesInPlainWords() {
    Explained x;
    Event c = ev(EventKind::ConfigChanged, 0);
    c.detail = "batch=5 work=fixed 100 ms";
    const QString text = joined(x.say({c}));
    QVERIFY2(text.contains(QStringLiteral("Batch size is now 5")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Work per task is now fixed 100 ms")), qPrintable(text));
}

// A NAck at the MaxReceiveCount does not put a new copy at the tail: the
// broker reports the dead-lettering (often before the worker's own event).
void TestExplainer::theLastNackSaysDeadLetteredNotRequeued() {
    Explained x;
    x.say({ev(EventKind::TaskSent, 0, "producer", "3"),
           ev(EventKind::MessageAssigned, 1, "worker-1", "3", 3, 3)});
    Event dl = ev(EventKind::BrokerDeadLettered, 5, "worker-1", "3", 3, 3);
    dl.source = EventSource::Broker;
    dl.detail = "tasks.dlq";
    const QString text = joined(x.say({dl, ev(EventKind::Rejected, 5, "worker-1", "3", 3, 3)}));
    QVERIFY2(text.contains(QStringLiteral("its MaxReceiveCount: instead of queueing it again, "
                                          "the broker moves it to dead-letter channel tasks.dlq")),
             qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("new copy at the tail")), qPrintable(text));
}

// Against a real server no broker event says it: the run's MaxReceiveCount does.
void TestExplainer::theLastNackWithoutABrokerSaysDeadLettered() {
    Explained x;
    LedgerOptions options;
    options.maxReceiveCount = 2;
    x.run.reset(options);
    x.say({ev(EventKind::TaskSent, 0, "producer", "p"),
           ev(EventKind::MessageAssigned, 1, "worker-1", "p", 1, 1)});
    QVERIFY(
        joined(x.say({ev(EventKind::Rejected, 2, "worker-1", "p", 1, 1)}))
            .contains(QStringLiteral("new copy at the tail of the queue with receive count 2")));
    x.say({ev(EventKind::MessageAssigned, 3, "worker-2", "p", 2, 2)});
    const QString text = joined(x.say({ev(EventKind::Rejected, 4, "worker-2", "p", 2, 2)}));
    QVERIFY2(text.contains(QStringLiteral("instead of queueing it again, it leaves the queue")),
             qPrintable(text));
}

void TestExplainer::explainsOnlyWhatIsNewAndStartsOverOnReset() {
    Explained x;
    Event c = ev(EventKind::ConfigChanged, 0);
    c.detail = "batch=5";
    QCOMPARE(x.say({c}).size(), 1u);
    QCOMPARE(x.x.explainNew().size(), 0u);  // nothing new
    x.run.reset();
    x.x.clear();
    QCOMPARE(x.say({c}).size(), 1u);
}

// The v1 stream: the broker takes the task back when worker-1's visibility
// runs out, worker-2 gets it, and worker-1's late ack is refused.
void TestExplainer::visibilityExpiryOnTheV1Stream() {
    Explained x;
    x.say({ev(EventKind::MessageAssigned, 0, "worker-1", "5", 5, 1)});
    Event nack = ev(EventKind::BrokerNacked, 10, "worker-1", "5", 5, 1);
    nack.source = EventSource::Broker;
    nack.detail = std::string(kNackReasonVisibilityExpired);
    nack.count2 = 6;
    x.say({nack});
    const QString again = joined(x.say({ev(EventKind::MessageAssigned, 11, "worker-2", "5", 6, 2)}));
    QVERIFY2(again.contains(QStringLiteral("because worker-1 held it past its visibility timeout")),
             qPrintable(again));
    Event late = ev(EventKind::VisibilityExpired, 30, "worker-1", "5", 5, 1);
    late.detail = "Error 129: current visibility timer expired";
    const QString refused = joined(x.say({late}));
    QVERIFY2(refused.contains(QStringLiteral("worker-1's ack of")) &&
                 refused.contains(QStringLiteral("came too late and was refused")) &&
                 refused.contains(QStringLiteral("receive count 2")),
             qPrintable(refused));
}

QTEST_MAIN(TestExplainer)
#include "tst_explainer.moc"
