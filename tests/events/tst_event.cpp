#include <QTest>
#include <set>
#include <string>

#include "event_test_names.h"
#include "events/event.h"

using namespace qs;

class TestEvent : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void kindNamesAreUniqueAndRoundTrip();
    void sourceNamesRoundTrip();
    void unknownNamesAreRejected();
};

void TestEvent::kindNamesAreUniqueAndRoundTrip() {
    std::set<std::string, std::less<>> seen;
    for (int i = 0; i <= static_cast<int>(kLastEventKind); ++i) {
        const auto kind = static_cast<EventKind>(i);
        const std::string_view name = toString(kind);
        QVERIFY2(name != "unknown", qPrintable(QString::number(i)));
        QVERIFY2(seen.emplace(name).second, std::string(name).c_str());
        const auto back = eventKindFromString(name);
        QVERIFY(back.has_value());
        QCOMPARE(static_cast<int>(*back), i);
    }
}

void TestEvent::sourceNamesRoundTrip() {
    std::set<std::string_view> seen;
    for (int i = 0; i <= static_cast<int>(kLastEventSource); ++i) {
        const auto source = static_cast<EventSource>(i);
        QVERIFY2(toString(source) != "unknown", qPrintable(QString::number(i)));
        QVERIFY(seen.insert(toString(source)).second);
        const auto back = eventSourceFromString(toString(source));
        QVERIFY(back.has_value());
        QS_COMPARE_NAME(*back, source);
    }
    QCOMPARE(std::string(toString(EventSource::Client)), std::string("client"));
}

void TestEvent::unknownNamesAreRejected() {
    QVERIFY(!eventKindFromString("").has_value());
    QVERIFY(!eventKindFromString("Acked").has_value());  // case-sensitive
    QVERIFY(!eventKindFromString("unknown").has_value());
    QVERIFY(!eventSourceFromString("brokers").has_value());
}

QTEST_APPLESS_MAIN(TestEvent)
#include "tst_event.moc"
