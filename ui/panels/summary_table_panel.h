#pragma once

#include <QWidget>
#include <functional>

class QAbstractItemModel;
class QLabel;
class QTableView;

// A dock's body: a read-only table over a model that works only while it can
// be seen (the In flight board, the Polls), under a one-line summary of it.
// The summary follows the model's resets and changes. The model works only
// while the panel is on screen (setOnScreen): its dock's visibilityChanged
// says so, as a dock behind another tab is moved off screen, not hidden.
//
// Threading: UI thread only.
namespace qs::ui {

class SummaryTablePanel : public QWidget {
    Q_OBJECT
public:
    struct ModelHooks {
        std::function<QString()> summary;     // the line above the table
        std::function<void(bool)> setActive;  // called by setOnScreen()
    };

    // `model` is not owned and must outlive the panel.
    SummaryTablePanel(QAbstractItemModel* model, ModelHooks hooks, QWidget* parent = nullptr);

    QTableView* table() const { return table_; }
    QString summaryText() const;
    // Activates the model when the panel comes on screen, deactivates it when it leaves.
    void setOnScreen(bool onScreen);

protected:
    void setSummaryToolTip(const QString& text);

private:
    void updateSummary();

    ModelHooks hooks_;
    QTableView* table_;
    QLabel* summary_;
};

}  // namespace qs::ui
