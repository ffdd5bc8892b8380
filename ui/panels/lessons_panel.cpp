#include "panels/lessons_panel.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

#include "lessons/lesson_library.h"
#include "lessons/lesson_player.h"
#include "lessons/prediction.h"
#include "models/core_text.h"
#include "workers/setting_limits.h"

namespace qs::ui {

namespace {

constexpr int kMaxWhatIfWorkers = 50;

QLabel* wrapped(QWidget* parent, const QString& name) {
    auto* label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString plainMark(lessons::Verdict verdict) {
    switch (verdict) {
        case lessons::Verdict::Pass:
            return QStringLiteral("✓");
        case lessons::Verdict::Fail:
            return QStringLiteral("✗");
        case lessons::Verdict::Undecided:
            break;
    }
    return QStringLiteral("?");
}

// The same glyph, coloured for the verdict lines.
QString verdictMark(lessons::Verdict verdict) {
    const char* colour = verdict == lessons::Verdict::Pass   ? "#1a8a3a"
                         : verdict == lessons::Verdict::Fail ? "#d93040"
                                                             : "#b07000";
    return QStringLiteral("<span style='color:%1'><b>%2</b></span>")
        .arg(QLatin1String(colour), plainMark(verdict));
}

}  // namespace

LessonsPanel::LessonsPanel(LessonRun* lessonRun, bool remember, QWidget* parent)
    : QWidget(parent), lessonRun_(lessonRun), progress_(remember) {
    setObjectName(QStringLiteral("lessonsPanel"));
    buildLayout();
    loadLessons();
    connect(lessonRun_, &LessonRun::progress, this, [this](const QString& text) {
        setStatus(text);
        updateButtons();
    });
    connect(lessonRun_, &LessonRun::decided, this, &LessonsPanel::decided);
    connect(lessonRun_, &LessonRun::availabilityChanged, this, &LessonsPanel::availabilityChanged);
    const QString last = progress_.lastLesson();
    if (last.isEmpty() || !selectLesson(last)) {
        lessonChosen(lessons_.empty() ? -1 : 0);
    }
}

void LessonsPanel::buildLayout() {
    auto* content = new QWidget;
    auto* v = new QVBoxLayout(content);
    v->setContentsMargins(6, 6, 6, 6);

    list_ = new QComboBox(content);
    list_->setObjectName(QStringLiteral("lessonList"));
    list_->setAccessibleName(QStringLiteral("Lesson"));
    list_->setToolTip(QStringLiteral(
        "The shipped lessons. ✓ every step passed its checks, ◐ some did, ⊘ cannot be played "
        "here."));
    connect(list_, &QComboBox::activated, this, &LessonsPanel::lessonChosen);
    v->addWidget(list_);

    title_ = wrapped(content, QStringLiteral("lessonTitle"));
    QFont big = title_->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.15);
    title_->setFont(big);
    v->addWidget(title_);
    idea_ = wrapped(content, QStringLiteral("lessonIdea"));
    v->addWidget(idea_);
    note_ = wrapped(content, QStringLiteral("lessonNote"));
    note_->hide();
    v->addWidget(note_);

    auto* nav = new QHBoxLayout;
    stepLabel_ = new QLabel(content);
    stepLabel_->setObjectName(QStringLiteral("lessonStep"));
    prev_ = new QPushButton(QStringLiteral("◀ Step"), content);
    prev_->setAccessibleName(QStringLiteral("Previous step"));
    prev_->setToolTip(QStringLiteral("The lesson's previous step."));
    next_ = new QPushButton(QStringLiteral("Step ▶"), content);
    next_->setAccessibleName(QStringLiteral("Next step"));
    next_->setToolTip(QStringLiteral("The lesson's next step."));
    connect(prev_, &QPushButton::clicked, this, [this] { showStep(step_ - 1); });
    connect(next_, &QPushButton::clicked, this, [this] { showStep(step_ + 1); });
    nav->addWidget(stepLabel_, 1);
    nav->addWidget(prev_);
    nav->addWidget(next_);
    v->addLayout(nav);
    prose_ = wrapped(content, QStringLiteral("lessonProse"));
    v->addWidget(prose_);

    v->addWidget(buildPrediction());

