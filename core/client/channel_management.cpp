// Channel management over SendRequest to kubemq.cluster.internal.requests
// (spec §2.12), with the QueuesInfo fallback for servers that lack it.
#include <nlohmann/json.hpp>

#include "client/argument_checks.h"
#include "client/client_core.h"
#include "client/proto_convert.h"
#include "client/queues_client.h"
#include "common/ids.h"

namespace qs::client {

namespace {

constexpr const char* kInternalChannel = "kubemq.cluster.internal.requests";

using Support = QueuesClient::ChannelManagement;

// What a community v2.4.0 server answers when nobody serves the internal channel.
bool looksUnsupported(std::string_view text) {
    return text.find("Error 301") != std::string_view::npos ||
           text.find("timeout for request message") != std::string_view::npos;
}

Error unsupportedError(std::string_view operation) {
    return Error{ErrorCategory::Unsupported,
                 std::string(operation) +
                     ": this server does not support channel management (no answer on " +
                     kInternalChannel +
                     "; KubeMQ community v2.4.0 lacks it). Queues are created by the first send "
                     "or receive.",
                 0};
}

std::int64_t intField(const nlohmann::json& object, const char* key) {
    auto it = object.find(key);
    if (it == object.end() || !it->is_number()) {
        return 0;
    }
    return it->is_number_float() ? static_cast<std::int64_t>(it->get<double>())
                                 : it->get<std::int64_t>();
}

QueueStats statsField(const nlohmann::json& object, const char* key) {
    QueueStats stats;
    auto it = object.find(key);
    if (it == object.end() || !it->is_object()) {
        return stats;
    }
    stats.messages = intField(*it, "messages");
    stats.volume = intField(*it, "volume");
    stats.waiting = intField(*it, "waiting");
    stats.expired = intField(*it, "expired");
    stats.delayed = intField(*it, "delayed");
    return stats;
}

Result<std::vector<QueueChannelInfo>> parseChannelList(const std::string& body) {
    std::vector<QueueChannelInfo> out;
    if (body.empty()) {
        return out;
    }
    nlohmann::json json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_discarded()) {
        return Error{ErrorCategory::ServerError, "channel list is not valid JSON", 0};
    }
    if (json.is_null()) {
        return out;
    }
    if (!json.is_array()) {
        return Error{ErrorCategory::ServerError, "channel list is not a JSON array", 0};
    }
    for (const auto& item : json) {
        if (!item.is_object()) {
            return Error{ErrorCategory::ServerError, "channel list entry is not a JSON object", 0};
        }
        QueueChannelInfo info;
        auto name = item.find("name");
        if (name == item.end() || !name->is_string()) {
            return Error{ErrorCategory::ServerError, "channel list entry without a name", 0};
        }
        info.name = name->get<std::string>();
        if (auto type = item.find("type"); type != item.end() && type->is_string()) {
            info.type = type->get<std::string>();
        }
        info.lastActivity = intField(item, "lastActivity");
        if (auto active = item.find("isActive"); active != item.end() && active->is_boolean()) {
            info.isActive = active->get<bool>();
        }
        if (auto clients = item.find("clients");
            clients != item.end() && clients->is_number_integer()) {
            info.clients = clients->get<std::int64_t>();
        }
        info.incoming = statsField(item, "incoming");
        info.outgoing = statsField(item, "outgoing");
        info.source = ChannelInfoSource::ChannelManagement;
        out.push_back(std::move(info));
    }
    return out;
}

}  // namespace

