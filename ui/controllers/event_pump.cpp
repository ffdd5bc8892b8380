#include "controllers/event_pump.h"

#include <algorithm>

#include "events/event_stream.h"

namespace qs::ui {

EventPump::EventPump(QObject* parent) : QObject(parent) {
    timer_.setTimerType(Qt::PreciseTimer);
    setFramesPerSecond(30);
    connect(&timer_, &QTimer::timeout, this, [this] {
        batch_.clear();
        if (stream_ != nullptr && stream_->takeBatch(batch_, maxPerFrame_) > 0) {
            deliverLive(batch_);
        } else {
            Q_EMIT ticked();
        }
    });
}

void EventPump::setStream(EventStream* stream) {
    stream_ = stream;
}

void EventPump::addSink(Sink sink, const QString& name) {
    sinks_.push_back(std::move(sink));
    sinkNames_ << name;
    sinkNs_.push_back(0);
}

void EventPump::setFramesPerSecond(int fps) {
    timer_.setInterval(1000 / std::clamp(fps, 1, 60));
}

int EventPump::framesPerSecond() const {
    return 1000 / std::max(1, timer_.interval());
}

void EventPump::start() {
    timer_.start();
}

void EventPump::stop() {
    timer_.stop();
}

std::size_t EventPump::pumpOnce() {
    if (!stream_) {
        return 0;
    }
    batch_.clear();
    const std::size_t n = stream_->takeBatch(batch_, maxPerFrame_);
    if (n > 0) {
        deliver(batch_);
    }
    return n;
}

void EventPump::deliverLive(const std::vector<Event>& batch) {
    live_ = true;
    deliver(batch);
    live_ = false;
    Q_EMIT ticked();
}

void EventPump::deliver(const std::vector<Event>& batch) {
    QElapsedTimer t;
    t.start();
    qint64 last = 0;
    for (std::size_t i = 0; i < sinks_.size(); ++i) {
        sinks_[i](batch);
        const qint64 now = t.nsecsElapsed();
        sinkNs_[i] = now - last;
        last = now;
    }
    delivered_ += batch.size();
    lastFrameNs_ = t.nsecsElapsed();
    Q_EMIT frameDone(static_cast<int>(batch.size()), lastFrameNs_);
}

}  // namespace qs::ui
