#pragma once

#include <QAbstractTableModel>
#include <QHash>
#include <functional>
#include <optional>
#include <vector>

#include "client/channel_history.h"
#include "client/queue_channel_info.h"

// Queue channels with their live statistics, as listed by the server, plus
// what this console itself counted for channels it drives (in flight, acked,
// dead-lettered). Dead-letter channels are marked and linked to their source.
// Rows are updated in place by name, so selection survives a refresh.
// UI thread only.
namespace qs::ui {

struct ConsoleChannelCounts {
    qint64 inFlight = 0;
    qint64 acked = 0;
    qint64 deadLettered = 0;
};

class ChannelListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        WaitingColumn,
        InFlightColumn,
        SentColumn,
        DeliveredColumn,
        AckedColumn,
        ExpiredColumn,
        DeadLetteredColumn,
        DelayedColumn,
        SentRateColumn,  // per second between the last two polls (ChannelHistory)
        DeliveredRateColumn,
        ClientsColumn,  // consumers polling now, as the server reports; "–" when it does not
        LastActivityColumn,
        DeadLetterLinkColumn,
        ColumnCount
    };
    enum Role {
        NameRole = Qt::UserRole + 1,
        IsDeadLetterRole,   // bool
        LinkedChannelRole,  // QString: the source of a DLQ / the DLQ of a source
        SortRole,
    };

    explicit ChannelListModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    void setChannels(std::vector<client::QueueChannelInfo> channels);
    void clear();
    const client::QueueChannelInfo* channel(int row) const;
    int rowOf(const QString& name) const;

    // `deadLetter` receives the dead-lettered messages of `source` (from a
    // policy this console sent, or from a peeked message's ReRoutedFromQueue).
    // `maxReceiveCount`: the policy this console sent them with, which KubeMQ
    // does not keep on a dead-lettered copy (a redrive restores it); 0 = the
    // server's default (nothing to restore); -1 = not told (a peek).
    void noteDeadLetter(const QString& deadLetter, const QString& source,
                        int maxReceiveCount = -1);
    // The max receive count last noted for `deadLetter`; 0 = not known.
    int sentMaxReceiveCount(const QString& deadLetter) const;
    bool isDeadLetter(const QString& name) const;
    QString sourceOf(const QString& deadLetter) const;
    QString deadLetterOf(const QString& source) const;

    void setConsoleCounts(std::function<std::optional<ConsoleChannelCounts>(const QString&)> fn) {
        console_ = std::move(fn);
    }
    void refreshConsoleCounts();  // re-reads console counts (one dataChanged)
    // The rates columns read `history` (not owned; null = none: "–").
    void setHistory(const client::ChannelHistory* history) { history_ = history; }

private:
    std::vector<client::QueueChannelInfo> rows_;
    const client::ChannelHistory* history_ = nullptr;
    QHash<QString, QString> dlqToSource_;
    QHash<QString, int> dlqMaxReceiveCount_;
    std::function<std::optional<ConsoleChannelCounts>(const QString&)> console_;
};

}  // namespace qs::ui
