#include "client/queue_upstream.h"

#include "client/upstream_session.h"

namespace qs::client {

QueueUpstream::QueueUpstream(std::shared_ptr<detail::UpstreamSession> session)
    : session_(std::move(session)) {}

QueueUpstream::~QueueUpstream() {
    session_->close();
}

Result<std::vector<SendResult>> QueueUpstream::send(std::vector<QueueMessage> messages,
                                                    std::chrono::milliseconds timeout) {
    return session_->send(std::move(messages), timeout);
}

void QueueUpstream::close() {
    session_->close();
}

}  // namespace qs::client
