#include "controllers/replay_player.h"

#include <algorithm>
#include <cmath>

#include "controllers/time_cursor.h"

namespace qs::ui {

ReplayPlayer::ReplayPlayer(TimeCursor* cursor, QObject* parent) : QObject(parent), cursor_(cursor) {
    timer_.setInterval(33);
    connect(&timer_, &QTimer::timeout, this, &ReplayPlayer::tick);
}

void ReplayPlayer::play() {
    if (isPlaying() || cursor_->headNs() == 0) {
        return;  // nothing to play yet
    }
    if (cursor_->isLive()) {
        cursor_->moveTo(cursor_->startNs());
    }
    carryNs_ = 0;
    sinceTick_.start();
    timer_.start();
    Q_EMIT playingChanged(true);
}

void ReplayPlayer::pause() {
    if (!isPlaying()) {
        return;
    }
    timer_.stop();
    Q_EMIT playingChanged(false);
}

void ReplayPlayer::setSpeed(double speed) {
    speed_ = std::clamp(speed, kMinSpeed, kMaxSpeed);
}

void ReplayPlayer::tick() {
    if (cursor_->isLive()) {  // "Live" pressed while playing
        pause();
        return;
    }
    carryNs_ += static_cast<double>(sinceTick_.nsecsElapsed()) * speed_;
    sinceTick_.start();
    const auto step = static_cast<std::int64_t>(std::floor(carryNs_));
    carryNs_ -= static_cast<double>(step);
    const std::int64_t next = cursor_->timeNs() + step;
    if (next >= cursor_->headNs()) {
        pause();
        cursor_->goLive();
        return;
    }
    cursor_->moveTo(next);
}

}  // namespace qs::ui
