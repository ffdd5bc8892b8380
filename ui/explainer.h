#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <functional>
#include <vector>

#include "events/event.h"

// Turns notable events into plain-language sentences a newcomer can follow
// ("Task #7 came back to the queue because worker-1 crashed before acking it;
// worker-2 received it at 12:01:07"). Floods are summarised: at most a few
// sentences per kind per batch, then one "and N more" line.
// Plain C++; UI thread only.
namespace qs::ui {

struct Explanation {
    enum class Kind { Info, Redelivery, Rejection, Crash, DeadLetter, Config, Wait, Summary };
    std::int64_t timeNs = 0;
    Kind kind = Kind::Info;
    QString text;
    QString key;  // message the sentence is about (empty = none)
};

class Explainer {
public:
    // "Task #7" for a message identity; default: the message id.
    void setLabelFunction(std::function<QString(const QString& key)> fn) { label_ = std::move(fn); }
    void setMaxPerKindPerBatch(int n) { maxPerKind_ = n; }

    std::vector<Explanation> explain(const std::vector<Event>& batch);
    void clear();

private:
    struct Fate {
        QString worker;  // who had it last
        enum class Why { None, Crash, Nack, Returned, Stopped } why = Why::None;
        std::int64_t whenNs = 0;
        int deliveries = 0;
    };
    QString label(const QString& key) const;
    Fate& fate(const QString& key);

    std::function<QString(const QString&)> label_;
    QHash<QString, Fate> fates_;
    QHash<QString, QStringList> heldBy_;  // worker -> keys in flight
    QHash<QString, std::int64_t> lastWaitNote_;
    int maxPerKind_ = 6;
    bool autoAck_ = false;
    bool firstAssignSeen_ = false;
};

}  // namespace qs::ui
