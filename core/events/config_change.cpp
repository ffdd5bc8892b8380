#include "events/config_change.h"

#include <array>
#include <charconv>
#include <cstdlib>

namespace qs {
namespace {

constexpr std::array<std::string_view, static_cast<std::size_t>(ConfigSetting::Count)> kNames = {
    "batch",          "waitMs",         "autoAck",   "work",   "failureRate",
    "onFailure",      "requeueChannel", "crashRate", "settle", "maxPolls",
    "restartDelayMs", "workers",        "slowdown",  "consume", "visibilitySeconds"};

// Where the next " name=" of a known setting starts in `text` at or after `from`.
std::size_t nextSettingStart(std::string_view text, std::size_t from) {
    for (std::size_t space = text.find(' ', from); space != std::string_view::npos;
         space = text.find(' ', space + 1)) {
        const std::size_t eq = text.find('=', space + 1);
        if (eq != std::string_view::npos &&
            configSettingFromString(text.substr(space + 1, eq - space - 1))) {
            return space;
        }
    }
    return std::string_view::npos;
}

}  // namespace

std::string_view toString(ConfigSetting setting) {
    const auto i = static_cast<std::size_t>(setting);
    return i < kNames.size() ? kNames[i] : std::string_view("?");
}

std::optional<ConfigSetting> configSettingFromString(std::string_view name) {
    for (std::size_t i = 0; i < kNames.size(); ++i) {
        if (kNames[i] == name) {
            return static_cast<ConfigSetting>(i);
        }
    }
    return std::nullopt;
}

std::optional<std::int64_t> SettingChange::integer() const {
    std::int64_t out = 0;
    const char* end = value.data() + value.size();
    const auto [ptr, ec] = std::from_chars(value.data(), end, out);
    if (ec != std::errc() || ptr != end || value.empty()) {
        return std::nullopt;
    }
    return out;
}

std::optional<double> SettingChange::number() const {
    if (value.empty()) {
        return std::nullopt;
    }
    char* end = nullptr;
    const double out = std::strtod(value.c_str(), &end);
    if (end != value.c_str() + value.size()) {
        return std::nullopt;
    }
    return out;
}

std::optional<bool> SettingChange::flag() const {
    if (value == "true") {
        return true;
    }
    if (value == "false") {
        return false;
    }
    return std::nullopt;
}

std::string formatSettingChanges(const std::vector<SettingChange>& changes) {
    std::string out;
    for (const SettingChange& c : changes) {
        if (!out.empty()) {
            out += ' ';
        }
        out += toString(c.setting);
        out += '=';
        out += c.value;
    }
    return out;
}

std::optional<std::vector<SettingChange>> parseSettingChanges(std::string_view text,
                                                              std::string* error) {
    auto fail = [error](std::string why) -> std::optional<std::vector<SettingChange>> {
        if (error != nullptr) {
            *error = std::move(why);
        }
        return std::nullopt;
    };
    if (text.empty()) {
        return fail("no setting");
    }
    std::vector<SettingChange> out;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t eq = text.find('=', at);
        if (eq == std::string_view::npos) {
            return fail("\"" + std::string(text.substr(at)) + "\" has no '='");
        }
        const std::string_view name = text.substr(at, eq - at);
        const auto setting = configSettingFromString(name);
        if (!setting) {
            return fail("unknown setting \"" + std::string(name) + "\"");
        }
        const std::size_t end = nextSettingStart(text, eq + 1);
        const std::size_t valueEnd = end == std::string_view::npos ? text.size() : end;
        out.push_back({*setting, std::string(text.substr(eq + 1, valueEnd - eq - 1))});
        at = end == std::string_view::npos ? text.size() : end + 1;
    }
    return out;
}

Event makeConfigChangedEvent(const std::vector<SettingChange>& changes) {
    Event e;
    e.kind = EventKind::ConfigChanged;
    for (const SettingChange& c : changes) {
        e.value |= settingBit(c.setting);
    }
    e.detail = formatSettingChanges(changes);
    return e;
}

std::vector<SettingChange> settingChangesOf(const Event& e) {
    if (e.kind != EventKind::ConfigChanged) {
        return {};
    }
    auto changes = parseSettingChanges(e.detail);
    return changes ? std::move(*changes) : std::vector<SettingChange>{};
}

}  // namespace qs
