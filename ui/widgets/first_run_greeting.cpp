#include "widgets/first_run_greeting.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace qs::ui {

FirstRunGreeting::FirstRunGreeting(QWidget* parent)
    : QFrame(parent), text_(new QLabel(this)), problem_(new QLabel(this)) {
    setObjectName(QStringLiteral("firstRunGreeting"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::ToolTipBase);  // stands out from the timeline it lies on
    setForegroundRole(QPalette::ToolTipText);
    text_->setText(QStringLiteral(
        "<b>New here?</b> Play the classic work queue: 10 tasks go on a queue and 3 workers "
        "share them. Watch each task go to one worker, get worked on and acked, right "
        "here on the timeline. Or be taught step by step: lesson 1 asks what you expect, runs "
        "it and checks."));
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::RichText);
    problem_->setWordWrap(true);
    problem_->hide();

    auto* play = new QPushButton(QStringLiteral("▶ Play it"), this);
    play->setObjectName(QStringLiteral("greetingPlay"));
    play->setDefault(false);
    play->setToolTip(QStringLiteral(
        "Plays the scenario \"classic work queue\" (Run → Play scenario lists the others)."));
    auto* lesson = new QPushButton(QStringLiteral("Start lesson 1"), this);
    lesson->setObjectName(QStringLiteral("greetingLesson"));
    lesson->setToolTip(QStringLiteral(
        "Opens the Lessons tab on \"Competing consumers\": predict who gets the tasks, run it, "
        "and see what the run decided."));
    auto* close = new QToolButton(this);
    close->setObjectName(QStringLiteral("greetingDismiss"));
    close->setText(QStringLiteral("✕"));
    close->setAccessibleName(QStringLiteral("Dismiss the greeting"));
    close->setToolTip(QStringLiteral("Put this greeting away for good."));
    close->setAutoRaise(true);

    auto* words = new QVBoxLayout;
    words->setContentsMargins(0, 0, 0, 0);
    words->addWidget(text_);
    words->addWidget(problem_);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 4, 4, 4);
    row->addLayout(words, 1);
    row->addWidget(play, 0, Qt::AlignVCenter);
    row->addWidget(lesson, 0, Qt::AlignVCenter);
    row->addWidget(close, 0, Qt::AlignTop);

    connect(play, &QPushButton::clicked, this, &FirstRunGreeting::playRequested);
    connect(lesson, &QPushButton::clicked, this, &FirstRunGreeting::lessonRequested);
    connect(close, &QToolButton::clicked, this, &FirstRunGreeting::dismissed);
}

QString FirstRunGreeting::text() const {
    return text_->text();
}

void FirstRunGreeting::showProblem(const QString& problem) {
    problem_->setText(
        QStringLiteral("<span style='color:#d93040'>%1</span>").arg(problem.toHtmlEscaped()));
    problem_->setVisible(!problem.isEmpty());
}

}  // namespace qs::ui