    auto* buttons = new QHBoxLayout;
    run_ = new QPushButton(QStringLiteral("▶ Run it"), content);
    run_->setObjectName(QStringLiteral("lessonRun"));
    run_->setToolTip(QStringLiteral(
        "Plays this step's run in the console, on the current connection: watch it on the "
        "timeline and in the worker pool. Then every check is decided against what it did."));
    replay_ = new QPushButton(QStringLiteral("Replay its recording"), content);
    replay_->setObjectName(QStringLiteral("lessonReplay"));
    replay_->setToolTip(QStringLiteral(
        "Opens the recording the console made of this step's last run, to scrub and play back "
        "(File → Back to the live console returns)."));
    connect(run_, &QPushButton::clicked, this, [this] { runStep(); });
    connect(replay_, &QPushButton::clicked, this, [this] {
        if (const LessonStepOutcome* o = shownOutcome(); o && !o->recordingPath.isEmpty()) {
            Q_EMIT replayRequested(o->recordingPath);
        }
    });
    buttons->addWidget(run_);
    buttons->addWidget(replay_);
    buttons->addStretch(1);
    v->addLayout(buttons);

    auto* gradeRow = new QHBoxLayout;
    grade_ = wrapped(content, QStringLiteral("lessonGrade"));
    grade_->setTextFormat(Qt::RichText);
    gradeShowMe_ = new QPushButton(QStringLiteral("Show me"), content);
    gradeShowMe_->setObjectName(QStringLiteral("lessonGradeShowMe"));
    gradeShowMe_->setAccessibleName(QStringLiteral("Show the evidence of the prediction"));
    gradeShowMe_->setToolTip(QStringLiteral(
        "Selects what decided the answer in the timeline and the message table and moves the "
        "time cursor there; click again for the next task."));
    connect(gradeShowMe_, &QPushButton::clicked, this, [this] {
        if (const LessonStepOutcome* o = shownOutcome(); o && o->grade) {
            showMe(o->grade->evidence, gradeNext_);
        }
    });
    gradeRow->addWidget(grade_, 1);
    gradeRow->addWidget(gradeShowMe_, 0, Qt::AlignTop);
    v->addLayout(gradeRow);

    results_ = new QWidget(content);
    resultsLayout_ = new QVBoxLayout(results_);
    resultsLayout_->setContentsMargins(0, 0, 0, 0);
    v->addWidget(results_);
    // Under the verdicts: what is going on, then their sum.
    status_ = wrapped(content, QStringLiteral("lessonStatus"));
    v->addWidget(status_);

    v->addWidget(buildWhatIf());
    v->addStretch(1);

    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll_->setWidget(content);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll_);
}

QWidget* LessonsPanel::buildPrediction() {
    predictionBox_ = new QGroupBox(QStringLiteral("Your prediction, before it runs"), this);
    auto* v = new QVBoxLayout(predictionBox_);
    question_ = wrapped(predictionBox_, QStringLiteral("lessonQuestion"));
    v->addWidget(question_);
    choices_ = new QWidget(predictionBox_);
    choicesLayout_ = new QVBoxLayout(choices_);
    choicesLayout_->setContentsMargins(0, 0, 0, 0);
    choiceGroup_ = new QButtonGroup(this);
    v->addWidget(choices_);
    number_ = new QLineEdit(predictionBox_);
    number_->setObjectName(QStringLiteral("lessonNumber"));
    number_->setAccessibleName(QStringLiteral("Your number"));
    number_->setPlaceholderText(QStringLiteral("a number"));
    v->addWidget(number_);
    worker_ = new QComboBox(predictionBox_);
    worker_->setObjectName(QStringLiteral("lessonWorker"));
    worker_->setAccessibleName(QStringLiteral("Your worker"));
    v->addWidget(worker_);
    answerError_ = wrapped(predictionBox_, QStringLiteral("lessonAnswerError"));
    answerError_->hide();
    v->addWidget(answerError_);
    return predictionBox_;
}

