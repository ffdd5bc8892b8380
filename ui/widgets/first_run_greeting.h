#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

// The banner a first run opens with: one obvious next step (play the classic
// work-queue scenario), the first guided lesson for those who want to be
// taught, and a way to put it away. Non-modal, lying across the
// top of the (still empty) timeline. Whoever shows it records that the user has been greeted
// (settings key kGreetedKey) once it is used or dismissed. UI thread only.
namespace qs::ui {

class FirstRunGreeting : public QFrame {
    Q_OBJECT
public:
    static constexpr const char* kGreetedKey = "onboarding/greeted";
    // The scenario the button plays: 10 tasks shared by 3 workers.
    static constexpr const char* kFirstScenario = "01-classic-work-queue";
    // The lesson "Start lesson 1" opens (docs/lessons.md).
    static constexpr const char* kFirstLesson = "01-competing-consumers";

    explicit FirstRunGreeting(QWidget* parent = nullptr);
    QString text() const;
    // Why the step could not be taken (e.g. not connected yet), under the text.
    void showProblem(const QString& problem);

Q_SIGNALS:
    void playRequested();    // "Play it"
    void lessonRequested();  // "Start lesson 1"
    void dismissed();      // the close button

private:
    QLabel* text_;
    QLabel* problem_;
};

}  // namespace qs::ui
