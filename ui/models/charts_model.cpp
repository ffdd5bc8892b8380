#include "models/charts_model.h"

#include <algorithm>

#include "models/message_key.h"

namespace qs::ui {

namespace {
// Upper bounds of the latency bins in milliseconds; the last bin is open.
constexpr std::array<double, ChartsModel::kLatencyBins - 1> kBinUpperMs = {
    10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000};
}  // namespace

int ChartsModel::latencyBin(std::int64_t ns) {
    const double ms = static_cast<double>(ns) / 1e6;
    for (int i = 0; i < kLatencyBins - 1; ++i) {
        if (ms < kBinUpperMs[static_cast<std::size_t>(i)]) {
            return i;
        }
    }
    return kLatencyBins - 1;
}

namespace {
QString formatMs(double ms, bool unit) {
    const bool seconds = ms >= 1000;
    QString text = QString::number(seconds ? ms / 1000 : ms);
    if (unit) {
        text += seconds ? QStringLiteral(" s") : QStringLiteral(" ms");
    }
    return text;
}
}  // namespace

QString ChartsModel::latencyBinLabel(int bin) {
    bin = std::clamp(bin, 0, kLatencyBins - 1);
    if (bin == kLatencyBins - 1) {
        return QStringLiteral("≥ ") + formatMs(kBinUpperMs.back(), true);
    }
    const double lo = bin == 0 ? 0 : kBinUpperMs[static_cast<std::size_t>(bin - 1)];
    const double hi = kBinUpperMs[static_cast<std::size_t>(bin)];
    // One unit for the pair: "500 ms–1 s" reads worse than "0.5–1 s".
    const bool seconds = hi >= 1000;
    const QString from = seconds ? QString::number(lo / 1000) : QString::number(lo);
    return from + QStringLiteral("–") + formatMs(hi, true);
}

QString ChartsModel::latencyEdgeLabel(int bin) {
    if (bin < 0 || bin >= kLatencyBins - 1) {
        return {};
    }
    return formatMs(kBinUpperMs[static_cast<std::size_t>(bin)], true);
}

void ChartsModel::clear() {
    buckets_.clear();
    perWorker_.clear();
    bins_.fill(0);
    markers_.clear();
    handedOut_.clear();
    originNs_ = 0;
    ++version_;
}

SecondBucket& ChartsModel::bucketAt(std::int64_t timeNs) {
    if (originNs_ == 0) {
        originNs_ = timeNs;
    }
    const std::int64_t second = (timeNs - originNs_) / 1'000'000'000LL;
    if (buckets_.empty()) {
        SecondBucket first;
        first.second = second;
        buckets_.push_back(first);
        return buckets_.back();
    }
    if (second >= buckets_.back().second) {
        // Fill gaps so every second has a bucket (plots show real zeros).
        while (buckets_.back().second < second) {
            SecondBucket next;
            next.second = buckets_.back().second + 1;
            buckets_.push_back(next);
        }
        while (static_cast<int>(buckets_.size()) > retention_) {
            buckets_.pop_front();
        }
        return buckets_.back();
    }
    // Late event (events are merged from several threads): find its bucket.
    const std::int64_t idx = second - buckets_.front().second;
    if (idx < 0) {
        return buckets_.front();
    }
    return buckets_[static_cast<std::size_t>(idx)];
}

void ChartsModel::applyEvent(const Event& e) {
    applyOne(e, nullptr);
}

void ChartsModel::applyEvent(const Event& e, bool handedOutBefore) {
    applyOne(e, &handedOutBefore);
}

void ChartsModel::applyEvent(const Event& e, bool handedOutBefore, std::int64_t latencyNs) {
    applyOne(e, &handedOutBefore, &latencyNs);
}

void ChartsModel::restore(const ChartsModel& snapshot) {
    const std::uint64_t version = std::max(version_, snapshot.version_) + 1;
    auto latency = std::move(latency_);  // this model's lookup, not the one copied then
    *this = snapshot;
    latency_ = std::move(latency);
    version_ = version;
}

bool ChartsModel::reads(EventKind kind) {
    switch (kind) {  // the kinds applyOne() handles
        case EventKind::TaskSent:
        case EventKind::Acked:
        case EventKind::MessageAssigned:
        case EventKind::Rejected:
        case EventKind::PollReturned:
        case EventKind::ConfigChanged:
            return true;
        default:
            return false;
    }
}

void ChartsModel::applyOne(const Event& e, const bool* handedOutBefore,
                           const std::int64_t* latencyNs) {
    switch (e.kind) {
        case EventKind::TaskSent:
            ++bucketAt(e.timeNs).sent;
            break;
        case EventKind::Acked: {
            ++bucketAt(e.timeNs).acked;
            ++perWorker_[fromView(e.actor)];
            if (latencyNs != nullptr || latency_) {
                const std::int64_t ns = latencyNs != nullptr ? *latencyNs : latency_(e);
                if (ns >= 0) {
                    ++bins_[static_cast<std::size_t>(latencyBin(ns))];
                }
            }
            break;
        }
        case EventKind::MessageAssigned: {
            // Workers report hand-outs; a message handed out before is a redelivery.
            if (handedOutBefore != nullptr) {
                if (!*handedOutBefore) {
                    return;
                }
                ++bucketAt(e.timeNs).redelivered;
                break;
            }
            const QString key = messageKey(e.channel, e.messageId);
            if (handedOut_.size() > 300000) {
                handedOut_.clear();
            }
            if (handedOut_.contains(key)) {
                ++bucketAt(e.timeNs).redelivered;
            } else {
                handedOut_.insert(key);
                return;
            }
            break;
        }
        case EventKind::Rejected:
            ++bucketAt(e.timeNs).rejected;
            break;
        case EventKind::PollReturned:
            if (e.value == 0) {  // value = messages received
                ++bucketAt(e.timeNs).emptyPolls;
            }
            break;
        case EventKind::ConfigChanged: {
            bucketAt(e.timeNs);
            QString text = QString::fromStdString(e.detail);
            if (e.source == EventSource::Worker && !e.actor.empty()) {
                text = fromView(e.actor) + QStringLiteral(": ") + text;
            }
            markers_.emplace_back(static_cast<double>(e.timeNs - originNs_) / 1e9, text);
            if (markers_.size() > 200) {
                markers_.pop_front();
            }
            break;
        }
        default:
            return;
    }
    ++version_;
}

void ChartsModel::apply(const std::vector<Event>& batch) {
    for (const Event& e : batch) {
        applyEvent(e);
    }
}

void ChartsModel::sampleDepth(std::int64_t nowNs, qint64 waiting, qint64 inFlight) {
    if (originNs_ == 0) {
        return;  // nothing happened yet
    }
    SecondBucket& b = bucketAt(nowNs);
    if (b.waiting != waiting || b.inFlight != inFlight) {
        b.waiting = waiting;
        b.inFlight = inFlight;
        ++version_;
    }
}

}  // namespace qs::ui
