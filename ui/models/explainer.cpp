#include "models/explainer.h"

#include <QStringList>
#include <algorithm>
#include <map>
#include <optional>

#include "controllers/console_run.h"
#include "events/config_change.h"
#include "models/core_text.h"
#include "models/event_time.h"
#include "models/message_key.h"
#include "models/task_view.h"
#include "run/run.h"

namespace qs::ui {

namespace {
QString describeSetting(const SettingChange& change) {
    const QString value = QString::fromStdString(change.value);
    switch (change.setting) {
        case ConfigSetting::BatchSize:
            return QStringLiteral(
                       "Batch size is now %1: each poll asks the broker for up to %1 task(s), "
                       "and the poll only returns early when that many are available.")
                .arg(value);
        case ConfigSetting::WaitMs:
            return QStringLiteral(
                       "Wait timeout is now %1 ms: an empty queue holds a poll open this long "
                       "before it returns with whatever it collected.")
                .arg(value);
        case ConfigSetting::AutoAck:
            return change.flag().value_or(false)
                       ? QStringLiteral(
                             "Auto-ack is on: the broker counts a task as done the moment it "
                             "hands it out. A crash now loses tasks instead of redelivering "
                             "them.")
                       : QStringLiteral(
                             "Auto-ack is off: a task stays reserved until the worker acks it; "
                             "if the worker dies first, the task is delivered again.");
        case ConfigSetting::FailureRate:
            return QStringLiteral(
                       "Failure rate is now %1: failed tasks are rejected (NAck) and go back to "
                       "the tail of the queue with a higher receive count.")
                .arg(value);
        case ConfigSetting::CrashRate:
            return QStringLiteral(
                       "Crash rate is now %1: a crashing worker drops its connection without "
                       "settling, and the broker hands its tasks to someone else.")
                .arg(value);
        case ConfigSetting::Work:
            return QStringLiteral("Work per task is now %1.").arg(value);
        case ConfigSetting::Slowdown:
            return QStringLiteral(
                       "Work now takes %1× as long: a slow worker holds its batch longer while "
                       "others may sit idle.")
                .arg(value);
        case ConfigSetting::Workers:
            return QStringLiteral("The pool now has %1 worker(s) competing for the same queue.")
                .arg(value);
        case ConfigSetting::Consume:
            return value == QStringLiteral("v1")
                       ? QStringLiteral(
                             "Workers now consume through the v1 stream: one task per poll, "
                             "hidden from the others only for its visibility timeout; an ack "
                             "after that is refused and the task goes to someone else.")
                       : QStringLiteral(
                             "Workers now consume through the downstream API: batches held "
                             "until they are settled or the stream ends.");
        case ConfigSetting::VisibilitySeconds:
            return QStringLiteral(
                       "Visibility timeout is now %1 s: a v1-stream worker that has not settled "
                       "a task by then loses it to the broker (receive count + 1).")
                .arg(value);
        default:
            return QStringLiteral("%1 is now %2.").arg(fromView(toString(change.setting)), value);
    }
}

// One sentence per changed setting.
QString describeConfig(const Event& e) {
    QStringList sentences;
    for (const SettingChange& change : settingChangesOf(e)) {
        sentences << describeSetting(change);
    }
    if (sentences.isEmpty()) {
        return QStringLiteral("Configuration changed: %1.").arg(QString::fromStdString(e.detail));
    }
    return sentences.join(QLatin1Char(' '));
}
}  // namespace

// The explanations of one call. At most a few per kind in each second of
// stream time (Explainer::Quota); the rest are counted, and said in one line
// per kind once that second is over.
class Explainer::Batch {
public:
    Batch(Quota& quota, int maxPerKind) : quota_(quota), maxPerKind_(maxPerKind) {}
    void add(std::int64_t t, Explanation::Kind kind, QString text, QString key = {}) {
        note(t);
        if (++quota_.perKind[kind] > maxPerKind_) {
            ++quota_.suppressed[kind];
            quota_.lastSuppressedNs = std::max(quota_.lastSuppressedNs, t);
            return;
        }
        out_.push_back({t, kind, std::move(text), std::move(key)});
    }
    // An event at t: the second it ends closes the quota's window.
    void note(std::int64_t t) {
        if (t >= quota_.windowEndNs) {
            summarise();
            quota_.windowEndNs = t + kQuotaWindowNs;
        }
    }
    // One line per kind for what the window left unsaid; a new window starts.
    void summarise();
    std::vector<Explanation> finish() { return std::move(out_); }

private:
    Quota& quota_;
    int maxPerKind_;
    std::vector<Explanation> out_;
};

void Explainer::Batch::summarise() {
    for (const auto& [kind, n] : quota_.suppressed) {
        QString what;
        switch (kind) {
            case Explanation::Kind::Redelivery:
                what = QStringLiteral("redeliveries");
                break;
            case Explanation::Kind::Rejection:
                what = QStringLiteral("rejections");
                break;
            case Explanation::Kind::Crash:
                what = QStringLiteral("crashes");
                break;
            case Explanation::Kind::DeadLetter:
                what = QStringLiteral("dead-lettered / expired tasks");
                break;
            default:
                what = QStringLiteral("similar events");
                break;
        }
        out_.push_back({quota_.lastSuppressedNs,
                        Explanation::Kind::Summary,
                        QStringLiteral("… and %1 more %2 in the same second.").arg(n).arg(what),
                        {}});
    }
    quota_.perKind.clear();
    quota_.suppressed.clear();
    quota_.lastSuppressedNs = 0;
}

namespace {

// A task's trail around one of its events: the hand-outs before and after it.
struct TrailAround {
    std::vector<std::uint32_t> trail;
    std::size_t at = 0;                 // position of the event in trail
    int deliveries = 0;                 // hand-outs up to and including the event
    std::optional<std::size_t> before;  // the hand-out before the event's (position)
    std::size_t nextHandOut = 0;        // position of the next hand-out after it (or size)
};

TrailAround trailAround(const Run& run, std::uint32_t message, std::uint64_t event) {
    TrailAround t;
    t.trail = run.messageEvents(message);
    t.at = static_cast<std::size_t>(std::lower_bound(t.trail.begin(), t.trail.end(), event) -
                                    t.trail.begin());
    // Kinds only (Run::eventKind): no event is decoded to count its hand-outs.
    const bool eventIsHandOut =
        t.at < t.trail.size() && run.eventKind(t.trail[t.at]) == EventKind::MessageAssigned;
    for (std::size_t i = 0; i < t.at; ++i) {
        if (run.eventKind(t.trail[i]) == EventKind::MessageAssigned) {
            ++t.deliveries;
            t.before = i;
        }
    }
    t.deliveries += eventIsHandOut ? 1 : 0;
    t.nextHandOut = t.trail.size();
    for (std::size_t i = t.at + 1; i < t.trail.size(); ++i) {
        if (run.eventKind(t.trail[i]) == EventKind::MessageAssigned) {
            t.nextHandOut = i;
            break;
        }
    }
    return t;
}

// Why a task handed out before came back: what ended the hand-out at
// `previous` (a position in the trail), looked for up to position `end`.
QString whyItCameBack(const Run& run, const TrailAround& t, std::size_t previous, std::size_t end) {
    const QString worker = fromView(run.event(t.trail[previous]).actor.view());
    bool crashed = false;
    bool stopped = false;
    for (std::size_t i = previous + 1; i < end; ++i) {
        if (i == t.at)
            continue;
        const Event& e = run.event(t.trail[i]);
        if (e.kind == EventKind::Rejected)
            return QStringLiteral("%1 rejected it (NAck)").arg(worker);
        if (e.kind == EventKind::VisibilityExpired ||
            (e.kind == EventKind::BrokerNacked && e.detail == kNackReasonVisibilityExpired))
            return QStringLiteral("%1 held it past its visibility timeout (v1 stream), so the "
                                  "broker took it back")
                .arg(worker);
        crashed |= e.kind == EventKind::WorkerCrashed;
        stopped |= e.kind == EventKind::WorkerStopped;
    }
    if (crashed)
        return QStringLiteral("%1 crashed before acking it").arg(worker);
    if (stopped)
        return QStringLiteral("%1 stopped before acking it").arg(worker);
    return QStringLiteral("%1 never settled it before its connection ended").arg(worker);
}

// Whether the NAck at trail position t.at ended the task in the dead-letter
// queue (or dropped it): the broker said so around it, or, with no broker to
// say it, the ledger saw its MaxReceiveCount reached. "" = it was queued again.
std::optional<QString> deadLetteredBy(const Run& run, const TrailAround& t, std::uint32_t message) {
    const std::size_t from = t.before ? *t.before + 1 : 0;
    for (std::size_t i = from; i < t.nextHandOut; ++i) {
        const Event& e = run.event(t.trail[i]);
        if (e.kind == EventKind::BrokerDeadLettered)
            return QString::fromStdString(e.detail);
    }
    const MessageState now = run.messageNow(message).state;
    const bool ended = now == MessageState::DeadLettered || now == MessageState::Dropped;
    if (ended && t.nextHandOut == t.trail.size()) {
        const MessageRecord* record = run.ledger().message(run.messageId(message));
        return record ? QString::fromStdString(record->endDetail) : QString();
    }
    return std::nullopt;
}

}  // namespace

void Explainer::clear() {
    explained_ = 0;
    quota_ = Quota();
    lastWaitNote_.clear();
    autoAck_ = false;
    firstAssignSeen_ = false;
}

QString Explainer::label(const QString& key) const {
    if (label_) {
        const QString l = label_(key);
        if (!l.isEmpty()) {
            return l;
        }
    }
    return QStringLiteral("Message ") + key.section(QLatin1Char('\n'), 1);
}

std::vector<Explanation> Explainer::explainNew() {
    const Run& run = run_->run();
    Batch out(quota_, maxPerKind_);
    for (; explained_ < run.eventCount(); ++explained_) {
        explainEvent(explained_, out);
    }
    return out.finish();
}

std::vector<Explanation> Explainer::sayWhatWasLeftOut() {
    Batch out(quota_, maxPerKind_);
    out.summarise();
    quota_.windowEndNs = 0;
    return out.finish();
}

namespace {

// The kinds explainEvent says something about (its switch's cases).
bool kindExplained(EventKind kind) {
    switch (kind) {
        case EventKind::MessageAssigned:
        case EventKind::Acked:
        case EventKind::Rejected:
        case EventKind::Requeued:
        case EventKind::VisibilityExpired:
        case EventKind::WorkerCrashed:
        case EventKind::WorkerPaused:
        case EventKind::BrokerDeadLettered:
        case EventKind::BrokerExpired:
        case EventKind::PollReturned:
        case EventKind::ConfigChanged:
        case EventKind::SendFailed:
        case EventKind::EventsDropped:
            return true;
        default:
            return false;
    }
}

}  // namespace

// Most events (polls, work, sends) explain nothing: only the kinds above are
// decoded (Run::event builds a whole Event), the rest only move the clock.
void Explainer::explainEvent(std::uint64_t index, Batch& out) {
    const Run& run = run_->run();
    out.note(run.eventTimeNs(index));
    if (!kindExplained(run.eventKind(index))) {
        return;
    }
    const Event e = run.event(index);
    switch (e.kind) {
        case EventKind::MessageAssigned:
            explainAssigned(index, e, out);
            break;
        case EventKind::Acked:
            explainAcked(index, e, out);
            break;
        case EventKind::Rejected:
            explainRejected(index, e, out);
            break;
        case EventKind::Requeued:
            out.add(e.timeNs, Explanation::Kind::Rejection,
                    QStringLiteral("%1 was moved by %2 to channel %3.")
                        .arg(label(messageKey(e.channel, e.messageId)), fromView(e.actor),
                             fromView(e.detail)),
                    messageKey(e.channel, e.messageId));
            break;
        case EventKind::VisibilityExpired:
            out.add(e.timeNs, Explanation::Kind::Rejection,
                    QStringLiteral("%1's ack of %2 came too late and was refused: its visibility "
                                   "timeout had run out, so the broker had already put it back "
                                   "with receive count %3.")
                        .arg(fromView(e.actor), label(messageKey(e.channel, e.messageId)))
                        .arg(e.receiveCount + 1),
                    messageKey(e.channel, e.messageId));
            break;
        case EventKind::WorkerCrashed:
            explainCrash(index, e, out);
            break;
        case EventKind::WorkerPaused:
            out.add(e.timeNs, Explanation::Kind::Info,
                    QStringLiteral("%1 paused: it stops polling, the others take its share.")
                        .arg(fromView(e.actor)));
            break;
        case EventKind::BrokerDeadLettered: {
            const QString key = messageKey(e.channel, e.messageId);
            out.add(e.timeNs, Explanation::Kind::DeadLetter,
                    e.detail.empty()
                        ? QStringLiteral("%1 reached its MaxReceiveCount and was dropped (no "
                                         "dead-letter channel set).")
                              .arg(label(key))
                        : QStringLiteral("%1 reached its MaxReceiveCount and was moved to "
                                         "dead-letter channel %2 instead of being retried "
                                         "forever.")
                              .arg(label(key), fromView(e.detail)),
                    key);
            break;
        }
        case EventKind::BrokerExpired: {
            const QString key = messageKey(e.channel, e.messageId);
            out.add(
                e.timeNs, Explanation::Kind::DeadLetter,
                QStringLiteral("%1 expired before a worker took it (its expiration time passed).")
                    .arg(label(key)),
                key);
            break;
        }
        case EventKind::PollReturned:
            explainWait(e, out);
            break;
        case EventKind::ConfigChanged:
            explainConfig(e, out);
            break;
        case EventKind::SendFailed:
            out.add(e.timeNs, Explanation::Kind::DeadLetter,
                    QStringLiteral("The broker refused a task from %1: %2")
                        .arg(fromView(e.actor), fromView(e.detail)),
                    messageKey(e.channel, e.messageId));
            break;
        case EventKind::EventsDropped:
            out.add(e.timeNs, Explanation::Kind::Summary,
                    QStringLiteral("%1 events were lost because the console fell behind: the "
                                   "views and the recording miss them.")
                        .arg(e.value));
            break;
        default:
            break;
    }
}

void Explainer::explainAssigned(std::uint64_t index, const Event& e, Batch& out) {
    const Run& run = run_->run();
    const auto message = run.messageOfEvent(index);
    if (!message) {
        return;
    }
    if (firstAssignSeen_ && run.messageNow(*message).deliveries <= 1) {
        return;  // handed out once so far: no redelivery (most assignments; no trail read)
    }
    const TrailAround t = trailAround(run, *message, index);
    const bool redelivery = t.deliveries > 1 && t.before;
    if (!redelivery && firstAssignSeen_) {
        return;  // a first hand-out, after the first: nothing to say (most assignments)
    }
    const QString key = messageKey(e.channel, e.messageId);
    const QString actor = fromView(e.actor);
    if (redelivery) {
        const QString previous = fromView(run.event(t.trail[*t.before]).actor.view());
        if (previous != actor) {
            out.add(e.timeNs, Explanation::Kind::Redelivery,
                    QStringLiteral("%1 came back to the queue because %2; %3 received it at %4 "
                                   "(receive count %5).")
                        .arg(label(key), whyItCameBack(run, t, *t.before, t.nextHandOut), actor,
                             formatClock(e.timeNs))
                        .arg(e.receiveCount),
                    key);
        } else {
            out.add(e.timeNs, Explanation::Kind::Redelivery,
                    QStringLiteral("%1 was delivered again to %2 at %3 (receive count %4): "
                                   "at-least-once delivery means a task can be processed twice.")
                        .arg(label(key), actor, formatClock(e.timeNs))
                        .arg(e.receiveCount),
                    key);
        }
    } else if (!firstAssignSeen_) {
        firstAssignSeen_ = true;
        out.add(e.timeNs, Explanation::Kind::Info,
                QStringLiteral("%1 went to %2: workers compete for tasks, and each waiting "
                               "task is handed to exactly one of them.")
                    .arg(label(key), actor),
                key);
    }
}

void Explainer::explainAcked(std::uint64_t index, const Event& e, Batch& out) {
    const Run& run = run_->run();
    const auto message = run.messageOfEvent(index);
    if (!message || run.messageNow(*message).deliveries <= 1) {
        return;  // acked at its only hand-out so far (most acks; no trail read)
    }
    const TrailAround t = trailAround(run, *message, index);
    if (t.deliveries > 1) {
        const QString key = messageKey(e.channel, e.messageId);
        out.add(e.timeNs, Explanation::Kind::Info,
                QStringLiteral("%1 finally acked by %2 after %3 deliveries.")
                    .arg(label(key), fromView(e.actor))
                    .arg(t.deliveries),
                key);
    }
}

void Explainer::explainRejected(std::uint64_t index, const Event& e, Batch& out) {
    const Run& run = run_->run();
    const auto message = run.messageOfEvent(index);
    const QString key = messageKey(e.channel, e.messageId);
    std::optional<QString> deadLetter;
    if (message) {
        deadLetter = deadLetteredBy(run, trailAround(run, *message, index), *message);
    }
    QString text;
    if (!deadLetter) {
        text = QStringLiteral(
                   "%1 failed at %2, which rejected it (NAck): the broker puts a new "
                   "copy at the tail of the queue with receive count %3.")
                   .arg(label(key), fromView(e.actor))
                   .arg(e.receiveCount + 1);
    } else {
        const QString where =
            deadLetter->isEmpty()
                ? QStringLiteral("it leaves the queue for good (dead-lettered)")
                : QStringLiteral("the broker moves it to dead-letter channel %1").arg(*deadLetter);
        text = QStringLiteral(
                   "%1 failed at %2, which rejected it (NAck) at receive count %3, its "
                   "MaxReceiveCount: instead of queueing it again, %4.")
                   .arg(label(key), fromView(e.actor))
                   .arg(e.receiveCount)
                   .arg(where);
    }
    out.add(e.timeNs, Explanation::Kind::Rejection, text, key);
}

void Explainer::explainCrash(std::uint64_t index, const Event& e, Batch& out) {
    const Run& run = run_->run();
    const QString actor = fromView(e.actor);
    QStringList held;
    for (const std::uint32_t m : run_->messagesReturnedBy(index)) {
        held << taskKey(run, m);
    }
    QString text;
    if (held.isEmpty() && autoAck_) {
        text = QStringLiteral(
                   "%1 crashed. With auto-ack on, the broker counted its tasks as done "
                   "when it handed them out, so any it was still working on are lost, "
                   "not redelivered.")
                   .arg(actor);
    } else if (held.isEmpty()) {
        text = QStringLiteral(
                   "%1 crashed holding no unacknowledged tasks: nothing is lost or "
                   "redelivered.")
                   .arg(actor);
    } else {
        QStringList names;
        for (const QString& k : held.mid(0, 5)) {
            names << label(k);
        }
        text = QStringLiteral(
                   "%1 crashed holding %2 unacknowledged task(s) (%3%4). The broker "
                   "returns them to the queue for another worker: at-least-once "
                   "delivery.")
                   .arg(actor)
                   .arg(held.size())
                   .arg(names.join(QStringLiteral(", ")),
                        held.size() > 5 ? QStringLiteral(", …") : QString());
    }
    out.add(e.timeNs, Explanation::Kind::Crash, text, held.isEmpty() ? QString() : held.first());
}

void Explainer::explainWait(const Event& e, Batch& out) {
    if (e.value != 0) {
        return;
    }
    const QString actor = fromView(e.actor);
    auto& last = lastWaitNote_[actor];
    if (last == 0 || e.timeNs - last > 30'000'000'000LL) {
        last = e.timeNs;
        out.add(e.timeNs, Explanation::Kind::Wait,
                QStringLiteral("%1 waited %2 and got nothing: the queue was empty, so the broker "
                               "held its poll open until the wait timeout.")
                    .arg(actor, formatDurationNs(e.count2 * 1'000'000)));
    }
}

void Explainer::explainConfig(const Event& e, Batch& out) {
    for (const SettingChange& change : settingChangesOf(e)) {
        if (change.setting == ConfigSetting::AutoAck && change.flag()) {
            autoAck_ = *change.flag();
        }
    }
    QString text = describeConfig(e);
    if (e.source == EventSource::Worker && !e.actor.empty()) {
        text = fromView(e.actor) + QStringLiteral(": ") + text;
    }
    out.add(e.timeNs, Explanation::Kind::Config, text);
}

}  // namespace qs::ui
