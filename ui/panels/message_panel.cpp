#include "panels/message_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSplitter>
#include <QStyle>
#include <QStyleOptionHeader>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>

#include "controllers/console_run.h"
#include "models/event_time.h"
#include "models/message_filter_proxy.h"
#include "models/message_table_model.h"
#include "run/run.h"
#include "widgets/cached_text_delegate.h"
#include "widgets/theme.h"

namespace qs::ui {

namespace {
QColor historyColor(EventKind kind) {
    const Theme& t = Theme::current();
    switch (kind) {
        case EventKind::Acked:
            return t.outcome(Outcome::Acked);
        case EventKind::Rejected:
            return t.outcome(Outcome::Rejected);
        case EventKind::WorkerCrashed:
        case EventKind::Redelivered:
            return t.outcome(Outcome::Returned);
        case EventKind::WorkerStopped:
        case EventKind::BrokerReturned:  // the stream ended; a crash says so in its own line
            return t.outcome(Outcome::ReturnedClosed);
        case EventKind::BrokerDeadLettered:
            return t.outcome(Outcome::DeadLettered);
        case EventKind::MessageAssigned:
            return t.outcome(Outcome::InFlight);
        default:
            return t.text;
    }
}
}  // namespace

const QString MessagePanel::kHistoryHint = QStringLiteral(
    "Select a message in the table (or a bar on the timeline) to see every delivery: which "
    "worker received it, when, and how each one ended — acked, rejected, or returned after a "
    "crash.");

MessagePanel::MessagePanel(MessageTableModel* model, QWidget* parent)
    : QWidget(parent),
      model_(model),
      proxy_(new MessageFilterProxy(this)),
      view_(new QTableView(this)),
      history_(new QTextBrowser(this)),
      state_(new QComboBox(this)),
      worker_(new QComboBox(this)),
      search_(new QLineEdit(this)),
      counts_(new QLabel(this)) {
    proxy_->setSourceModel(model_);
    proxy_->setDynamicSortFilter(false);  // re-sorting 20k rows per frame is not worth it
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(MessageTableModel::TaskColumn, Qt::AscendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    // The whole table is painted again at each commit of new rows (five a
    // second in a live run): the cells' texts stay laid out between paints.
    view_->setItemDelegate(new CachedTextDelegate(view_));
    sizeColumns();
    view_->setToolTip(QStringLiteral(
        "One row per task. Select a row to see its whole history on the right and to highlight\n"
        "it on the timeline. Click a column header to sort."));

    view_->setAccessibleName(QStringLiteral("Messages"));
    state_->setAccessibleName(QStringLiteral("Filter by state"));
    worker_->setAccessibleName(QStringLiteral("Filter by worker"));
    search_->setAccessibleName(QStringLiteral("Search body"));
    state_->addItem(QStringLiteral("All states"), -1);
    for (int s = 0; s < static_cast<int>(TaskState::Count); ++s) {
        state_->addItem(taskStateName(static_cast<TaskState>(s)), s);
    }
    state_->setToolTip(QStringLiteral("Show only tasks in this state."));
    worker_->addItem(QStringLiteral("All workers"), QString());
    worker_->setToolTip(QStringLiteral("Show only tasks held (or last held) by this worker."));
    worker_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    search_->setPlaceholderText(QStringLiteral("Search body…"));
    search_->setClearButtonEnabled(true);
    search_->setToolTip(QStringLiteral("Show only tasks whose body contains this text."));
    counts_->setToolTip(
        QStringLiteral("Tasks per state (all tasks this run, including summarised old ones)."));
    history_->setToolTip(
        QStringLiteral("Everything that happened to the selected task, in order."));
    history_->setOpenLinks(false);
    history_->setPlaceholderText(kHistoryHint);

    auto* bar = new QHBoxLayout;
    bar->addWidget(state_);
    bar->addWidget(worker_);
    bar->addWidget(search_, 1);
    bar->addWidget(counts_);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(view_);
    split->addWidget(history_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(state_, &QComboBox::currentIndexChanged, this, [this] {
        const int s = state_->currentData().toInt();
        proxy_->setStateFilter(s < 0 ? std::nullopt
                                     : std::optional<TaskState>(static_cast<TaskState>(s)));
    });
    connect(worker_, &QComboBox::currentIndexChanged, this,
            [this] { proxy_->setWorkerFilter(worker_->currentData().toString()); });
    connect(search_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (selecting_) {
                    return;
                }
                selected_ = current.isValid() ? current.data(MessageTableModel::KeyRole).toString()
                                              : QString();
                model_->setWatchedKey(selected_);
                showHistory();
                Q_EMIT messageSelected(selected_);
            });
    connect(model_, &MessageTableModel::watchedTaskChanged, this, &MessagePanel::showHistory);
    showHistory();
    connect(model_, &QAbstractItemModel::modelReset, this, [this] {
        selected_.clear();
        showHistory();  // back to the hint, never a blank pane
    });
}

// Every column fits a 1280-px-wide window without a horizontal scroll bar:
// the columns with values of a known shape (numbers, clock times, states) get
// exactly the width of their widest value or header (sort arrow included),
// and the message ID and body, elided with a tooltip, share what is left.
void MessagePanel::sizeColumns() {
    QHeaderView* header = view_->horizontalHeader();
    header->setStretchLastSection(false);
    const QFontMetrics cellFm = view_->fontMetrics();
    const int cellPad =
        2 * (view_->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view_) + 1) + 4;
    // What a header section spends besides its text, with the sort arrow shown.
    QStyleOptionHeader opt;
    opt.initFrom(header);
    opt.orientation = Qt::Horizontal;
    opt.state |= QStyle::State_Horizontal;
    opt.sortIndicator = QStyleOptionHeader::SortDown;
    opt.rect = QRect(0, 0, 200, header->sizeHint().height());
    const int headerPad =
        opt.rect.width() -
        header->style()->subElementRect(QStyle::SE_HeaderLabel, &opt, header).width() + 2;
    const QFontMetrics headerFm = header->fontMetrics();
    auto fit = [&](int column, const QString& widestValue) {
        const QString label =
            model_->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        view_->setColumnWidth(column, std::max(headerFm.horizontalAdvance(label) + headerPad,
                                               cellFm.horizontalAdvance(widestValue) + cellPad));
    };
    const QString clock = QStringLiteral("00:00:00.000");
    // Seven digits: a run of 100,000 tasks (or a million) reads whole, not "100…".
    fit(MessageTableModel::TaskColumn, QStringLiteral("0000000"));
    fit(MessageTableModel::SequenceColumn, QStringLiteral("0000000"));
    fit(MessageTableModel::StateColumn, QStringLiteral("returned → waiting"));
    fit(MessageTableModel::WorkerColumn, QStringLiteral("worker-10"));
    fit(MessageTableModel::ReceiveCountColumn, QStringLiteral("00"));
    fit(MessageTableModel::SentColumn, clock);
    fit(MessageTableModel::AssignedColumn, clock);
    fit(MessageTableModel::SettledColumn, clock);
    fit(MessageTableModel::LatencyColumn, QStringLiteral("000.0 s"));
    header->setSectionResizeMode(MessageTableModel::IdColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(MessageTableModel::BodyColumn, QHeaderView::Stretch);
}

void MessagePanel::selectKey(const QString& key) {
    if (key == selected_) {
        return;
    }
    selected_ = key;
    model_->setWatchedKey(key);
    int row = model_->rowOfKey(key);
    if (row < 0 && !key.isEmpty()) {
        model_->commitPendingRows();  // a task newer than the rows shown so far
        row = model_->rowOfKey(key);
    }
    selecting_ = true;
    if (row >= 0) {
        const QModelIndex idx = proxy_->mapFromSource(model_->index(row, 0));
        if (idx.isValid()) {
            view_->selectionModel()->setCurrentIndex(
                idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            view_->scrollTo(idx);
        }
    } else {
        view_->clearSelection();
    }
    selecting_ = false;
    showHistory();
}

QString MessagePanel::countsText() const {
    return counts_->text();
}

QString MessagePanel::historyText() const {
    return history_->toPlainText();
}

// The whole journey of the selected task, from the run's trail of it.
void MessagePanel::showHistory() {
    const std::optional<TaskView> task = model_->taskByKey(selected_);
    const Theme& t = Theme::current();
    if (!task) {
        const QString muted = t.mutedText.name();
        history_->setHtml(QStringLiteral("<p style='color:%1'><b>Message history</b></p>"
                                         "<p style='color:%1'>%2</p>")
                              .arg(muted, kHistoryHint.toHtmlEscaped()));
        return;
    }
    const Run& run = model_->consoleRun().run();
    const std::vector<std::uint32_t> trail = run.messageEvents(task->index);
    int acks = 0;
    QString rows;
    // The whole journey; what comes after the time cursor is greyed (not yet there).
    const std::uint64_t shown = model_->eventsShown();
    for (const std::uint32_t i : trail) {
        const Event& e = run.event(i);
        const bool later = i >= shown;
        acks += e.kind == EventKind::Acked && !later ? 1 : 0;
        rows += QStringLiteral("<tr><td><tt>%1</tt></td><td style='color:%2'>%3%4</td></tr>")
                    .arg(formatClock(e.timeNs, true),
                         (later ? t.mutedText : historyColor(e.kind)).name(),
                         describeHistoryEvent(e).toHtmlEscaped(),
                         later ? QStringLiteral(" <i>(after the cursor)</i>") : QString());
    }
    history_->setHtml(
        QStringLiteral("<h3>Task #%1</h3><p>%2<br>id <tt>%3</tt><br>state <b>%4</b>, delivered "
                       "%5×, acked %6×</p><table cellspacing=2>%7</table>")
            .arg(task->task)
            .arg(model_->bodyOf(*task).toHtmlEscaped(), task->messageId.toHtmlEscaped(),
                 describeState(*task).toHtmlEscaped())
            .arg(task->deliveries)
            .arg(acks)
            .arg(rows));
}

// While live the table may hold only the newest tasks: it says so.
QString MessagePanel::windowNote() const {
    const int hidden = model_->tasksBeforeFirstRow();
    if (hidden == 0) {
        return {};
    }
    return QStringLiteral(" · rows: the newest %1 of %2 tasks (move the time cursor to list all)")
        .arg(QLocale().toString(model_->rowCount()),
             QLocale().toString(model_->rowCount() + hidden));
}

void MessagePanel::refresh() {
    const QStringList workers = model_->workers();
    if (workers.size() + 1 != worker_->count()) {
        const QString keep = worker_->currentData().toString();
        const QSignalBlocker block(worker_);
        worker_->clear();
        worker_->addItem(QStringLiteral("All workers"), QString());
        for (const QString& w : workers) {
            worker_->addItem(w, w);
        }
        worker_->setCurrentIndex(std::max(0, worker_->findData(keep)));
    }
    // The run's own counts: the same the headless summary prints.
    const LedgerSummary& s = model_->summary();
    counts_->setText(
        QStringLiteral("waiting %1 · in flight %2 · acked %3 · dead-lettered %4")
            .arg(s.count(MessageState::Waiting) + s.count(MessageState::Delayed))
            .arg(s.count(MessageState::InFlight))
            .arg(s.count(MessageState::Acked))
            .arg(s.count(MessageState::DeadLettered) + s.count(MessageState::Dropped)) +
        (s.count(MessageState::Purged) > 0
             ? QStringLiteral(" · purged %1").arg(s.count(MessageState::Purged))
             : QString()) +
        windowNote());
    // A dead-lettered task names its dead-letter channel in the State column:
    // make room for it rather than eliding the part that says where it went.
    const QString dlq = model_->longestDeadLetterChannel();
    if (!dlq.isEmpty()) {
        TaskView probe;
        probe.state = TaskState::DeadLettered;
        probe.deadLetterChannel = dlq;
        const int want = view_->fontMetrics().horizontalAdvance(describeState(probe)) + 16;
        if (view_->columnWidth(MessageTableModel::StateColumn) < want) {
            view_->setColumnWidth(MessageTableModel::StateColumn, want);
        }
    }
}

}  // namespace qs::ui
