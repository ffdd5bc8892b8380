#pragma once

#include <QWidget>

class QLabel;
class QTableView;

// The "In flight" dock: the lease board (LeaseBoardModel) under a one-line
// summary. Its model works only while the dock can be seen.
namespace qs::ui {

class LeaseBoardModel;

class LeasePanel : public QWidget {
    Q_OBJECT
public:
    // `model` is not owned and must outlive the panel.
    explicit LeasePanel(LeaseBoardModel* model, QWidget* parent = nullptr);

    LeaseBoardModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QString summaryText() const;

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void updateSummary();

    LeaseBoardModel* model_;
    QTableView* table_;
    QLabel* summary_;
};

}  // namespace qs::ui
