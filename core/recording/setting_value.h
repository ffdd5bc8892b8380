#pragma once

#include <cstdint>
#include <string>
#include <variant>

namespace qs::recording {

// A value of the settings / outcome tables: SQLite INTEGER, REAL or TEXT.
using SettingValue = std::variant<std::int64_t, double, std::string>;

}  // namespace qs::recording
