#include "workers/worker_pool.h"

#include <algorithm>
#include <cstdio>
#include <random>

#include "common/clock.h"
#include "events/event_stream.h"

namespace qs::workers {

namespace {

void addCounters(WorkerCounters& total, const WorkerCounters& c) {
    total.polls += c.polls;
    total.emptyPolls += c.emptyPolls;
    total.received += c.received;
    total.redelivered += c.redelivered;
    total.acked += c.acked;
    total.rejected += c.rejected;
    total.requeued += c.requeued;
    total.abandoned += c.abandoned;
    total.visibilityExpired += c.visibilityExpired;
    total.crashes += c.crashes;
    total.errors += c.errors;
    total.busyNs += c.busyNs;
}

std::uint64_t randomSeed() {
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

}  // namespace

WorkerPool::WorkerPool(PoolOptions options, WorkerConfig config)
    : options_(std::move(options)),
      config_(std::move(config)),
      nextSeed_(options_.seed != 0 ? options_.seed : randomSeed()) {}

WorkerPool::~WorkerPool() {
    stop();
}

WorkerPool::Slot* WorkerPool::findLocked(const std::string& id) {
    for (Slot& slot : slots_) {
        if (slot.worker->id() == id) {
            return &slot;
        }
    }
    return nullptr;
}

const WorkerPool::Slot* WorkerPool::findLocked(const std::string& id) const {
    for (const Slot& slot : slots_) {
        if (slot.worker->id() == id) {
            return &slot;
        }
    }
    return nullptr;
}

int WorkerPool::freeNumberLocked() const {
    int n = 1;
    for (const Slot& slot : slots_) {  // sorted by number
        if (slot.number != n) {
            break;
        }
        ++n;
    }
    return n;
}

void WorkerPool::emitConfigChanged(const std::string& actor,
                                   const std::vector<SettingChange>& changes) const {
    if (options_.events == nullptr || changes.empty()) {
        return;
    }
    Event e = makeConfigChangedEvent(changes);
    e.timeNs = monotonicNanos();
    e.source = EventSource::Pool;
    e.actor = actor;
    e.channel = options_.channel;
    options_.events->push(std::move(e));
}

std::vector<std::string> WorkerPool::addWorkers(int count, std::string* error,
                                                const std::optional<WorkerConfig>& override) {
    std::vector<std::string> ids;
    if (count <= 0) {
        return ids;
    }
    std::lock_guard lock(mutex_);
    const WorkerConfig& config = override ? *override : config_;
    if (std::string problem = config.validate(); !problem.empty()) {
        if (error) {
            *error = problem;
        }
        return ids;
    }
    WorkerEnvironment env;
    env.client = options_.client;
    env.channel = options_.channel;
    env.events = options_.events;
    env.deliveries = &deliveries_;
    for (int i = 0; i < count; ++i) {
        Slot slot;
        slot.number = freeNumberLocked();
        slot.overridden = override.has_value();
        slot.worker = std::make_unique<Worker>(options_.idPrefix + std::to_string(slot.number), env,
                                               config, nextSeed_++);
        if (!slot.worker->start()) {
            if (error) {
                WorkerSnapshot s = slot.worker->snapshot();
                *error = s.lastError.empty() ? "worker failed to start" : s.lastError;
            }
            break;
        }
        ids.push_back(slot.worker->id());
        auto at = std::lower_bound(slots_.begin(), slots_.end(), slot.number,
                                   [](const Slot& s, int n) { return s.number < n; });
        slots_.insert(at, std::move(slot));
    }
    return ids;
}

bool WorkerPool::scaleTo(int count, std::string* error) {
    if (std::string problem = limits::kWorkerCount.problem(count); !problem.empty()) {
        if (error) {
            *error = std::move(problem);
        }
        return false;
    }
    std::vector<std::unique_ptr<Worker>> removed;
    int missing = 0;
    {
        std::lock_guard lock(mutex_);
        int current = static_cast<int>(slots_.size());
        if (count < current) {
            while (static_cast<int>(slots_.size()) > count) {
                removed.push_back(std::move(slots_.back().worker));
                slots_.pop_back();
            }
        } else {
            missing = count - current;
        }
    }
    if (!removed.empty()) {
        for (auto& w : removed) {
            w->requestStop();  // all at once, so the joins overlap
        }
        for (auto& w : removed) {
            w->stopAndJoin();
        }
        std::size_t remaining = 0;
        {
            std::lock_guard lock(mutex_);
            for (auto& w : removed) {
                addCounters(removedTotals_, w->snapshot().counters);
            }
            remaining = slots_.size();
        }
        emitConfigChanged({}, {{ConfigSetting::Workers, std::to_string(remaining)}});
        return true;
    }
    if (missing > 0) {
        std::string problem;
        auto ids = addWorkers(missing, &problem);
        if (static_cast<int>(ids.size()) != missing) {
            if (error) {
                *error = problem;
            }
            return false;
        }
        emitConfigChanged({}, {{ConfigSetting::Workers, std::to_string(count)}});
    }
    return true;
}

bool WorkerPool::removeWorker(const std::string& id) {
    std::unique_ptr<Worker> worker;
    {
        std::lock_guard lock(mutex_);
        for (auto it = slots_.begin(); it != slots_.end(); ++it) {
            if (it->worker->id() == id) {
                worker = std::move(it->worker);
                slots_.erase(it);
                break;
            }
        }
    }
    if (!worker) {
        return false;
    }
    worker->stopAndJoin();
    std::lock_guard lock(mutex_);
    addCounters(removedTotals_, worker->snapshot().counters);
    return true;
}

void WorkerPool::stop() {
    std::vector<std::unique_ptr<Worker>> all;
    {
        std::lock_guard lock(mutex_);
        for (Slot& slot : slots_) {
            all.push_back(std::move(slot.worker));
        }
        slots_.clear();
    }
    for (auto& w : all) {
        w->requestStop();
    }
    for (auto& w : all) {
        w->stopAndJoin();
    }
    std::lock_guard lock(mutex_);
    for (auto& w : all) {
        addCounters(removedTotals_, w->snapshot().counters);
    }
}

int WorkerPool::size() const {
    std::lock_guard lock(mutex_);
    return static_cast<int>(slots_.size());
}

std::vector<std::string> WorkerPool::workerIds() const {
    std::lock_guard lock(mutex_);
    std::vector<std::string> ids;
    for (const Slot& slot : slots_) {
        ids.push_back(slot.worker->id());
    }
    return ids;
}

bool WorkerPool::hasWorker(const std::string& id) const {
    std::lock_guard lock(mutex_);
    return findLocked(id) != nullptr;
}

bool WorkerPool::setConfig(const WorkerConfig& config, std::string* error) {
    if (std::string problem = config.validate(); !problem.empty()) {
        if (error) {
            *error = problem;
        }
        return false;
    }
    std::vector<SettingChange> changes;
    {
        std::lock_guard lock(mutex_);
        changes = changedSettings(config_, config);
        config_ = config;
        for (Slot& slot : slots_) {
            if (!slot.overridden) {
                slot.worker->setConfig(config);
            }
        }
    }
    emitConfigChanged({}, changes);
    return true;
}

WorkerConfig WorkerPool::config() const {
    std::lock_guard lock(mutex_);
    return config_;
}

bool WorkerPool::setWorkerConfig(const std::string& id, const WorkerConfig& config,
                                 std::string* error) {
    if (std::string problem = config.validate(); !problem.empty()) {
        if (error) {
            *error = problem;
        }
        return false;
    }
    std::vector<SettingChange> changes;
    {
        std::lock_guard lock(mutex_);
        Slot* slot = findLocked(id);
        if (!slot) {
            if (error) {
                *error = "no worker " + id;
            }
            return false;
        }
        changes = changedSettings(slot->worker->config(), config);
        slot->overridden = true;
        slot->worker->setConfig(config);
    }
    emitConfigChanged(id, changes);
    return true;
}

bool WorkerPool::clearWorkerConfig(const std::string& id) {
    std::vector<SettingChange> changes;
    {
        std::lock_guard lock(mutex_);
        Slot* slot = findLocked(id);
        if (!slot) {
            return false;
        }
        changes = changedSettings(slot->worker->config(), config_);
        slot->overridden = false;
        slot->worker->setConfig(config_);
    }
    emitConfigChanged(id, changes);
    return true;
}

std::optional<WorkerConfig> WorkerPool::workerConfig(const std::string& id) const {
    std::lock_guard lock(mutex_);
    const Slot* slot = findLocked(id);
    if (!slot) {
        return std::nullopt;
    }
    return slot->worker->config();
}

template <typename F>
bool WorkerPool::withWorker(const std::string& id, F&& f) {
    std::lock_guard lock(mutex_);
    Slot* slot = findLocked(id);
    if (!slot) {
        return false;
    }
    return f(*slot->worker);
}

bool WorkerPool::pause(const std::string& id) {
    return withWorker(id, [](Worker& w) {
        w.pause();
        return true;
    });
}

bool WorkerPool::resume(const std::string& id) {
    return withWorker(id, [](Worker& w) {
        w.resume();
        return true;
    });
}

bool WorkerPool::setSlowdown(const std::string& id, double factor) {
    if (!(factor > 0.0)) {
        return false;
    }
    bool found = withWorker(id, [factor](Worker& w) {
        w.setSlowdown(factor);
        return true;
    });
    if (found) {
        emitConfigChanged(id, {{ConfigSetting::Slowdown, formatConfigNumber(factor)}});
    }
    return found;
}

bool WorkerPool::crash(const std::string& id) {
    return withWorker(id, [](Worker& w) {
        w.crash();
        return true;
    });
}

bool WorkerPool::restart(const std::string& id) {
    return withWorker(id, [](Worker& w) { return w.restart(); });
}

bool WorkerPool::stopWorker(const std::string& id) {
    std::lock_guard lock(mutex_);
    Slot* slot = findLocked(id);
    if (!slot) {
        return false;
    }
    slot->worker->stopAndJoin();
    return true;
}

void WorkerPool::pauseAll() {
    std::lock_guard lock(mutex_);
    for (Slot& slot : slots_) {
        slot.worker->pause();
    }
}

void WorkerPool::resumeAll() {
    std::lock_guard lock(mutex_);
    for (Slot& slot : slots_) {
        slot.worker->resume();
    }
}

PoolSnapshot WorkerPool::snapshot() const {
    PoolSnapshot snap;
    snap.timeNs = monotonicNanos();
    std::lock_guard lock(mutex_);
    snap.config = config_;
    snap.totals = removedTotals_;
    snap.workers.reserve(slots_.size());
    for (const Slot& slot : slots_) {
        snap.workers.push_back(slot.worker->snapshot());
        addCounters(snap.totals, snap.workers.back().counters);
    }
    return snap;
}

WorkerCounters WorkerPool::totals() const {
    std::lock_guard lock(mutex_);
    WorkerCounters total = removedTotals_;
    for (const Slot& slot : slots_) {
        addCounters(total, slot.worker->counters());
    }
    return total;
}

std::optional<WorkerSnapshot> WorkerPool::workerSnapshot(const std::string& id) const {
    std::lock_guard lock(mutex_);
    const Slot* slot = findLocked(id);
    if (!slot) {
        return std::nullopt;
    }
    return slot->worker->snapshot();
}

}  // namespace qs::workers
