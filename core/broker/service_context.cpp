#include "broker/service_context.h"

namespace qs::broker {

grpc::Status ServiceContext::authorize(const grpc::ServerContextBase& server) const {
    grpc::Status status = auth.check(server);
    if (!status.ok() && options.log)
        options.log("error: refused peer " + server.peer() + ": " + status.error_message());
    return status;
}

void ServiceContext::logError(std::string_view rpc, std::string_view clientId,
                              std::string_view error) const {
    if (!options.log)
        return;
    std::string line = "error: ";
    line += rpc;
    line += " client=";
    line += clientId.empty() ? std::string_view("(unknown)") : clientId;
    line += ": ";
    line += error;
    options.log(line);
}

void ServiceContext::clientEvent(bool connected, std::string_view clientId, std::string_view peer,
                                 std::string_view rpc) const {
    if (options.log) {
        std::string line = connected ? "client connected: " : "client disconnected: ";
        line += clientId.empty() ? std::string_view("(unknown)") : clientId;
        line += " peer=";
        line += peer;
        line += " rpc=";
        line += rpc;
        options.log(line);
    }
    events.emit(connected ? EventKind::BrokerClientConnected : EventKind::BrokerClientDisconnected,
                [&](Event& event) {
                    event.actor.assign(clientId);
                    event.detail.assign(peer);
                });
}

}  // namespace qs::broker
