#pragma once

#include <map>
#include <string>
#include <string_view>

// Poison tasks: messages that always fail, so they end in the dead-letter
// queue after their max receive count. A message is poison when it carries the
// tag `poison=true` or its body contains the marker "[poison]".
namespace qs::workers {

inline constexpr std::string_view kPoisonTag = "poison";
inline constexpr std::string_view kPoisonBodyMarker = "[poison]";

bool isPoison(const std::map<std::string, std::string>& tags, std::string_view body);

}  // namespace qs::workers