QWidget* LessonsPanel::buildWhatIf() {
    whatIfBox_ = new QGroupBox(QStringLiteral("What if…"), this);
    whatIfBox_->setToolTip(QStringLiteral(
        "Runs this step again with your own settings; its checks are decided against that run "
        "too (a what-if run does not count as passing the lesson)."));
    auto* form = new QFormLayout(whatIfBox_);
    batch_ = new QSpinBox(whatIfBox_);
    batch_->setObjectName(QStringLiteral("whatIfBatch"));
    batch_->setRange(workers::limits::kBatchSize.min, workers::limits::kBatchSize.max);
    batch_->setAccessibleName(QStringLiteral("What-if batch size"));
    batch_->setToolTip(QStringLiteral("The most tasks each poll asks for, in every worker group."));
    workers_ = new QSpinBox(whatIfBox_);
    workers_->setObjectName(QStringLiteral("whatIfWorkers"));
    workers_->setRange(1, kMaxWhatIfWorkers);
    workers_->setAccessibleName(QStringLiteral("What-if workers"));
    wait_ = new QDoubleSpinBox(whatIfBox_);
    wait_->setObjectName(QStringLiteral("whatIfWait"));
    wait_->setRange(0, workers::limits::kWaitMs.max / 1000.0);
    wait_->setDecimals(1);
    wait_->setSingleStep(0.5);
    wait_->setSuffix(QStringLiteral(" s"));
    wait_->setAccessibleName(QStringLiteral("What-if wait timeout"));
    wait_->setToolTip(
        QStringLiteral("How long a poll waits for its batch to fill, in every worker group."));
    form->addRow(QStringLiteral("Batch size"), batch_);
    form->addRow(QStringLiteral("Workers"), workers_);
    form->addRow(QStringLiteral("Wait timeout"), wait_);
    runWhatIf_ = new QPushButton(QStringLiteral("▶ Run with these"), whatIfBox_);
    runWhatIf_->setObjectName(QStringLiteral("lessonRunWhatIf"));
    runWhatIf_->setToolTip(whatIfBox_->toolTip());
    connect(runWhatIf_, &QPushButton::clicked, this, [this] { runWhatIf(); });
    form->addRow(runWhatIf_);
    return whatIfBox_;
}

void LessonsPanel::loadLessons() {
    for (const std::string& name : lessons::bundledLessonNames()) {
        lessons::Lesson lesson;
        std::string error;
        if (lessons::loadLesson(name, &lesson, &error)) {
            lessons_.push_back(std::move(lesson));
        } else {
            loadErrors_ << fromView(error);
        }
    }
    refreshLessonList();
}

QString LessonsPanel::markOf(const QString& name) const {
    for (const lessons::Lesson& l : lessons_) {
        if (fromView(l.name) != name) {
            continue;
        }
        if (!lessonRun_->unavailableHere(l).isEmpty()) {
            return QStringLiteral("⊘");
        }
        const int passed = static_cast<int>(progress_.passedSteps(name).size());
        if (passed == 0) {
            return QStringLiteral("○");
        }
        return passed >= static_cast<int>(l.steps.size()) ? QStringLiteral("✓")
                                                          : QStringLiteral("◐");
    }
    return {};
}

void LessonsPanel::refreshLessonList() {
    const QSignalBlocker block(list_);
    list_->clear();
    for (const lessons::Lesson& l : lessons_) {
        const QString name = fromView(l.name);
        list_->addItem(
            QStringLiteral("%1  %2 · %3").arg(markOf(name), name.left(2), fromView(l.title)), name);
    }
    list_->setCurrentIndex(index_);
}

QStringList LessonsPanel::lessonNames() const {
    QStringList names;
    for (const lessons::Lesson& l : lessons_) {
        names << fromView(l.name);
    }
    return names;
}

bool LessonsPanel::selectLesson(const QString& name) {
    std::string error;
    const std::string path = lessons::resolveLesson(name.toStdString(), &error);
    for (std::size_t i = 0; i < lessons_.size(); ++i) {
        const QString n = fromView(lessons_[i].name);
        if (n == name ||
            (!path.empty() && path.find("/" + lessons_[i].name + ".json") != std::string::npos)) {
            lessonChosen(static_cast<int>(i));
            return true;
        }
    }
    return false;
}

QString LessonsPanel::currentLesson() const {
    return lesson() ? fromView(lesson()->name) : QString();
}

const lessons::Lesson* LessonsPanel::lesson() const {
    return index_ >= 0 && index_ < static_cast<int>(lessons_.size()) ? &lessons_[index_] : nullptr;
}

void LessonsPanel::lessonChosen(int index) {
    index_ = index;
    {
        const QSignalBlocker block(list_);
        list_->setCurrentIndex(index);
    }
    const lessons::Lesson* l = lesson();
    if (!l) {
        title_->setText(QStringLiteral("No lessons found"));
        idea_->setText(loadErrors_.isEmpty() ? QStringLiteral("The lessons folder is empty.")
                                             : loadErrors_.join(QLatin1Char('\n')));
        return;
    }
    progress_.setLastLesson(fromView(l->name));
    title_->setText(fromView(l->title));
    idea_->setText(fromView(l->idea));
    showAvailability(*l);
    showStep(0);
}

