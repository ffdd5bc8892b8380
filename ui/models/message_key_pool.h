#pragma once

#include <QString>
#include <cstdint>
#include <optional>
#include <string_view>
#include <string>

#include "common/name.h"
#include "run/chunked_vector.h"
#include "run/text_pool.h"

// The messages a timeline's bars name, each held once and named by a 4-byte
// id: a bar is kept in the view and in every checkpoint of a time cursor
// (hundreds of thousands in a large recording), and a QString key in each
// (messageKey(): 24 bytes, ~110 on the heap) cost more than the rest of the
// bar. The text is made again from the id only where it is shown or handed to
// another view (a tooltip, a label, a click).
//
// The keys' texts ("channel\nid", as messageKey() makes them) live in a
// run::TextPool: once each, in blocks that never move, found through an
// open-addressing table that grows in steps (no pause to rehash them all):
// ~80 bytes a message with a UUID id, where a node-based map took ~160.
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
    Name channel(Id id) const { return channels_[id]; }
    std::string_view messageId(Id id) const;
    // messageKey(channel, messageId) of `id`.
    QString key(Id id) const;
    std::size_t size() const { return channels_.size(); }

private:
    // "channel\nid" in keyText_ (reused: no allocation per lookup).
    std::string_view keyOf(Name channel, std::string_view messageId) const;

    run::TextPool keys_;  // text id - 1 == Id
    run::ChunkedVector<Name, 4096> channels_;  // by Id: no Name made again per read
    mutable std::string keyText_;
};

}  // namespace qs::ui
