// The change log's compact word changes (run::WordChanges): every change reads
// back as the value it set, replayed in order from any change onwards, whether
// it was kept as a small step, a 32-bit step, a whole value or with a wide slot;
// a search by event never lands inside a change.
#include <QtTest/QtTest>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "run/word_changes.h"

using qs::run::WordChanges;

namespace {

struct Written {
    std::uint32_t event;
    std::uint32_t slot;
    std::int64_t after;
};

// Replays `changes` from the first change of event `fromEvent` onto `words`
// (the values after the events before it) up to event `toEvent`.
void replay(const WordChanges& changes, std::map<std::uint32_t, std::int64_t>& words,
            std::uint64_t fromEvent, std::uint64_t toEvent) {
    changes.forEach(changes.firstFrom(fromEvent), toEvent,
                    [&](const WordChanges::Change& c) { words[c.slot] = c.applyTo(words[c.slot]); });
}

std::map<std::uint32_t, std::int64_t> wordsAfter(const std::vector<Written>& written,
                                                 std::uint64_t eventCount) {
    std::map<std::uint32_t, std::int64_t> words;
    for (const Written& w : written)
        if (w.event < eventCount)
            words[w.slot] = w.after;
    return words;
}

using Words = std::map<std::uint32_t, std::int64_t>;

// The words replayed from event `from` up to event `to`, and those `written`
// says they are then; a word one side never set reads 0 on both.
std::pair<Words, Words> replayedAndWanted(const WordChanges& changes,
                                          const std::vector<Written>& written, std::uint64_t from,
                                          std::uint64_t to) {
    Words words = wordsAfter(written, from);
    replay(changes, words, from, to);
    Words want = wordsAfter(written, to);
    for (const auto& [slot, value] : want)
        words.try_emplace(slot, 0);
    for (const auto& [slot, value] : words)
        want.try_emplace(slot, 0);
    return {words, want};
}

}  // namespace

class TstWordChanges : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyFormReadsBackExactly() {
        constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
        constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
        // (slot, new value) per event, crossing each format's edges both ways.
        const std::vector<std::pair<std::uint32_t, std::int64_t>> steps = {
            {0, 1},          {0, 2},           {0, 32'769},     {0, 2},
            {1, -32'768},    {1, 0},           {1, 32'767},     {1, -1},
            {2, 2'147'483'647}, {2, 0},        {2, -2'147'483'648}, {2, 1},
            {3, kMax},       {3, kMin},        {3, 0},          {3, kMax},
            {16'383, 5},     {16'384, 7},      {16'384, 8},     {4'000'000'000u, kMin},
            {4'000'000'000u, 1},
        };
        WordChanges changes;
        std::vector<Written> written;
        std::map<std::uint32_t, std::int64_t> head;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const auto [slot, value] = steps[i];
            const auto event = static_cast<std::uint32_t>(i / 2);  // two changes per event
            changes.push(event, slot, head[slot], value);
            head[slot] = value;
            written.push_back({event, slot, value});
        }
        const std::uint64_t events = steps.size() / 2 + 1;
        for (std::uint64_t from = 0; from <= events; ++from) {
            for (std::uint64_t to = from; to <= events; ++to) {
                const auto [words, want] = replayedAndWanted(changes, written, from, to);
                QCOMPARE(words, want);
            }
        }
    }

    void smallStepsTakeEightBytes() {
        WordChanges changes;
        for (std::uint32_t i = 0; i < 100'000; ++i)
            changes.push(i, i % 30, i / 30, i / 30 + 1);
        QCOMPARE(changes.size(), std::size_t{100'000});
        // Eight bytes a change, plus at most one chunk (16,384 entries) not yet filled.
        QVERIFY(changes.memoryBytes() < 100'000 * 8 + 16'384 * 8 + 1024);
    }

    void randomRunsReplayFromAnyEvent() {
        std::mt19937_64 random(19);
        std::uniform_int_distribution<int> pick(0, 99);
        WordChanges changes;
        std::vector<Written> written;
        std::map<std::uint32_t, std::int64_t> head;
        constexpr std::uint32_t kEvents = 5'000;
        for (std::uint32_t event = 0; event < kEvents; ++event) {
            for (int n = pick(random) % 4; n > 0; --n) {
                const auto slot = static_cast<std::uint32_t>(pick(random) < 95 ? pick(random) % 40
                                                                                : 20'000 + pick(random));
                const int kind = pick(random);
                const auto before = static_cast<std::uint64_t>(head[slot]);  // wraps, as the words may
                const std::uint64_t after = kind < 80   ? before + 1
                                            : kind < 90 ? before + random() % 5'000'000'000ULL
                                            : kind < 95 ? random()
                                                        : before - 3;
                const auto value = static_cast<std::int64_t>(after);
                changes.push(event, slot, head[slot], value);
                head[slot] = value;
                written.push_back({event, slot, value});
            }
        }
        for (int trial = 0; trial < 200; ++trial) {
            const std::uint64_t from = random() % (kEvents + 1);
            const std::uint64_t to = from + random() % (kEvents + 1 - from);
            const auto [words, want] = replayedAndWanted(changes, written, from, to);
            QCOMPARE(words, want);
        }
    }
};

QTEST_APPLESS_MAIN(TstWordChanges)
#include "tst_word_changes.moc"
