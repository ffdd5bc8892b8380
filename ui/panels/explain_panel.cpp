#include "panels/explain_panel.h"

#include <QEvent>
#include <QHash>
#include <QListWidget>
#include <QPainter>
#include <QPixmap>
#include <QScrollBar>
#include <QVBoxLayout>
#include <algorithm>

#include "controllers/console_run.h"
#include "models/event_time.h"
#include "widgets/theme.h"

namespace qs::ui {

namespace {
constexpr int kKeyRole = Qt::UserRole + 1;
constexpr int kTimeRole = Qt::UserRole + 2;  // qint64 Explanation::timeNs

QColor kindColor(Explanation::Kind k) {
    const Theme& t = Theme::current();
    switch (k) {
        case Explanation::Kind::Redelivery:
            return t.outcome(Outcome::Returned);
        case Explanation::Kind::Rejection:
            return t.outcome(Outcome::Rejected);
        case Explanation::Kind::Crash:
            return t.outcome(Outcome::Returned).darker(120);
        case Explanation::Kind::DeadLetter:
            return t.outcome(Outcome::DeadLettered);
        case Explanation::Kind::Config:
            return t.marker;
        case Explanation::Kind::Wait:
            return t.mutedText;
        case Explanation::Kind::Summary:
            return t.mutedText;
        case Explanation::Kind::Info:
            return t.outcome(Outcome::InFlight);
    }
    return t.text;
}

// One icon per colour (cached by the panel): an item per explanation must not
// cost a QPainter.
QIcon dot(const QColor& c, QHash<QRgb, QIcon>& cache) {
    if (const auto it = cache.constFind(c.rgba()); it != cache.constEnd()) {
        return it.value();
    }
    QPixmap pm(12, 12);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(c);
    p.drawEllipse(1, 1, 10, 10);
    p.end();
    const QIcon icon(pm);
    cache.insert(c.rgba(), icon);
    return icon;
}
}  // namespace

// Word-wrapped lines of different heights: without a stored size hint the view
// re-measures (lays out the text of) every line whenever one is added, which
// costs milliseconds per frame with a few hundred lines. Each line is measured
// once, when added, and again only when the width changes.
class ExplainList : public QListWidget {
public:
    explicit ExplainList(QWidget* parent) : QListWidget(parent) {}

    void measure(QListWidgetItem* item) {
        item->setData(Qt::SizeHintRole, QVariant());
        QStyleOptionViewItem option;
        initViewItemOption(&option);
        option.rect = QRect(0, 0, textWidth(), 1 << 20);  // wrap at the viewport width
        const QModelIndex index = indexFromItem(item);
        QSize size = itemDelegate()->sizeHint(option, index);
        size.setWidth(textWidth());
        item->setData(Qt::SizeHintRole, size);
    }

protected:
    // The viewport also narrows when the scroll bar appears, without a resize of the list.
    bool viewportEvent(QEvent* event) override {
        if (event->type() == QEvent::Resize && textWidth() != measuredWidth_) {
            measuredWidth_ = textWidth();
            for (int i = 0; i < count(); ++i) {
                measure(item(i));
            }
        }
        return QListWidget::viewportEvent(event);
    }

private:
    int textWidth() const { return std::max(40, viewport()->width()); }
    int measuredWidth_ = -1;
};

ExplainPanel::ExplainPanel(const ConsoleRun* run, QWidget* parent)
    : QWidget(parent), explainer_(run), list_(new ExplainList(this)) {
    connect(run, &ConsoleRun::appended, this, &ExplainPanel::explainNew);
    connect(run, &ConsoleRun::wasReset, this, &ExplainPanel::clear);
    quiet_.setSingleShot(true);
    quiet_.setInterval(1200);  // longer than the explainer's second
    connect(&quiet_, &QTimer::timeout, this, &ExplainPanel::sayWhatWasLeftOut);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(list_);
    list_->setWordWrap(true);
    list_->setUniformItemSizes(false);
    list_->setAlternatingRowColors(true);
    list_->setSelectionMode(QAbstractItemView::SingleSelection);
    list_->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    list_->setAccessibleName(QStringLiteral("What just happened"));
    list_->setToolTip(QStringLiteral(
        "Plain-language explanations of notable events: redeliveries and why they happened,\n"
        "rejections, crashes, dead-lettering, configuration changes. Newest on top.\n"
        "Click a line about a task to select that task in every view."));
    connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const QString key = item->data(kKeyRole).toString();
        if (!key.isEmpty()) {
            Q_EMIT messageClicked(key);
        }
    });
}

void ExplainPanel::explainNew() {
    quiet_.start();
    appendAll(explainer_.explainNew());
}

void ExplainPanel::sayWhatWasLeftOut() {
    appendAll(explainer_.sayWhatWasLeftOut());
}

void ExplainPanel::appendAll(const std::vector<Explanation>& lines) {
    if (lines.empty()) {
        return;
    }
    list_->setUpdatesEnabled(false);
    for (const Explanation& e : lines) {
        append(e);
    }
    while (list_->count() > maxLines_) {
        delete list_->takeItem(list_->count() - 1);
    }
    list_->setUpdatesEnabled(true);
}

void ExplainPanel::append(const Explanation& e) {
    auto* item = new QListWidgetItem(dot(kindColor(e.kind), icons_),
                                     formatClock(e.timeNs) + QStringLiteral("  ") + e.text);
    item->setData(kKeyRole, e.key);
    item->setData(kTimeRole, QVariant::fromValue<qint64>(e.timeNs));
    item->setToolTip(e.text);
    if (cursorNs_ && e.timeNs > *cursorNs_) {
        item->setData(Qt::ForegroundRole, Theme::current().mutedText);  // after the cursor
    }
    list_->insertItem(0, item);
    list_->measure(item);
}

void ExplainPanel::showTime(std::optional<std::int64_t> timeNs) {
    cursorNs_ = timeNs;
    const QColor later = Theme::current().mutedText;
    QListWidgetItem* atCursor = nullptr;
    for (int i = 0; i < list_->count(); ++i) {  // newest first
        QListWidgetItem* item = list_->item(i);
        const bool after = timeNs && item->data(kTimeRole).toLongLong() > *timeNs;
        item->setData(Qt::ForegroundRole, after ? QVariant(later) : QVariant());
        if (timeNs && !after && atCursor == nullptr) {
            atCursor = item;
        }
    }
    if (atCursor != nullptr) {
        list_->setCurrentItem(atCursor);
        list_->scrollToItem(atCursor, QAbstractItemView::PositionAtCenter);
    } else {
        list_->clearSelection();
    }
}

int ExplainPanel::currentLine() const {
    const QListWidgetItem* item = list_->currentItem();
    return item != nullptr && item->isSelected() ? list_->row(item) : -1;
}

void ExplainPanel::clear() {
    quiet_.stop();
    list_->clear();
    explainer_.clear();
}

int ExplainPanel::lineCount() const {
    return list_->count();
}

QString ExplainPanel::line(int i) const {
    const QListWidgetItem* item = list_->item(i);
    return item ? item->text() : QString();
}

QStringList ExplainPanel::lines() const {
    QStringList out;
    for (int i = 0; i < list_->count(); ++i) {
        out << list_->item(i)->text();
    }
    return out;
}

}  // namespace qs::ui
