#include "broker/consumer_wait.h"

#include <algorithm>

#include "broker/waiter.h"

namespace qs::broker {

namespace {
constexpr auto kCancelPoll = std::chrono::milliseconds(100);

// Registers a waiter and a consumer on a channel for one scope.
class ConsumerScope {
public:
    explicit ConsumerScope(QueueChannel& channel) : channel_(channel) {
        channel_.addWaiter(&waiter_);
        channel_.addConsumer(1);
    }
    ~ConsumerScope() {
        channel_.removeWaiter(&waiter_);
        channel_.addConsumer(-1);
    }
    ConsumerScope(const ConsumerScope&) = delete;
    ConsumerScope& operator=(const ConsumerScope&) = delete;

    // False when the wait should end now.
    bool sleep(QueueEngine& engine, Deadline deadline, const std::function<bool()>& cancelled) {
        if (engine.stopping() || channel_.deleted() || (cancelled && cancelled()))
            return false;
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline)
            return false;
        waiter_.waitUntil(std::min(deadline, now + kCancelPoll));
        return true;
    }

private:
    QueueChannel& channel_;
    Waiter waiter_;
};
}  // namespace

CollectResult collectWaiting(QueueEngine& engine, QueueChannel& channel, int max,
                             const CollectOptions& options, Deadline deadline,
                             const std::function<bool()>& cancelled,
                             std::vector<StoredMessage>& out, const Actor& actor) {
    ConsumerScope scope(channel);
    CollectResult total;
    while (true) {
        const CollectResult step =
            engine.collect(channel, max - total.counted, options, out, actor);
        total.counted += step.counted;
        total.expired += step.expired;
        if (total.counted >= max)
            break;
        if (!scope.sleep(engine, deadline, cancelled))
            break;
    }
    return total;
}

std::size_t purgeWaiting(QueueEngine& engine, QueueChannel& channel, Deadline deadline,
                         const std::function<bool()>& cancelled, const Actor& actor) {
    ConsumerScope scope(channel);
    std::size_t total = 0;
    do {
        total += engine.purgeReady(channel, actor);
    } while (scope.sleep(engine, deadline, cancelled));
    return total;
}

}  // namespace qs::broker
