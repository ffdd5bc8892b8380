#include "models/message_key_pool.h"

#include <functional>
#include <stdexcept>

#include "models/message_key.h"

namespace qs::ui {

std::size_t MessageKeyPool::ViewHash::operator()(const View& v) const noexcept {
    const std::hash<std::string_view> hash;
    return hash(v.messageId) * 31 ^ hash(v.channel);
}

MessageKeyPool::Id MessageKeyPool::intern(Name channel, std::string_view messageId) {
    const auto found = index_.find(View{channel.view(), messageId});
    if (found != index_.end())
        return found->second;
    if (entries_.size() >= kNone)
        throw std::length_error("MessageKeyPool: more than 2^32 - 1 messages");
    const Id id = static_cast<Id>(entries_.size());
    const Entry& entry = entries_.emplace_back(Entry{ShortText(messageId), channel});
    index_.emplace(View{entry.channel.view(), entry.messageId.view()}, id);
    return id;
}

MessageKeyPool::Id MessageKeyPool::find(const QString& key) const {
    const qsizetype cut = key.indexOf(QLatin1Char('\n'));
    if (cut < 0)
        return kNone;
    const std::string channel = key.left(cut).toStdString();
    const std::string messageId = key.mid(cut + 1).toStdString();
    const auto found = index_.find(View{channel, messageId});
    return found == index_.end() ? kNone : found->second;
}

MessageKeyPool::Id MessageKeyPool::find(Name channel, std::string_view messageId) const {
    const auto found = index_.find(View{channel.view(), messageId});
    return found == index_.end() ? kNone : found->second;
}

QString MessageKeyPool::key(Id id) const {
    const Entry& entry = entries_[id];
    return messageKey(entry.channel.view(), entry.messageId.view());
}

}  // namespace qs::ui
