// The change log's compact message changes (run::MessageChanges): every form
// (a first sight, a new state, a hand-out, a move, a whole view) reads back as
// the view it recorded, replayed in order from the first change of any event
// onto the views before it; a search by event never lands inside a change.
#include <QtTest/QtTest>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "run/message_changes.h"

using qs::MessageAt;
using qs::MessageState;
using qs::Name;
using qs::run::MessageChanges;

namespace {

struct Recorded {
    std::uint32_t event;
    std::uint32_t message;
    MessageAt after;
};

// The views after the first `eventCount` events, as recorded.
std::vector<MessageAt> viewsAfter(const std::vector<Recorded>& recorded, std::uint64_t eventCount) {
    std::vector<MessageAt> views;
    for (const Recorded& r : recorded) {
        if (r.event >= eventCount)
            break;
        if (r.message == views.size()) {
            views.push_back(r.after);
        } else {
            views[r.message] = r.after;
        }
    }
    return views;
}

std::vector<MessageAt> replayed(const MessageChanges& changes, std::vector<MessageAt> views,
                                std::uint64_t fromEvent, std::uint64_t toEvent) {
    changes.forEach(
        changes.firstFrom(fromEvent), toEvent,
        [&](std::uint32_t message) -> const MessageAt& { return views.at(message); },
        [&](std::uint32_t message, const MessageAt& after) {
            if (message == views.size()) {
                views.push_back(after);
            } else {
                views.at(message) = after;
            }
        });
    return views;
}

// Records `after` for `message` in `event`, as ChangeLog does (nothing when unchanged).
void record(MessageChanges& changes, std::vector<Recorded>& recorded,
            std::vector<MessageAt>& head, std::uint32_t event, std::uint32_t message,
            const MessageAt& after) {
    if (message == head.size()) {
        changes.push(event, message, nullptr, after);
        head.push_back(after);
    } else {
        if (after == head[message])
            return;
        changes.push(event, message, &head[message], after);
        head[message] = after;
    }
    recorded.push_back({event, message, after});
}

void checkEveryRange(const MessageChanges& changes, const std::vector<Recorded>& recorded,
                     std::uint64_t events) {
    for (std::uint64_t from = 0; from <= events; ++from) {
        for (std::uint64_t to = from; to <= events; ++to) {
            const std::vector<MessageAt> got =
                replayed(changes, viewsAfter(recorded, from), from, to);
            QVERIFY2(got == viewsAfter(recorded, to),
                     ("from " + std::to_string(from) + " to " + std::to_string(to)).c_str());
        }
    }
}

}  // namespace

