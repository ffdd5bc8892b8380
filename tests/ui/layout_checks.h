#pragma once

#include <QAbstractButton>
#include <QLabel>
#include <QString>
#include <QTextDocument>
#include <QWidget>

// Layout checks shared by the GUI suites: is a widget on screen without
// scrolling, and does a label's or button's text fit its geometry.
namespace qs::test {

// Empty when `w` is visible and wholly inside every widget that holds it up
// to `window` (a scroll area's viewport clips what needs scrolling); else why not.
inline QString notInView(const QWidget* w, const QWidget* window) {
    if (!w) {
        return QStringLiteral("missing");
    }
    if (!w->isVisible()) {
        return QStringLiteral("hidden");
    }
    const QRect mine(w->mapTo(window, QPoint(0, 0)), w->size());
    for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
        const QRect box(p->mapTo(window, QPoint(0, 0)), p->size());
        if (!box.contains(mine)) {
            return QStringLiteral("cut off by %1 \"%2\" (%3,%4 %5x%6 outside %7,%8 %9x%10)")
                .arg(QString::fromLatin1(p->metaObject()->className()), p->objectName())
                .arg(mine.x())
                .arg(mine.y())
                .arg(mine.width())
                .arg(mine.height())
                .arg(box.x())
                .arg(box.y())
                .arg(box.width())
                .arg(box.height());
        }
        if (p == window) {
            break;
        }
    }
    return {};
}

// A label's text as drawn: markup and mnemonics removed, one entry per line.
inline QStringList shownLines(const QLabel* label) {
    QString text = label->text();
    if (label->textFormat() == Qt::RichText ||
        (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(text))) {
        QTextDocument doc;
        doc.setHtml(text);
        text = doc.toPlainText();
    }
    if (label->buddy()) {
        text.remove(QLatin1Char('&'));
    }
    return text.split(QLatin1Char('\n'));
}

}  // namespace qs::test
