// Name: the interned worker / client / channel name events carry. Checks that
// equal text gives one entry whichever thread interns it, that text read on
// another thread is intact, that comparing with a string interns nothing, and
// what a full NameTable does.
#include <QTest>
#include <atomic>
#include <sstream>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "common/name.h"
#include "common/name_table.h"

using qs::Name;

class TestName : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void emptyIsTheDefault() {
        const Name none;
        QVERIFY(none.empty());
        QCOMPARE(none.size(), std::size_t(0));
        QVERIFY(none == std::string_view());
        QVERIFY(Name(std::string_view()) == none);
        QVERIFY(Name("") == none);
    }

    void equalTextIsOneName() {
        const Name a("worker-1");
        const Name b(std::string("worker-") + "1");
        const Name c("worker-2");
        QVERIFY(a == b);
        QVERIFY(!(a == c));
        QCOMPARE(a.view(), std::string_view("worker-1"));
        QCOMPARE(a.str(), std::string("worker-1"));
        QVERIFY(a == "worker-1");
        QVERIFY(std::string("worker-1") == a);
        QVERIFY(a < c);
        QVERIFY(c > "worker-10");
        QCOMPARE(std::hash<Name>{}(a), std::hash<Name>{}(b));
        std::ostringstream out;
        out << a;
        QCOMPARE(out.str(), std::string("worker-1"));
    }

    void assignmentReplacesTheName() {
        Name n;
        n = std::string("queues.tasks");
        QCOMPARE(n.view(), std::string_view("queues.tasks"));
        n.assign("other");
        QCOMPARE(n.view(), std::string_view("other"));
        n = n.view();  // from its own text
        QCOMPARE(n.view(), std::string_view("other"));
        n.clear();
        QVERIFY(n.empty());
    }

    void comparingInternsNothing() {
        const Name a("compared-name");
        const std::size_t before = Name::count();
        for (int i = 0; i < 100; ++i)
            QVERIFY(!(a == "never-interned-" + std::to_string(i)));
        QCOMPARE(Name::count(), before);
    }

    void keepsAnyTextExactly() {
        const std::string binary("a\0b\xff", 4);
        const std::string longText(5000, 'L');
        QCOMPARE(Name(binary).view(), std::string_view(binary));
        QCOMPARE(Name(longText).view(), std::string_view(longText));
        // More distinct names than the per-thread cache holds, then repeats.
        std::vector<Name> names;
        for (int i = 0; i < 3000; ++i)
            names.emplace_back("cache-" + std::to_string(i));
        for (int i = 0; i < 3000; ++i) {
            QVERIFY(names[static_cast<std::size_t>(i)] == Name("cache-" + std::to_string(i)));
            QCOMPARE(names[static_cast<std::size_t>(i)].view(),
                     std::string_view("cache-" + std::to_string(i)));
        }
    }

    // A full table names every new text with the overflow marker instead of
    // failing: the event keeps its other fields, and the names held stay.
    void aFullTableNamesTheOverflow() {
        qs::NameTable table(3);
        const std::uint32_t a = table.intern("a");
        const std::uint32_t b = table.intern("b");
        const std::uint32_t c = table.intern("c");
        QCOMPARE(table.count(), std::size_t(3));
        QVERIFY(a != b && b != c && a != c);
        QVERIFY(a != qs::NameTable::kOverflowId);
        QCOMPARE(table.intern("d"), qs::NameTable::kOverflowId);
        QCOMPARE(table.intern("e"), qs::NameTable::kOverflowId);
        QCOMPARE(table.textOf(qs::NameTable::kOverflowId), qs::NameTable::kOverflowText);
        QCOMPARE(table.count(), std::size_t(3));
        QCOMPARE(table.intern("b"), b);  // names held are still found
        QCOMPARE(table.textOf(c), std::string_view("c"));
        QCOMPARE(table.intern(qs::NameTable::kOverflowText), qs::NameTable::kOverflowId);
        // More than one segment's worth of names.
        qs::NameTable large(2000);
        for (int i = 0; i < 2000; ++i)
            QVERIFY(large.intern("n" + std::to_string(i)) != qs::NameTable::kOverflowId);
        QCOMPARE(large.intern("one too many"), qs::NameTable::kOverflowId);
        QCOMPARE(large.textOf(large.intern("n1999")), std::string_view("n1999"));
    }

    // Threads intern overlapping sets of names at once (crossing segment
    // boundaries) and read each other's: one id per text, every text intact.
    void threadsAgreeOnIds() {
        constexpr int kThreads = 4;
        constexpr int kNames = 2500;
        std::vector<std::vector<Name>> made(kThreads);
        std::atomic<int> ready{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                ++ready;
                while (ready.load() < kThreads) {
                }
                for (int i = 0; i < kNames; ++i) {
                    const int n = (i * 7 + t * 13) % kNames;  // each thread its own order
                    made[static_cast<std::size_t>(t)].emplace_back("shared-" + std::to_string(n));
                }
            });
        }
        for (auto& thread : threads)
            thread.join();
        std::unordered_set<Name> distinct;
        for (int t = 0; t < kThreads; ++t) {
            for (int i = 0; i < kNames; ++i) {
                const Name& name = made[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)];
                const int n = (i * 7 + t * 13) % kNames;
                QCOMPARE(name.view(), std::string_view("shared-" + std::to_string(n)));
                QVERIFY(name == made[0][static_cast<std::size_t>((n * 7143) % kNames)]);
                distinct.insert(name);
            }
        }
        QCOMPARE(distinct.size(), std::size_t(kNames));
    }
};

QTEST_GUILESS_MAIN(TestName)
#include "tst_name.moc"
