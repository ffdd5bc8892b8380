#pragma once

#include <QHash>
#include <QList>
#include <QWidget>
#include <optional>
#include <string>
#include <vector>

#include "controllers/lesson_progress.h"
#include "controllers/lesson_run.h"
#include "lessons/lesson.h"

class QButtonGroup;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QVBoxLayout;

// The Lessons dock (docs/lessons.md, "In the console"): the shipped lessons
// with the learner's progress, the chosen lesson's idea and steps, the
// prediction of a step (a choice, a number or a worker), Run (the step's run
// played in the console by LessonRun), then the core's verdicts as ✓ / ✗ / ?
// lines, each with "Show me" for its evidence; the run's recording to replay,
// and a what-if run with another batch, worker count or wait timeout.
// UI thread only.
namespace qs::ui {

class LessonsPanel : public QWidget {
    Q_OBJECT
public:
    // `lessonRun` is not owned. Progress is kept in QSettings when `remember`.
    LessonsPanel(LessonRun* lessonRun, bool remember, QWidget* parent = nullptr);

    // The shipped lessons, in order, and the one shown.
    QStringList lessonNames() const;
    bool selectLesson(const QString& name);  // a shipped name, with or without its number
    QString currentLesson() const;
    const lessons::Lesson* lesson() const;
    int currentStep() const { return step_; }
    void showStep(int step);

    // The answer as `queuescope lesson --answer` takes it ("b", "5", "worker-3");
    // "" clears it. False when the widget has no such answer.
    bool setAnswer(const QString& answer);
    std::optional<std::string> answer() const;

    // Run: the step as written. False with the reason shown (and in *error).
    bool runStep(QString* error = nullptr);
    // The what-if fields, and a run of the step with them.
    void setWhatIf(int batch, int workers, double waitSeconds);
    runner::Scenario whatIfScenario() const;
    bool runWhatIf(QString* error = nullptr);

    // The verdict lines shown ("✓ title — sentence"), for tests and readers.
    QStringList resultLines() const;
    QString gradeText() const;  // rich text
    QString statusText() const;
    // The last outcome decided for the step shown (nullptr = none yet).
    const LessonStepOutcome* shownOutcome() const;
    // Whether Run can be pressed now, and the note above the steps (what the
    // connection cannot serve of the lesson; "" = none).
    bool canRun() const;
    QString noteText() const;
    LessonProgress& progress() { return progress_; }

Q_SIGNALS:
    // "Show me": select this message (key "" = none) and these workers, and
    // move the time cursor to timeNs (0 = leave it).
    void evidenceRequested(const QString& messageKey, const QStringList& workers, qint64 timeNs);
    // Replay the step's run from its recording.
    void replayRequested(const QString& recordingPath);

private:
    void buildLayout();
    QWidget* buildPrediction();
    QWidget* buildWhatIf();
    void loadLessons();
    void refreshLessonList();
    QString markOf(const QString& name) const;
    void lessonChosen(int index);
    void showStepLabel();
    void showAvailability(const lessons::Lesson& lesson);
    void availabilityChanged();
    void fillPrediction(const lessons::LessonStep& step);
    void fillWhatIf(const lessons::LessonStep& step);
    bool start(const runner::Scenario& scenario, bool whatIf, QString* error);
    void decided(const LessonStepOutcome& outcome);
    void showOutcome();
    void clearResults();
    void addResultRow(const QString& html, const QString& plain, const LessonEvidence& evidence,
                      const QString& name);
    void showMe(const LessonEvidence& evidence, int& next);
    void updateButtons();
    void setStatus(const QString& text, bool problem = false);
    static QString outcomeKey(const QString& lesson, int step);

    LessonRun* lessonRun_;
    LessonProgress progress_;
    std::vector<lessons::Lesson> lessons_;
    QStringList loadErrors_;
    int index_ = -1;
    int step_ = 0;
    QHash<QString, LessonStepOutcome> outcomes_;

    QScrollArea* scroll_;
    QComboBox* list_;
    QLabel* title_;
    QLabel* idea_;
    QLabel* note_;
    QLabel* stepLabel_;
    QPushButton* prev_;
    QPushButton* next_;
    QLabel* prose_;
    QGroupBox* predictionBox_;
    QLabel* question_;
    QWidget* choices_;
    QVBoxLayout* choicesLayout_;
    QButtonGroup* choiceGroup_;
    QLineEdit* number_;
    QComboBox* worker_;
    QLabel* answerError_;
    QPushButton* run_;
    QPushButton* replay_;
    QGroupBox* whatIfBox_;
    QSpinBox* batch_;
    QSpinBox* workers_;
    QDoubleSpinBox* wait_;
    QPushButton* runWhatIf_;
    QLabel* status_;
    QLabel* grade_;
    QPushButton* gradeShowMe_;
    QWidget* results_;
    QVBoxLayout* resultsLayout_;
    QStringList resultLines_;
    int gradeNext_ = 0;
    std::vector<int> showMeNext_;
};

}  // namespace qs::ui
