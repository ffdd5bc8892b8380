#pragma once

#include <QString>
#include <string_view>

// Text from core (std::string, UTF-8) as the console shows it. Core's strings
// are read through std::string_view so the views do not depend on how core
// stores them.
namespace qs::ui {

inline QString fromView(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

}  // namespace qs::ui
