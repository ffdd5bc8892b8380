#pragma once

#include <QWidget>
#include <cstdint>

#include "run/run_landmarks.h"

class QComboBox;
class QToolButton;

// The transport bar under the timeline: play / pause, the speed (0.25x to
// 16x), a scrub slider over the whole run with its landmarks drawn on it,
// "jump to the previous / next" landmark of a chosen kind (redelivery,
// dead-letter, crash, marker), the cursor's time, and "Live", which returns
// every view to the run's head. It drives the TimeCursor; the views follow
// the cursor, not this bar. UI thread only.
namespace qs::ui {

class ConsoleRun;
class TimeCursor;
class ReplayPlayer;
class ScrubSlider;
class SteadyLabel;

class TransportBar : public QWidget {
    Q_OBJECT
public:
    // None owned; all outlive the bar.
    TransportBar(const ConsoleRun* run, TimeCursor* cursor, ReplayPlayer* player,
                 QWidget* parent = nullptr);

    ScrubSlider* slider() const { return slider_; }
    QToolButton* playButton() const { return play_; }
    QToolButton* liveButton() const { return live_; }
    QComboBox* speedBox() const { return speed_; }
    QComboBox* landmarkBox() const { return landmark_; }
    QString timeText() const;
    Landmark chosenLandmark() const;

Q_SIGNALS:
    // What a jump could not do ("No crash after the cursor."), for the status bar.
    void statusMessage(const QString& text);

public Q_SLOTS:
    // Jumps to the previous / next landmark of the chosen kind; says so when none.
    void jumpBack();
    void jumpForward();
    void togglePlay();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    static constexpr int kNarrowBelow = 760;  // px: narrower, shorter words (arrange)
    void describeControls();  // texts, tooltips, accessible names
    void layOut();
    void connectControls();
    void arrange(bool narrow);
    void showPlaying(bool playing);
    void jump(bool forward);
    void runGrew();
    void runReset();
    void showCursor();
    int valueOf(std::int64_t timeNs) const;

    const ConsoleRun* run_;
    TimeCursor* cursor_;
    ReplayPlayer* player_;
    QToolButton* back_;
    QToolButton* play_;
    QToolButton* forward_;
    QComboBox* landmark_;
    QComboBox* speed_;
    ScrubSlider* slider_;
    SteadyLabel* time_;  // changes every frame: no relayout of the window
    QToolButton* live_;
    bool narrow_ = false;
    std::uint64_t scanned_ = 0;  // events looked at for landmarks so far
};

}  // namespace qs::ui
