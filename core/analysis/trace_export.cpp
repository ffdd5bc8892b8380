#include "analysis/trace_export.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/depth_series.h"
#include "analysis/journey.h"
#include "analysis/natural_order.h"
#include "common/version.h"

namespace qs::analysis {

namespace {

constexpr int kPid = 1;
constexpr std::string_view kSliceCategory = "delivery";

// chrome://tracing's reserved colour names; Perfetto colours by slice name,
// and the name is the end too.
std::string_view traceColourOf(DeliveryEnd end) {
    static constexpr std::array<std::string_view, kDeliveryEndCount> kColours = {
        "good",          // acked
        "bad",           // rejected
        "terrible",      // dead-lettered
        "terrible",      // dropped
        "olive",         // requeued
        "yellow",        // returned
        "black",         // crashed
        "grey",          // expired
        "generic_work",  // superseded
        "white",         // unsettled
    };
    return kColours[static_cast<std::size_t>(end)];
}

// User text (bodies, names) as a JSON string; invalid UTF-8 (a body cut at
// 200 bytes, binary bodies) becomes U+FFFD rather than an exception.
std::string jsonText(std::string_view text) {
    return nlohmann::json(std::string(text))
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Microseconds since the origin, to the nanosecond.
std::string micros(std::int64_t ns) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", static_cast<double>(ns) / 1000.0);
    return text;
}

struct Slice {
    std::int64_t startNs = 0;  // recording time
    std::int64_t endNs = 0;
    const MessageRecord* message = nullptr;
    std::size_t step = 0;
    JourneyStep info;
    int tid = 0;
};

// A worker's slices, on as few tracks as keep each track's slices nested:
// lane 0 is the worker's track, further lanes take what would overlap.
class WorkerLanes {
public:
    // Slices sorted by start, longer first on a tie. Returns the lane count.
    std::size_t place(std::vector<Slice*>& slices) {
        for (Slice* s : slices) {
            s->tid = static_cast<int>(laneFor(*s));
        }
        return lanes_.size();
    }

private:
    std::size_t laneFor(const Slice& s) {
        for (std::size_t i = 0; i < lanes_.size(); ++i) {
            std::vector<std::int64_t>& open = lanes_[i];  // ends of the open slices, outer first
            while (!open.empty() && open.back() <= s.startNs) {
                open.pop_back();
            }
            if (open.empty() || s.endNs <= open.back()) {
                open.push_back(s.endNs);
                return i;
            }
        }
        lanes_.push_back({s.endNs});
        return lanes_.size() - 1;
    }

    std::vector<std::vector<std::int64_t>> lanes_;
};

class TraceWriter {
public:
    TraceWriter(const RecordedRun& run, std::ostream& out) : run_(run), out_(out) {}

    TraceStats write() {
        collectSlices();
        placeOnTracks();
        out_ << "{\"displayTimeUnit\":\"ms\",\"otherData\":" << otherData()
             << ",\"traceEvents\":[\n";
        writeMetadata();
        writeSlicesAndFlows();
        writeCrashes();
        writeCounters();
        out_ << "\n]}\n";
        return stats_;
    }

private:
    void event(const std::string& json) {
        out_ << (first_ ? "" : ",\n") << json;
        first_ = false;
    }

    std::string otherData() const {
        nlohmann::json o;
        o["generator"] = "queuescope trace " + std::string(kVersion);
        o["recording"] = run_.path();
        o["scenario"] = run_.scenario().name;
        o["channel"] = run_.scenario().channel;
        o["started_at_utc"] = run_.setting("started_at_utc");
        return o.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }

    void collectSlices() {
        for (const MessageRecord* m : run_.messages()) {
            std::vector<JourneyStep> steps = run_.journey(*m);
            for (std::size_t i = 0; i < steps.size(); ++i) {
                Slice s;
                s.message = m;
                s.step = i;
                s.startNs = run_.sinceOrigin(steps[i].startNs);
                s.endNs = std::max(run_.sinceOrigin(steps[i].endNs), s.startNs);
                s.info = std::move(steps[i]);
                slices_.push_back(std::move(s));
            }
        }
    }

