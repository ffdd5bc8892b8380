#pragma once

#include <QMap>
#include <QSet>
#include <QString>
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "events/event.h"

// Per-second series for the charts, built from event batches: throughput
// (sent, acked, redelivered, rejected, and the polls that came back empty), queue depth (waiting vs
// in flight, sampled from the message model), the share of acked tasks per worker, and a latency
// histogram (sent → acked). Bounded: only the last `retention` seconds are kept. Plain C++; UI
// thread only.
namespace qs::ui {

struct SecondBucket {
    std::int64_t second = 0;  // whole seconds since origin
    int sent = 0;
    int acked = 0;
    int redelivered = 0;
    int rejected = 0;
    int emptyPolls = 0;   // polls that returned no message (the busy loop of short waits)
    qint64 waiting = -1;  // last depth sample in this second (-1 = none)
    qint64 inFlight = -1;
};

class ChartsModel {
public:
    static constexpr int kLatencyBins = 11;

    // Latency of an acked message (sent → ack, ns), or -1 when unknown.
    void setLatencyLookup(std::function<std::int64_t(const Event&)> fn) {
        latency_ = std::move(fn);
    }
    void setRetentionSeconds(int seconds) { retention_ = seconds; }

    void apply(const std::vector<Event>& batch);
    void applyEvent(const Event& event);  // one event (ChartsAtCursor reads the Run in place)
    // Whether an event of `kind` changes the model at all: a feed that reads
    // the Run's events in place decodes only these (Run::event is a decode).
    static bool reads(EventKind kind);
    // One event whose hand-out history the caller knows (ChartsAtCursor asks
    // the Run): a MessageAssigned is a redelivery when `handedOutBefore`;
    // the model's own set of messages handed out is neither read nor grown,
    // so a copy of the model stays small.
    void applyEvent(const Event& event, bool handedOutBefore);
    // As above, with an acked event's latency known (-1: unknown), so the
    // lookup is not asked: the head's feed reads it from the run it follows.
    void applyEvent(const Event& event, bool handedOutBefore, std::int64_t latencyNs);
    // This model becomes a copy of `snapshot`, its version() still moving
    // forward (a view that caches by version redraws).
    void restore(const ChartsModel& snapshot);
    void sampleDepth(std::int64_t nowNs, qint64 waiting, qint64 inFlight);
    void clear();

    std::int64_t originNs() const { return originNs_; }
    void setOriginNs(std::int64_t ns) { originNs_ = ns; }
    const std::deque<SecondBucket>& buckets() const { return buckets_; }
    const QMap<QString, qint64>& ackedPerWorker() const { return perWorker_; }
    const std::array<qint64, kLatencyBins>& latencyBins() const { return bins_; }
    // Range of a bin with its unit ("50–100 ms", "1–2.5 s", "≥ 10 s").
    static QString latencyBinLabel(int bin);
    // Upper edge of a bin ("25 ms", "2.5 s"); the last bin has no upper edge ("").
    static QString latencyEdgeLabel(int bin);
    static int latencyBin(std::int64_t ns);
    // Markers (configuration changes) in seconds since origin.
    const std::deque<std::pair<double, QString>>& markers() const { return markers_; }
    std::uint64_t version() const { return version_; }

private:
    SecondBucket& bucketAt(std::int64_t timeNs);
    // `handedOutBefore` null: the model's own set decides.
    void applyOne(const Event& event, const bool* handedOutBefore,
                  const std::int64_t* latencyNs = nullptr);

    std::function<std::int64_t(const Event&)> latency_;
    std::deque<SecondBucket> buckets_;
    QMap<QString, qint64> perWorker_;
    std::array<qint64, kLatencyBins> bins_{};
    std::deque<std::pair<double, QString>> markers_;
    QSet<QString> handedOut_;  // messages seen assigned (a second hand-out is a redelivery)
    std::int64_t originNs_ = 0;
    int retention_ = 900;
    std::uint64_t version_ = 0;
};

}  // namespace qs::ui
