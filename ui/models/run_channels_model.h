#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "run/run_state.h"

// The channels as the console's run had them at one instant (the Channels
// view at a time cursor, docs/ui.md "Time travel"): a row per channel a
// message of the run lived in then, with its messages by state, read from
// RunState::channels (Run::stateAt). The run's own view: only messages of
// this run, each counted in the channel it lived in then (a dead-lettered
// copy in its dead-letter channel). Keeps nothing but the rows it shows.
// UI thread only.
namespace qs::ui {

class RunChannelsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        WaitingColumn,
        DelayedColumn,
        InFlightColumn,
        AckedColumn,
        DeadLetteredColumn,
        OtherEndColumn,  // dropped, expired, purged, send failed
        ColumnCount
    };

    explicit RunChannelsModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // The channels of a state (sorted by name, as RunState keeps them). Rows
    // of the same channels are updated in place (selection survives a move
    // of the cursor); a channel coming or going resets the model.
    void setChannels(const std::vector<ChannelAt>& channels);
    const ChannelAt* channel(int row) const;
    // The count a cell shows (-1 for the name column).
    static qint64 count(const ChannelAt& channel, int column);

private:
    std::vector<ChannelAt> rows_;
};

}  // namespace qs::ui
