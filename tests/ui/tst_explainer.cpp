#include <QTest>

#include "event_factory.h"
#include "explainer.h"
#include "message_key.h"

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
};

namespace {
QString joined(const std::vector<Explanation>& lines) {
    QStringList out;
    for (const auto& l : lines) {
        out << l.text;
    }
    return out.join(QLatin1Char('\n'));
}
}  // namespace

void TestExplainer::namesRedeliveryAfterCrash() {
    Explainer x;
    x.setLabelFunction([](const QString& key) -> QString {
        return QStringLiteral("Task #") + key.section(QLatin1Char('\n'), 1);
    });
    x.explain({ev(EventKind::MessageAssigned, 0, "worker-1", "7", 7, 1)});
    Event crash = ev(EventKind::WorkerCrashed, 10, "worker-1");
    crash.value = 1;
    const auto crashLines = x.explain({crash});
    QVERIFY2(joined(crashLines)
                 .contains(QStringLiteral("worker-1 crashed holding 1 unacknowledged task")),
             qPrintable(joined(crashLines)));
    const auto lines = x.explain({ev(EventKind::MessageAssigned, 20, "worker-2", "7", 7, 1)});
    QCOMPARE(lines.size(), 1u);
    QVERIFY2(lines[0].text.startsWith(QStringLiteral(
                 "Task #7 came back to the queue because worker-1 crashed before acking it; "
                 "worker-2 received it at ")),
             qPrintable(lines[0].text));
    QVERIFY(lines[0].kind == Explanation::Kind::Redelivery);
    QCOMPARE(lines[0].key, messageKey("tasks", "7"));
}

void TestExplainer::explainsRejectionAndDeadLetter() {
    Explainer x;
    x.explain({ev(EventKind::MessageAssigned, 0, "worker-1", "3", 3, 1)});
    const auto rej = x.explain({ev(EventKind::Rejected, 5, "worker-1", "3", 3, 1)});
    QVERIFY(joined(rej).contains(QStringLiteral("rejected it (NAck)")));
    const auto again = x.explain({ev(EventKind::MessageAssigned, 9, "worker-2", "3", 4, 2)});
    QVERIFY(joined(again).contains(QStringLiteral("because worker-1 rejected it (NAck)")));
    Event dl = ev(EventKind::BrokerDeadLettered, 20, "", "3", 4, 2);
    dl.source = EventSource::Broker;
    dl.detail = "tasks.dlq";
    QVERIFY(joined(x.explain({dl})).contains(QStringLiteral("dead-letter channel tasks.dlq")));
}

void TestExplainer::floodsAreSummarised() {
    Explainer x;
    std::vector<Event> batch;
    for (int i = 0; i < 100; ++i) {
        batch.push_back(ev(EventKind::MessageAssigned, 0, "worker-1", std::to_string(i), i + 1, 1));
        batch.push_back(ev(EventKind::Rejected, 1, "worker-1", std::to_string(i), i + 1, 1));
    }
    const auto lines = x.explain(batch);
    QVERIFY(lines.size() < 12);
    QVERIFY(joined(lines).contains(QStringLiteral("and 94 more rejections")));
}

void TestExplainer::configChangesInPlainWords() {
    Explainer x;
    Event c = ev(EventKind::ConfigChanged, 0);
    c.detail = "batch=5 work=fixed 100 ms";
    const QString text = joined(x.explain({c}));
    QVERIFY2(text.contains(QStringLiteral("Batch size is now 5")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Work per task is now fixed 100 ms")), qPrintable(text));
}

QTEST_MAIN(TestExplainer)
#include "tst_explainer.moc"
