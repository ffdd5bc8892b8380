#pragma once

#include <QHash>
#include <QIcon>
#include <QWidget>
#include <vector>

#include "models/explainer.h"

class QListWidgetItem;

// The "what just happened" panel: newest plain-language explanation on top.
// Clicking a sentence about a task selects that task everywhere.
namespace qs::ui {

class ExplainList;
class ConsoleRun;

class ExplainPanel : public QWidget {
    Q_OBJECT
public:
    // Explains what `run` (not owned; it outlives the panel) appends.
    explicit ExplainPanel(const ConsoleRun* run, QWidget* parent = nullptr);

    Explainer& explainer() { return explainer_; }
    void explainNew();  // after each append of the run
    void clear();       // the run was reset
    void setMaxLines(int n) { maxLines_ = n; }

    int lineCount() const;
    QString line(int i) const;  // 0 = newest
    QStringList lines() const;

Q_SIGNALS:
    void messageClicked(const QString& key);

private:
    void append(const Explanation& e);

    Explainer explainer_;
    ExplainList* list_;
    QHash<QRgb, QIcon> icons_;  // dot per colour
    int maxLines_ = 500;
};

}  // namespace qs::ui
