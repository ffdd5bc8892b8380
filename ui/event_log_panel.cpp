#include "event_log_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "event_export.h"

namespace qs::ui {

void EventLogFilter::setScope(Scope scope) {
    scope_ = scope;
    invalidateFilter();
}

bool EventLogFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    const auto source = static_cast<EventSource>(idx.data(EventLogModel::SourceRole).toInt());
    switch (scope_) {
        case Scope::All:
            break;
        case Scope::Producer:
            if (source != EventSource::Producer)
                return false;
            break;
        case Scope::Workers:
            if (source != EventSource::Worker)
                return false;
            break;
        case Scope::Pool:
            if (source != EventSource::Pool)
                return false;
            break;
        case Scope::Broker:
            if (source != EventSource::Broker)
                return false;
            break;
        case Scope::Problems:
            if (!idx.data(EventLogModel::ProblemRole).toBool())
                return false;
            break;
    }
    if (filterRegularExpression().pattern().isEmpty()) {
        return true;
    }
    for (int c :
         {EventLogModel::KindColumn, EventLogModel::ActorColumn, EventLogModel::MessageIdColumn,
          EventLogModel::DetailColumn, EventLogModel::ChannelColumn}) {
        if (sourceModel()
                ->index(sourceRow, c, sourceParent)
                .data()
                .toString()
                .contains(filterRegularExpression())) {
            return true;
        }
    }
    return false;
}

EventLogPanel::EventLogPanel(EventLogModel* model, QWidget* parent)
    : QWidget(parent),
      model_(model),
      filter_(new EventLogFilter(this)),
      view_(new QTableView(this)),
      scope_(new QComboBox(this)),
      search_(new QLineEdit(this)),
      follow_(new QCheckBox(QStringLiteral("Follow"), this)),
      count_(new QLabel(this)) {
    filter_->setSourceModel(model_);
    filter_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    view_->setModel(filter_);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    view_->setColumnWidth(EventLogModel::TimeColumn,
                          fontMetrics().horizontalAdvance(QStringLiteral("00:00:00.000")) + 16);
    view_->setColumnWidth(
        EventLogModel::KindColumn,
        fontMetrics().horizontalAdvance(QStringLiteral("broker-dead-lettered")) + 12);
    view_->setColumnWidth(EventLogModel::MessageIdColumn, 180);

    scope_->addItem(QStringLiteral("All events"));
    scope_->addItem(QStringLiteral("Producer"));
    scope_->addItem(QStringLiteral("Workers"));
    scope_->addItem(QStringLiteral("Pool"));
    scope_->addItem(QStringLiteral("Broker"));
    scope_->addItem(QStringLiteral("Problems only"));
    scope_->setToolTip(QStringLiteral(
        "Which events to show. Broker events come from the embedded broker's own view\n"
        "(stored, delivered, acked, returned...); a remote server does not report them.\n"
        "Problems: rejections, redeliveries, crashes, expiries, dead-lettering, errors."));
    search_->setPlaceholderText(QStringLiteral("Search worker, message id, detail…"));
    search_->setClearButtonEnabled(true);
    search_->setToolTip(QStringLiteral(
        "Show only events whose kind, actor, channel, message id or detail contains this text."));
    follow_->setChecked(true);
    follow_->setToolTip(QStringLiteral("Keep the newest event in view."));
    auto* exportButton = new QPushButton(QStringLiteral("Export…"), this);
    exportButton->setToolTip(
        QStringLiteral("Save the events the filter shows as CSV or JSON Lines (.jsonl).\n"
                       "Only the newest events are retained in memory (see Settings)."));
    count_->setToolTip(QStringLiteral("Events shown / retained / seen since the run started."));

    auto* bar = new QHBoxLayout;
    bar->addWidget(scope_);
    bar->addWidget(search_, 1);
    bar->addWidget(follow_);
    bar->addWidget(count_);
    bar->addWidget(exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(view_, 1);

    connect(scope_, &QComboBox::currentIndexChanged, this,
            [this](int i) { filter_->setScope(static_cast<EventLogFilter::Scope>(i)); });
    connect(search_, &QLineEdit::textChanged, this,
            [this](const QString& text) { filter_->setFilterFixedString(text); });
    connect(exportButton, &QPushButton::clicked, this, &EventLogPanel::exportInteractive);
}

void EventLogPanel::refresh() {
    count_->setText(QStringLiteral("%1 / %2 / %3")
                        .arg(filter_->rowCount())
                        .arg(model_->rowCount())
                        .arg(model_->totalSeen()));
    if (follow_->isChecked() && isVisible()) {
        view_->scrollToBottom();
    }
}

bool EventLogPanel::exportTo(const QString& path, QString* error) {
    std::vector<const Event*> events;
    events.reserve(static_cast<std::size_t>(filter_->rowCount()));
    for (int r = 0; r < filter_->rowCount(); ++r) {
        events.push_back(&model_->event(filter_->mapToSource(filter_->index(r, 0)).row()));
    }
    const ExportFormat format = path.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive)
                                    ? ExportFormat::Csv
                                    : ExportFormat::JsonLines;
    return exportEventsToFile(events, format, path, error);
}

void EventLogPanel::exportInteractive() {
    const QString path = QFileDialog::getSaveFileName(
        this, QStringLiteral("Export events"), QStringLiteral("queuescope-events.csv"),
        QStringLiteral("CSV (*.csv);;JSON Lines (*.jsonl)"));
    if (path.isEmpty()) {
        return;
    }
    QString error;
    if (!exportTo(path, &error)) {
        QMessageBox::warning(this, QStringLiteral("Export failed"), error);
    }
}

}  // namespace qs::ui
