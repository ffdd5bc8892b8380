#include "panels/channel_browser.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "client/queues_client.h"
#include "common/clock.h"
#include "common/protocol_limits.h"
#include "controllers/connection_controller.h"
#include "controllers/redrive_job.h"
#include "dialogs/create_channel_dialog.h"
#include "dialogs/redrive_dialog.h"
#include "events/event_stream.h"
#include "models/channel_list_model.h"
#include "models/core_text.h"
#include "models/run_channels_model.h"
#include "runner/channel_actions.h"
#include "widgets/channel_rate_chart.h"
#include "widgets/limited_spin_box.h"

namespace qs::ui {

namespace {
struct PeekOutcome {
    bool ok = false;
    QString error;
    std::vector<client::QueueMessage> messages;
    int expired = 0;
    std::optional<Event> report;  // for the run (ChannelPeeked)
};

struct CallOutcome {
    bool ok = false;
    QString error;
    QString text;
    std::optional<Event> report;  // for the run (ChannelPurged)
};
}  // namespace

const QString ChannelBrowser::kPeekHint = QStringLiteral("Peek: select a channel and press Peek");

QString ChannelBrowser::peekTitle() const {
    return peekTitle_->text();
}

ChannelBrowser::ChannelBrowser(ConnectionController* connection, QWidget* parent)
    : QWidget(parent),
      connection_(connection),
      model_(new ChannelListModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      search_(new QLineEdit(this)),
      table_(new QTableView(this)),
      peek_(new QTableWidget(this)),
      details_(new QTextBrowser(this)),
      status_(new QLabel(this)),
      outcome_(new QLabel(this)),
      peekTitle_(new QLabel(this)),
      rateChart_(new ChannelRateChart(this)),
      peekCount_(new LimitedSpinBox(protocol::kMaxNumberOfMessages, this)),
      redriveBar_(new QWidget(this)),
      redriveProgress_(new QLabel(redriveBar_)),
      redriveCancel_(new QPushButton(QStringLiteral("Cancel redrive"), redriveBar_)),
      runModel_(new RunChannelsModel(this)) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(ChannelListModel::SortRole);
    model_->setHistory(&history_);
    proxy_->setFilterKeyColumn(ChannelListModel::NameColumn);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(ChannelListModel::NameColumn, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    // The counts take the width of their values and headers; the names and the
    // dead-letter link ("← dead letters of tasks.poison") share the rest, so a
    // 1280-px window elides neither.
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(ChannelListModel::NameColumn,
                                                     QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(ChannelListModel::DeadLetterLinkColumn,
                                                     QHeaderView::Stretch);
    table_->setAlternatingRowColors(true);
    table_->setToolTip(QStringLiteral(
        "Queue channels on the server and their statistics. ⚑ marks a dead-letter channel.\n"
        "Double-click a channel to make it the queue the producer and workers use."));

    table_->setAccessibleName(QStringLiteral("Queue channels"));
    peek_->setAccessibleName(QStringLiteral("Peeked messages"));
    details_->setAccessibleName(QStringLiteral("Peeked message details"));
    search_->setAccessibleName(QStringLiteral("Search channels"));
    peekCount_->setAccessibleName(QStringLiteral("Messages to peek at"));
    search_->setPlaceholderText(QStringLiteral("Search channels…"));
    search_->setClearButtonEnabled(true);
    search_->setToolTip(QStringLiteral("Show only channels whose name contains this text."));

    auto* refreshButton = new QPushButton(QStringLiteral("Refresh"), this);
    refreshButton->setToolTip(
        QStringLiteral("List the channels again now (the list also refreshes every 2 s)."));
    auto* createButton = new QPushButton(QStringLiteral("Create…"), this);
    createButton->setToolTip(QStringLiteral("Create an empty queue channel."));
    auto* deleteButton = new QPushButton(QStringLiteral("Delete…"), this);
    deleteButton->setToolTip(
        QStringLiteral("Delete the selected channel and every message in it."));
    auto* purgeButton = new QPushButton(QStringLiteral("Purge…"), this);
    purgeButton->setToolTip(QStringLiteral(
        "Remove every waiting message of the selected channel (AckAllQueueMessages).\n"
        "Messages in flight at a consumer are not affected."));
    auto* redriveButton = new QPushButton(QStringLiteral("Redrive…"), this);
    redriveButton->setToolTip(QStringLiteral(
        "Move the waiting messages of the selected dead-letter channel back to the channel\n"
        "each came from, or to a channel you name. Each is removed here only after the\n"
        "target took it."));
    auto* peekButton = new QPushButton(QStringLiteral("Peek"), this);
    peekButton->setToolTip(QStringLiteral(
        "Look at waiting messages without consuming them: they stay in the queue and their\n"
        "receive count does not change."));
    // A peek is a ReceiveQueueMessages: the protocol's MaxNumberOfMessages applies.
    peekCount_->setValue(25);
    peekCount_->setPrefix(QStringLiteral("max "));
    peekCount_->setToolTip(QStringLiteral("How many waiting messages to peek at."));

    auto* bar = new QHBoxLayout;
    bar->addWidget(search_, 1);
    bar->addWidget(refreshButton);
    bar->addWidget(createButton);
    bar->addWidget(deleteButton);
    bar->addWidget(purgeButton);
    bar->addWidget(redriveButton);
    bar->addSpacing(12);
    bar->addWidget(fieldWithProblem(peekCount_, peekCount_->problemLabel()));
    bar->addWidget(peekButton);

    peek_->setColumnCount(6);
    peek_->setHorizontalHeaderLabels(
        {QStringLiteral("Seq"), QStringLiteral("Message ID"), QStringLiteral("Body"),
         QStringLiteral("Tags"), QStringLiteral("Receives"), QStringLiteral("Re-routed from")});
    peek_->verticalHeader()->hide();
    peek_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    // The columns share the pane's width (no sideways scrolling): the ID and
    // body stretch and elide; a cell's tooltip and the details pane have it whole.
    peek_->horizontalHeader()->setStretchLastSection(false);
    peek_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    peek_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    peek_->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    peek_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    peek_->setTextElideMode(Qt::ElideRight);
    // One row at the least; a peek makes room for more (showPeek()). A larger
    // minimum would make the window taller than a 1280x720 screen
    // (tst_window_layout checks the window takes that size).
    peek_->setMinimumHeight(peek_->horizontalHeader()->sizeHint().height() +
                            peek_->verticalHeader()->defaultSectionSize() + 4);
    details_->setMinimumHeight(peek_->minimumHeight());  // not a scroll area's taller default
    peek_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    peek_->setSelectionBehavior(QAbstractItemView::SelectRows);
    peek_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    peek_->setAlternatingRowColors(true);
    peek_->setToolTip(QStringLiteral(
        "Peeked messages (still waiting in the queue). Select one for its full content;\n"
        "select several (Ctrl+click, Shift+click) to redrive only those."));
    details_->setToolTip(
        QStringLiteral("Body, metadata, tags and attributes of the selected peeked message."));
    peekTitle_->setText(kPeekHint);
    QFont bold = font();
    bold.setBold(true);
    peekTitle_->setFont(bold);

    serverActions_ = {deleteButton, purgeButton, redriveButton, peekButton};
    auto* split = split_ = new QSplitter(Qt::Vertical, this);
    split->addWidget(buildListHost());
    lowerTabs_ = new QTabWidget(this);
    lowerTabs_->setDocumentMode(true);
    lowerTabs_->addTab(buildPeekHost(), QStringLiteral("Peek"));
    lowerTabs_->addTab(rateChart_, QStringLiteral("Rates over time"));
    lowerTabs_->setTabToolTip(1, QStringLiteral("The selected channel's counters over time, as "
                                                "the server reports them (any client's traffic)."));
    split->addWidget(lowerTabs_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    outcome_->setObjectName(QStringLiteral("channelOutcome"));
    outcome_->setTextFormat(Qt::RichText);
    outcome_->setWordWrap(true);
    status_->setObjectName(QStringLiteral("channelListStatus"));
    redriveProgress_->setObjectName(QStringLiteral("redriveProgress"));
    redriveCancel_->setToolTip(QStringLiteral(
        "Stop after the batch in hand: what moved stays moved, the rest stays here."));
    auto* redriveLayout = new QHBoxLayout(redriveBar_);
    redriveLayout->setContentsMargins(0, 0, 0, 0);
    redriveLayout->addWidget(redriveProgress_, 1);
    redriveLayout->addWidget(redriveCancel_);
    redriveBar_->hide();
    layout->addWidget(redriveBar_);
    auto* footer = new QHBoxLayout;
    footer->addWidget(outcome_, 1);
    footer->addWidget(status_);
    layout->addLayout(footer);

    connect(search_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(refreshButton, &QPushButton::clicked, this, &ChannelBrowser::refresh);
    connect(createButton, &QPushButton::clicked, this, &ChannelBrowser::createChannel);
    connect(deleteButton, &QPushButton::clicked, this, &ChannelBrowser::deleteSelected);
    connect(purgeButton, &QPushButton::clicked, this, &ChannelBrowser::purgeSelected);
    connect(redriveButton, &QPushButton::clicked, this, &ChannelBrowser::redriveSelected);
    connect(redriveCancel_, &QPushButton::clicked, this, &ChannelBrowser::cancelRedrive);
    connect(peekButton, &QPushButton::clicked, this, &ChannelBrowser::peekSelected);
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& idx) {
        const QModelIndex src = proxy_->mapToSource(idx);
        if (src.column() == ChannelListModel::DeadLetterLinkColumn) {
            const QString linked = src.data(ChannelListModel::LinkedChannelRole).toString();
            if (!linked.isEmpty()) {
                selectChannel(linked);
                return;
            }
        }
        Q_EMIT channelActivated(src.data(ChannelListModel::NameRole).toString());
    });
    connect(peek_, &QTableWidget::currentCellChanged, this, [this](int row) { showMessage(row); });
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { showRatesOfSelected(); });
    connect(connection_, &ConnectionController::connectionChanged, this, [this] {
        model_->clear();
        history_.clear();
        peek_->setRowCount(0);
        peeked_.clear();
        peekedChannel_.clear();
        details_->clear();
        peekTitle_->setText(kPeekHint);  // a header naming the old server's channel misleads
        outcome_->clear();
        showRatesOfSelected();
        refresh();
    });

    timer_.setInterval(2000);
    // Polled while hidden too: the rates over time need every interval, and
    // one list call every 2 s costs the server next to nothing.
    connect(&timer_, &QTimer::timeout, this, &ChannelBrowser::refresh);
    timer_.start();
}

ChannelBrowser::~ChannelBrowser() {
    delete redrive_;  // cancels and joins before this view's parts go
    redrive_ = nullptr;
}

void ChannelBrowser::setAutoRefresh(bool on) {
    on ? timer_.start() : timer_.stop();
}

void ChannelBrowser::setStatus(const QString& text, bool error) {
    status_->setText(
        error ? QStringLiteral("<span style='color:#d93040'>%1</span>").arg(text.toHtmlEscaped())
              : text.toHtmlEscaped());
}

void ChannelBrowser::setOutcome(const QString& text, bool ok) {
    const QString stamped = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss ")) +
                            (ok ? QStringLiteral("✓ ") : QStringLiteral("⚠ ")) + text;
    outcome_->setText(
        ok ? stamped.toHtmlEscaped()
           : QStringLiteral("<span style='color:#d93040'>%1</span>").arg(stamped.toHtmlEscaped()));
    outcome_->setProperty("plainText", stamped);
    Q_EMIT actionFinished(ok, text);
}

QString ChannelBrowser::outcomeText() const {
    return outcome_->property("plainText").toString();
}

QWidget* ChannelBrowser::buildPeekHost() {
    peekHost_ = new QWidget(this);
    auto* peekLayout = new QVBoxLayout(peekHost_);
    peekLayout->setContentsMargins(0, 0, 0, 0);
    peekLayout->addWidget(peekTitle_);
    auto* peekSplit = new QSplitter(Qt::Horizontal, peekHost_);
    peekSplit->addWidget(peek_);
    peekSplit->addWidget(details_);
    peekSplit->setStretchFactor(0, 3);
    peekSplit->setStretchFactor(1, 2);
    peekLayout->addWidget(peekSplit, 1);
    return peekHost_;
}

bool ChannelBrowser::showingRates() const {
    return lowerTabs_->currentWidget() == rateChart_;
}

void ChannelBrowser::showRatesOf(const QString& channel) {
    lowerTabs_->setCurrentWidget(rateChart_);
    ratesWanted_ = channel;
    selectChannel(channel);
    if (selectedChannel() == channel) {
        ratesWanted_.clear();
    }
}

void ChannelBrowser::showRatesOfSelected() {
    const QString name = selectedChannel();
    rateChart_->showChannel(name, history_.rates(name.toStdString()), monotonicNanos());
}

// The server's list, and in its place at a time cursor the run's channels then.
QWidget* ChannelBrowser::buildListHost() {
    auto* host = new QWidget(this);
    auto* layout = new QVBoxLayout(host);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(table_);
    runBox_ = new QWidget(host);
    auto* runLayout = new QVBoxLayout(runBox_);
    runLayout->setContentsMargins(0, 0, 0, 0);
    asOf_ = new QLabel(runBox_);
    asOf_->setObjectName(QStringLiteral("channelsAsOf"));
    asOf_->setWordWrap(true);
    asOf_->setTextFormat(Qt::RichText);
    runTable_ = new QTableView(runBox_);
    runTable_->setModel(runModel_);
    runTable_->setAccessibleName(QStringLiteral("Channels of the run at the time cursor"));
    runTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    runTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    runTable_->verticalHeader()->hide();
    runTable_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    runTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    runTable_->horizontalHeader()->setSectionResizeMode(RunChannelsModel::NameColumn,
                                                        QHeaderView::Stretch);
    runTable_->setAlternatingRowColors(true);
    runTable_->setToolTip(QStringLiteral(
        "The channels as this run had them at the time cursor, counted from the run's own\n"
        "events: only messages of this run, each in the channel it lived in then. Other\n"
        "clients' messages are not in it. Live (Ctrl+L) returns to the server's list."));
    runLayout->addWidget(asOf_);
    runLayout->addWidget(runTable_, 1);
    runBox_->hide();
    layout->addWidget(runBox_, 1);
    return host;
}

void ChannelBrowser::showRunAt(const std::vector<ChannelAt>& channels, const QString& asOf) {
    runModel_->setChannels(channels);
    asOf_->setText(
        QStringLiteral("<b>As of %1</b> — the run's own view: only the messages of this run, "
                       "counted from its events, each in the channel it lived in then. "
                       "<b>● Live</b> (Ctrl+L) returns to the server's channels now.")
            .arg(asOf.toHtmlEscaped()));
    if (!showingRun_) {
        showingRun_ = true;
        table_->hide();
        runBox_->show();
        for (QPushButton* b : serverActions_) {
            b->setEnabled(false);
        }
    }
}

void ChannelBrowser::showServer() {
    if (!showingRun_) {
        return;
    }
    showingRun_ = false;
    runBox_->hide();
    table_->show();
    for (QPushButton* b : serverActions_) {
        b->setEnabled(true);
    }
}

QString ChannelBrowser::asOfText() const {
    return showingRun_ ? asOf_->text() : QString();
}

QString ChannelBrowser::selectedChannel() const {
    const QModelIndex idx = table_->currentIndex();
    return idx.isValid() ? proxy_->mapToSource(idx).data(ChannelListModel::NameRole).toString()
                         : QString();
}

void ChannelBrowser::selectChannel(const QString& name) {
    const int row = model_->rowOf(name);
    if (row < 0) {
        return;
    }
    const QModelIndex idx = proxy_->mapFromSource(model_->index(row, 0));
    table_->setCurrentIndex(idx);
    table_->scrollTo(idx);
}

void ChannelBrowser::refresh() {
    auto client = connection_->client();
    if (!client || refreshing_) {
        return;
    }
    refreshing_ = true;
    using ListResult = client::Result<std::vector<client::QueueChannelInfo>>;
    connection_->run<ListResult>(
        this, [client]() { return client->listQueues(); },
        [this](ListResult result) {
            refreshing_ = false;
            if (!result.ok()) {
                setStatus(
                    QStringLiteral("Cannot list channels: ") + fromView(result.error().describe()),
                    true);
                return;
            }
            const QString keep = selectedChannel();
            const int n = static_cast<int>(result.value().size());
            const bool viaInfo =
                n > 0 && result.value().front().source == client::ChannelInfoSource::QueuesInfo;
            history_.record(monotonicNanos(), result.value());
            model_->setChannels(std::move(result).value());
            if (!keep.isEmpty() && selectedChannel() != keep) {
                selectChannel(keep);
            }
            if (!ratesWanted_.isEmpty() && model_->rowOf(ratesWanted_) >= 0) {
                selectChannel(std::exchange(ratesWanted_, QString()));
            }
            showRatesOfSelected();
            setStatus(
                QStringLiteral("%1 queue channel(s)%2")
                    .arg(n)
                    .arg(viaInfo
                             ? QStringLiteral(
                                   " (server without channel management: stats from QueuesInfo)")
                             : QString()));
            Q_EMIT refreshed(n);
        });
}

void ChannelBrowser::peekSelected() {
    const QString channel = selectedChannel();
    auto client = connection_->client();
    if (channel.isEmpty() || !client) {
        setOutcome(QStringLiteral("Select a channel to peek at."), false);
        return;
    }
    const int max = peekCount_->value();
    peekTitle_->setText(QStringLiteral("Peeking at %1…").arg(channel));
    connection_->run<PeekOutcome>(
        this,
        [client, channel, max]() {
            PeekOutcome out;
            auto peek = runner::peekChannel(*client, channel.toStdString(), max,
                                            std::chrono::milliseconds(1000));
            auto& r = peek.peeked;
            if (!r.ok()) {
                out.error = fromView(r.error().describe());
                return out;
            }
            out.ok = true;
            out.messages = std::move(r.value().messages);
            out.expired = r.value().messagesExpired;
            out.report = std::move(peek.report);
            return out;
        },
        [this, channel](PeekOutcome out) {
            if (runStream_ != nullptr && out.report) {
                runStream_->push(std::move(*out.report));
            }
            if (!out.ok) {
                peekTitle_->setText(QStringLiteral("Peek %1 failed").arg(channel));
                setOutcome(QStringLiteral("Could not peek at %1: %2").arg(channel, out.error),
                           false);
                return;
            }
            showPeek(channel, std::move(out.messages), out.expired);
        });
}

void ChannelBrowser::showPeek(const QString& channel, std::vector<client::QueueMessage> messages,
                              int expired) {
    peeked_ = std::move(messages);
    peekedChannel_ = channel;
    lowerTabs_->setCurrentWidget(peekHost_);  // what was asked for comes into view
    peekTitle_->setText(
        QStringLiteral("Peek: %1 waiting message(s) in %2 (not consumed)%3")
            .arg(peeked_.size())
            .arg(channel)
            .arg(expired > 0 ? QStringLiteral(", %1 expired removed").arg(expired) : QString()));
    peek_->setRowCount(static_cast<int>(peeked_.size()));
    for (int r = 0; r < static_cast<int>(peeked_.size()); ++r) {
        const auto& m = peeked_[static_cast<std::size_t>(r)];
        QStringList tags;
        for (const auto& [k, v] : m.tags) {
            tags << fromView(k) + QLatin1Char('=') + fromView(v);
        }
        QString body = QString::fromUtf8(
            m.body.data(), static_cast<int>(std::min<std::size_t>(m.body.size(), 200)));
        body.replace(QLatin1Char('\n'), QLatin1Char(' '));
        const QStringList cells = {
            QString::number(m.attributes.sequence),
            fromView(m.id),
            body,
            tags.join(QStringLiteral(", ")),
            QString::number(m.attributes.receiveCount),
            m.attributes.reRouted ? fromView(m.attributes.reRoutedFrom) : QString()};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(cells[c]);  // an elided cell says the whole on hover
            peek_->setItem(r, c, item);
        }
        if (m.attributes.reRouted && !m.attributes.reRoutedFrom.empty()) {
            model_->noteDeadLetter(channel, fromView(m.attributes.reRoutedFrom));
        }
    }
    details_->clear();
    if (!peeked_.empty()) {
        peek_->selectRow(0);
        showMessage(0);
    }
    makeRoomForPeek();
    Q_EMIT peeked(channel, static_cast<int>(peeked_.size()));
}

// A peek showed about two and a half rows: the pane now takes the room its
// rows need, up to two thirds of the split, the channel list keeping the rest.
void ChannelBrowser::makeRoomForPeek() {
    const QList<int> sizes = split_->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    if (total <= 0) {
        return;
    }
    const int rows = std::max(peek_->rowCount(), 1);
    const int wanted = sizes.value(1) - peek_->viewport()->height() +
                       rows * peek_->verticalHeader()->defaultSectionSize() + 2;
    const int peekHeight = std::max(sizes.value(1), std::min(wanted, total * 2 / 3));
    split_->setSizes({total - peekHeight, peekHeight});
}

void ChannelBrowser::showMessage(int row) {
    if (row < 0 || row >= static_cast<int>(peeked_.size())) {
        details_->clear();
        return;
    }
    const auto& m = peeked_[static_cast<std::size_t>(row)];
    const auto& a = m.attributes;
    auto ts = [](std::int64_t ns) {
        return ns > 0 ? QDateTime::fromMSecsSinceEpoch(ns / 1'000'000)
                            .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"))
                      : QStringLiteral("–");
    };
    QString html = QStringLiteral("<h3>%1</h3>").arg(fromView(m.id).toHtmlEscaped());
    html +=
        QStringLiteral("<p><b>Body</b> (%1 bytes)<pre>%2</pre></p>")
            .arg(m.body.size())
            .arg(QString::fromUtf8(m.body.data(),
                                   static_cast<int>(std::min<std::size_t>(m.body.size(), 20000)))
                     .toHtmlEscaped());
    if (!m.metadata.empty()) {
        html +=
            QStringLiteral("<p><b>Metadata</b>: %1</p>").arg(fromView(m.metadata).toHtmlEscaped());
    }
    if (!m.tags.empty()) {
        html += QStringLiteral("<p><b>Tags</b><br>");
        for (const auto& [k, v] : m.tags) {
            html += QStringLiteral("%1 = %2<br>")
                        .arg(fromView(k).toHtmlEscaped(), fromView(v).toHtmlEscaped());
        }
        html += QStringLiteral("</p>");
    }
    html +=
        QStringLiteral(
            "<p><b>Attributes</b><br>sequence %1<br>stored %2<br>receive count %3<br>"
            "re-routed %4%5<br>expires %6<br>delayed to %7</p>")
            .arg(a.sequence)
            .arg(ts(a.timestamp))
            .arg(a.receiveCount)
            .arg(a.reRouted ? QStringLiteral("yes") : QStringLiteral("no"))
            .arg(a.reRouted
                     ? QStringLiteral(" (from %1)").arg(fromView(a.reRoutedFrom).toHtmlEscaped())
                     : QString())
            .arg(ts(a.expirationAt))
            .arg(ts(a.delayedTo));
    html +=
        QStringLiteral(
            "<p><b>Policy</b><br>max receives %1, dead-letter %2, expiration %3 s, delay %4 s</p>")
            .arg(m.policy.maxReceiveCount)
            .arg(m.policy.deadLetterQueue.empty()
                     ? QStringLiteral("–")
                     : fromView(m.policy.deadLetterQueue).toHtmlEscaped())
            .arg(m.policy.expirationSeconds)
            .arg(m.policy.delaySeconds);
    details_->setHtml(html);
}

void ChannelBrowser::createChannel() {
    if (!connection_->client()) {
        setOutcome(QStringLiteral("Not connected: cannot create a channel."), false);
        return;
    }
    CreateChannelDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted) {
        createChannelNamed(dialog.name());
    }
}

