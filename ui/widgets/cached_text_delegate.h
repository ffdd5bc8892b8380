#pragma once

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QStyledItemDelegate>

// Paints one-line plain-text cells like QStyledItemDelegate does, but keeps
// each text laid out (a QStaticText per text and width) between paints.
// QStyledItemDelegate lays a cell's text out two or three times on every
// paint; a live table whose row count changes five times a second is painted
// whole each time (QAbstractItemView::doItemsLayout), with the same texts.
// Cells with an icon, a check box, wrapped text or their own font are left to
// QStyledItemDelegate. UI thread only.
namespace qs::ui {

class CachedTextDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    // Texts kept; the cache starts over when it is full.
    static constexpr qsizetype kMaxTexts = 4096;

    explicit CachedTextDelegate(QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;

    // Texts laid out since construction (each cache miss): for tests.
    quint64 textsLaidOut() const { return laidOut_; }

private:
    struct Line {
        int natural = -1;   // the whole text's width
        int elidedTo = -1;  // the room it was elided for; -1: whole
        QStaticText text;
    };
    static bool paintsItself(const QStyleOptionViewItem& option, const QWidget* widget);
    const QStaticText& lineFor(const QStyleOptionViewItem& option, int width) const;
    void paintText(QPainter* painter, const QStyleOptionViewItem& option,
                   const QWidget* widget) const;

    mutable QHash<QString, Line> lines_;
    mutable QFont font_;  // the font lines_ were laid out in
    mutable quint64 laidOut_ = 0;
};

}  // namespace qs::ui