// Sends one management request. Unsupported when the server lacks the contract
// (and remembers that); the successful Response otherwise.
static Result<kubemq::Response> managementRequest(detail::ClientCore& core,
                                                  std::string_view operation,
                                                  const std::string& metadata,
                                                  std::map<std::string, std::string> tags) {
    const auto known = static_cast<Support>(core.channelManagement.load());
    if (known == Support::Unsupported) {
        return unsupportedError(operation);
    }
    const auto timeout = known == Support::Supported ? core.options.channelManagementTimeout
                                                     : core.options.channelManagementProbeTimeout;
    kubemq::Request request;
    request.set_requestid(newUuid());
    request.set_requesttypedata(kubemq::Request::Query);
    request.set_clientid(core.options.clientId);
    request.set_channel(kInternalChannel);
    request.set_metadata(metadata);
    request.set_timeout(static_cast<int>(timeout.count()));
    for (auto& [key, value] : tags) {
        (*request.mutable_tags())[key] = value;
    }
    auto response = detail::unaryCall<kubemq::Response>(
        core, operation, timeout + core.options.pollGrace, true,
        [&](kubemq::kubemq::Stub& stub, grpc::ClientContext* context, kubemq::Response* out) {
            return stub.SendRequest(context, request, out);
        });
    if (!response.ok()) {
        const Error& error = response.error();
        if ((error.category == ErrorCategory::ServerError && looksUnsupported(error.message)) ||
            error.category == ErrorCategory::Unsupported) {
            core.channelManagement.store(static_cast<int>(Support::Unsupported));
            return unsupportedError(operation);
        }
        return error;
    }
    if (!response->error().empty()) {
        if (looksUnsupported(response->error())) {
            core.channelManagement.store(static_cast<int>(Support::Unsupported));
            return unsupportedError(operation);
        }
        core.channelManagement.store(static_cast<int>(Support::Supported));
        return Error{ErrorCategory::ServerError, response->error(), 0};
    }
    core.channelManagement.store(static_cast<int>(Support::Supported));
    return std::move(response).value();
}

QueuesClient::ChannelManagement QueuesClient::channelManagementSupport() const {
    return static_cast<ChannelManagement>(core_->channelManagement.load());
}

Result<QueuesInfoSnapshot> QueuesClient::queuesInfo(const std::string& names) {
    kubemq::QueuesInfoRequest request;
    request.set_requestid(newUuid());
    request.set_queuename(names);
    auto response = detail::unaryCall<kubemq::QueuesInfoResponse>(
        *core_, "queues info", core_->options.callTimeout, true,
        [&](kubemq::kubemq::Stub& stub, grpc::ClientContext* context,
            kubemq::QueuesInfoResponse* out) { return stub.QueuesInfo(context, request, out); });
    if (!response.ok()) {
        return response.error();
    }
    const kubemq::QueuesInfo& info = response->info();
    QueuesInfoSnapshot out;
    out.totalQueues = info.totalqueue();
    out.sent = info.sent();
    out.delivered = info.delivered();
    out.waiting = info.waiting();
    for (const auto& queue : info.queues()) {
        out.queues.push_back(detail::fromProto(queue));
    }
    return out;
}

Result<std::vector<QueueChannelInfo>> QueuesClient::listQueues(const std::string& search) {
    std::map<std::string, std::string> tags{{"channel_type", "queues"}};
    if (!search.empty()) {
        tags.emplace("channel_search", search);
    }
    auto response = managementRequest(*core_, "list queues", "list-channels", std::move(tags));
    if (response.ok()) {
        return parseChannelList(response->body());
    }
    if (response.error().category != ErrorCategory::Unsupported) {
        return response.error();
    }
    // Fallback: the QueuesInfo RPC, filtered here (it only knows exact names).
    auto info = queuesInfo();
    if (!info.ok()) {
        Error error = info.error();
        error.message =
            "list queues: channel management unsupported and QueuesInfo failed: " + error.message;
        return error;
    }
    std::vector<QueueChannelInfo> out;
    for (auto& queue : info->queues) {
        if (search.empty() || queue.name.find(search) != std::string::npos) {
            out.push_back(std::move(queue));
        }
    }
    return out;
}

Result<void> QueuesClient::createQueue(const std::string& name) {
    if (core_->options.validateArguments) {
        if (auto error = checkChannelName(name, "queue name")) {
            return *error;
        }
    }
    auto response = managementRequest(
        *core_, "create queue", "create-channel",
        {{"channel_type", "queues"}, {"channel", name}, {"client_id", core_->options.clientId}});
    if (!response.ok()) {
        return response.error();
    }
    return {};
}

Result<void> QueuesClient::deleteQueue(const std::string& name) {
    if (core_->options.validateArguments) {
        if (auto error = checkChannelName(name, "queue name")) {
            return *error;
        }
    }
    auto response = managementRequest(
        *core_, "delete queue", "delete-channel",
        {{"channel_type", "queues"}, {"channel", name}, {"client_id", core_->options.clientId}});
    if (!response.ok()) {
        return response.error();
    }
    return {};
}

}  // namespace qs::client
