#pragma once

#include <QString>
#include <string_view>

#include "models/core_text.h"

// How the console names a message across its views: channel + '\n' + id,
// the channel being the one it was first seen in (a dead-lettered copy keeps
// its task's key).
namespace qs::ui {

inline QString messageKey(std::string_view channel, std::string_view messageId) {
    return fromView(channel) + QLatin1Char('\n') + fromView(messageId);
}

// The message id part of a key ("" for a malformed key).
inline QString messageIdOfKey(const QString& key) {
    const qsizetype cut = key.indexOf(QLatin1Char('\n'));
    return cut < 0 ? QString() : key.mid(cut + 1);
}

}  // namespace qs::ui
