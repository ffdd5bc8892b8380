#include "events/event_log_reader.h"

#include <istream>
#include <limits>
#include <nlohmann/json.hpp>

#include "events/event_fields.h"

namespace qs {
namespace {

using nlohmann::json;

bool readString(const json& j, const char* key, std::string& out, std::string& error) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return true;
    if (!it->is_string()) {
        error = std::string("\"") + key + "\" is not a string";
        return false;
    }
    out = it->get<std::string>();
    return true;
}

// For ShortText and Name fields.
template <typename Text>
bool readString(const json& j, const char* key, Text& out, std::string& error) {
    std::string text;
    if (!readString(j, key, text, error))
        return false;
    out = std::string_view(text);
    return true;
}

template <typename T>
bool readInteger(const json& j, const char* key, T& out, std::string& error) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return true;
    bool fits = false;
    if (it->is_number_unsigned()) {
        const auto v = it->get<std::uint64_t>();
        fits = v <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
        if (fits)
            out = static_cast<T>(v);
    } else if (it->is_number_integer()) {
        const auto v = it->get<std::int64_t>();
        if constexpr (std::numeric_limits<T>::is_signed) {
            fits = v >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
                   v <= static_cast<std::int64_t>(std::numeric_limits<T>::max());
        } else {
            fits = v >= 0;
        }
        if (fits)
            out = static_cast<T>(v);
    } else {
        error = std::string("\"") + key + "\" is not an integer";
        return false;
    }
    if (!fits)
        error = std::string("\"") + key + "\" is out of range";
    return fits;
}

// The kind's named fields; a log written before they were named has "value",
// "count2" and "detail" instead, read as they were and brought up to date.
bool readFieldsOfKind(const json& j, Event& e, std::string& why) {
    if (j.contains("value") || j.contains("count2") || j.contains("detail")) {
        if (!(readInteger(j, "value", e.value, why) && readInteger(j, "count2", e.count2, why) &&
              readString(j, "detail", e.detail, why)))
            return false;
        upgradeLegacyEventFields(e);
        return true;
    }
    const EventFieldNames names = eventFieldNames(e.kind);
    auto key = [](std::string_view name) { return std::string(name); };
    return (names.value.empty() || readInteger(j, key(names.value).c_str(), e.value, why)) &&
           (names.count2.empty() || readInteger(j, key(names.count2).c_str(), e.count2, why)) &&
           (names.detail.empty() || readString(j, key(names.detail).c_str(), e.detail, why));
}

}  // namespace

std::optional<Event> parseEventJsonLine(std::string_view line, std::int64_t originNs,
                                        std::string* error) {
    std::string why;
    const json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    Event e;
    std::string kind;
    std::string source;
    std::int64_t relative = 0;
    if (j.is_discarded()) {
        why = "not valid JSON";
    } else if (!j.is_object()) {
        why = "not a JSON object";
    } else if (readString(j, "kind", kind, why) && readString(j, "source", source, why) &&
               readInteger(j, "time_ns", relative, why) && readString(j, "actor", e.actor, why) &&
               readString(j, "channel", e.channel, why) &&
               readString(j, "message_id", e.messageId, why) &&
               readInteger(j, "sequence", e.sequence, why) &&
               readInteger(j, "receive_count", e.receiveCount, why) &&
               readString(j, "transaction", e.transaction, why)) {
        if (const auto k = eventKindFromString(kind)) {
            e.kind = *k;
            readFieldsOfKind(j, e, why);
        } else {
            why = kind.empty() ? "missing \"kind\"" : "unknown kind \"" + kind + "\"";
        }
        if (why.empty() && !source.empty()) {
            if (const auto s = eventSourceFromString(source)) {
                e.source = *s;
            } else {
                why = "unknown source \"" + source + "\"";
            }
        }
        e.timeNs = relative + originNs;
    }
    if (!why.empty()) {
        if (error != nullptr)
            *error = why;
        return std::nullopt;
    }
    return e;
}

EventLogReadResult readEventsJsonLines(std::istream& in, std::vector<Event>& out,
                                       std::int64_t originNs) {
    EventLogReadResult r;
    std::string line;
    std::size_t lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos)
            continue;
        std::string why;
        auto e = parseEventJsonLine(line, originNs, &why);
        if (!e) {
            r.ok = false;
            r.error = "line " + std::to_string(lineNo) + ": " + why;
            return r;
        }
        out.push_back(std::move(*e));
        ++r.read;
    }
    if (in.bad()) {
        r.ok = false;
        r.error = "reading the event log failed after line " + std::to_string(lineNo);
    }
    return r;
}

}  // namespace qs
