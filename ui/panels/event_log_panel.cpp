#include "panels/event_log_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "controllers/console_run.h"
#include "controllers/save_location.h"
#include "models/event_export.h"
#include "run/run.h"
#include "widgets/steady_label.h"

namespace qs::ui {

void EventLogFilter::setScope(Scope scope) {
    scope_ = scope;
    invalidateFilter();
}

bool EventLogFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    Q_UNUSED(sourceParent);
    return accepts(static_cast<const EventLogModel*>(sourceModel())->event(sourceRow));
}

bool EventLogFilter::accepts(const Event& e) const {
    switch (scope_) {
        case Scope::All:
            break;
        case Scope::Producer:
            if (e.source != EventSource::Producer)
                return false;
            break;
        case Scope::Workers:
            if (e.source != EventSource::Worker)
                return false;
            break;
        case Scope::Pool:
            if (e.source != EventSource::Pool)
                return false;
            break;
        case Scope::Broker:
            if (e.source != EventSource::Broker)
                return false;
            break;
        case Scope::Problems:
            if (!EventLogModel::isProblem(e.kind))
                return false;
            break;
    }
    if (filterRegularExpression().pattern().isEmpty()) {
        return true;
    }
    for (int c :
         {EventLogModel::KindColumn, EventLogModel::ActorColumn, EventLogModel::MessageIdColumn,
          EventLogModel::DetailColumn, EventLogModel::ChannelColumn}) {
        if (EventLogModel::cellText(e, c).contains(filterRegularExpression())) {
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
      count_(new SteadyLabel(this)) {
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

    view_->setAccessibleName(QStringLiteral("Event log"));
    scope_->setAccessibleName(QStringLiteral("Events to show"));
    search_->setAccessibleName(QStringLiteral("Search events"));
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
        QStringLiteral("Save every event of the run the filter lets through as CSV or JSON\n"
                       "Lines (.jsonl): all of them, not only the newest ones listed here."));
    count_->setToolTip(
        QStringLiteral("The table lists the newest events of the run (see Settings); the run "
                       "keeps all of them, and Export writes all that match."));

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
    if (model_->isPaused()) {  // its dock behind another tab
        return;
    }
    const std::uint64_t total = model_->totalSeen();
    const auto listed = static_cast<std::uint64_t>(model_->rowCount());
    count_->showText(
        listed < total
            ? QStringLiteral("%L1 shown · newest %L2 of %L3 events")
                  .arg(filter_->rowCount())
                  .arg(listed)
                  .arg(total)
            : QStringLiteral("%L1 shown of %L2 events").arg(filter_->rowCount()).arg(total));
    if (follow_->isChecked()) {
        view_->scrollToBottom();
    }
}

void EventLogPanel::showEvent(std::uint64_t index) {
    follow_->setChecked(false);
    model_->catchUp();  // the event may be newer than a paused model's rows
    // Back from the event to the nearest row the filter lets through.
    for (int row = model_->rowOfEvent(index); row >= 0; --row) {
        const QModelIndex shown = filter_->mapFromSource(model_->index(row, 0));
        if (shown.isValid()) {
            view_->selectionModel()->setCurrentIndex(
                shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            view_->scrollTo(shown, QAbstractItemView::PositionAtCenter);
            return;
        }
    }
    view_->clearSelection();
}

void EventLogPanel::followNewest() {
    follow_->setChecked(true);
    refresh();
}

std::optional<std::uint64_t> EventLogPanel::selectedEvent() const {
    const QModelIndex current = view_->selectionModel()->currentIndex();
    if (!current.isValid() || !view_->selectionModel()->isSelected(current)) {
        return std::nullopt;
    }
    return model_->eventIndex(filter_->mapToSource(current).row());
}

bool EventLogPanel::exportTo(const QString& path, QString* error, std::uint64_t* exported) {
    const Run& run = model_->consoleRun().run();
    // The run decodes its events by value (Run::event): keep the accepted ones.
    std::vector<Event> accepted;
    for (std::uint64_t i = 0; i < run.eventCount(); ++i) {
        Event e = run.event(i);
        if (filter_->accepts(e)) {
            accepted.push_back(std::move(e));
        }
    }
    std::vector<const Event*> events;
    events.reserve(accepted.size());
    for (const Event& e : accepted) {
        events.push_back(&e);
    }
    if (exported) {
        *exported = events.size();
    }
    const ExportFormat format = path.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive)
                                    ? ExportFormat::Csv
                                    : ExportFormat::JsonLines;
    return exportEventsToFile(events, format, path, error);
}

void EventLogPanel::exportInteractive() {
    const QString path =
        askSavePath(this, QStringLiteral("Export events"), QStringLiteral("queuescope-events.csv"),
                    QStringLiteral("CSV (*.csv);;JSON Lines (*.jsonl)"));
    if (path.isEmpty()) {
        return;
    }
    QString error;
    std::uint64_t exported = 0;
    if (!exportTo(path, &error, &exported)) {
        QMessageBox::warning(this, QStringLiteral("Export failed"), error);
        return;
    }
    Q_EMIT statusMessage(QStringLiteral("Exported %L1 events to %2").arg(exported).arg(path));
}

}  // namespace qs::ui
