#pragma once

#include <QWidget>

class QTableView;
class QTextBrowser;
class QComboBox;
class QLineEdit;
class QLabel;

// The message table with its filters (state, worker, body text) and the full
// history of the selected message. UI thread only.
namespace qs::ui {

class MessageTableModel;
class MessageFilterProxy;

class MessagePanel : public QWidget {
    Q_OBJECT
public:
    explicit MessagePanel(MessageTableModel* model, QWidget* parent = nullptr);

    MessageFilterProxy* proxy() const { return proxy_; }
    QTableView* view() const { return view_; }
    QString selectedKey() const { return selected_; }
    QString historyText() const;
    QString countsText() const;  // the run's counts above the table
    // Shown in the history pane while no message is selected.
    static const QString kHistoryHint;

public Q_SLOTS:
    void selectKey(const QString& key);  // from other views
    void refresh();                      // worker list, counts (a few times per second)

Q_SIGNALS:
    void messageSelected(const QString& key);

private:
    QString windowNote() const;
    void sizeColumns();
    void showHistory();

    MessageTableModel* model_;
    MessageFilterProxy* proxy_;
    QTableView* view_;
    QTextBrowser* history_;
    QComboBox* state_;
    QComboBox* worker_;
    QLineEdit* search_;
    QLabel* counts_;
    QString selected_;
    bool selecting_ = false;
};

}  // namespace qs::ui