    void placeOnTracks() {
        std::map<std::string, std::vector<Slice*>> byWorker;
        for (Slice& s : slices_) {
            byWorker[s.info.worker].push_back(&s);
        }
        for (const WorkerStats& w : run_.summary().result.workers) {
            byWorker[w.worker];  // a worker that got nothing still has its track
        }
        for (const WorkerCrash& c : run_.crashes()) {
            byWorker[c.worker];
        }
        std::vector<std::string> workers;
        for (const auto& [name, unused] : byWorker) {
            workers.push_back(name);
        }
        std::sort(workers.begin(), workers.end(),
                  [](const std::string& a, const std::string& b) { return naturalLess(a, b); });
        int nextTid = 1;
        for (const std::string& worker : workers) {
            std::vector<Slice*>& mine = byWorker[worker];
            std::sort(mine.begin(), mine.end(), [](const Slice* a, const Slice* b) {
                return a->startNs != b->startNs ? a->startNs < b->startNs : a->endNs > b->endNs;
            });
            WorkerLanes lanes;
            const std::size_t count = std::max<std::size_t>(1, lanes.place(mine));
            for (Slice* s : mine) {
                s->tid += nextTid;
            }
            // A hand-out only the broker saw, to a client it did not name.
            const std::string name = worker.empty() ? "(unnamed client)" : worker;
            for (std::size_t lane = 0; lane < count; ++lane) {
                tracks_.push_back({nextTid + static_cast<int>(lane),
                                   lane == 0 ? name : name + " \u00B7" + std::to_string(lane + 1)});
            }
            workerTid_[worker] = nextTid;
            nextTid += static_cast<int>(count);
        }
        stats_.workerTracks = tracks_.size();
    }

    void writeMetadata() {
        const std::string process =
            "Queuescope run: " +
            (run_.scenario().name.empty() ? run_.path() : run_.scenario().name);
        event("{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":" +
              jsonText(process) + "}}");
        for (const auto& [tid, name] : tracks_) {
            const std::string t = std::to_string(tid);
            event("{\"ph\":\"M\",\"pid\":1,\"tid\":" + t +
                  ",\"name\":\"thread_name\",\"args\":{\"name\":" + jsonText(name) + "}}");
            event("{\"ph\":\"M\",\"pid\":1,\"tid\":" + t +
                  ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" + t + "}}");
        }
    }

    // A message's hand-outs are linked by flows carried on the slices
    // themselves (bind_id with flow_out / flow_in, the form Chrome writes):
    // each binds to exactly its slice. A flow phase event ("s"/"f") would
    // bind to whatever slice is innermost at its time on its track, and a
    // batch's hand-outs start at the same instant and nest.
    enum class FlowRole { None, Out, In, InOut };

    std::string sliceJson(const Slice& s, FlowRole flow) const {
        const TaskLabel* label = run_.label(s.message->messageId);
        std::string args = "{\"task\":" + jsonText(run_.taskName(*s.message));
        if (label != nullptr) {
            args += ",\"task number\":" + std::to_string(label->number);
        }
        args += ",\"message id\":" + jsonText(s.message->messageId) +
                ",\"receive count\":" + std::to_string(s.info.receiveCount) +
                ",\"hand-out\":" + std::to_string(s.step + 1) +
                ",\"channel\":" + jsonText(s.info.channel) +
                ",\"end seen\":" + (s.info.endSeen ? "true" : "false") + "}";
        std::string flowFields;
        if (flow != FlowRole::None) {
            char id[32];
            std::snprintf(id, sizeof id, "0x%llx",
                          static_cast<unsigned long long>(s.message->ordinal + 1));
            flowFields =
                std::string(",\"bind_id\":\"") + id + "\"" +
                (flow == FlowRole::In || flow == FlowRole::InOut ? ",\"flow_in\":true" : "") +
                (flow == FlowRole::Out || flow == FlowRole::InOut ? ",\"flow_out\":true" : "");
        }
        return "{\"ph\":\"X\",\"pid\":1,\"tid\":" + std::to_string(s.tid) +
               ",\"ts\":" + micros(s.startNs) + ",\"dur\":" + micros(s.endNs - s.startNs) +
               ",\"cat\":\"" + std::string(kSliceCategory) + "\",\"name\":\"" +
               std::string(deliveryEndName(s.info.end)) + "\",\"cname\":\"" +
               std::string(traceColourOf(s.info.end)) + "\"" + flowFields + ",\"args\":" + args +
               "}";
    }

