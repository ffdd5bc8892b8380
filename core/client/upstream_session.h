#pragma once

// Private: the QueuesUpstream stream of one QueueUpstream, re-opened after failures.
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "client/client_core.h"
#include "client/queue_message.h"
#include "client/request_stream.h"
#include "client/result.h"

namespace qs::client::detail {

// Owns the current stream of one QueueUpstream and re-opens it after failures.
class UpstreamSession {
public:
    explicit UpstreamSession(std::shared_ptr<ClientCore> core);
    ~UpstreamSession();

    Result<std::vector<SendResult>> send(std::vector<QueueMessage> messages,
                                         std::chrono::milliseconds timeout);
    // Cancels the current stream; abandon = no new stream until the next send.
    void cancel();
    void close();  // cancel and refuse further sends

private:
    std::shared_ptr<UpstreamStream> current(Error* error);
    Error failure(const StreamState& state, std::uint64_t epoch,
                  std::chrono::milliseconds timeout) const;

    std::shared_ptr<ClientCore> core_;
    std::mutex mutex_;
    std::shared_ptr<UpstreamStream> stream_;
    bool closed_ = false;
};

}  // namespace qs::client::detail
