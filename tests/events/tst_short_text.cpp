// ShortText: the identifier string of events (inline up to 36 bytes, heap
// beyond). Checks the boundary, aliasing assignments and moves, since a bug
// there would corrupt MessageIDs silently.
#include <QTest>
#include <string>
#include <unordered_set>
#include <utility>

#include "common/short_text.h"

using qs::ShortText;

class TestShortText : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void holdsTextOfEveryLength() {
        constexpr std::size_t limit = ShortText::kInlineCapacity;
        for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(22), std::size_t(36),
                              limit - 1, limit, limit + 1, std::size_t(64), std::size_t(1000)}) {
            const std::string text(n, 'a');
            std::string varied = text;
            for (std::size_t i = 0; i < varied.size(); ++i)
                varied[i] = static_cast<char>('a' + i % 26);
            const ShortText t(varied);
            QCOMPARE(t.size(), n);
            QCOMPARE(t.empty(), n == 0);
            QCOMPARE(t.view(), std::string_view(varied));
            QCOMPARE(t.str(), varied);
        }
    }

    void copiesAndMovesKeepTheText() {
        for (const std::string& text :
             {std::string("0123456789abcdefghijkl"), std::string(100, 'x')}) {
            ShortText a(text);
            ShortText b(a);
            QCOMPARE(b, text);
            ShortText c(std::move(a));
            QCOMPARE(c, text);
            QVERIFY(a.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
            ShortText d;
            d = c;
            QCOMPARE(d, text);
            ShortText e("short");
            e = std::move(d);
            QCOMPARE(e, text);
            e = e;  // self-assignment keeps the text
            QCOMPARE(e, text);
            ShortText f(std::string(90, 'f'));  // heap text replaced by a move: freed once
            f = std::move(e);
            QCOMPARE(f, text);
            e = "reused";  // a moved-from text can be assigned again
            QCOMPARE(e, std::string("reused"));
        }
    }

    void assignsFromItsOwnText() {
        ShortText inlineText("abcdefgh");
        inlineText = inlineText.view().substr(2);
        QCOMPARE(inlineText, std::string("cdefgh"));
        ShortText heapText(std::string(60, 'q') + "tail");
        heapText = heapText.view().substr(56);
        QCOMPARE(heapText, std::string("qqqqtail"));
        ShortText longer(std::string(80, 'r') + "end");
        longer = longer.view().substr(10);  // heap to heap, from its own text
        QCOMPARE(longer, std::string(70, 'r') + "end");
        ShortText grow(std::string(ShortText::kInlineCapacity, 'z'));
        grow = std::string(grow.view()) + "!";  // crosses from inline to heap
        QCOMPARE(grow.size(), ShortText::kInlineCapacity + 1);
        grow = std::string(grow.view()) + "!";  // heap to a larger heap text
        QCOMPARE(grow.size(), ShortText::kInlineCapacity + 2);
        grow = "x";  // and back
        QCOMPARE(grow, std::string("x"));
        grow.clear();
        QVERIFY(grow.empty());
        // A default view has a null data(): nothing may be copied from it
        // (UBSan checks the memmove's arguments).
        const ShortText fromNull{std::string_view{}};
        QVERIFY(fromNull.empty());
        ShortText heapToNull(std::string(60, 'h'));
        heapToNull = std::string_view{};
        QVERIFY(heapToNull.empty());
    }

    void comparesAndHashesLikeItsText() {
        const ShortText a("m-1");
        const ShortText b(std::string("m-1"));
        QVERIFY(a == b);
        QVERIFY(a == "m-1");
        QVERIFY(a != "m-2");
        QVERIFY(a < ShortText("m-2"));
        QVERIFY(std::string("m-1") == a);
        std::unordered_set<ShortText> set{a, ShortText(std::string(50, 'k'))};
        QVERIFY(set.count(b) == 1);
        QVERIFY(set.count(ShortText(std::string(50, 'k'))) == 1);
        QVERIFY(set.count(ShortText("m-3")) == 0);
        QCOMPARE(std::hash<ShortText>{}(a), std::hash<std::string_view>{}("m-1"));
    }
};

QTEST_APPLESS_MAIN(TestShortText)
#include "tst_short_text.moc"