    void writeSlicesAndFlows() {
        // slices_ is in message order, each message's hand-outs in order.
        std::vector<FlowRole> roles(slices_.size(), FlowRole::None);
        for (std::size_t i = 0; i < slices_.size();) {
            std::size_t end = i;
            while (end < slices_.size() && slices_[end].message == slices_[i].message) {
                ++end;
            }
            for (std::size_t k = i; end - i >= 2 && k < end; ++k) {
                roles[k] = k == i ? FlowRole::Out : (k + 1 == end ? FlowRole::In : FlowRole::InOut);
            }
            stats_.flowArrows += end - i - 1;
            i = end;
        }
        // Written in time order, the longer first at one instant, so that a
        // reader taking them in file order on equal times still nests them.
        std::vector<std::size_t> order(slices_.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            order[i] = i;
        }
        std::sort(order.begin(), order.end(), [this](std::size_t x, std::size_t y) {
            const Slice& a = slices_[x];
            const Slice& b = slices_[y];
            if (a.startNs != b.startNs) {
                return a.startNs < b.startNs;
            }
            return a.endNs != b.endNs ? a.endNs > b.endNs : x < y;
        });
        for (std::size_t i : order) {
            event(sliceJson(slices_[i], roles[i]));
            ++stats_.slices;
        }
    }

    void writeCrashes() {
        for (const WorkerCrash& c : run_.crashes()) {
            const auto it = workerTid_.find(c.worker);
            if (it == workerTid_.end()) {
                continue;
            }
            event("{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":" + std::to_string(it->second) +
                  ",\"ts\":" + micros(c.timeNs) +
                  ",\"name\":\"worker crashed\",\"cname\":\"terrible\",\"args\":{\"unsettled\":" +
                  std::to_string(c.unsettled) + "}}");
        }
    }

    void writeCounters() {
        for (const ChannelDepth& channel : run_.depth()) {
            const std::string name = jsonText("depth " + channel.channel);
            for (const DepthSample& s :
                 downsample(channel.samples, run_.endNs(), kMaxCounterSamples)) {
                event("{\"ph\":\"C\",\"pid\":1,\"ts\":" + micros(s.timeNs) + ",\"name\":" + name +
                      ",\"args\":{\"waiting\":" + std::to_string(s.waiting) + ",\"in flight\":" +
                      std::to_string(s.inFlight) + ",\"delayed\":" + std::to_string(s.delayed) +
                      ",\"dead-lettered\":" + std::to_string(s.deadLettered) + "}}");
                ++stats_.counterEvents;
            }
        }
    }

    const RecordedRun& run_;
    std::ostream& out_;
    bool first_ = true;
    std::vector<Slice> slices_;
    std::vector<std::pair<int, std::string>> tracks_;
    std::map<std::string, int> workerTid_;
    TraceStats stats_;
};

}  // namespace

TraceStats writeTrace(const RecordedRun& run, std::ostream& out) {
    return TraceWriter(run, out).write();
}

}  // namespace qs::analysis