// What the current connection cannot serve of the lesson, above its steps.
void LessonsPanel::showAvailability(const lessons::Lesson& lesson) {
    const QString unavailable = lessonRun_->unavailableHere(lesson);
    QString note;
    if (!unavailable.isEmpty()) {
        note = QStringLiteral("⊘ Cannot be played here: ") + unavailable + QLatin1Char('.');
    } else if (lesson.hasNeed(lessons::Need::ChannelManagement)) {
        note = QStringLiteral(
            "It creates and deletes a channel: a KubeMQ community v2.4.0 server does not serve "
            "that (the embedded broker does).");
    }
    note_->setText(note);
    note_->setVisible(!note.isEmpty());
}

bool LessonsPanel::canRun() const {
    return run_->isEnabled();
}

QString LessonsPanel::noteText() const {
    return note_->text();
}

void LessonsPanel::availabilityChanged() {
    refreshLessonList();
    if (const lessons::Lesson* l = lesson()) {
        showAvailability(*l);
    }
    updateButtons();
}

void LessonsPanel::showStep(int step) {
    const lessons::Lesson* l = lesson();
    if (!l || step < 0 || step >= static_cast<int>(l->steps.size())) {
        return;
    }
    step_ = step;
    const lessons::LessonStep& s = l->steps[static_cast<std::size_t>(step)];
    showStepLabel();
    prose_->setText(fromView(s.prose));
    fillPrediction(s);
    fillWhatIf(s);
    showOutcome();
}

void LessonsPanel::showStepLabel() {
    const lessons::Lesson* l = lesson();
    const bool passed = progress_.passedSteps(fromView(l->name)).contains(step_);
    stepLabel_->setText(QStringLiteral("<b>Step %1 of %2</b>%3")
                            .arg(step_ + 1)
                            .arg(l->steps.size())
                            .arg(passed ? QStringLiteral(" · ✓ passed") : QString()));
}

void LessonsPanel::fillPrediction(const lessons::LessonStep& step) {
    answerError_->hide();
    predictionBox_->setVisible(step.prediction.has_value());
    if (!step.prediction) {
        return;
    }
    const lessons::Prediction& p = *step.prediction;
    question_->setText(QStringLiteral("<b>%1</b>").arg(fromView(p.question).toHtmlEscaped()));
    for (QAbstractButton* b : choiceGroup_->buttons()) {
        choiceGroup_->removeButton(b);
        delete b;
    }
    choices_->setVisible(p.kind == lessons::PredictionKind::Choice);
    number_->setVisible(p.kind == lessons::PredictionKind::Number);
    worker_->setVisible(p.kind == lessons::PredictionKind::Worker);
    number_->clear();
    worker_->clear();
    if (p.kind == lessons::PredictionKind::Choice) {
        for (std::size_t i = 0; i < p.choices.size(); ++i) {
            const QChar letter(static_cast<char16_t>(u'a' + i));
            auto* radio = new QRadioButton(
                QStringLiteral("%1) %2").arg(letter).arg(fromView(p.choices[i].text)), choices_);
            radio->setObjectName(QStringLiteral("lessonChoice_") + letter);
            choiceGroup_->addButton(radio, static_cast<int>(i));
            choicesLayout_->addWidget(radio);
        }
    } else if (p.kind == lessons::PredictionKind::Worker) {
        worker_->addItem(QStringLiteral("(choose a worker)"), QString());
        for (int w = 1; w <= lessons::runWorkerCount(step.run); ++w) {
            const QString name = QStringLiteral("worker-%1").arg(w);
            worker_->addItem(name, name);
        }
    }
}

void LessonsPanel::fillWhatIf(const lessons::LessonStep& step) {
    const runner::Scenario& run = step.run;
    if (run.workers.empty()) {
        whatIfBox_->setEnabled(false);
        return;
    }
    whatIfBox_->setEnabled(true);
    const workers::WorkerConfig& c = run.workers.front().config;
    setWhatIf(c.batchSize, run.totalWorkers(), c.waitMs / 1000.0);
    const bool oneGroup = run.workers.size() == 1;
    workers_->setEnabled(oneGroup);
    workers_->setToolTip(oneGroup ? QStringLiteral("How many workers poll the queue.")
                                  : QStringLiteral("This run has %1 groups of workers, each "
                                                   "started at its own time: their number "
                                                   "stays as the lesson has it.")
                                        .arg(run.workers.size()));
}

