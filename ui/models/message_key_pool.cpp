#include "models/message_key_pool.h"

#include <stdexcept>

#include "models/message_key.h"

namespace qs::ui {

std::string_view MessageKeyPool::keyOf(Name channel, std::string_view messageId) const {
    keyText_.assign(channel.view());
    keyText_.push_back('\n');
    keyText_.append(messageId);
    return keyText_;
}

MessageKeyPool::Id MessageKeyPool::intern(Name channel, std::string_view messageId) {
    const std::string_view text = keyOf(channel, messageId);
    if (const std::uint32_t found = keys_.find(text); found != run::TextPool::kEmpty)
        return found - 1;
    if (channels_.size() >= kNone)
        throw std::length_error("MessageKeyPool: more than 2^32 - 1 messages");
    const std::uint32_t made = keys_.intern(text);  // never empty: it holds the '\n'
    channels_.push_back(channel);
    return made - 1;
}

MessageKeyPool::Id MessageKeyPool::find(const QString& key) const {
    if (!key.contains(QLatin1Char('\n')))
        return kNone;
    const std::uint32_t found = keys_.find(key.toStdString());
    return found == run::TextPool::kEmpty ? kNone : found - 1;
}

MessageKeyPool::Id MessageKeyPool::find(Name channel, std::string_view messageId) const {
    const std::uint32_t found = keys_.find(keyOf(channel, messageId));
    return found == run::TextPool::kEmpty ? kNone : found - 1;
}

std::string_view MessageKeyPool::messageId(Id id) const {
    const std::string_view text = keys_.text(id + 1);
    return text.substr(channels_[id].view().size() + 1);
}

QString MessageKeyPool::key(Id id) const {
    return messageKey(channels_[id].view(), messageId(id));
}

}  // namespace qs::ui
