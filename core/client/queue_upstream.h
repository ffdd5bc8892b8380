#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "client/queue_message.h"
#include "client/result.h"

namespace qs::client {

namespace detail {
class UpstreamSession;
}

// A QueuesUpstream stream: many send() calls share one bidirectional stream;
// each call is one request and waits for the response carrying its
// RefRequestID (responses may arrive out of order).
//
// Threading: send() may be called from several threads at once. close() and
// the destructor cancel the stream; sends in flight return Cancelled. The
// stream opens lazily and is re-opened by the next send() after a failure.
// May outlive the QueuesClient that opened it (it shares its connection).
class QueueUpstream {
public:
    ~QueueUpstream();
    QueueUpstream(const QueueUpstream&) = delete;
    QueueUpstream& operator=(const QueueUpstream&) = delete;

    // One result per message, in order. A request-level server error (e.g. "no
    // messages to send" for an empty list) is a ServerError. With argument
    // validation on, an empty list or an invalid message is InvalidArgument.
    Result<std::vector<SendResult>> send(
        std::vector<QueueMessage> messages,
        std::chrono::milliseconds timeout = std::chrono::seconds(10));

    void close();

private:
    friend class QueuesClient;
    explicit QueueUpstream(std::shared_ptr<detail::UpstreamSession> session);

    std::shared_ptr<detail::UpstreamSession> session_;
};

}  // namespace qs::client
