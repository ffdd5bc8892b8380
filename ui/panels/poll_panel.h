#pragma once

#include <QWidget>

class QLabel;
class QTableView;

// The "Polls" dock: poll efficiency and fairness per worker
// (PollFairnessModel) under a one-line summary with Jain's index. Its model
// works only while the dock can be seen.
namespace qs::ui {

class PollFairnessModel;

class PollPanel : public QWidget {
    Q_OBJECT
public:
    // `model` is not owned and must outlive the panel.
    explicit PollPanel(PollFairnessModel* model, QWidget* parent = nullptr);

    PollFairnessModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QString summaryText() const;

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void updateSummary();

    PollFairnessModel* model_;
    QTableView* table_;
    QLabel* summary_;
};

}  // namespace qs::ui