void ChannelBrowser::createChannelNamed(const QString& name) {
    auto client = connection_->client();
    if (const QString problem = CreateChannelDialog::nameProblem(name); !problem.isEmpty()) {
        setOutcome(problem, false);
        return;
    }
    if (!client) {
        setOutcome(QStringLiteral("Not connected: cannot create a channel."), false);
        return;
    }
    connection_->run<CallOutcome>(
        this,
        [client, name]() {
            auto r = client->createQueue(name.toStdString());
            return CallOutcome{r.ok(), r.ok() ? QString() : fromView(r.error().describe()), {}, {}};
        },
        [this, name](CallOutcome out) {
            // The server's refusal in its own words (a v2.4.0 has no channel management).
            setOutcome(
                out.ok ? QStringLiteral("Created channel %1").arg(name)
                       : QStringLiteral("The server did not create %1: %2").arg(name, out.error),
                out.ok);
            refresh();
        });
}

void ChannelBrowser::deleteSelected() {
    const QString name = selectedChannel();
    auto client = connection_->client();
    if (name.isEmpty() || !client) {
        setOutcome(QStringLiteral("Select a channel to delete."), false);
        return;
    }
    if (QMessageBox::question(
            this, QStringLiteral("Delete channel"),
            QStringLiteral("Delete channel \"%1\" and every message in it?").arg(name),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) != QMessageBox::Yes) {
        return;
    }
    deleteChannel(name);
}

