#pragma once

#include <QString>
#include <cstdint>
#include <string_view>
#include <vector>

#include "events/event.h"

// What the console knows about one task (one message identity: channel +
// MessageID). A NAck creates a new broker copy with a new sequence but the same
// MessageID, so identity, not sequence, ties its history together (spec §6.1).
namespace qs::ui {

enum class MessageState : int {
    Waiting,   // sent, in the queue
    Delayed,   // held back by the broker until its delay ends
    InFlight,  // handed to a worker, not settled
    Acked,
    Rejected,  // NAcked: waiting again at the tail with receive count + 1
    Returned,  // its worker crashed / disconnected: waiting again, unchanged
    Requeued,  // moved to another channel
    DeadLettered,
    Expired,
    Count
};

QString messageStateName(MessageState state);
bool isSettled(MessageState state);  // acked, requeued, dead-lettered, expired

struct HistoryEntry {
    std::int64_t timeNs = 0;
    EventKind kind = EventKind::Error;
    QString actor;
    std::int32_t receiveCount = 0;
    std::uint64_t sequence = 0;
    QString detail;
};

struct MessageRecord {
    QString key;  // channel + '\n' + message id
    QString messageId;
    QString channel;
    QString body;
    int task = 0;  // 1-based task number in send order (0 = not sent by this console)
    std::uint64_t sequence = 0;
    MessageState state = MessageState::Waiting;
    QString worker;  // current or last worker
    std::int32_t receiveCount = 0;
    int deliveries = 0;  // hand-outs seen by this console
    int acks = 0;        // positive settlements seen (at-least-once: may exceed 1)
    std::int64_t sentNs = 0;
    std::int64_t firstAssignedNs = 0;
    std::int64_t lastAssignedNs = 0;
    std::int64_t settledNs = 0;
    // Where the broker moved it when dead-lettered ("" = dropped, or not
    // dead-lettered), and the sequence of that copy. The copy is this task,
    // so it stays on this row rather than showing as a second, waiting one.
    QString deadLetterChannel;
    std::uint64_t deadLetterSequence = 0;
    std::vector<HistoryEntry> history;  // bounded; oldest entries dropped first
    int droppedHistory = 0;

    // Sent → settled, or -1 when not both known.
    std::int64_t latencyNs() const {
        return (sentNs > 0 && settledNs > 0) ? settledNs - sentNs : -1;
    }
};

// Event string fields are read through std::string_view so the views do not
// depend on how core stores them.
inline QString fromView(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
QString messageKey(std::string_view channel, std::string_view messageId);
QString describeHistoryEntry(const HistoryEntry& entry);
// The State column's text: the state, and for a dead-lettered task where it went.
QString describeState(const MessageRecord& record);

}  // namespace qs::ui
