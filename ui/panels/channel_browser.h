#pragma once

#include <QTimer>
#include <QWidget>
#include <vector>

#include "client/queue_message.h"

class QLineEdit;
class QTableView;
class QTableWidget;
class QSplitter;
class QTextBrowser;
class QLabel;
class QSpinBox;
class QPushButton;
class QSortFilterProxyModel;
class QLabel;

namespace qs {
class EventStream;
}

// The channels view: every queue channel of the server with live stats,
// search, create / delete / purge (with confirmation), and a peek view of
// waiting messages (body, tags, attributes) that does not consume them.
// Every server call runs off the UI thread through the ConnectionController.
namespace qs::ui {

class ConnectionController;
class ChannelListModel;
class LimitedSpinBox;

class ChannelBrowser : public QWidget {
    Q_OBJECT
public:
    explicit ChannelBrowser(ConnectionController* connection, QWidget* parent = nullptr);

    ChannelListModel* model() const { return model_; }
    QString selectedChannel() const;
    void selectChannel(const QString& name);
    void setAutoRefresh(bool on);
    // The run's stream: peeks and purges are reported into it (ChannelPeeked /
    // ChannelPurged, runner/channel_actions.h), on the UI thread. Not owned;
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

public Q_SLOTS:
    void refresh();  // list channels now
    void peekSelected();
    void createChannel();
    void deleteSelected();
    void purgeSelected();
    // The same without asking first (the confirmation is the caller's).
    void createChannelNamed(const QString& name);
    void deleteChannel(const QString& name);
    void purgeChannel(const QString& name);

Q_SIGNALS:
    void channelActivated(const QString& name);  // "use this queue for the run"
    void refreshed(int channels);
    void actionFinished(bool ok, const QString& text);  // outcomeText() changed

private:
    void showPeek(const QString& channel, std::vector<client::QueueMessage> messages, int expired);
    void showMessage(int row);
    void makeRoomForPeek();
    void setStatus(const QString& text, bool error = false);

    ConnectionController* connection_;
    ChannelListModel* model_;
    QSortFilterProxyModel* proxy_;
    QLineEdit* search_;
    QTableView* table_;
    QTableWidget* peek_;
    QTextBrowser* details_;
    QLabel* status_;
    QLabel* outcome_;
    QLabel* peekTitle_;
    QSplitter* split_ = nullptr;  // the channel list above, the peek pane below
    LimitedSpinBox* peekCount_;
    QTimer timer_;
    bool refreshing_ = false;
    EventStream* runStream_ = nullptr;
    std::vector<client::QueueMessage> peeked_;
};

}  // namespace qs::ui
