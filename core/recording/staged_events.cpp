#include "recording/staged_events.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <cstring>

#include "recording/recording_schema.h"

namespace qs::recording {

namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

// Which texts differ from the previous event's, and how they follow: in
// full (1, 2, 4), or (from schema version 7) as a reference to a text written
// earlier in the blob (8, 16).
enum : std::uint8_t {
    kNewMessageId = 1,
    kNewTransaction = 2,
    kNewDetail = 4,
    kSeenMessageId = 8,
    kSeenTransaction = 16,
};
constexpr std::uint32_t kVersion6Flags = 7;
constexpr std::uint32_t kAllFlags = 31;

// A hash of a text, for the encoder's table: 8 bytes at a time, then
// MurmurHash3's finaliser, so every byte reaches the low bits the table uses
// (message ids differ mostly in their last characters).
std::uint32_t textHash(std::string_view text) {
    auto mix = [](std::uint64_t h, std::uint64_t word) {
        h = (h ^ word) * 0x9E3779B97F4A7C15ull;
        return h ^ (h >> 29);
    };
    std::uint64_t h = text.size();
    std::size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, text.data() + i, 8);
        h = mix(h, word);
    }
    if (i < text.size()) {
        // The last 8 bytes (overlapping the previous word), or the few there
        // are: a fixed-size read is much cheaper than a copy of the rest.
        std::uint64_t word = 0;
        if (text.size() >= 8) {
            std::memcpy(&word, text.data() + text.size() - 8, 8);
        } else {
            for (std::size_t j = 0; j < text.size(); ++j) {
                word |= std::uint64_t{static_cast<std::uint8_t>(text[j])} << (8 * j);
            }
        }
        h = mix(h, word);
    }
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 33;
    return static_cast<std::uint32_t>(h);
}

// a - b modulo 2^64: exact for any two times, and small when they are close.
std::int64_t wrappingDifference(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}

// Protobuf varints (base 128, least significant group first), written
// straight into a byte buffer: the same bytes CodedOutputStream writes, for a
// fraction of its calls (the writer encodes every event of a busy run).
struct VarintWriter {
    std::uint8_t* at;
    void put(std::uint64_t v) {
        while (v >= 0x80) {
            *at++ = static_cast<std::uint8_t>(v | 0x80);
            v >>= 7;
        }
        *at++ = static_cast<std::uint8_t>(v);
    }
    void raw(std::string_view bytes) {
        std::memcpy(at, bytes.data(), bytes.size());
        at += bytes.size();
    }
};

// An event's numbers take at most this many bytes: 11 varints (two of them
// references), up to 10 bytes each, and three text lengths of up to 5.
constexpr std::size_t kMaxEventNumberBytes = 11 * 10 + 3 * 5;

