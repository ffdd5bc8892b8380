// The window's side of the guided lessons (docs/lessons.md, "In the console"):
// the Lessons dock, its runs played by the window's scenario player, "Show me"
// (the evidence's task, time and workers' lanes) and replay. Kept apart from main_window.cpp.
#include <QAction>
#include <QDockWidget>
#include <QTimer>
#include <algorithm>

#include "controllers/lesson_run.h"
#include "controllers/time_cursor.h"
#include "main_window.h"
#include "panels/lessons_panel.h"
#include "widgets/first_run_greeting.h"
#include "widgets/timeline_view.h"

namespace qs::ui {

void MainWindow::buildLessonsDock() {
    lessonRun_ = new LessonRun(
        player_, recorder_, run_, consoleRun_,
        [this](const runner::Scenario& scenario, QString* error) {
            if (!recordingPath_.isEmpty()) {
                closeRecording();  // a replay shown: the run goes on the live console
            }
            return playLoadedScenario(scenario, error);
        },
        this);
    lessons_ = new LessonsPanel(lessonRun_, options_.useSettings, this);
    auto* lessonsDock = dock(QStringLiteral("Lessons"), QStringLiteral("lessonsDock"), lessons_,
                             Qt::LeftDockWidgetArea);
    if (auto* producerDock = findChild<QDockWidget*>(QStringLiteral("producerDock"))) {
        tabifyDockWidget(producerDock, lessonsDock);
        producerDock->raise();
    }
    connect(lessons_, &LessonsPanel::evidenceRequested, this, &MainWindow::showEvidence);
    addClearShowMeShortcut();
    connect(lessons_, &LessonsPanel::replayRequested, this, &MainWindow::openRecordingInteractive);
    connect(greeting_, &FirstRunGreeting::lessonRequested, this, [this] {
        markGreeted();
        showLessons(QString::fromLatin1(FirstRunGreeting::kFirstLesson));
    });
}

// The evidence's time under the cursor, its task selected, its workers' lanes
// highlighted on the timeline (replacing what an earlier Show me pointed at).
void MainWindow::showEvidence(const QString& key, const QStringList& workers, qint64 timeNs) {
    if (timeNs > 0) {
        cursor_->moveTo(timeNs);
    }
    if (!key.isEmpty()) {
        showDock(QStringLiteral("messagesDock"));
        selectMessage(key);
    }
    timelineView()->setHighlightedWorkers(workers);
    if (!workers.isEmpty()) {
        const QString lanes = QStringLiteral(
                                  "%1 highlighted on the timeline (Esc clears them; "
                                  "Ctrl+L returns to live)")
                                  .arg(workers.join(QStringLiteral(", ")));
        showStatus(
            QStringLiteral("Show me: ") +
                (key.isEmpty() ? lanes
                               : QStringLiteral("task %1 selected; %2").arg(taskLabel(key), lanes)),
            15000);
    }
}

// Esc anywhere in the window clears Show me's lanes; enabled only while there
// are some, so that Esc keeps its meaning everywhere else.
void MainWindow::addClearShowMeShortcut() {
    auto* clear = new QAction(QStringLiteral("Clear Show me's highlighted lanes"), this);
    clear->setObjectName(QStringLiteral("clearShowMe"));
    clear->setShortcut(QKeySequence(Qt::Key_Escape));
    clear->setShortcutContext(Qt::WindowShortcut);
    clear->setEnabled(false);
    addAction(clear);
    connect(clear, &QAction::triggered, timelineView(), &TimelineView::clearHighlightedWorkers);
    connect(timelineView(), &TimelineView::highlightedWorkersChanged, clear,
            [clear](const QStringList& workers) { clear->setEnabled(!workers.isEmpty()); });
}

void MainWindow::showLessons(const QString& lesson) {
    showDock(QStringLiteral("lessonsDock"));
    // Its lines read better wider than the producer's form needs; once the
    // window has laid its docks out (a first show has not yet).
    QTimer::singleShot(0, this, [this] {
        auto* lessonsDock = findChild<QDockWidget*>(QStringLiteral("lessonsDock"));
        auto* producerDock = findChild<QDockWidget*>(QStringLiteral("producerDock"));
        auto* explainDock = findChild<QDockWidget*>(QStringLiteral("explainDock"));
        if (lessonsDock && producerDock && explainDock) {
            // Not at the timeline's cost on a 1280-wide screen: the producer's 360 there.
            resizeDocks({lessonsDock}, {std::clamp(width() / 4, 360, 420)}, Qt::Horizontal);
            // The tab it shares with the producer, sized through the producer's dock.
            resizeDocks({producerDock, explainDock}, {height() * 3 / 4, height() / 6},
                        Qt::Vertical);
        }
    });
    if (!lesson.isEmpty()) {
        lessons_->selectLesson(lesson);
    }
}

}  // namespace qs::ui
