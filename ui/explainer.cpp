#include "explainer.h"

#include <QRegularExpression>
#include <map>

#include "event_time.h"
#include "message_key.h"

namespace qs::ui {

namespace {
QString q(std::string_view s) {
    return fromView(s);
}

QString describeSetting(const QString& name, const QString& value) {
    if (name == QStringLiteral("batchSize") || name == QStringLiteral("batch")) {
        return QStringLiteral(
                   "Batch size is now %1: each poll asks the broker for up to %1 task(s), "
                   "and the poll only returns early when that many are available.")
            .arg(value);
    }
    if (name == QStringLiteral("waitMs") || name == QStringLiteral("wait")) {
        return QStringLiteral(
                   "Wait timeout is now %1 ms: an empty queue holds a poll open this long "
                   "before it returns with whatever it collected.")
            .arg(value);
    }
    if (name == QStringLiteral("autoAck")) {
        return value == QStringLiteral("true") || value == QStringLiteral("1")
                   ? QStringLiteral(
                         "Auto-ack is on: the broker counts a task as done the moment it "
                         "hands it out. A crash now loses tasks instead of redelivering them.")
                   : QStringLiteral(
                         "Auto-ack is off: a task stays reserved until the worker acks it; "
                         "if the worker dies first, the task is delivered again.");
    }
    if (name == QStringLiteral("failureRate")) {
        return QStringLiteral(
                   "Failure rate is now %1: failed tasks are rejected (NAck) and go back to "
                   "the tail of the queue with a higher receive count.")
            .arg(value);
    }
    if (name == QStringLiteral("crashRate")) {
        return QStringLiteral(
                   "Crash rate is now %1: a crashing worker drops its connection without "
                   "settling, and the broker hands its tasks to someone else.")
            .arg(value);
    }
    if (name == QStringLiteral("work")) {
        return QStringLiteral("Work per task is now %1.").arg(value);
    }
    if (name == QStringLiteral("slowdown")) {
        return QStringLiteral(
                   "Work now takes %1× as long: a slow worker holds its batch longer while "
                   "others may sit idle.")
            .arg(value);
    }
    if (name == QStringLiteral("workers")) {
        return QStringLiteral("The pool now has %1 worker(s) competing for the same queue.")
            .arg(value);
    }
    return QStringLiteral("%1 is now %2.").arg(name, value);
}

// "batch=5 work=fixed 100 ms" -> one sentence per setting.
QString describeConfig(const QString& detail) {
    static const QRegularExpression re(QStringLiteral("(\\w+)=(.*?)(?=\\s+\\w+=|$)"));
    QStringList sentences;
    auto it = re.globalMatch(detail);
    while (it.hasNext()) {
        const auto m = it.next();
        sentences << describeSetting(m.captured(1), m.captured(2).trimmed());
    }
    if (sentences.isEmpty()) {
        return QStringLiteral("Configuration changed: %1.").arg(detail);
    }
    return sentences.join(QLatin1Char(' '));
}
}  // namespace

void Explainer::clear() {
    fates_.clear();
    heldBy_.clear();
    lastWaitNote_.clear();
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

Explainer::Fate& Explainer::fate(const QString& key) {
    if (fates_.size() > 100000) {
        fates_.clear();  // bounded memory; old tasks lose their back-story only
    }
    return fates_[key];
}

std::vector<Explanation> Explainer::explain(const std::vector<Event>& batch) {
    std::vector<Explanation> out;
    std::map<Explanation::Kind, int> perKind;
    std::map<Explanation::Kind, int> suppressed;
    auto add = [&](std::int64_t t, Explanation::Kind kind, QString text, QString key = {}) {
        if (++perKind[kind] > maxPerKind_) {
            ++suppressed[kind];
            return;
        }
        out.push_back({t, kind, std::move(text), std::move(key)});
    };
    std::int64_t lastT = 0;
    for (const Event& e : batch) {
        lastT = std::max(lastT, e.timeNs);
        switch (e.kind) {
            // Most of the stream says nothing new to a reader: skip it before any string work.
            case EventKind::TaskSent:
            case EventKind::PollStarted:
            case EventKind::WorkStarted:
            case EventKind::WorkFinished:
            case EventKind::Redelivered:
            case EventKind::WorkerReconnected:
            case EventKind::WorkerStarted:
                continue;
            default:
                break;
        }
        const QString actor = q(e.actor);
        switch (e.kind) {
            case EventKind::MessageAssigned: {
                const QString key = messageKey(e.channel, e.messageId);
                Fate& f = fate(key);
                ++f.deliveries;
                if (f.deliveries > 1 && f.worker != actor) {
                    QString why;
                    switch (f.why) {
                        case Fate::Why::Crash:
                            why = QStringLiteral("%1 crashed before acking it").arg(f.worker);
                            break;
                        case Fate::Why::Nack:
                            why = QStringLiteral("%1 rejected it (NAck)").arg(f.worker);
                            break;
                        case Fate::Why::Stopped:
                            why = QStringLiteral("%1 stopped before acking it").arg(f.worker);
                            break;
                        default:
                            why = QStringLiteral("%1 never settled it before its connection ended")
                                      .arg(f.worker);
                            break;
                    }
                    add(e.timeNs, Explanation::Kind::Redelivery,
                        QStringLiteral("%1 came back to the queue because %2; %3 received it at %4 "
                                       "(receive count %5).")
                            .arg(label(key), why, actor, formatClock(e.timeNs))
                            .arg(e.receiveCount),
                        key);
                } else if (f.deliveries > 1) {
                    add(e.timeNs, Explanation::Kind::Redelivery,
                        QStringLiteral(
                            "%1 was delivered again to %2 at %3 (receive count %4): "
                            "at-least-once delivery means a task can be processed twice.")
                            .arg(label(key), actor, formatClock(e.timeNs))
                            .arg(e.receiveCount),
                        key);
                } else if (!firstAssignSeen_) {
                    firstAssignSeen_ = true;
                    add(e.timeNs, Explanation::Kind::Info,
                        QStringLiteral("%1 went to %2: workers compete for tasks, and each waiting "
                                       "task is handed to exactly one of them.")
                            .arg(label(key), actor),
                        key);
                }
                f.worker = actor;
                f.why = Fate::Why::None;
                f.whenNs = e.timeNs;
                QStringList& held = heldBy_[actor];
                if (held.size() > 4096) {
                    held.removeFirst();  // auto-acked hand-outs are never settled explicitly
                }
                held.append(key);
                break;
            }
            case EventKind::Acked: {
                const QString key = messageKey(e.channel, e.messageId);
                heldBy_[actor].removeOne(key);
                const auto it = fates_.constFind(key);
                if (it != fates_.constEnd() && it->deliveries > 1) {
                    add(e.timeNs, Explanation::Kind::Info,
                        QStringLiteral("%1 finally acked by %2 after %3 deliveries.")
                            .arg(label(key), actor)
                            .arg(it->deliveries),
                        key);
                }
                break;
            }
            case EventKind::Rejected: {
                const QString key = messageKey(e.channel, e.messageId);
                heldBy_[actor].removeOne(key);
                Fate& f = fate(key);
                f.why = Fate::Why::Nack;
                f.worker = actor;
                add(e.timeNs, Explanation::Kind::Rejection,
                    QStringLiteral(
                        "%1 failed at %2, which rejected it (NAck): the broker puts a new "
                        "copy at the tail of the queue with receive count %3.")
                        .arg(label(key), actor)
                        .arg(e.receiveCount + 1),
                    key);
                break;
            }
            case EventKind::Requeued: {
                const QString key = messageKey(e.channel, e.messageId);
                heldBy_[actor].removeOne(key);
                add(e.timeNs, Explanation::Kind::Rejection,
                    QStringLiteral("%1 was moved by %2 to channel %3.")
                        .arg(label(key), actor, q(e.detail)),
                    key);
                break;
            }
            case EventKind::WorkerCrashed:
            case EventKind::WorkerStopped: {
                QStringList held = heldBy_.take(actor);
                // value = messages the worker left unsettled; earlier entries were auto-acked.
                const auto unsettled = static_cast<qsizetype>(std::max<std::int64_t>(0, e.value));
                if (held.size() > unsettled) {
                    held = held.mid(held.size() - unsettled);
                }
                const bool crash = e.kind == EventKind::WorkerCrashed;
                for (const QString& key : held) {
                    Fate& f = fate(key);
                    f.why = crash ? Fate::Why::Crash : Fate::Why::Stopped;
                    f.worker = actor;
                    f.whenNs = e.timeNs;
                }
                if (crash) {
                    QString text;
                    if (held.isEmpty() && autoAck_) {
                        text = QStringLiteral(
                                   "%1 crashed. With auto-ack on, the broker counted its tasks "
                                   "as done when it handed them out, so any it was still "
                                   "working on are lost, not redelivered.")
                                   .arg(actor);
                    } else if (held.isEmpty()) {
                        text = QStringLiteral(
                                   "%1 crashed holding no unacknowledged tasks: nothing is lost "
                                   "or redelivered.")
                                   .arg(actor);
                    } else {
                        QStringList names;
                        for (const QString& k : held.mid(0, 5)) {
                            names << label(k);
                        }
                        text = QStringLiteral(
                                   "%1 crashed holding %2 unacknowledged task(s) (%3%4). The "
                                   "broker returns them to the queue for another worker: "
                                   "at-least-once delivery.")
                                   .arg(actor)
                                   .arg(held.size())
                                   .arg(names.join(QStringLiteral(", ")),
                                        held.size() > 5 ? QStringLiteral(", …") : QString());
                    }
                    add(e.timeNs, Explanation::Kind::Crash, text,
                        held.isEmpty() ? QString() : held.first());
                }
                break;
            }
            case EventKind::WorkerPaused:
                add(e.timeNs, Explanation::Kind::Info,
                    QStringLiteral("%1 paused: it stops polling, the others take its share.")
                        .arg(actor));
                break;
            case EventKind::WorkerReconnected:
            case EventKind::WorkerStarted:
                break;
            case EventKind::BrokerDeadLettered: {
                const QString key = messageKey(e.channel, e.messageId);
                add(e.timeNs, Explanation::Kind::DeadLetter,
                    e.detail.empty()
                        ? QStringLiteral(
                              "%1 reached its MaxReceiveCount and was dropped (no dead-letter "
                              "channel set).")
                              .arg(label(key))
                        : QStringLiteral(
                              "%1 reached its MaxReceiveCount and was moved to dead-letter "
                              "channel %2 instead of being retried forever.")
                              .arg(label(key), q(e.detail)),
                    key);
                break;
            }
            case EventKind::BrokerExpired: {
                const QString key = messageKey(e.channel, e.messageId);
                add(e.timeNs, Explanation::Kind::DeadLetter,
                    QStringLiteral(
                        "%1 expired before a worker took it (its expiration time passed).")
                        .arg(label(key)),
                    key);
                break;
            }
            case EventKind::PollReturned: {
                if (e.value == 0) {
                    auto& last = lastWaitNote_[actor];
                    if (last == 0 || e.timeNs - last > 30'000'000'000LL) {
                        last = e.timeNs;
                        add(e.timeNs, Explanation::Kind::Wait,
                            QStringLiteral(
                                "%1 waited %2 and got nothing: the queue was empty, so the "
                                "broker held its poll open until the wait timeout.")
                                .arg(actor, formatDurationNs(e.count2 * 1'000'000)));
                    }
                }
                break;
            }
            case EventKind::ConfigChanged: {
                const QString detail = q(e.detail);
                if (detail.contains(QStringLiteral("autoAck=true"))) {
                    autoAck_ = true;
                } else if (detail.contains(QStringLiteral("autoAck=false"))) {
                    autoAck_ = false;
                }
                QString text = describeConfig(detail);
                if (e.source == EventSource::Worker && !e.actor.empty()) {
                    text = actor + QStringLiteral(": ") + text;
                }
                add(e.timeNs, Explanation::Kind::Config, text);
                break;
            }
            case EventKind::SendFailed:
                add(e.timeNs, Explanation::Kind::DeadLetter,
                    QStringLiteral("The broker refused a task from %1: %2").arg(actor, q(e.detail)),
                    messageKey(e.channel, e.messageId));
                break;
            case EventKind::EventsDropped:
                add(e.timeNs, Explanation::Kind::Summary,
                    QStringLiteral("%1 events were not shown because the console fell behind "
                                   "(the counts above stay exact).")
                        .arg(e.value));
                break;
            default:
                break;
        }
    }
    for (const auto& [kind, n] : suppressed) {
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
        out.push_back({lastT,
                       Explanation::Kind::Summary,
                       QStringLiteral("… and %1 more %2 in the same moment.").arg(n).arg(what),
                       {}});
    }
    return out;
}

}  // namespace qs::ui
