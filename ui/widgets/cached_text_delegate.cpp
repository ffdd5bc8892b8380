#include "widgets/cached_text_delegate.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>

namespace qs::ui {

CachedTextDelegate::CachedTextDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

void CachedTextDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget* widget = opt.widget;
    if (!paintsItself(opt, widget)) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyle* style = widget ? widget->style() : QApplication::style();
    painter->save();
    painter->setClipRect(opt.rect);
    // The background, selection and alternate rows, as the style draws them.
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &opt, painter, widget);
    if (!opt.text.isEmpty()) {
        paintText(painter, opt, widget);
    }
    if (opt.state & QStyle::State_HasFocus) {
        QStyleOptionFocusRect focus;
        focus.QStyleOption::operator=(opt);
        focus.rect = style->subElementRect(QStyle::SE_ItemViewItemFocusRect, &opt, widget);
        focus.state |= QStyle::State_KeyboardFocusChange | QStyle::State_Item;
        focus.backgroundColor = opt.palette.color(
            (opt.state & QStyle::State_Enabled) ? QPalette::Normal : QPalette::Disabled,
            (opt.state & QStyle::State_Selected) ? QPalette::Highlight : QPalette::Window);
        style->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, painter, widget);
    }
    painter->restore();
}

// Plain one-line text in the view's own font; anything else goes the usual way.
bool CachedTextDelegate::paintsItself(const QStyleOptionViewItem& option, const QWidget* widget) {
    constexpr auto kOthers = QStyleOptionViewItem::HasDecoration |
                             QStyleOptionViewItem::HasCheckIndicator |
                             QStyleOptionViewItem::WrapText;
    return !(option.features & kOthers) && !(option.state & QStyle::State_Editing) &&
           (widget == nullptr || option.font == widget->font());
}

void CachedTextDelegate::paintText(QPainter* painter, const QStyleOptionViewItem& option,
                                   const QWidget* widget) const {
    QStyle* style = widget ? widget->style() : QApplication::style();
    // The margins QCommonStyle leaves around an item's text.
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const QRect room = option.rect.adjusted(margin, 0, -margin, 0);
    if (room.width() <= 0) {
        return;
    }
    QPalette::ColorGroup group =
        (option.state & QStyle::State_Enabled) ? QPalette::Normal : QPalette::Disabled;
    if (group == QPalette::Normal && !(option.state & QStyle::State_Active)) {
        group = QPalette::Inactive;
    }
    painter->setPen(option.palette.color(group, (option.state & QStyle::State_Selected)
                                                    ? QPalette::HighlightedText
                                                    : QPalette::Text));
    painter->setFont(option.font);
    const QStaticText& line = lineFor(option, room.width());
    // Placed as QTextLayout places a line: across by its exact width (a
    // right-aligned number may start between pixels), down as a whole line.
    const QRect lineBox =
        QStyle::alignedRect(option.direction, option.displayAlignment,
                            QSize(room.width(), option.fontMetrics.height()), room);
    const Qt::Alignment across =
        QStyle::visualAlignment(option.direction, option.displayAlignment) & Qt::AlignHorizontal_Mask;
    const qreal spare = room.width() - line.size().width();
    const qreal x = room.left() + (across & Qt::AlignRight     ? spare
                                   : across & Qt::AlignHCenter ? spare / 2
                                                               : 0.0);
    painter->drawStaticText(QPointF(x, lineBox.top()), line);
}

const QStaticText& CachedTextDelegate::lineFor(const QStyleOptionViewItem& option,
                                               int width) const {
    if (option.font != font_) {
        lines_.clear();
        font_ = option.font;
    }
    if (lines_.size() >= kMaxTexts && !lines_.contains(option.text)) {
        lines_.clear();
    }
    Line& line = lines_[option.text];
    const bool fits = line.natural >= 0 && line.natural <= width;
    if ((fits && line.elidedTo < 0) || (!fits && line.elidedTo == width)) {
        return line.text;  // laid out for this room already
    }
    const QFontMetrics& metrics = option.fontMetrics;  // the item's font (initStyleOption)
    line.natural = metrics.horizontalAdvance(option.text);
    const bool elide = line.natural > width;
    line.elidedTo = elide ? width : -1;
    line.text.setTextFormat(Qt::PlainText);
    line.text.setText(elide ? metrics.elidedText(option.text, option.textElideMode, width)
                            : option.text);
    line.text.prepare(QTransform(), option.font);
    ++laidOut_;
    return line.text;
}

}  // namespace qs::ui
