// The Run's compact event store (run::EventStore, run::TextPool): every kind
// and every field reads back exactly as it went in, whatever the texts (empty,
// inline, long, shared between fields) and numbers (past int32 / uint32);
// repeated texts are kept once; the limits refuse an event whole.
#include <QtTest/QtTest>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "run/event_store.h"
#include "run/run.h"
#include "run/text_pool.h"
#include "run_test_events.h"

using namespace qs;
using qs::run::EventStore;
using qs::test::sameEvent;
using qs::run::TextPool;

namespace {

// An event with every field set, all different, derived from `n`.
Event fullEvent(int n) {
    Event e;
    e.timeNs = 1'700'000'000'000'000'000 + n;
    e.kind = static_cast<EventKind>(n % (static_cast<int>(kLastEventKind) + 1));
    e.source = static_cast<EventSource>(n % (static_cast<int>(kLastEventSource) + 1));
    e.receiveCount = n % 7 - 1;
    e.actor = Name("worker-" + std::to_string(n % 5));
    e.channel = Name("channel-" + std::to_string(n % 3));
    e.sequence = static_cast<std::uint64_t>(n) * 3;
    e.value = -n;
    e.count2 = n * 11;
    e.messageId = "msg-" + std::to_string(n / 8);
    e.transaction = "txn-" + std::to_string(n / 50);
    e.detail = n % 4 == 0 ? std::string() : "detail " + std::to_string(n % 9);
    return e;
}

QString describe(const Event& e) {
    return QStringLiteral("%1 %2 seq %3 value %4 count2 %5 id '%6' txn '%7' detail '%8'")
        .arg(QString::fromUtf8(toString(e.kind).data(), static_cast<int>(toString(e.kind).size())))
        .arg(e.timeNs)
        .arg(e.sequence)
        .arg(e.value)
        .arg(e.count2)
        .arg(QString::fromStdString(e.messageId.str()), QString::fromStdString(e.transaction.str()),
             QString::fromStdString(e.detail.substr(0, 40)));
}

void checkAll(const EventStore& store, const std::vector<Event>& in) {
    QCOMPARE(store.size(), in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        const Event out = store.at(i);
        QVERIFY2(sameEvent(out, in[i]), qPrintable(QStringLiteral("event %1: %2 read back as %3")
                                                       .arg(i)
                                                       .arg(describe(in[i]), describe(out))));
        QCOMPARE(store.timeNs(i), in[i].timeNs);
        QVERIFY(store.kind(i) == in[i].kind);
    }
}

}  // namespace

class TstEventStore : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyKindAndSourceRoundTrips();
    void numbersAtTheirEdgesRoundTrip();
    void textsEmptyInlineLongAndSharedRoundTrip();
    void repeatedTextsAreKeptOnce();
    void aPoolOfManyTextsKeepsEveryView();
    void aGrowingPoolFindsEveryTextWhileItsSlotsMove();
    void theEventLimitRefusesTheEventWhole();
    void theTextLimitRefusesTheEventWhole();
    void aRunReadsBackWhatItWasFed();
    void aRunPastItsEventLimitAppliesNothing();
};

void TstEventStore::everyKindAndSourceRoundTrips() {
    EventStore store;
    std::vector<Event> in;
    for (int kind = 0; kind <= static_cast<int>(kLastEventKind); ++kind) {
        for (int source = 0; source <= static_cast<int>(kLastEventSource); ++source) {
            Event e = fullEvent(kind * 10 + source);
            e.kind = static_cast<EventKind>(kind);
            e.source = static_cast<EventSource>(source);
            in.push_back(e);
            store.push_back(e);
        }
    }
    checkAll(store, in);
}

