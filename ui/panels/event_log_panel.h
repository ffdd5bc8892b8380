#pragma once

#include <QSortFilterProxyModel>
#include <QWidget>
#include <cstdint>
#include <optional>

#include "models/event_log_model.h"

class QComboBox;
class QLineEdit;
class QTableView;
class QCheckBox;

// The event log dock: filter by source / problems, free-text search, follow
// the newest event, export what the filter shows as CSV or JSON Lines.
namespace qs::ui {

class SteadyLabel;

class EventLogFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    enum class Scope { All, Producer, Workers, Pool, Broker, Problems };
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setScope(Scope scope);
    Scope scope() const { return scope_; }
    // Whether the filter lets `event` through (rows and exports alike).
    bool accepts(const Event& event) const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    Scope scope_ = Scope::All;
};

class EventLogPanel : public QWidget {
    Q_OBJECT
public:
    explicit EventLogPanel(EventLogModel* model, QWidget* parent = nullptr);

    EventLogFilter* filter() const { return filter_; }
    // Exports every event of the run the filter lets through, not only the
    // rows in the window; the format follows the extension (.csv, otherwise
    // JSON Lines). *exported (optional) gets how many were written.
    bool exportTo(const QString& path, QString* error = nullptr, std::uint64_t* exported = nullptr);
    // Selects and scrolls to the run's event `index` (Run::event), or the
    // nearest earlier one the filter shows, and stops following the newest.
    void showEvent(std::uint64_t index);
    // The run's index of the selected event; nullopt = none selected.
    std::optional<std::uint64_t> selectedEvent() const;
    void followNewest();  // keeps the newest row in view again (the cursor went live)

Q_SIGNALS:
    void statusMessage(const QString& text);  // what an action did, for the status bar

public Q_SLOTS:
    void exportInteractive();
    void refresh();  // called each frame: keeps the newest row in view when following

private:
    EventLogModel* model_;
    EventLogFilter* filter_;
    QTableView* view_;
    QComboBox* scope_;
    QLineEdit* search_;
    QCheckBox* follow_;
    SteadyLabel* count_;  // changes every frame: no relayout of the window
};

}  // namespace qs::ui
