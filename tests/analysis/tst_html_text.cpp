// htmlEscape: markup and quotes become entities; valid UTF-8 stays; bytes
// that are not UTF-8 and control characters become U+FFFD.
#include <QtTest/QtTest>

#include "analysis/html_text.h"

using qs::analysis::htmlEscape;

class HtmlText : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void markupAndQuotes() {
        QCOMPARE(htmlEscape("<a href=\"x\">'&'</a>"),
                 std::string("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"));
        QCOMPARE(htmlEscape("plain text, tab\tand\nnewline"),
                 std::string("plain text, tab\tand\nnewline"));
        QCOMPARE(htmlEscape(""), std::string());
    }

    void validUtf8IsKept() {
        const std::string text = "T\xC3\xA4sk \xE2\x9C\x93 \xF0\x9F\x93\xA6";  // ä ✓ 📦
        QCOMPARE(htmlEscape(text), text);
    }

    void invalidBytesAndControlsAreReplaced() {
        const std::string fffd = "\xEF\xBF\xBD";
        QCOMPARE(htmlEscape("a\xff"
                            "b"),
                 "a" + fffd + "b");
        QCOMPARE(htmlEscape("cut \xE2\x9C"), "cut " + fffd + fffd);  // a body cut mid-character
        QCOMPARE(htmlEscape("\xC0\xAF"), fffd + fffd);               // overlong '/'
        QCOMPARE(htmlEscape("\xED\xA0\x80"), fffd + fffd + fffd);    // a surrogate
        QCOMPARE(htmlEscape(std::string("nul\0bell\x07", 9)), "nul" + fffd + "bell" + fffd);
    }
};

QTEST_APPLESS_MAIN(HtmlText)
#include "tst_html_text.moc"