class TstMessageChanges : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyFormReadsBackExactly() {
        const Name tasks("tasks");
        const Name dead("tasks-dead");
        const Name w1("worker-1");
        const Name w2("worker-2");
        MessageChanges changes;
        std::vector<Recorded> recorded;
        std::vector<MessageAt> head;
        auto at = [](MessageState s, std::int32_t rc, std::uint32_t d, Name w, Name c) {
            MessageAt m;
            m.state = s;
            m.receiveCount = rc;
            m.deliveries = d;
            m.worker = w;
            m.channel = c;
            return m;
        };
        std::uint32_t event = 0;
        // A first sight, a hand-out, a reject, a redelivery to another worker, a dead-letter move.
        record(changes, recorded, head, event++, 0, at(MessageState::Waiting, 0, 0, {}, tasks));
        record(changes, recorded, head, event++, 0, at(MessageState::InFlight, 1, 1, w1, tasks));
        record(changes, recorded, head, event++, 0, at(MessageState::Waiting, 1, 1, w1, tasks));
        record(changes, recorded, head, event++, 0, at(MessageState::InFlight, 2, 2, w2, tasks));
        record(changes, recorded, head, event++, 0, at(MessageState::DeadLettered, 2, 2, w2, dead));
        // A first sight that is already handed out (its send was not seen): a whole view.
        record(changes, recorded, head, event++, 1, at(MessageState::InFlight, 3, 1, w1, tasks));
        // The worker learnt later for the same hand-out: a whole view.
        record(changes, recorded, head, event, 2, at(MessageState::InFlight, 1, 1, {}, tasks));
        record(changes, recorded, head, event++, 1, at(MessageState::Acked, 3, 1, w1, tasks));
        record(changes, recorded, head, event++, 2, at(MessageState::InFlight, 1, 1, w2, tasks));
        // Receive counts at and past 16 bits, a hand-out that skips a delivery, numbers at their ends.
        constexpr std::int32_t kI16Max = std::numeric_limits<std::int16_t>::max();
        constexpr std::int32_t kI16Min = std::numeric_limits<std::int16_t>::min();
        record(changes, recorded, head, event++, 2, at(MessageState::InFlight, kI16Max, 2, w1, tasks));
        record(changes, recorded, head, event++, 2, at(MessageState::InFlight, kI16Max + 1, 3, w1, tasks));
        record(changes, recorded, head, event++, 2, at(MessageState::InFlight, kI16Min, 4, w2, tasks));
        record(changes, recorded, head, event++, 2, at(MessageState::InFlight, kI16Min - 1, 5, w2, tasks));
        record(changes, recorded, head, event++, 2, at(MessageState::InFlight, 7, 7, w1, tasks));
        record(changes, recorded, head, event++, 2,
               at(MessageState::Waiting, std::numeric_limits<std::int32_t>::min(),
                  std::numeric_limits<std::uint32_t>::max(), w1, dead));
        QVERIFY(changes.size() > recorded.size());  // some took extra entries
        checkEveryRange(changes, recorded, event + 1);
    }

    void randomChangesReplayFromAnyEvent() {
        std::mt19937_64 random(13);
        const std::vector<Name> workers = {Name(), Name("w-a"), Name("w-b"), Name("w-c")};
        const std::vector<Name> channels = {Name("q"), Name("q-dead"), Name("q-other")};
        MessageChanges changes;
        std::vector<Recorded> recorded;
        std::vector<MessageAt> head;
        constexpr std::uint32_t kEvents = 600;
        for (std::uint32_t event = 0; event < kEvents; ++event) {
            std::vector<bool> touched(head.size() + 1, false);
            for (int n = static_cast<int>(random() % 3); n > 0; --n) {
                const auto message = static_cast<std::uint32_t>(random() % (head.size() + 1));
                if (touched[message])
                    continue;  // once per message per event, as the ledger reports
                touched[message] = true;
                MessageAt after = message < head.size() ? head[message] : MessageAt{};
                switch (random() % 5) {
                    case 0:
                        after.state = static_cast<MessageState>(random() % qs::kMessageStateCount);
                        break;
                    case 1:  // a hand-out
                        after.state = MessageState::InFlight;
                        ++after.deliveries;
                        after.receiveCount = static_cast<std::int32_t>(random() % 5);
                        after.worker = workers[random() % workers.size()];
                        break;
                    case 2:
                        after.channel = channels[random() % channels.size()];
                        break;
                    case 3:
                        after.worker = workers[random() % workers.size()];
                        break;
                    default:
                        after.receiveCount = static_cast<std::int32_t>(random() % 100'000) - 50'000;
                        after.deliveries = static_cast<std::uint32_t>(random() % 10);
                        break;
                }
                if (message == head.size() && after.channel.empty())
                    after.channel = channels[0];
                record(changes, recorded, head, event, message, after);
                if (message == head.size() - 1 && touched.size() == head.size())
                    touched.push_back(false);
            }
        }
        for (int trial = 0; trial < 300; ++trial) {
            const std::uint64_t from = random() % (kEvents + 1);
            const std::uint64_t to = from + random() % (kEvents + 1 - from);
            QVERIFY(replayed(changes, viewsAfter(recorded, from), from, to) ==
                    viewsAfter(recorded, to));
        }
    }
};

QTEST_APPLESS_MAIN(TstMessageChanges)
#include "tst_message_changes.moc"