void TstEventStore::numbersAtTheirEdgesRoundTrip() {
    constexpr auto i32min = std::numeric_limits<std::int32_t>::min();
    constexpr auto i32max = std::numeric_limits<std::int32_t>::max();
    constexpr auto i64min = std::numeric_limits<std::int64_t>::min();
    constexpr auto i64max = std::numeric_limits<std::int64_t>::max();
    constexpr auto u32max = std::numeric_limits<std::uint32_t>::max();
    constexpr auto u64max = std::numeric_limits<std::uint64_t>::max();
    const std::vector<std::uint64_t> sequences = {0, 1, u32max - 1, u32max, std::uint64_t{u32max} + 1,
                                                  u64max};
    const std::vector<std::int64_t> numbers = {0,          -1,          i32min,     i32max,
                                               std::int64_t{i32min} - 1, std::int64_t{i32max} + 1,
                                               i64min,     i64max,      5'000'000'000};
    EventStore store;
    std::vector<Event> in;
    int n = 0;
    // Narrow and wide rows interleaved: a wide row's side entry must not
    // shift its neighbours'.
    for (const std::uint64_t sequence : sequences) {
        for (const std::int64_t value : numbers) {
            Event e = fullEvent(n++);
            e.sequence = sequence;
            e.value = value;
            e.count2 = numbers[static_cast<std::size_t>(n) % numbers.size()];
            e.timeNs = n % 2 == 0 ? i64min + n : i64max - n;
            e.receiveCount = n % 3 == 0 ? std::numeric_limits<std::int32_t>::min() : i32max - n;
            in.push_back(e);
            store.push_back(e);
            Event narrow = fullEvent(n++);
            in.push_back(narrow);
            store.push_back(narrow);
        }
    }
    checkAll(store, in);
}

void TstEventStore::textsEmptyInlineLongAndSharedRoundTrip() {
    const std::string inlineMax(ShortText::kInlineCapacity, 'i');    // 36: inline in an Event
    const std::string pastInline(ShortText::kInlineCapacity + 1, 'h');  // 37: on the heap
    const std::string huge(3 * 1024 * 1024, 'x');  // past a pool block: a block of its own
    std::string withNul("a\0b", 3);
    const std::string utf8 = "caf\xc3\xa9 \xe2\x82\xac";
    EventStore store;
    std::vector<Event> in;
    auto add = [&](std::string_view id, std::string_view txn, std::string_view detail) {
        Event e = fullEvent(static_cast<int>(in.size()));
        e.messageId = id;
        e.transaction = txn;
        e.detail = std::string(detail);
        in.push_back(e);
        store.push_back(e);
    };
    add("", "", "");
    add(inlineMax, pastInline, huge);
    add(pastInline, inlineMax, withNul);
    add("same", "same", "same");  // one text for three fields
    add(huge, "", utf8);
    add(withNul, utf8, "");
    add("", "", huge + "!");  // differs from `huge` in its last byte only
    for (int i = 0; i < 1000; ++i)  // many small texts after the huge ones
        add("m" + std::to_string(i), "", std::string(static_cast<std::size_t>(i % 300), 'd'));
    checkAll(store, in);
    // Reading a text back twice gives two Events that own their text.
    Event first = store.at(1);
    first.detail.assign("changed");
    QCOMPARE(store.at(1).detail, huge);
}

void TstEventStore::repeatedTextsAreKeptOnce() {
    EventStore store;
    Event e = fullEvent(1);
    e.messageId = "a-message-id-of-36-bytes-............";
    e.transaction = "one transaction";
    e.detail = std::string(500, 'd');
    for (int i = 0; i < 10000; ++i) {
        e.timeNs = i;
        store.push_back(e);
    }
    QCOMPARE(store.textCount(), std::size_t{3});
    // 48-byte rows and the three texts once: well under the 160 bytes an Event takes.
    QVERIFY2(store.memoryBytes() < 10000 * 64 + 600'000,
             qPrintable(QString::number(store.memoryBytes())));
    QCOMPARE(store.at(9999).detail, e.detail);
}

void TstEventStore::aPoolOfManyTextsKeepsEveryView() {
    TextPool pool;
    std::vector<std::uint32_t> ids;
    std::vector<std::string_view> views;
    for (int i = 0; i < 200'000; ++i) {  // many regrowths of the hash slots
        ids.push_back(pool.intern("text-" + std::to_string(i)));
        views.push_back(pool.text(ids.back()));
    }
    QCOMPARE(pool.size(), std::size_t{200'000});
    QCOMPARE(pool.intern(""), TextPool::kEmpty);
    QVERIFY(pool.text(TextPool::kEmpty).empty());
    for (int i = 0; i < 200'000; ++i) {
        const std::string text = "text-" + std::to_string(i);
        QCOMPARE(pool.intern(text), ids[static_cast<std::size_t>(i)]);  // the same id again
        QCOMPARE(views[static_cast<std::size_t>(i)], std::string_view(text));  // never moved
        QVERIFY(pool.contains(text));
    }
    QVERIFY(!pool.contains("text-200000"));
    QCOMPARE(pool.size(), std::size_t{200'000});
}

// The slots double in steps (a new table takes new texts while each intern
// moves a few old slots): after every intern, through three doublings, every
// text is found with its one id, and no text is added twice.
void TstEventStore::aGrowingPoolFindsEveryTextWhileItsSlotsMove() {
    TextPool pool;
    std::vector<std::uint32_t> ids;
    auto text = [](std::size_t i) { return "id-" + std::to_string(i); };
    for (std::size_t i = 0; i < 4200; ++i) {
        ids.push_back(pool.intern(text(i)));
        QCOMPARE(ids.back(), static_cast<std::uint32_t>(i + 1));
        for (std::size_t j = 0; j <= i; ++j) {
            if (pool.find(text(j)) != ids[j] || pool.intern(text(j)) != ids[j])
                QFAIL(qPrintable(QStringLiteral("text %1 lost after %2 interns").arg(j).arg(i + 1)));
        }
        QCOMPARE(pool.find(text(i + 1)), TextPool::kEmpty);
        QCOMPARE(pool.size(), i + 1);
    }
}

void TstEventStore::theEventLimitRefusesTheEventWhole() {
    EventStore store(3);
    std::vector<Event> in;
    for (int i = 0; i < 3; ++i) {
        in.push_back(fullEvent(i));
        store.push_back(in.back());
    }
    const std::size_t texts = store.textCount();
    Event fourth = fullEvent(100);
    fourth.messageId = "new";
    QVERIFY_THROWS_EXCEPTION(std::length_error, store.push_back(fourth));
    QCOMPARE(store.textCount(), texts);
    checkAll(store, in);
    // The default limit leaves a row's 32-bit indices room (2^32 - 2 events).
    QCOMPARE(EventStore::kMaxEvents, std::size_t{std::numeric_limits<std::uint32_t>::max()} - 1);
}

void TstEventStore::theTextLimitRefusesTheEventWhole() {
    EventStore store(EventStore::kMaxEvents, 4);
    std::vector<Event> in;
    Event e = fullEvent(0);
    e.messageId = "m1";
    e.transaction = "t1";
    e.detail = "m1";  // the same text twice counts once
    in.push_back(e);
    store.push_back(e);
    QCOMPARE(store.textCount(), std::size_t{2});
    e.messageId = "m2";
    e.transaction = "t2";
    e.detail = "d2";  // three new texts, room for two
    QVERIFY_THROWS_EXCEPTION(std::length_error, store.push_back(e));
    QCOMPARE(store.textCount(), std::size_t{2});
    QCOMPARE(store.size(), std::size_t{1});
    e.detail = "t1";  // two new texts: they fit
    in.push_back(e);
    store.push_back(e);
    e.messageId = "m1";  // only known texts: always fine at the limit
    e.transaction = "";
    e.detail = "m2";
    in.push_back(e);
    store.push_back(e);
    QCOMPARE(store.textCount(), std::size_t{4});
    checkAll(store, in);
    TextPool pool(1);
    QCOMPARE(pool.intern("a"), std::uint32_t{1});
    QCOMPARE(pool.room(), std::size_t{0});
    QVERIFY_THROWS_EXCEPTION(std::length_error, pool.intern("b"));
    QCOMPARE(pool.intern("a"), std::uint32_t{1});  // known texts still answer
    QCOMPARE(pool.size(), std::size_t{1});
}

void TstEventStore::aRunReadsBackWhatItWasFed() {
    Run run;
    std::vector<Event> in;
    for (int i = 0; i < 5000; ++i) {
        in.push_back(fullEvent(i));
        run.append(in.back());
    }
    QCOMPARE(run.eventCount(), std::uint64_t{5000});
    for (std::size_t i = 0; i < in.size(); ++i) {
        QVERIFY2(sameEvent(run.event(i), in[i]), qPrintable(QString::number(i)));
        QCOMPARE(run.eventTimeNs(i), in[i].timeNs);
        QVERIFY(run.eventKind(i) == in[i].kind);
    }
}

void TstEventStore::aRunPastItsEventLimitAppliesNothing() {
    Run run({}, 2, TextPool::kMaxTexts);
    Event sent = fullEvent(0);
    sent.kind = EventKind::TaskSent;
    sent.source = EventSource::Producer;
    run.append(sent);
    run.append(sent);
    const LedgerSummary before = run.summaryNow();
    QVERIFY_THROWS_EXCEPTION(std::length_error, run.append(sent));
    QCOMPARE(run.eventCount(), std::uint64_t{2});
    QCOMPARE(run.summaryNow().eventsApplied, before.eventsApplied);
    QCOMPARE(run.summaryNow().sent, before.sent);
}

QTEST_APPLESS_MAIN(TstEventStore)
#include "tst_event_store.moc"
