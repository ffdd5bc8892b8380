#pragma once

#include <QHash>
#include <QSet>
#include <QString>

// The learner's way through the lessons, kept in QSettings: which steps of
// each lesson have passed every check (as the lesson wrote them, not a
// what-if), and the lesson last opened. Keys: lessons/passed/NAME (the
// passed steps, 1-based), lessons/last. UI thread.
namespace qs::ui {

class LessonProgress {
public:
    // Without `remember` it lasts as long as this object (a window without settings).
    explicit LessonProgress(bool remember) : remember_(remember) {}

    QSet<int> passedSteps(const QString& lesson) const;  // 0-based
    void markPassed(const QString& lesson, int step);
    QString lastLesson() const;
    void setLastLesson(const QString& lesson);

private:
    bool remember_;
    QHash<QString, QSet<int>> passed_;  // without remember_
    QString last_;
};

}  // namespace qs::ui