void ChannelBrowser::deleteChannel(const QString& name) {
    auto client = connection_->client();
    if (!client) {
        setOutcome(QStringLiteral("Not connected: cannot delete %1.").arg(name), false);
        return;
    }
    connection_->run<CallOutcome>(
        this,
        [client, name]() {
            auto r = client->deleteQueue(name.toStdString());
            return CallOutcome{r.ok(), r.ok() ? QString() : fromView(r.error().describe()), {}, {}};
        },
        [this, name](CallOutcome out) {
            setOutcome(out.ok ? QStringLiteral("Deleted channel %1").arg(name)
                              : QStringLiteral("Could not delete %1: %2").arg(name, out.error),
                       out.ok);
            refresh();
        });
}

void ChannelBrowser::purgeSelected() {
    const QString name = selectedChannel();
    auto client = connection_->client();
    if (name.isEmpty() || !client) {
        setOutcome(QStringLiteral("Select a channel to purge."), false);
        return;
    }
    if (QMessageBox::question(
            this, QStringLiteral("Purge channel"),
            QStringLiteral("Remove every waiting message from \"%1\"? This cannot be undone.")
                .arg(name),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) != QMessageBox::Yes) {
        return;
    }
    purgeChannel(name);
}

void ChannelBrowser::purgeChannel(const QString& name) {
    auto client = connection_->client();
    if (!client) {
        setOutcome(QStringLiteral("Not connected: cannot purge %1.").arg(name), false);
        return;
    }
    connection_->run<CallOutcome>(
        this,
        [client, name]() {
            auto purge = runner::purgeChannel(*client, name.toStdString());
            const auto& r = purge.removed;
            return CallOutcome{r.ok(), r.ok() ? QString() : fromView(r.error().describe()),
                               r.ok() ? QString::number(r.value()) : QString(),
                               std::move(purge.report)};
        },
        [this, name](CallOutcome out) {
            if (runStream_ != nullptr && out.report) {
                runStream_->push(std::move(*out.report));
            }
            setOutcome(out.ok ? QStringLiteral("Purged %1 message(s) from %2").arg(out.text, name)
                              : QStringLiteral("Could not purge %1: %2").arg(name, out.error),
                       out.ok);
            refresh();
        });
}

