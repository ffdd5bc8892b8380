#pragma once

#include <QSortFilterProxyModel>
#include <QWidget>

#include "event_log_model.h"

class QComboBox;
class QLineEdit;
class QTableView;
class QCheckBox;
class QLabel;

// The event log dock: filter by source / problems, free-text search, follow
// the newest event, export what the filter shows as CSV or JSON Lines.
namespace qs::ui {

class EventLogFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    enum class Scope { All, Producer, Workers, Pool, Broker, Problems };
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setScope(Scope scope);
    Scope scope() const { return scope_; }

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
    // Exports the rows the filter shows; the format follows the extension
    // (.csv, otherwise JSON Lines).
    bool exportTo(const QString& path, QString* error = nullptr);

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
    QLabel* count_;
};

}  // namespace qs::ui
