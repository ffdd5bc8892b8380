#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "events/event.h"

// Turns notable events into plain-language sentences a newcomer can follow
// ("Task #7 came back to the queue because worker-1 crashed before acking it;
// worker-2 received it at 12:01:07"). Floods are summarised: at most a few
// sentences per kind in each second of the run, then one "and N more" line
// when that second is over (nobody reads hundreds of sentences a second, and
// each costs the list a text layout).
// Plain C++; UI thread only.
namespace qs::ui {

struct Explanation {
    enum class Kind { Info, Redelivery, Rejection, Crash, DeadLetter, Config, Wait, Summary };
    std::int64_t timeNs = 0;
    Kind kind = Kind::Info;
    QString text;
    QString key;  // message the sentence is about (empty = none)
};

class ConsoleRun;

// Reads the events the console's run appended since its last call and says
// what the notable ones mean. What happened to a task before (who had it,
// why it came back, whether a NAck sent it to the dead-letter queue) is read
// from the run — the task's trail and the ledger — never tracked here.
class Explainer {
public:
    // `run` is not owned and must outlive the explainer.
    explicit Explainer(const ConsoleRun* run) : run_(run) {}

    // "Task #7" for a message identity; default: the message id.
    void setLabelFunction(std::function<QString(const QString& key)> fn) { label_ = std::move(fn); }
    void setMaxPerKindPerSecond(int n) { maxPerKind_ = n; }

    // Explains the run's events not explained yet (those of its last appends).
    std::vector<Explanation> explainNew();
    // The "and N more" lines of the second still open (the run went quiet:
    // no later event will close it); the next event starts a new second.
    std::vector<Explanation> sayWhatWasLeftOut();
    // The run was reset: start over at its first event.
    void clear();

private:
    class Batch;
    // Sentences said and left out per kind in the current second of stream time.
    struct Quota {
        std::int64_t windowEndNs = 0;  // the first event at or after it closes the second
        std::int64_t lastSuppressedNs = 0;
        std::map<Explanation::Kind, int> perKind;
        std::map<Explanation::Kind, int> suppressed;
    };
    static constexpr std::int64_t kQuotaWindowNs = 1'000'000'000;

    void explainEvent(std::uint64_t index, Batch& out);
    void explainAssigned(std::uint64_t index, const Event& e, Batch& out);
    void explainAcked(std::uint64_t index, const Event& e, Batch& out);
    void explainRejected(std::uint64_t index, const Event& e, Batch& out);
    void explainCrash(std::uint64_t index, const Event& e, Batch& out);
    void explainWait(const Event& e, Batch& out);
    void explainConfig(const Event& e, Batch& out);
    QString label(const QString& key) const;

    const ConsoleRun* run_;
    std::uint64_t explained_ = 0;  // events of the run explained so far
    std::function<QString(const QString&)> label_;
    QHash<QString, std::int64_t> lastWaitNote_;  // per worker: say "waited" at most every 30 s
    int maxPerKind_ = 6;
    Quota quota_;
    bool autoAck_ = false;
    bool firstAssignSeen_ = false;
};

}  // namespace qs::ui
