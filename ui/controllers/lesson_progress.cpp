#include "controllers/lesson_progress.h"

#include <QSettings>
#include <QStringList>

namespace qs::ui {

namespace {

QString passedKey(const QString& lesson) {
    return QStringLiteral("lessons/passed/") + lesson;
}

}  // namespace

QSet<int> LessonProgress::passedSteps(const QString& lesson) const {
    if (!remember_) {
        return passed_.value(lesson);
    }
    QSet<int> steps;
    for (const QString& s : QSettings().value(passedKey(lesson)).toStringList()) {
        bool ok = false;
        const int n = s.toInt(&ok);
        if (ok && n >= 1) {
            steps.insert(n - 1);
        }
    }
    return steps;
}

void LessonProgress::markPassed(const QString& lesson, int step) {
    if (!remember_) {
        passed_[lesson].insert(step);
        return;
    }
    QSet<int> steps = passedSteps(lesson);
    steps.insert(step);
    QStringList list;
    for (const int s : steps) {
        list << QString::number(s + 1);
    }
    list.sort();
    QSettings().setValue(passedKey(lesson), list);
}

QString LessonProgress::lastLesson() const {
    return remember_ ? QSettings().value(QStringLiteral("lessons/last")).toString() : last_;
}

void LessonProgress::setLastLesson(const QString& lesson) {
    last_ = lesson;
    if (remember_) {
        QSettings().setValue(QStringLiteral("lessons/last"), lesson);
    }
}

}  // namespace qs::ui
