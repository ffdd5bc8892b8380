#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace qs::client {

// Delivery policy of a message (KubeMQ QueueMessagePolicy). 0 = not set.
struct MessagePolicy {
    int expirationSeconds = 0;    // 0..43200; 0 = never expires
    int delaySeconds = 0;         // 0..43200; 0 = visible immediately
    int maxReceiveCount = 0;      // 0..1024; 0 = server default (1024)
    std::string deadLetterQueue;  // MaxReceiveQueue: where over-limit messages go ("" = drop)
};

// Set by the server (KubeMQ QueueMessageAttributes); ignored when sending.
struct MessageAttributes {
    std::int64_t timestamp = 0;     // store time of this copy, Unix ns
    std::uint64_t sequence = 0;     // per-channel store sequence (settlements refer to it)
    int receiveCount = 0;           // hand-outs of this stored copy, including this one
    bool reRouted = false;          // true for a dead-lettered copy
    std::string reRoutedFrom;       // source queue of a dead-lettered copy
    std::int64_t expirationAt = 0;  // Unix ns, 0 = none
    std::int64_t delayedTo = 0;     // Unix ns, 0 = none
};

// A queue message as sent and as received. Plain value type.
struct QueueMessage {
    std::string id;        // MessageID; empty on send = server generates one
    std::string channel;   // queue name
    std::string clientId;  // sender; empty on send = the client's own id
    std::string metadata;
    std::string body;  // raw bytes
    std::map<std::string, std::string> tags;
    MessageAttributes attributes;
    MessagePolicy policy;
};

// Outcome of sending one message. A message the server rejected has
// isError = true and the server's text in error (e.g. "Error 133: ...");
// the call itself still succeeded.
struct SendResult {
    std::string messageId;
    std::int64_t sentAt = 0;        // Unix ns, 0 on error
    std::int64_t expirationAt = 0;  // Unix ns, 0 = none
    std::int64_t delayedTo = 0;     // Unix ns, 0 = none
    bool isError = false;
    std::string error;
};

// Outcome of a batch: one SendResult per message, in request order.
struct BatchSendResult {
    std::string batchId;
    std::vector<SendResult> results;
    bool haveErrors = false;  // as reported by the server (v2.4.0: publish failures only)
};

// Outcome of a unary pull or peek (ReceiveQueueMessages).
struct PullResult {
    std::vector<QueueMessage> messages;
    int messagesReceived = 0;
    int messagesExpired = 0;  // expired messages the server met and removed
    bool isPeek = false;
};

}  // namespace qs::client
