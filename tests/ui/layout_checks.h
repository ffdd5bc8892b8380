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

#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QScrollBar>

namespace qs::test {

// The name a screen reader announces for a control, by a rule stricter than
// Qt's fallbacks (which announce a combo box's current item or nothing): an
// accessibleName, a button's own text, or a QLabel whose buddy it is.
inline QString accessibleNameOf(const QWidget* w, const QWidget* window) {
    if (!w->accessibleName().isEmpty()) {
        return w->accessibleName();
    }
    if (const auto* button = qobject_cast<const QAbstractButton*>(w)) {
        QString text = button->text();
        text.remove(QLatin1Char('&'));
        if (!text.trimmed().isEmpty()) {
            return text;
        }
    }
    for (const QLabel* label : window->findChildren<QLabel*>()) {
        if (label->buddy() == w && !label->text().isEmpty()) {
            return label->text();
        }
    }
    return {};
}

// A control the user operates (not a part Qt builds inside another control:
// scroll bars, headers, the editor of a spin box or combo box, Qt's own
// "qt_"-named helpers).
inline bool isUserControl(const QWidget* w) {
    if (!(qobject_cast<const QAbstractButton*>(w) || qobject_cast<const QAbstractSlider*>(w) ||
          qobject_cast<const QAbstractSpinBox*>(w) || qobject_cast<const QLineEdit*>(w) ||
          qobject_cast<const QComboBox*>(w) || qobject_cast<const QAbstractItemView*>(w))) {
        return false;
    }
    if (qobject_cast<const QScrollBar*>(w) || qobject_cast<const QHeaderView*>(w) ||
        w->objectName().startsWith(QLatin1String("qt_"))) {
        return false;
    }
    // Parts of a control: the editor of a spin box, a line edit's clear button,
    // a table's corner button, a combo box's popup list.
    for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
        if (qobject_cast<const QAbstractSpinBox*>(p) || qobject_cast<const QComboBox*>(p) ||
            qobject_cast<const QLineEdit*>(p) || qobject_cast<const QAbstractItemView*>(p)) {
            return false;
        }
    }
    return true;
}

// "QLineEdit "poisonTasks" in ProducerPanel" for every control without a name.
inline QStringList controlsWithoutName(const QWidget* window) {
    QStringList missing;
    for (const QWidget* w : window->findChildren<QWidget*>()) {
        if (!isUserControl(w) || !accessibleNameOf(w, window).isEmpty()) {
            continue;
        }
        QString where;
        for (const QWidget* p = w->parentWidget(); p && p != window; p = p->parentWidget()) {
            if (QString::fromLatin1(p->metaObject()->className())
                    .startsWith(QLatin1String("qs::"))) {
                where = QString::fromLatin1(p->metaObject()->className());
                break;
            }
        }
        missing << QStringLiteral("%1 \"%2\" in %3 (tooltip: %4)")
                       .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(),
                            where.isEmpty() ? QStringLiteral("the window") : where,
                            w->toolTip().left(40));
    }
    return missing;
}

}  // namespace qs::test
