#include "models/channel_list_model.h"

#include <QDateTime>
#include <QFont>
#include <algorithm>

namespace qs::ui {

namespace {
bool looksLikeDeadLetter(const QString& name) {
    static const QStringList suffixes = {
        QStringLiteral(".dlq"),         QStringLiteral("-dlq"),
        QStringLiteral("_dlq"),         QStringLiteral(".dead-letter"),
        QStringLiteral("-dead-letter"), QStringLiteral("_dead_letter")};
    for (const QString& s : suffixes) {
        if (name.endsWith(s, Qt::CaseInsensitive)) {
            return true;
        }
    }
    return name.startsWith(QStringLiteral("dlq."), Qt::CaseInsensitive);
}

QString stripDeadLetter(const QString& name) {
    static const QStringList suffixes = {
        QStringLiteral(".dlq"),         QStringLiteral("-dlq"),
        QStringLiteral("_dlq"),         QStringLiteral(".dead-letter"),
        QStringLiteral("-dead-letter"), QStringLiteral("_dead_letter")};
    for (const QString& s : suffixes) {
        if (name.endsWith(s, Qt::CaseInsensitive)) {
            return name.left(name.size() - s.size());
        }
    }
    if (name.startsWith(QStringLiteral("dlq."), Qt::CaseInsensitive)) {
        return name.mid(4);
    }
    return {};
}

QString ago(std::int64_t unixMs) {
    if (unixMs <= 0) {
        return QStringLiteral("–");
    }
    const qint64 s = (QDateTime::currentMSecsSinceEpoch() - unixMs) / 1000;
    if (s < 2) {
        return QStringLiteral("now");
    }
    if (s < 120) {
        return QStringLiteral("%1 s ago").arg(s);
    }
    if (s < 7200) {
        return QStringLiteral("%1 min ago").arg(s / 60);
    }
    return QDateTime::fromMSecsSinceEpoch(unixMs).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}
}  // namespace

ChannelListModel::ChannelListModel(QObject* parent) : QAbstractTableModel(parent) {}

int ChannelListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ChannelListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

const client::QueueChannelInfo* ChannelListModel::channel(int row) const {
    return row >= 0 && row < rowCount() ? &rows_[static_cast<std::size_t>(row)] : nullptr;
}

int ChannelListModel::rowOf(const QString& name) const {
    const std::string n = name.toStdString();
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        if (rows_[i].name == n) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

void ChannelListModel::noteDeadLetter(const QString& deadLetter, const QString& source,
                                      int maxReceiveCount) {
    if (maxReceiveCount > 0) {
        dlqMaxReceiveCount_.insert(deadLetter, maxReceiveCount);
    } else if (maxReceiveCount == 0) {
        dlqMaxReceiveCount_.remove(deadLetter);  // the last send left it to the server
    }
    if (deadLetter.isEmpty() || source.isEmpty() || dlqToSource_.value(deadLetter) == source) {
        return;
    }
    dlqToSource_.insert(deadLetter, source);
    if (!rows_.empty()) {
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    }
}

int ChannelListModel::sentMaxReceiveCount(const QString& deadLetter) const {
    return dlqMaxReceiveCount_.value(deadLetter, 0);
}

bool ChannelListModel::isDeadLetter(const QString& name) const {
    return dlqToSource_.contains(name) || looksLikeDeadLetter(name);
}

QString ChannelListModel::sourceOf(const QString& deadLetter) const {
    if (dlqToSource_.contains(deadLetter)) {
        return dlqToSource_.value(deadLetter);
    }
    const QString guess = stripDeadLetter(deadLetter);
    return rowOf(guess) >= 0 ? guess : QString();
}

QString ChannelListModel::deadLetterOf(const QString& source) const {
    for (auto it = dlqToSource_.constBegin(); it != dlqToSource_.constEnd(); ++it) {
        if (it.value() == source) {
            return it.key();
        }
    }
    for (const auto& r : rows_) {
        const QString name = QString::fromStdString(r.name);
        if (looksLikeDeadLetter(name) && stripDeadLetter(name) == source) {
            return name;
        }
    }
    return {};
}

QVariant ChannelListModel::data(const QModelIndex& index, int role) const {
    const client::QueueChannelInfo* c = index.isValid() ? channel(index.row()) : nullptr;
    if (!c) {
        return {};
    }
    const QString name = QString::fromStdString(c->name);
    const bool dlq = isDeadLetter(name);
    const auto console = console_ ? console_(name) : std::nullopt;
    switch (role) {
        case NameRole:
            return name;
        case IsDeadLetterRole:
            return dlq;
        case LinkedChannelRole:
            return dlq ? sourceOf(name) : deadLetterOf(name);
        case Qt::TextAlignmentRole:
            return index.column() == NameColumn || index.column() == DeadLetterLinkColumn
                       ? QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter)
                       : QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::ToolTipRole:
            if (index.column() == NameColumn && dlq) {
                const QString src = sourceOf(name);
                return src.isEmpty() ? QStringLiteral("Dead-letter channel")
                                     : QStringLiteral(
                                           "Dead-letter channel of %1: tasks that reached their "
                                           "MaxReceiveCount there end up here.")
                                           .arg(src);
            }
            return {};
        case Qt::FontRole:
            if (index.column() == NameColumn && dlq) {
                QFont f;
                f.setItalic(true);
                return f;
            }
            return {};
        default:
            break;
    }
    const auto& in = c->incoming;
    const auto& out = c->outgoing;
    const qint64 waiting = std::max(in.waiting, out.waiting);
    const qint64 dlqCount = [&]() -> qint64 {
        const QString target = deadLetterOf(name);
        const int row = target.isEmpty() ? -1 : rowOf(target);
        if (row >= 0) {
            return rows_[static_cast<std::size_t>(row)].incoming.messages;
        }
        return console ? console->deadLettered : -1;
    }();
    const client::ChannelRatePoint* rate =
        history_ != nullptr ? history_->latest(name.toStdString()) : nullptr;
    if (role == SortRole) {
        switch (index.column()) {
            case SentRateColumn:
                return rate ? rate->sentPerSecond : -1.0;
            case DeliveredRateColumn:
                return rate ? rate->deliveredPerSecond : -1.0;
            case NameColumn:
                return name;
            case WaitingColumn:
                return waiting;
            case InFlightColumn:
                return console ? console->inFlight : -1;
            case SentColumn:
                return static_cast<qint64>(in.messages);
            case DeliveredColumn:
                return static_cast<qint64>(out.messages);
            case AckedColumn:
                return console ? console->acked : -1;
            case ExpiredColumn:
                return static_cast<qint64>(std::max(in.expired, out.expired));
            case DeadLetteredColumn:
                return dlqCount;
            case DelayedColumn:
                return static_cast<qint64>(std::max(in.delayed, out.delayed));
            case ClientsColumn:
                return static_cast<qint64>(c->clients);
            case LastActivityColumn:
                return static_cast<qint64>(c->lastActivity);
            default:
                return data(index, Qt::DisplayRole);
        }
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    const QString dash = QStringLiteral("–");
    switch (index.column()) {
        case NameColumn:
            return dlq ? QStringLiteral("⚑ ") + name : name;
        case WaitingColumn:
            return waiting;
        case InFlightColumn:
            return console ? QVariant(console->inFlight) : QVariant(dash);
        case SentColumn:
            return static_cast<qint64>(in.messages);
        case DeliveredColumn:
            return static_cast<qint64>(out.messages);
        case AckedColumn:
            return console ? QVariant(console->acked) : QVariant(dash);
        case ExpiredColumn:
            return static_cast<qint64>(std::max(in.expired, out.expired));
        case DeadLetteredColumn:
            return dlqCount >= 0 ? QVariant(dlqCount) : QVariant(dash);
        case DelayedColumn:
            return static_cast<qint64>(std::max(in.delayed, out.delayed));
        case SentRateColumn:
            return rate ? QVariant(QString::number(rate->sentPerSecond, 'f', 1)) : QVariant(dash);
        case DeliveredRateColumn:
            return rate ? QVariant(QString::number(rate->deliveredPerSecond, 'f', 1))
                        : QVariant(dash);
        case ClientsColumn:
            return c->clients >= 0 ? QVariant(static_cast<qint64>(c->clients)) : QVariant(dash);
        case LastActivityColumn:
            return ago(c->lastActivity);
        case DeadLetterLinkColumn: {
            if (dlq) {
                const QString src = sourceOf(name);
                return src.isEmpty() ? QString() : QStringLiteral("← dead letters of ") + src;
            }
            const QString target = deadLetterOf(name);
            return target.isEmpty() ? QString() : QStringLiteral("→ ") + target;
        }
        default:
            break;
    }
    return {};
}

QVariant ChannelListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
            case NameColumn:
                return QStringLiteral("Channel");
            case WaitingColumn:
                return QStringLiteral("Waiting");
            case InFlightColumn:
                return QStringLiteral("In flight");
            case SentColumn:
                return QStringLiteral("Sent");
            case DeliveredColumn:
                return QStringLiteral("Delivered");
            case AckedColumn:
                return QStringLiteral("Acked");
            case ExpiredColumn:
                return QStringLiteral("Expired");
            case DeadLetteredColumn:
                return QStringLiteral("Dead-lettered");
            case DelayedColumn:
                return QStringLiteral("Delayed");
            case SentRateColumn:
                return QStringLiteral("Sent/s");
            case DeliveredRateColumn:
                return QStringLiteral("Delivered/s");
            case ClientsColumn:
                return QStringLiteral("Clients");
            case LastActivityColumn:
                return QStringLiteral("Last activity");
            case DeadLetterLinkColumn:
                return QStringLiteral("Dead-letter link");
            default:
                break;
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
            case WaitingColumn:
                return QStringLiteral("Messages ready for a consumer (reported by the server).");
            case InFlightColumn:
            case AckedColumn:
                return QStringLiteral(
                    "Counted by this console from its own workers' events; traffic of other\n"
                    "clients is not included. – = this console does not drive the channel.");
            case SentColumn:
                return QStringLiteral("Messages stored into the channel, including NAck copies.");
            case DeliveredColumn:
                return QStringLiteral("Hand-outs to consumers (a redelivery counts again).");
            case DeadLetteredColumn:
                return QStringLiteral("Messages moved to this channel's dead-letter channel.");
            case SentRateColumn:
            case DeliveredRateColumn:
                return QStringLiteral(
                    "Per second between the last two polls of the server's counters (any\n"
                    "client's traffic); a counter that went down (a restart) counts from zero.\n"
                    "– until the second poll.");
            case ClientsColumn:
                return QStringLiteral(
                    "Consumers polling the channel at the last poll of the server, any client's\n"
                    "(the channel list's clients, or QueuesInfo's Subscribers). – = the server\n"
                    "does not report it.");
            case LastActivityColumn:
                return QStringLiteral(
                    "When the server last saw traffic on the channel (– = not reported).");
            case DeadLetterLinkColumn:
                return QStringLiteral(
                    "Double-click to jump between a channel and its dead-letter channel.");
            default:
                break;
        }
    }
    return {};
}

void ChannelListModel::setChannels(std::vector<client::QueueChannelInfo> channels) {
    std::sort(channels.begin(), channels.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    // Same names in the same order: update in place (keeps selection and scroll).
    bool sameNames = channels.size() == rows_.size();
    for (std::size_t i = 0; sameNames && i < rows_.size(); ++i) {
        sameNames = channels[i].name == rows_[i].name;
    }
    if (sameNames) {
        rows_ = std::move(channels);
        if (!rows_.empty()) {
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        }
        return;
    }
    beginResetModel();
    rows_ = std::move(channels);
    endResetModel();
}

void ChannelListModel::clear() {
    beginResetModel();
    rows_.clear();
    endResetModel();
}

void ChannelListModel::refreshConsoleCounts() {
    if (!rows_.empty()) {
        Q_EMIT dataChanged(index(0, InFlightColumn), index(rowCount() - 1, DeadLetteredColumn));
    }
}

}  // namespace qs::ui
