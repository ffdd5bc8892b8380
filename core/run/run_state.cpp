#include "run/run_state.h"

#include "common/enum_names.h"

namespace qs {
namespace {

constexpr auto kWorkerCounterNames = enumNames<WorkerCounter>({
    {WorkerCounter::Received, "received"},
    {WorkerCounter::Redelivered, "redelivered"},
    {WorkerCounter::Acked, "acked"},
    {WorkerCounter::Rejected, "rejected"},
    {WorkerCounter::Requeued, "requeued"},
    {WorkerCounter::Returned, "returned"},
    {WorkerCounter::AcksLost, "acks-lost"},
    {WorkerCounter::Processed, "processed"},
    {WorkerCounter::Crashes, "crashes"},
    {WorkerCounter::Reconnects, "reconnects"},
    {WorkerCounter::Polls, "polls"},
    {WorkerCounter::EmptyPolls, "empty-polls"},
    {WorkerCounter::Errors, "errors"},
    {WorkerCounter::BusyNs, "busy-ns"},
    {WorkerCounter::PollWaitNs, "poll-wait-ns"},
});
static_assert(kWorkerCounterNames.size() == kWorkerCounterCount);

}  // namespace

std::string_view workerCounterName(WorkerCounter counter) {
    return kWorkerCounterNames.name(counter);
}

WorkerCounts workerCounts(const WorkerStats& s) {
    auto n = [](std::uint64_t v) { return static_cast<std::int64_t>(v); };
    return {n(s.received), n(s.redelivered), n(s.acked),     n(s.rejected), n(s.requeued),
            n(s.returned), n(s.acksLost),    n(s.processed), n(s.crashes),  n(s.reconnects),
            n(s.polls),    n(s.emptyPolls),  n(s.errors),    s.busyNs,      s.pollWaitNs};
}

const WorkerAt* RunState::worker(std::string_view name) const {
    for (const WorkerAt& w : workers) {
        if (w.worker == name)
            return &w;
    }
    return nullptr;
}

const ChannelAt* RunState::channel(std::string_view name) const {
    for (const ChannelAt& c : channels) {
        if (c.channel == name)
            return &c;
    }
    return nullptr;
}

}  // namespace qs