std::uint64_t zigZag64(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
std::uint32_t zigZag32(std::int32_t v) {
    return (static_cast<std::uint32_t>(v) << 1) ^ static_cast<std::uint32_t>(v >> 31);
}

std::uint32_t idOf(const std::unordered_map<Name, std::int64_t>& ids, Name name) {
    if (name.empty()) {
        return 0;
    }
    const auto it = ids.find(name);
    return it == ids.end() ? 0 : static_cast<std::uint32_t>(it->second);
}

// Reads what encodeStagedEvents wrote, one event at a time.
class StagedReader {
public:
    StagedReader(std::string_view blob, const std::vector<Name>& names, int schemaVersion)
        : in_(reinterpret_cast<const std::uint8_t*>(blob.data()), static_cast<int>(blob.size())),
          blob_(blob),
          size_(static_cast<int>(blob.size())),
          names_(names),
          maxFlags_(schemaVersion >= kFirstSchemaWithTextReferences ? kAllFlags : kVersion6Flags) {}

    // False with `problem` set when the bytes do not make an event.
    bool next(Event& e, std::int64_t& t) {
        std::uint64_t delta = 0;
        std::uint32_t kind = 0;
        std::uint32_t source = 0;
        std::uint32_t flags = 0;
        if (!in_.ReadVarint64(&delta) || !in_.ReadVarint32(&kind) || !in_.ReadVarint32(&source) ||
            !readName(e.actor) || !readName(e.channel) || !in_.ReadVarint32(&flags)) {
            return fail("truncated");
        }
        if (kind > static_cast<std::uint32_t>(kLastEventKind) ||
            source > static_cast<std::uint32_t>(kLastEventSource) || flags > maxFlags_ ||
            (flags & (kNewMessageId | kSeenMessageId)) == (kNewMessageId | kSeenMessageId) ||
            (flags & (kNewTransaction | kSeenTransaction)) ==
                (kNewTransaction | kSeenTransaction)) {
            return fail("an unknown kind, source or flags");
        }
        t = static_cast<std::int64_t>(
            static_cast<std::uint64_t>(t) +
            static_cast<std::uint64_t>(WireFormatLite::ZigZagDecode64(delta)));
        e.kind = static_cast<EventKind>(kind);
        e.source = static_cast<EventSource>(source);
        std::uint64_t sequence = 0;
        std::uint32_t receiveCount = 0;
        std::uint64_t value = 0;
        std::uint64_t count2 = 0;
        if (((flags & kNewMessageId) != 0 && !readText(messageId_, true)) ||
            ((flags & kSeenMessageId) != 0 && !readSeen(messageId_)) ||
            ((flags & kNewTransaction) != 0 && !readText(transaction_, true)) ||
            ((flags & kSeenTransaction) != 0 && !readSeen(transaction_)) ||
            ((flags & kNewDetail) != 0 && !readText(detail_, false)) ||
            !in_.ReadVarint64(&sequence) || !in_.ReadVarint32(&receiveCount) ||
            !in_.ReadVarint64(&value) || !in_.ReadVarint64(&count2)) {
            return fail("truncated");
        }
        e.messageId = messageId_;
        e.transaction = transaction_;
        e.detail.assign(detail_);
        e.sequence = sequence;
        e.receiveCount = WireFormatLite::ZigZagDecode32(receiveCount);
        e.value = WireFormatLite::ZigZagDecode64(value);
        e.count2 = WireFormatLite::ZigZagDecode64(count2);
        return true;
    }

    bool atEnd() const { return in_.CurrentPosition() == size_; }
    const std::string& problem() const { return problem_; }

private:
    bool readName(Name& name) {
        std::uint32_t id = 0;
        if (!in_.ReadVarint32(&id)) {
            return false;
        }
        if (id >= names_.size() && id != 0) {
            problem_ = "a name id (" + std::to_string(id) + ") not in the names table";
            return false;
        }
        name = id == 0 ? Name() : names_[id];
        return true;
    }
    // A text in full: a view of the blob's bytes. From version 7, message ids
    // and transactions are listed, for later events to refer back to.
    bool readText(std::string_view& text, bool listed) {
        std::uint32_t size = 0;
        const int at = in_.CurrentPosition();
        if (!in_.ReadVarint32(&size) || !in_.Skip(static_cast<int>(size))) {
            return false;
        }
        const auto start = static_cast<std::size_t>(in_.CurrentPosition()) - size;
        text = blob_.substr(start, size);
        if (listed && maxFlags_ != kVersion6Flags) {
            texts_.push_back(text);
        }
        return at >= 0;
    }
    // A reference back: 0 is the text listed last.
    bool readSeen(std::string_view& text) {
        std::uint32_t back = 0;
        if (!in_.ReadVarint32(&back)) {
            return false;
        }
        if (back >= texts_.size()) {
            problem_ = "a reference (" + std::to_string(back) + ") to a text before the first";
            return false;
        }
        text = texts_[texts_.size() - 1 - back];
        return true;
    }
    bool fail(const char* what) {
        if (problem_.empty()) {
            problem_ = what;
        }
        return false;
    }

    CodedInputStream in_;
    std::string_view blob_;
    int size_ = 0;
    const std::vector<Name>& names_;
    const std::uint32_t maxFlags_;
    std::vector<std::string_view> texts_;  // listed texts, in the blob's order
    std::string_view messageId_;
    std::string_view transaction_;
    std::string_view detail_;
    std::string problem_;
};

}  // namespace

std::string_view StagedEncoder::encode(const std::vector<Event>& events, std::int64_t originNs,
                                       const std::unordered_map<Name, std::int64_t>& nameIds) {
    startBlob(events.size());
    std::int64_t previousT = 0;
    const Event* previous = nullptr;
    std::uint32_t actorId = 0;
    std::uint32_t channelId = 0;
    for (const Event& e : events) {
        const std::int64_t t = e.timeNs - originNs;
        std::uint8_t flags = 0;
        const bool first = previous == nullptr;
        // A message id or transaction that differs from the previous event's
        // is written in full the first time in the blob, then referred to.
        Lookup message;
        Lookup transaction;
        if (first ? !e.messageId.empty() : e.messageId.view() != previous->messageId.view()) {
            message = lookUp(e.messageId.view());
            flags |= message.number != 0 ? kSeenMessageId : kNewMessageId;
        }
        if (first ? !e.transaction.empty() : e.transaction.view() != previous->transaction.view()) {
            transaction = lookUp(e.transaction.view());
            flags |= transaction.number != 0 ? kSeenTransaction : kNewTransaction;
        }
        if (first ? !e.detail.empty() : e.detail != previous->detail) {
            flags |= kNewDetail;
        }
        // Consecutive events mostly name the same actor and channel.
        if (first || e.actor != previous->actor) {
            actorId = idOf(nameIds, e.actor);
        }
        if (first || e.channel != previous->channel) {
            channelId = idOf(nameIds, e.channel);
        }
        std::size_t texts = 0;
        texts += (flags & kNewMessageId) != 0 ? e.messageId.size() : 0;
        texts += (flags & kNewTransaction) != 0 ? e.transaction.size() : 0;
        texts += (flags & kNewDetail) != 0 ? e.detail.size() : 0;
        reserve(kMaxEventNumberBytes + texts);
        VarintWriter w{bytes_.get() + size_};
        w.put(zigZag64(wrappingDifference(t, previousT)));
        w.put(static_cast<std::uint32_t>(e.kind));
        w.put(static_cast<std::uint32_t>(e.source));
        w.put(actorId);
        w.put(channelId);
        w.put(flags);
        auto text = [&w](std::string_view bytes) {
            w.put(static_cast<std::uint32_t>(bytes.size()));
            w.raw(bytes);
        };
        if ((flags & kNewMessageId) != 0) {
            text(e.messageId.view());
            list(e.messageId.view(), message);
        } else if ((flags & kSeenMessageId) != 0) {
            w.put(back(message));
        }
        if ((flags & kNewTransaction) != 0) {
            text(e.transaction.view());
            list(e.transaction.view(), transaction);
        } else if ((flags & kSeenTransaction) != 0) {
            w.put(back(transaction));
        }
        if ((flags & kNewDetail) != 0) {
            text(e.detail);
        }
        w.put(e.sequence);
        w.put(zigZag32(e.receiveCount));
        w.put(zigZag64(e.value));
        w.put(zigZag64(e.count2));
        size_ = static_cast<std::size_t>(w.at - bytes_.get());
        previousT = t;
        previous = &e;
    }
    texts_.clear();  // its views point into `events`
    return {reinterpret_cast<const char*>(bytes_.get()), size_};
}

