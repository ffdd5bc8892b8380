#include "models/run_channels_model.h"

#include <algorithm>

#include "models/core_text.h"

namespace qs::ui {

RunChannelsModel::RunChannelsModel(QObject* parent) : QAbstractTableModel(parent) {}

int RunChannelsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int RunChannelsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

const ChannelAt* RunChannelsModel::channel(int row) const {
    return row >= 0 && row < static_cast<int>(rows_.size()) ? &rows_[static_cast<std::size_t>(row)]
                                                            : nullptr;
}

qint64 RunChannelsModel::count(const ChannelAt& c, int column) {
    auto n = [&](MessageState s) { return static_cast<qint64>(c.count(s)); };
    switch (column) {
        case WaitingColumn:
            return n(MessageState::Waiting);
        case DelayedColumn:
            return n(MessageState::Delayed);
        case InFlightColumn:
            return n(MessageState::InFlight);
        case AckedColumn:
            return n(MessageState::Acked);
        case DeadLetteredColumn:
            return n(MessageState::DeadLettered);
        case OtherEndColumn:
            return n(MessageState::Dropped) + n(MessageState::Expired) + n(MessageState::Purged) +
                   n(MessageState::SendFailed);
        default:
            return -1;
    }
}

QVariant RunChannelsModel::data(const QModelIndex& index, int role) const {
    const ChannelAt* c =
        checkIndex(index, CheckIndexOption::IndexIsValid) ? channel(index.row()) : nullptr;
    if (c == nullptr) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        if (index.column() == NameColumn) {
            return fromView(c->channel.view());
        }
        return count(*c, index.column());
    }
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant RunChannelsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    static const char* const names[] = {"Channel", "Waiting",       "Delayed",  "In flight",
                                        "Acked",   "Dead-lettered", "Other end"};
    static const char* const tips[] = {
        "A channel a message of this run lived in at the time cursor.",
        "Messages of this run waiting in the channel then.",
        "Sent with a delay that had not run out then.",
        "Handed to a worker and not settled then.",
        "Acked by then.",
        "Dead-letter copies living in this channel then (counted in the dead-letter channel, "
        "not in the channel they came from).",
        "Dropped (max receives, no dead-letter channel), expired, purged or never sent by then."};
    if (role == Qt::DisplayRole) {
        return QString::fromUtf8(names[section]);
    }
    if (role == Qt::ToolTipRole) {
        return QString::fromUtf8(tips[section]);
    }
    return {};
}

void RunChannelsModel::setChannels(const std::vector<ChannelAt>& channels) {
    const bool sameRows =
        std::equal(rows_.begin(), rows_.end(), channels.begin(), channels.end(),
                   [](const ChannelAt& a, const ChannelAt& b) { return a.channel == b.channel; });
    if (!sameRows) {
        beginResetModel();
        rows_ = channels;
        endResetModel();
        return;
    }
    if (rows_ == channels) {
        return;
    }
    rows_ = channels;
    Q_EMIT dataChanged(index(0, WaitingColumn), index(rowCount() - 1, ColumnCount - 1),
                       {Qt::DisplayRole});
}

}  // namespace qs::ui
