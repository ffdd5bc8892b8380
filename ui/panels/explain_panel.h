#pragma once

#include <QHash>
#include <QIcon>
#include <QTimer>
#include <QWidget>
#include <cstdint>
#include <optional>
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
    // The time cursor: the newest sentence at or before t is selected and in
    // view, the later ones (not yet happened there) greyed; nullopt = the head.
    void showTime(std::optional<std::int64_t> timeNs);
    int currentLine() const;  // the selected line (0 = newest), -1 = none

Q_SIGNALS:
    void messageClicked(const QString& key);

private:
    void append(const Explanation& e);
    void appendAll(const std::vector<Explanation>& lines);
    // The run went quiet: the "and N more" lines of its last second.
    void sayWhatWasLeftOut();

    Explainer explainer_;
    ExplainList* list_;
    QHash<QRgb, QIcon> icons_;  // dot per colour
    int maxLines_ = 500;
    std::optional<std::int64_t> cursorNs_;
    QTimer quiet_;  // a while after the last append: sayWhatWasLeftOut()
};

}  // namespace qs::ui
