#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "broker/auth_gate.h"
#include "broker/broker.h"
#include "broker/event_sink.h"
#include "broker/message_sender.h"
#include "broker/queue_engine.h"
#include "broker/session_threads.h"

namespace qs::broker {

// What every gRPC handler of one running broker shares. Lives from start()
// until after the server has shut down.
struct ServiceContext {
    ServiceContext(const BrokerOptions& brokerOptions, QueueEngine& queueEngine,
                   EventSink& eventSink, SessionThreads& workers, std::int64_t startSeconds)
        : options(brokerOptions),
          engine(queueEngine),
          sender(queueEngine),
          events(eventSink),
          auth(brokerOptions.authToken),
          threads(workers),
          startUnixSeconds(startSeconds) {}

    void log(std::string_view line) const {
        if (options.log)
            options.log(line);
    }

    // The auth check of every RPC but Ping; a refusal is logged.
    grpc::Status authorize(const grpc::ServerContextBase& server) const;

    // One log line for an error answered to a client (no-op without a log sink).
    void logError(std::string_view rpc, std::string_view clientId, std::string_view error) const;

    // Client connect / disconnect: one log line and one observer event.
    void clientEvent(bool connected, std::string_view clientId, std::string_view peer,
                     std::string_view rpc) const;

    const BrokerOptions& options;
    QueueEngine& engine;
    MessageSender sender;
    EventSink& events;
    AuthGate auth;
    SessionThreads& threads;
    std::int64_t startUnixSeconds;
};

}  // namespace qs::broker
