#pragma once

#include <QTimer>
#include <QWidget>
#include <vector>

#include "client/queue_message.h"

class QLineEdit;
class QTableView;
class QTableWidget;
class QTextBrowser;
class QLabel;
class QSpinBox;
class QPushButton;
class QSortFilterProxyModel;

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

public Q_SLOTS:
    void refresh();  // list channels now
    void peekSelected();
    void createChannel();
    void deleteSelected();
    void purgeSelected();

Q_SIGNALS:
    void channelActivated(const QString& name);  // "use this queue for the run"
    void refreshed(int channels);

private:
    void showPeek(const QString& channel, std::vector<client::QueueMessage> messages, int expired);
    void showMessage(int row);
    void setStatus(const QString& text, bool error = false);

    ConnectionController* connection_;
    ChannelListModel* model_;
    QSortFilterProxyModel* proxy_;
    QLineEdit* search_;
    QTableView* table_;
    QTableWidget* peek_;
    QTextBrowser* details_;
    QLabel* status_;
    QLabel* peekTitle_;
    QSpinBox* peekCount_;
    QTimer timer_;
    bool refreshing_ = false;
    EventStream* runStream_ = nullptr;
    std::vector<client::QueueMessage> peeked_;
};

}  // namespace qs::ui