// The channels the last peek of `channel` says its messages came from.
QString ChannelBrowser::originsOf(const QString& channel) const {
    std::set<QString> origins;
    if (channel == peekedChannel_) {
        for (const auto& m : peeked_) {
            if (m.attributes.reRouted && !m.attributes.reRoutedFrom.empty()) {
                origins.insert(fromView(m.attributes.reRoutedFrom));
            }
        }
    }
    if (origins.empty() && !model_->sourceOf(channel).isEmpty()) {
        origins.insert(model_->sourceOf(channel));
    }
    return QStringList(origins.begin(), origins.end()).join(QStringLiteral(", "));
}

std::vector<std::uint64_t> ChannelBrowser::selectedPeekSequences(const QString& channel) const {
    std::vector<std::uint64_t> sequences;
    if (channel != peekedChannel_) {
        return sequences;
    }
    std::set<int> rows;
    for (const QModelIndex& index : peek_->selectionModel()->selectedRows()) {
        rows.insert(index.row());
    }
    for (int row : rows) {
        if (row >= 0 && row < static_cast<int>(peeked_.size())) {
            sequences.push_back(peeked_[static_cast<std::size_t>(row)].attributes.sequence);
        }
    }
    return sequences;
}

void ChannelBrowser::selectPeekRows(const std::vector<int>& rows) {
    peek_->clearSelection();
    for (int row : rows) {
        peek_->selectionModel()->select(
            peek_->model()->index(row, 0),
            QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
}

RedriveDialog* ChannelBrowser::newRedriveDialog(const QString& channel) {
    auto* dialog = new RedriveDialog(channel, originsOf(channel), this);
    // One selected row may be the one being read (a peek selects the first):
    // offered, not chosen. Several are a choice.
    std::vector<std::uint64_t> selected = selectedPeekSequences(channel);
    const bool several = selected.size() > 1;
    dialog->setSelection(std::move(selected), several);
    dialog->setKnownMaxReceiveCount(model_->sentMaxReceiveCount(channel));
    return dialog;
}

void ChannelBrowser::redriveSelected() {
    const QString name = selectedChannel();
    if (name.isEmpty() || !connection_->client()) {
        setOutcome(QStringLiteral("Select a dead-letter channel to redrive."), false);
        return;
    }
    if (redriveRunning()) {
        setOutcome(QStringLiteral("A redrive of %1 is running: wait for it or cancel it.")
                       .arg(redriveChannel_),
                   false);
        return;
    }
    std::unique_ptr<RedriveDialog> dialog(newRedriveDialog(name));
    if (dialog->exec() == QDialog::Accepted) {
        startRedrive(dialog->options({}));
    }
}

void ChannelBrowser::redriveChannel(const QString& name, const QString& target) {
    runner::RedriveOptions options;
    options.from = name.toStdString();
    options.to = target.toStdString();
    startRedrive(std::move(options));
}

void ChannelBrowser::startRedrive(runner::RedriveOptions options) {
    const QString name = fromView(options.from);
    if (redriveRunning()) {
        setOutcome(QStringLiteral("A redrive of %1 is running: wait for it or cancel it.")
                       .arg(redriveChannel_),
                   false);
        return;
    }
    if (!connection_->client()) {
        setOutcome(QStringLiteral("Not connected: cannot redrive %1.").arg(name), false);
        return;
    }
    options.batch = redriveBatch_;
    // Each move reaches the run on the UI thread (the stream may change
    // between two moves: a reset); the job is ended before this view goes.
    options.report = [this](const Event& moved) {
        QMetaObject::invokeMethod(
            this,
            [this, moved] {
                if (runStream_ != nullptr) {
                    runStream_->push(moved);
                }
            },
            Qt::QueuedConnection);
    };
    delete redrive_;
    redrive_ = new RedriveJob(this);
    connect(redrive_, &RedriveJob::progressed, this, &ChannelBrowser::showRedriveProgress);
    connect(redrive_, &RedriveJob::finished, this, &ChannelBrowser::finishRedrive);
    const QString problem = redrive_->start(
        connection_->settings().toClientOptions(QStringLiteral("-redrive")), std::move(options));
    if (!problem.isEmpty()) {
        setOutcome(QStringLiteral("Cannot redrive %1: %2").arg(name, problem), false);
        return;
    }
    redriveChannel_ = name;
    redriveProgress_->setText(QStringLiteral("Redriving %1: counting its messages…").arg(name));
    redriveCancel_->setEnabled(true);
    redriveBar_->show();
}

void ChannelBrowser::cancelRedrive() {
    if (redriveRunning()) {
        redrive_->cancel();
        redriveCancel_->setEnabled(false);
        redriveProgress_->setText(redriveProgress_->text() +
                                  QStringLiteral(" · cancelling after this batch…"));
    }
}

bool ChannelBrowser::redriveRunning() const {
    return redrive_ != nullptr && redriveBar_->isVisibleTo(this);
}

QString ChannelBrowser::redriveProgressText() const {
    return redriveRunning() ? redriveProgress_->text() : QString();
}

void ChannelBrowser::showRedriveProgress(quint64 moved, quint64 failed, qint64 left) {
    if (!redriveRunning()) {
        return;  // a late report of a job already finished
    }
    redriveProgress_->setText(
        QStringLiteral("Redriving %1: moved %2 · failed %3 · left %4%5")
            .arg(redriveChannel_)
            .arg(moved)
            .arg(failed)
            .arg(left < 0 ? QStringLiteral("?") : QString::number(left))
            .arg(redriveCancel_->isEnabled() ? QString()
                                             : QStringLiteral(" · cancelling after this batch…")));
}

void ChannelBrowser::finishRedrive(const RedriveResult& result) {
    redriveBar_->hide();
    const bool ok = result.report.ok() && result.report.noTarget == 0;
    setOutcome(RedriveJob::describe(result), ok);
    refresh();
    if (result.channel == peekedChannel_ && result.channel == selectedChannel()) {
        peekSelected();  // the list showed what moved: show what is left
    }
}

}  // namespace qs::ui
