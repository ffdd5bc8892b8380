#pragma once

#include <QTimer>
#include <QWidget>
#include <vector>

#include "client/channel_history.h"
#include "client/queue_message.h"
#include "run/run_state.h"
#include "runner/redrive.h"

class QLineEdit;
class QTableView;
class QTableWidget;
class QSplitter;
class QTextBrowser;
class QLabel;
class QSpinBox;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;

namespace qs {
class EventStream;
}

// The channels view: every queue channel of the server with live stats,
// search, create / delete / purge (with confirmation), a peek view of
// waiting messages (body, tags, attributes) that does not consume them, and
// the redrive of a dead-letter channel (RedriveJob) with progress and Cancel.
// Every server call runs off the UI thread through the ConnectionController.
namespace qs::ui {

class ConnectionController;
class ChannelListModel;
class ChannelRateChart;
class LimitedSpinBox;
class RedriveDialog;
class RedriveJob;
class RunChannelsModel;
struct RedriveResult;

class ChannelBrowser : public QWidget {
    Q_OBJECT
public:
    explicit ChannelBrowser(ConnectionController* connection, QWidget* parent = nullptr);
    // Ends a running redrive first: its thread reports moves to this view.
    ~ChannelBrowser() override;

    ChannelListModel* model() const { return model_; }
    QString selectedChannel() const;
    void selectChannel(const QString& name);
    void setAutoRefresh(bool on);
    // The run's stream: peeks, purges and a redrive's moves are reported into
    // it (ChannelPeeked / ChannelPurged, runner/channel_actions.h;
    // MessageRedriven, runner/redrive.h), on the UI thread. Not owned;
    // null = not reported. Clear it before the stream goes.
    void setRunStream(EventStream* stream) { runStream_ = stream; }
    // What the last create / delete / purge / peek came to ("Purged 10
    // message(s) from tasks", "Create failed: ..."); kept until the next one,
    // never replaced by the periodic list refresh.
    QString outcomeText() const;
    // Says what a channel action came to on the outcome line (word-wrapped,
    // whole): this view's own actions and a scenario's channel steps.
    void setOutcome(const QString& text, bool ok);
    // The peek pane's header: the channel and count of the last peek, or kPeekHint.
    QString peekTitle() const;
    static const QString kPeekHint;
    // The redrive in progress ("Redriving orders.dlq: moved 40 · failed 0 ·
    // left 60"), or "" when none runs.
    QString redriveProgressText() const;
    bool redriveRunning() const;
    // Messages per receive of a redrive (1..1024, default 100): a cancel lands
    // between receives.
    void setRedriveBatch(int batch) { redriveBatch_ = batch; }
    // The sequences of the rows selected in the peek list, when it shows `channel`.
    std::vector<std::uint64_t> selectedPeekSequences(const QString& channel) const;
    // Selects peek rows (by row number), as a user's Ctrl+click does.
    void selectPeekRows(const std::vector<int>& rows);
    // The Redrive dialog for `channel` as Redrive… opens it (the peek
    // selection and the max receive count this console sent with filled in);
    // the caller owns it.
    RedriveDialog* newRedriveDialog(const QString& channel);

    // At a time cursor (docs/ui.md, "Time travel"): the channels as the
    // console's run had them then, in place of the server's list, under a
    // label saying "as of" `asOf` and that it is the run's own view. The
    // server's list goes on being polled underneath; the actions on a
    // selected server channel are off. showServer() returns to it.
    void showRunAt(const std::vector<ChannelAt>& channels, const QString& asOf);
    void showServer();
    bool showingRun() const { return showingRun_; }
    QString asOfText() const;
    RunChannelsModel* runModel() const { return runModel_; }
    // The selected channel's rates over time (the "Rates" tab under the list).
    ChannelRateChart* rateChart() const { return rateChart_; }
    // Which tab the pane under the list shows: the peek or the rates.
    bool showingRates() const;
    // Selects `channel` (now, or when a list first holds it) and brings its
    // rates over time into view.
    void showRatesOf(const QString& channel);

public Q_SLOTS:
    void refresh();  // list channels now
    void peekSelected();
    void createChannel();
    void deleteSelected();
    void purgeSelected();
    // Asks which, where to and with which policy (RedriveDialog), then startRedrive().
    void redriveSelected();
    // The same without asking first (the confirmation is the caller's).
    void createChannelNamed(const QString& name);
    void deleteChannel(const QString& name);
    void purgeChannel(const QString& name);
    // Moves the messages of `name` to `target` ("" = each to its
    // ReRoutedFromQueue) off the UI thread; the result goes to the outcome line.
    void redriveChannel(const QString& name, const QString& target);
    // The same with every option (`options.from` is the channel); the batch is
    // this view's.
    void startRedrive(runner::RedriveOptions options);
    void cancelRedrive();

Q_SIGNALS:
    void channelActivated(const QString& name);  // "use this queue for the run"
    void refreshed(int channels);
    void peeked(const QString& channel, int messages);  // the peek list shows them
    void actionFinished(bool ok, const QString& text);  // outcomeText() changed

private:
    QWidget* buildListHost();
    void showPeek(const QString& channel, std::vector<client::QueueMessage> messages, int expired);
    void showMessage(int row);
    void makeRoomForPeek();
    void setStatus(const QString& text, bool error = false);
    void showRedriveProgress(quint64 moved, quint64 failed, qint64 left);
    void finishRedrive(const RedriveResult& result);
    QString originsOf(const QString& channel) const;
    QWidget* buildPeekHost();
    void showRatesOfSelected();

    ConnectionController* connection_;
    ChannelListModel* model_;
    // Every poll of the channel list, for the rate columns (a new connection
    // starts it again).
    client::ChannelHistory history_;
    QSortFilterProxyModel* proxy_;
    QLineEdit* search_;
    QTableView* table_;
    QTableWidget* peek_;
    QTextBrowser* details_;
    QLabel* status_;
    QLabel* outcome_;
    QLabel* peekTitle_;
    QSplitter* split_ = nullptr;  // the channel list above, the peek / rates tabs below
    QTabWidget* lowerTabs_ = nullptr;
    QWidget* peekHost_ = nullptr;
    QString ratesWanted_;  // showRatesOf() before the list held it
    ChannelRateChart* rateChart_;
    LimitedSpinBox* peekCount_;
    QTimer timer_;
    bool refreshing_ = false;
    EventStream* runStream_ = nullptr;
    std::vector<client::QueueMessage> peeked_;
    QString peekedChannel_;
    QWidget* redriveBar_;
    QLabel* redriveProgress_;
    QPushButton* redriveCancel_;
    RedriveJob* redrive_ = nullptr;  // the one running, owned by this view
    QString redriveChannel_;
    int redriveBatch_ = 100;
    RunChannelsModel* runModel_;
    QWidget* runBox_ = nullptr;  // the run's channels at the cursor, in the list's place
    QLabel* asOf_ = nullptr;
    QTableView* runTable_ = nullptr;
    std::vector<QPushButton*> serverActions_;  // off while the run's view is shown
    bool showingRun_ = false;
};

}  // namespace qs::ui
