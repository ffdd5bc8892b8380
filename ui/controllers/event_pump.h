#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <functional>
#include <vector>

#include "events/event.h"

namespace qs {
class EventStream;
}

// Drains the EventStream on the UI thread at a fixed frame rate and hands
// each batch to the views in registration order, so hundreds of events cost
// one repaint. Measures the UI-thread time each frame takes.
// UI thread only; the stream may be fed from any thread.
namespace qs::ui {

class EventPump : public QObject {
    Q_OBJECT
public:
    using Sink = std::function<void(const std::vector<Event>&)>;

    explicit EventPump(QObject* parent = nullptr);

    // Not owned; must outlive the pump or be reset with setStream(nullptr).
    void setStream(EventStream* stream);
    // `name` labels the sink in lastSinkNs() (benchmarks, diagnostics).
    void addSink(Sink sink, const QString& name = {});
    void setFramesPerSecond(int fps);  // clamped to 1..60
    int framesPerSecond() const;
    // Most events handed out per frame; the rest wait for the next frame.
    void setMaxEventsPerFrame(std::size_t max) { maxPerFrame_ = max; }

    void start();
    void stop();
    bool isRunning() const { return timer_.isActive(); }

    // Processes what is waiting now (also used by tests instead of the
    // timer): the sinks take it in before it returns.
    std::size_t pumpOnce();
    // Feeds a batch directly (replay, tests).
    void deliver(const std::vector<Event>& batch);
    // Feeds a batch as the timer's frames do (benchmarks): while it is
    // delivered, deliveringLive() is true, and a sink may finish taking it in
    // after the frame (ConsoleRun::appendLive); then ticked() fires.
    void deliverLive(const std::vector<Event>& batch);
    bool deliveringLive() const { return live_; }

    qint64 lastFrameNs() const { return lastFrameNs_; }
    // Time each sink took in the last frame, in registration order.
    const std::vector<qint64>& lastSinkNs() const { return sinkNs_; }
    const QStringList& sinkNames() const { return sinkNames_; }
    std::uint64_t eventsDelivered() const { return delivered_; }

Q_SIGNALS:
    // After every frame that delivered events, with how many.
    void frameDone(int events, qint64 frameNs);
    // Every frame of the timer (after its events, if any) and every deliverLive().
    void ticked();

private:
    EventStream* stream_ = nullptr;
    std::vector<Sink> sinks_;
    QStringList sinkNames_;
    std::vector<qint64> sinkNs_;
    std::vector<Event> batch_;
    QTimer timer_;
    std::size_t maxPerFrame_ = 50000;
    bool live_ = false;
    qint64 lastFrameNs_ = 0;
    std::uint64_t delivered_ = 0;
};

}  // namespace qs::ui
