#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "events/event.h"

// The typed content of a ConfigChanged event: which settings changed, and to
// what. Workers and the pool write it (workers/worker_config.h names its fields
// with these settings); the console, the explain panel and exports read it from
// here, so no view parses "batch=5" text of its own. Pure functions, any thread.
namespace qs {

// Every setting a run can change while it runs. The first eleven and the last
// two are the fields of a worker's configuration, in the order
// workers::ConfigField lists them (Consume and VisibilitySeconds came later, and
// new settings go at the end so recorded bits keep their meaning).
enum class ConfigSetting : std::uint8_t {
    BatchSize,
    WaitMs,
    AutoAck,
    Work,
    FailureRate,
    OnFailure,
    RequeueChannel,
    CrashRate,
    Settle,
    MaxPolls,
    RestartDelayMs,
    Workers,   // the pool's worker count
    Slowdown,  // one worker's work-time factor
    Consume,            // how a worker receives: downstream (v2) or the v1 stream
    VisibilitySeconds,  // a v1-stream worker's visibility timeout
    Count
};

// "batch", "waitMs", "autoAck", "work", ..., "workers", "slowdown".
std::string_view toString(ConfigSetting setting);
std::optional<ConfigSetting> configSettingFromString(std::string_view name);

// One setting's new value, as the configuration text writes it ("5", "true",
// "0.2", "fixed 100 ms", "reject", a channel name).
struct SettingChange {
    ConfigSetting setting = ConfigSetting::BatchSize;
    std::string value;

    std::optional<std::int64_t> integer() const;  // when the value is a whole number
    std::optional<double> number() const;         // when the value is a number
    std::optional<bool> flag() const;             // "true" / "false"
    bool operator==(const SettingChange&) const = default;
};

// Bit (1 << setting) for each setting: ConfigChanged's Event::value.
constexpr std::int64_t settingBit(ConfigSetting setting) {
    return std::int64_t{1} << static_cast<unsigned>(setting);
}

// "batch=5 work=fixed 100 ms": the one text form (Event::detail of a
// ConfigChanged, scenario "set" actions). Empty for no changes.
std::string formatSettingChanges(const std::vector<SettingChange>& changes);

// The changes of a text in that form. A value runs to the next " name=" of a
// known setting, so values may hold spaces. nullopt (and *error, if given) when
// the text is not in that form: an unknown name, a missing '=', or nothing.
std::optional<std::vector<SettingChange>> parseSettingChanges(std::string_view text,
                                                              std::string* error = nullptr);

// A ConfigChanged event carrying `changes` (value = their bits, detail = their
// text); time, source, actor and channel are the caller's.
Event makeConfigChangedEvent(const std::vector<SettingChange>& changes);

// The changes a ConfigChanged event carries; empty for another kind or a
// detail that is not in the form above (events of hand-made logs).
std::vector<SettingChange> settingChangesOf(const Event& e);

}  // namespace qs
