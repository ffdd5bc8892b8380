#pragma once

#include <QString>
#include <cstdint>
#include <deque>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "common/name.h"
#include "common/short_text.h"

// The messages a timeline's bars name, each held once and named by a 4-byte
// id: a bar is kept in the view and in every checkpoint of a time cursor
// (hundreds of thousands in a large recording), and a QString key in each
// (messageKey(): 24 bytes, ~110 on the heap) cost more than the rest of the
// bar. The text is made again from the id only where it is shown or handed to
// another view (a tooltip, a label, a click).
//
// Ids are given in first-seen order, 0, 1, 2...; an id is never reused or
// dropped, so a copy of a model made earlier (a checkpoint) can share the
// pool it was made with. UI thread only.
namespace qs::ui {

class MessageKeyPool {
public:
    using Id = std::uint32_t;
    static constexpr Id kNone = 0xFFFFFFFFu;  // no message (nothing selected)

    // The id of (channel, messageId), made on first sight.
    Id intern(Name channel, std::string_view messageId);
    // The id of a key made by messageKey() ("channel\nid"), kNone when no
    // bar has named it (nor is any Name made for a channel never seen).
    Id find(const QString& key) const;
    Id find(Name channel, std::string_view messageId) const;
    Name channel(Id id) const { return entries_[id].channel; }
    std::string_view messageId(Id id) const { return entries_[id].messageId; }
    // messageKey(channel, messageId) of `id`.
    QString key(Id id) const;
    std::size_t size() const { return entries_.size(); }

private:
    struct Entry {
        ShortText messageId;  // a UUID inline; a deque never moves it
        Name channel;
    };
    struct View {
        std::string_view channel;  // a Name's text: lives for the process
        std::string_view messageId;
        bool operator==(const View&) const = default;
    };
    struct ViewHash {
        std::size_t operator()(const View& v) const noexcept;
    };

    std::deque<Entry> entries_;
    std::unordered_map<View, Id, ViewHash> index_;
};

}  // namespace qs::ui