// Room for `more` bytes after size_, keeping what is there.
void StagedEncoder::reserve(std::size_t more) {
    if (capacity_ - size_ >= more) {
        return;
    }
    const std::size_t capacity = std::max({2 * capacity_, size_ + more, std::size_t{4096}});
    auto bigger = std::make_unique_for_overwrite<std::uint8_t[]>(capacity);
    if (size_ > 0) {
        std::memcpy(bigger.get(), bytes_.get(), size_);
    }
    bytes_ = std::move(bigger);
    capacity_ = capacity;
}

// The table is not cleared between blobs: a slot counts only when it holds
// the current blob's generation (cleared once every 4,096 blobs, when the
// generation wraps).
void StagedEncoder::startBlob(std::size_t events) {
    texts_.clear();
    inTable_ = 0;
    size_ = 0;
    // A table at most half full: lookUp() stops listing there.
    std::size_t size = 1024;
    while (size < 2 * std::min<std::size_t>(events, kMaxTextsPerTable)) {
        size *= 2;
    }
    generation_ = (generation_ + 1) & kGenerationMask;
    tableSize_ = size;
    if (slots_.size() < size || generation_ == 0) {
        slots_.assign(std::max(size, slots_.size()), 0);
        generation_ = 1;
    }
}

inline StagedEncoder::Lookup StagedEncoder::lookUp(std::string_view text) const {
    Lookup result;
    if (text.empty() || 2 * inTable_ >= tableSize_) {
        return result;  // written in full, listed, never looked up
    }
    result.hash = textHash(text);
    const std::size_t mask = tableSize_ - 1;
    const std::uint32_t current = generation_ << kNumberBits;
    for (std::size_t i = result.hash & mask;; i = (i + 1) & mask) {
        const std::uint32_t slot = slots_[i];
        if ((slot & ~kNumberMask) != current) {
            result.slot = static_cast<std::uint32_t>(i);
            return result;
        }
        const std::uint32_t number = slot & kNumberMask;
        const Listed& listed = texts_[number - 1];
        if (listed.hash == result.hash && listed.text == text) {
            result.number = number;
            return result;
        }
    }
}

// How many texts back the reader finds it (0 = the text listed last), counted
// when it is written: the event's message id may have been listed since.
inline std::uint32_t StagedEncoder::back(const Lookup& found) const {
    return static_cast<std::uint32_t>(texts_.size()) - found.number;
}

// Lists a text written in full, as the reader does; lookUp() found the free
// slot it goes into (the message id's and the transaction's can be the same
// slot when both are the same text: the later one takes it).
inline void StagedEncoder::list(std::string_view text, const Lookup& lookup) {
    texts_.push_back({text, lookup.hash});
    if (lookup.slot != kNoSlot && texts_.size() <= kNumberMask) {
        slots_[lookup.slot] =
            generation_ << kNumberBits | static_cast<std::uint32_t>(texts_.size());
        ++inTable_;
    }
}

void encodeStagedEvents(const std::vector<Event>& events, std::int64_t originNs,
                        const std::unordered_map<Name, std::int64_t>& nameIds, std::string& out) {
    out.append(StagedEncoder().encode(events, originNs, nameIds));
}

bool decodeStagedEvents(std::string_view blob, std::uint64_t count, std::int64_t originNs,
                        const std::vector<Name>& names, int schemaVersion,
                        const std::function<void(const Event&)>& visit, std::string* error) {
    StagedReader reader(blob, names, schemaVersion);
    Event e;
    std::int64_t t = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        if (!reader.next(e, t)) {
            *error = "damaged staged events: event " + std::to_string(i + 1) + " of " +
                     std::to_string(count) + ": " + reader.problem();
            return false;
        }
        e.timeNs = originNs + t;
        visit(e);
    }
    if (!reader.atEnd()) {
        *error = "damaged staged events: bytes left after " + std::to_string(count) + " events";
        return false;
    }
    return true;
}

}  // namespace qs::recording
