#include "explain_panel.h"

#include <QListWidget>
#include <QPainter>
#include <QPixmap>
#include <QVBoxLayout>

#include "event_time.h"
#include "theme.h"

namespace qs::ui {

namespace {
constexpr int kKeyRole = Qt::UserRole + 1;

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

QIcon dot(const QColor& c) {
    QPixmap pm(12, 12);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(c);
    p.drawEllipse(1, 1, 10, 10);
    return QIcon(pm);
}
}  // namespace

ExplainPanel::ExplainPanel(QWidget* parent) : QWidget(parent), list_(new QListWidget(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(list_);
    list_->setWordWrap(true);
    list_->setUniformItemSizes(false);
    list_->setAlternatingRowColors(true);
    list_->setSelectionMode(QAbstractItemView::SingleSelection);
    list_->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
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

void ExplainPanel::apply(const std::vector<Event>& batch) {
    const auto lines = explainer_.explain(batch);
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
    auto* item = new QListWidgetItem(dot(kindColor(e.kind)),
                                     formatClock(e.timeNs) + QStringLiteral("  ") + e.text);
    item->setData(kKeyRole, e.key);
    item->setToolTip(e.text);
    list_->insertItem(0, item);
}

void ExplainPanel::clear() {
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