void LessonsPanel::setWhatIf(int batch, int workers, double waitSeconds) {
    batch_->setValue(batch);
    workers_->setValue(workers);
    wait_->setValue(waitSeconds);
}

runner::Scenario LessonsPanel::whatIfScenario() const {
    const lessons::Lesson* l = lesson();
    if (!l) {
        return {};
    }
    runner::Scenario s = l->steps[static_cast<std::size_t>(step_)].run;
    for (runner::WorkerGroup& g : s.workers) {
        g.config.batchSize = batch_->value();
        g.config.waitMs = static_cast<int>(std::lround(wait_->value() * 1000));
    }
    if (s.workers.size() == 1) {
        s.workers.front().count = workers_->value();
    }
    return s;
}

bool LessonsPanel::setAnswer(const QString& answer) {
    const lessons::Lesson* l = lesson();
    if (!l || !l->steps[static_cast<std::size_t>(step_)].prediction) {
        return answer.isEmpty();
    }
    const lessons::Prediction& p = *l->steps[static_cast<std::size_t>(step_)].prediction;
    switch (p.kind) {
        case lessons::PredictionKind::Choice: {
            if (answer.isEmpty()) {
                choiceGroup_->setExclusive(false);
                for (QAbstractButton* b : choiceGroup_->buttons()) {
                    b->setChecked(false);
                }
                choiceGroup_->setExclusive(true);
                return true;
            }
            const int id = answer.at(0).toLower().unicode() - u'a';
            if (QAbstractButton* b = choiceGroup_->button(id); b && answer.size() == 1) {
                b->setChecked(true);
                return true;
            }
            return false;
        }
        case lessons::PredictionKind::Number:
            number_->setText(answer);
            return true;
        case lessons::PredictionKind::Worker: {
            const int i = answer.isEmpty() ? 0 : worker_->findData(answer);
            if (i < 0) {
                return false;
            }
            worker_->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

std::optional<std::string> LessonsPanel::answer() const {
    const lessons::Lesson* l = lesson();
    if (!l || !l->steps[static_cast<std::size_t>(step_)].prediction) {
        return std::nullopt;
    }
    switch (l->steps[static_cast<std::size_t>(step_)].prediction->kind) {
        case lessons::PredictionKind::Choice: {
            const int id = choiceGroup_->checkedId();
            if (id < 0) {
                return std::nullopt;
            }
            return std::string(1, static_cast<char>('a' + id));
        }
        case lessons::PredictionKind::Number: {
            const QString text = number_->text().trimmed();
            return text.isEmpty() ? std::nullopt : std::optional(text.toStdString());
        }
        case lessons::PredictionKind::Worker: {
            const QString w = worker_->currentData().toString();
            return w.isEmpty() ? std::nullopt : std::optional(w.toStdString());
        }
    }
    return std::nullopt;
}

bool LessonsPanel::runStep(QString* error) {
    const lessons::Lesson* l = lesson();
    if (!l) {
        return false;
    }
    return start(l->steps[static_cast<std::size_t>(step_)].run, false, error);
}

bool LessonsPanel::runWhatIf(QString* error) {
    return start(whatIfScenario(), true, error);
}

bool LessonsPanel::start(const runner::Scenario& scenario, bool whatIf, QString* error) {
    const lessons::Lesson* l = lesson();
    const lessons::LessonStep& step = l->steps[static_cast<std::size_t>(step_)];
    QString why;
    const std::optional<std::string> given = answer();
    std::string answerProblem;
    if (given && step.prediction &&
        !lessons::checkAnswer(*step.prediction, *given, lessons::runWorkerCount(step.run),
                              &answerProblem)) {
        why = QStringLiteral("Your answer: ") + fromView(answerProblem);
        answerError_->setText(
            QStringLiteral("<span style='color:#d93040'>%1</span>").arg(why.toHtmlEscaped()));
        answerError_->show();
    } else if (const QString u = lessonRun_->unavailableHere(*l); !u.isEmpty()) {
        why = QStringLiteral("This lesson cannot be played here: ") + u;
    } else if (const std::string invalid = scenario.validate(); !invalid.empty()) {
        why = QStringLiteral("What if: ") + fromView(invalid);
    } else {
        answerError_->hide();
        if (lessonRun_->start(*l, static_cast<std::size_t>(step_), scenario, given, whatIf, &why)) {
            outcomes_.remove(outcomeKey(currentLesson(), step_));
            clearResults();
            updateButtons();
            return true;
        }
        why = QStringLiteral("Cannot run it: ") + why;
    }
    setStatus(why, true);
    if (error) {
        *error = why;
    }
    return false;
}

void LessonsPanel::decided(const LessonStepOutcome& outcome) {
    outcomes_.insert(outcomeKey(outcome.lesson, outcome.step), outcome);
    if (outcome.passed()) {
        progress_.markPassed(outcome.lesson, outcome.step);
        refreshLessonList();
    }
    if (outcome.lesson == currentLesson() && outcome.step == step_) {
        showStepLabel();  // its mark; the learner's prediction stays as it was
        showOutcome();
        // The verdicts are what the learner waited for: scrolled to the top of
        // the tab once they are laid out, the Run button just above them.
        QTimer::singleShot(0, this, [this] {
            scroll_->verticalScrollBar()->setValue(run_->y() - 4);
        });
    } else {
        updateButtons();
    }
}

QString LessonsPanel::outcomeKey(const QString& lesson, int step) {
    return lesson + QLatin1Char('#') + QString::number(step);
}

const LessonStepOutcome* LessonsPanel::shownOutcome() const {
    const auto it = outcomes_.constFind(outcomeKey(currentLesson(), step_));
    return it == outcomes_.constEnd() ? nullptr : &it.value();
}

void LessonsPanel::clearResults() {
    grade_->clear();
    grade_->hide();
    gradeShowMe_->hide();
    gradeNext_ = 0;
    for (QWidget* w : results_->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
        delete w;
    }
    resultLines_.clear();
    showMeNext_.clear();
}

void LessonsPanel::showOutcome() {
    clearResults();
    const LessonStepOutcome* o = shownOutcome();
    updateButtons();
    if (!o) {
        if (!lessonRun_->isBusy()) {
            setStatus(predictionBox_->isVisible()
                          ? QStringLiteral("Make your prediction, then run it.")
                          : QStringLiteral("Run it, then read what the run decided."));
        }
        return;
    }
    const lessons::LessonStep& step = lesson()->steps[static_cast<std::size_t>(step_)];
    if (o->grade) {
        const LessonGradeLine& g = *o->grade;
        QString head;
        switch (g.outcome) {
            case lessons::GradeOutcome::Right:
                head = QStringLiteral("%1 <b>Your prediction was right:</b> %2.")
                           .arg(verdictMark(lessons::Verdict::Pass), g.actual.toHtmlEscaped());
                break;
            case lessons::GradeOutcome::Wrong:
                head = QStringLiteral(
                           "%1 <b>Not this time:</b> you said %2; the run's answer is "
                           "%3.")
                           .arg(verdictMark(lessons::Verdict::Fail), g.answer.toHtmlEscaped(),
                                g.actual.toHtmlEscaped());
                break;
            case lessons::GradeOutcome::NotAnswered:
                head = QStringLiteral("<b>You made no prediction.</b> The run's answer: %1.")
                           .arg(g.actual.toHtmlEscaped());
                break;
            case lessons::GradeOutcome::Undecided:
                head = QStringLiteral("%1 <b>Your prediction could not be graded.</b>")
                           .arg(verdictMark(lessons::Verdict::Undecided));
                break;
        }
        grade_->setText(head + QStringLiteral("<br>") + g.explanation.toHtmlEscaped());
        grade_->show();
        gradeShowMe_->setVisible(!g.evidence.isEmpty());
    }
    if (!o->problem.isEmpty()) {
        // No verdict: every check says so, with the reason; none passes.
        for (const lessons::CheckSpec& spec : step.checks) {
            const QString title = fromView(lessons::describeCheck(spec));
            addResultRow(QStringLiteral("%1 <b>%2</b> — could not be decided: %3")
                             .arg(verdictMark(lessons::Verdict::Undecided), title.toHtmlEscaped(),
                                  o->problem.toHtmlEscaped()),
                         QStringLiteral("? %1 — could not be decided: %2").arg(title, o->problem),
                         {}, QString());
        }
        setStatus(o->problem, true);
        return;
    }
    int passed = 0;
    int undecided = 0;
    for (std::size_t i = 0; i < o->checks.size(); ++i) {
        const LessonCheckLine& c = o->checks[i];
        passed += c.verdict == lessons::Verdict::Pass ? 1 : 0;
        undecided += c.verdict == lessons::Verdict::Undecided ? 1 : 0;
        const QString undecidedNote = c.verdict == lessons::Verdict::Undecided
                                          ? QStringLiteral(" (could not be decided)")
                                          : QString();
        addResultRow(QStringLiteral("%1 <b>%2</b>%3<br>%4")
                         .arg(verdictMark(c.verdict), c.title.toHtmlEscaped(), undecidedNote,
                              c.sentence.toHtmlEscaped()),
                     QStringLiteral("%1 %2 — %3").arg(plainMark(c.verdict), c.title, c.sentence),
                     c.evidence, QStringLiteral("lessonShowMe%1").arg(i));
    }
    const int total = static_cast<int>(o->checks.size());
    QString summary =
        passed == total
            ? QStringLiteral("✓ All %1 checks held in this run.").arg(total)
            : QStringLiteral("%1 of %2 checks held in this run.").arg(passed).arg(total);
    if (undecided > 0) {
        summary += QStringLiteral(" %1 could not be decided.").arg(undecided);
    }
    if (o->whatIf) {
        summary += QStringLiteral(" (a what-if run: the lesson's checks against your settings)");
    } else if (o->passed() && lesson()->steps.size() > static_cast<std::size_t>(step_) + 1) {
        summary += QStringLiteral(" Step ▶ goes on.");
    }
    setStatus(summary, passed != total);
}

void LessonsPanel::addResultRow(const QString& html, const QString& plain,
                                const LessonEvidence& evidence, const QString& name) {
    auto* row = new QWidget(results_);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 2, 0, 2);
    auto* label = wrapped(row, QStringLiteral("lessonCheckLine"));
    label->setTextFormat(Qt::RichText);
    label->setText(html);
    h->addWidget(label, 1);
    resultLines_ << plain;
    if (!evidence.isEmpty()) {
        const std::size_t slot = showMeNext_.size();
        showMeNext_.push_back(0);
        auto* button = new QPushButton(QStringLiteral("Show me"), row);
        button->setObjectName(name);
        button->setAccessibleName(QStringLiteral("Show the evidence of this check"));
        button->setToolTip(QStringLiteral(
            "Selects the task this check names in the timeline and the message table and moves "
            "the time cursor to its last event; click again for the next task."));
        connect(button, &QPushButton::clicked, this, [this, evidence, slot] {
            if (slot < showMeNext_.size()) {
                showMe(evidence, showMeNext_[slot]);
            }
        });
        h->addWidget(button, 0, Qt::AlignTop);
    }
    resultsLayout_->addWidget(row);
}

void LessonsPanel::showMe(const LessonEvidence& evidence, int& next) {
    QString key;
    if (!evidence.messageKeys.isEmpty()) {
        key = evidence.messageKeys.at(next % evidence.messageKeys.size());
        ++next;
    }
    Q_EMIT evidenceRequested(key, evidence.workers, evidence.timeNs);
}

void LessonsPanel::updateButtons() {
    const lessons::Lesson* l = lesson();
    const bool busy = lessonRun_->isBusy();
    const bool playable = l && lessonRun_->unavailableHere(*l).isEmpty();
    run_->setEnabled(playable && !busy);
    runWhatIf_->setEnabled(playable && !busy);
    const LessonStepOutcome* o = shownOutcome();
    replay_->setEnabled(!busy && o && !o->recordingPath.isEmpty());
    prev_->setEnabled(l && step_ > 0);
    next_->setEnabled(l && step_ + 1 < static_cast<int>(l->steps.size()));
    prev_->setVisible(l && l->steps.size() > 1);
    next_->setVisible(l && l->steps.size() > 1);
}

void LessonsPanel::setStatus(const QString& text, bool problem) {
    status_->setText(
        problem ? QStringLiteral("<span style='color:#b07000'>%1</span>").arg(text.toHtmlEscaped())
                : text.toHtmlEscaped());
}

QStringList LessonsPanel::resultLines() const {
    return resultLines_;
}

QString LessonsPanel::gradeText() const {
    return grade_->text();
}

QString LessonsPanel::statusText() const {
    return status_->text();
}

}  // namespace qs::ui
