#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

// Plays the run back: moves the time cursor forward at a chosen speed
// (0.25x to 16x of the time the run took) about 30 times a second, from
// where it is. At the run's newest event it stops and the cursor goes live.
// UI thread only.
namespace qs::ui {

class TimeCursor;

class ReplayPlayer : public QObject {
    Q_OBJECT
public:
    static constexpr double kMinSpeed = 0.25;
    static constexpr double kMaxSpeed = 16.0;

    // `cursor` is not owned and must outlive the player.
    explicit ReplayPlayer(TimeCursor* cursor, QObject* parent = nullptr);

    bool isPlaying() const { return timer_.isActive(); }
    double speed() const { return speed_; }

public Q_SLOTS:
    // From the cursor; from the run's start when the cursor is live (at the head).
    void play();
    void pause();
    void setPlaying(bool playing) { playing ? play() : pause(); }
    void setSpeed(double speed);  // clamped to kMinSpeed..kMaxSpeed

Q_SIGNALS:
    void playingChanged(bool playing);

private:
    void tick();

    TimeCursor* cursor_;
    QTimer timer_;
    QElapsedTimer sinceTick_;
    double speed_ = 1.0;
    double carryNs_ = 0;  // time not yet moved (the cursor moves in whole ns)
};

}  // namespace qs::ui
