#pragma once

// The exact error texts a KubeMQ v2.4.0 server puts on the wire (spec §2.17,
// §2.8.3). Some carry trailing spaces or typos on purpose: clients match them.
namespace qs::broker::errors {

inline constexpr const char* kClientId = "Error 101: invalid clientID value, cannot be empty";
inline constexpr const char* kEmptyMessage = "Error 110: invalid message, cannot be empty";
inline constexpr const char* kQueueName =
    "Error 120: invalid queue name value, cannot be empty, contains wildcards ,white spaces and "
    "end with dot";
inline constexpr const char* kSubscribe = "Error 121: cannot subscribe to a queue";
inline constexpr const char* kMaxMessages =
    "Error 122: max messages should be between 1 and max message setting in kubemq config  ";
inline constexpr const char* kNoActiveToAck = "Error 124: no active message to ack";
inline constexpr const char* kAckSequence = "Error 125: ack sequence cannot be 0 or negative";
inline constexpr const char* kNoActiveToSend = "Error 126: no active message to send";
inline constexpr const char* kVisibility =
    "Error 127: invalid visibility time, cannot be negative or exceed setting in kubemq config";
inline constexpr const char* kAlreadySubscribed =
    "Error 128: subscription to queue is already active";
inline constexpr const char* kVisibilityExpired = "Error 129: current visibility timer expired";
inline constexpr const char* kSendFailed = "Error 130: error during send message to queue";
inline constexpr const char* kInvalidQueueMessage = "Error 131: invalid queue message";
inline constexpr const char* kStreamRequestType =
    "Error 132: invalid stream queue messages request type";
inline constexpr const char* kExpiration =
    "Error 133: invalid expiration seconds, exceed max expiration seconds setting in kubemq config";
inline constexpr const char* kMaxReceiveCount =
    "Error 134: invalid max received count, cannot be negative or exceed max receive count setting "
    "in kubemq config";
inline constexpr const char* kDelay =
    "Error 135: invalid delay seconds, exceed max delay seconds setting in kubemq config";
inline constexpr const char* kWaitTimeout =
    "Error 136: invalid wait timeout, value cannot be negative or exceed max wait timeout seconds "
    "setting in kubemq config";
inline constexpr const char* kNoActiveToReject = "Error 137: no active message to reject";
inline constexpr const char* kNoNewMessage =
    "Error 138: no new message in queue, wait time expired";
inline constexpr const char* kShutdown = "Error 409: server is in shutdown mode";
inline constexpr const char* kAuthFailed = "Error 421: authentication verification failed, ";
inline constexpr const char* kInvalidPublish = "stan: invalid publish request";

// The limits these errors enforce are in common/protocol_limits.h.

}  // namespace qs::broker::errors
