#include "recording/staged_events.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/wire_format_lite.h>

namespace qs::recording {

namespace {

using google::protobuf::io::CodedInputStream;
using google::protobuf::io::CodedOutputStream;
using google::protobuf::internal::WireFormatLite;

// Which texts differ from the previous event's (then they follow).
enum : std::uint8_t { kNewMessageId = 1, kNewTransaction = 2, kNewDetail = 4 };

void writeText(CodedOutputStream& out, std::string_view text) {
    out.WriteVarint32(static_cast<std::uint32_t>(text.size()));
    out.WriteRaw(text.data(), static_cast<int>(text.size()));
}

// a - b modulo 2^64: exact for any two times, and small when they are close.
std::int64_t wrappingDifference(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
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
    StagedReader(std::string_view blob, const std::vector<Name>& names)
        : in_(reinterpret_cast<const std::uint8_t*>(blob.data()), static_cast<int>(blob.size())),
          size_(static_cast<int>(blob.size())),
          names_(names) {}

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
            source > static_cast<std::uint32_t>(kLastEventSource) || flags > 7) {
            return fail("an unknown kind, source or flags");
        }
        t = static_cast<std::int64_t>(static_cast<std::uint64_t>(t) +
                                      static_cast<std::uint64_t>(WireFormatLite::ZigZagDecode64(delta)));
        e.kind = static_cast<EventKind>(kind);
        e.source = static_cast<EventSource>(source);
        std::uint64_t sequence = 0;
        std::uint32_t receiveCount = 0;
        std::uint64_t value = 0;
        std::uint64_t count2 = 0;
        if (((flags & kNewMessageId) != 0 && !readText(messageId_)) ||
            ((flags & kNewTransaction) != 0 && !readText(transaction_)) ||
            ((flags & kNewDetail) != 0 && !readText(detail_)) || !in_.ReadVarint64(&sequence) ||
            !in_.ReadVarint32(&receiveCount) || !in_.ReadVarint64(&value) ||
            !in_.ReadVarint64(&count2)) {
            return fail("truncated");
        }
        e.messageId = messageId_;
        e.transaction = transaction_;
        e.detail = detail_;
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
    bool readText(std::string& text) {
        std::uint32_t size = 0;
        return in_.ReadVarint32(&size) && in_.ReadString(&text, static_cast<int>(size));
    }
    bool fail(const char* what) {
        if (problem_.empty()) {
            problem_ = what;
        }
        return false;
    }

    CodedInputStream in_;
    int size_ = 0;
    const std::vector<Name>& names_;
    std::string messageId_;
    std::string transaction_;
    std::string detail_;
    std::string problem_;
};

}  // namespace

void encodeStagedEvents(const std::vector<Event>& events, std::int64_t originNs,
                        const std::unordered_map<Name, std::int64_t>& nameIds, std::string& out) {
    google::protobuf::io::StringOutputStream sink(&out);
    CodedOutputStream coded(&sink);
    std::int64_t previousT = 0;
    const Event* previous = nullptr;
    std::uint32_t actorId = 0;
    std::uint32_t channelId = 0;
    for (const Event& e : events) {
        const std::int64_t t = e.timeNs - originNs;
        std::uint8_t flags = 0;
        const bool first = previous == nullptr;
        if (first ? !e.messageId.empty() : e.messageId.view() != previous->messageId.view()) {
            flags |= kNewMessageId;
        }
        if (first ? !e.transaction.empty()
                  : e.transaction.view() != previous->transaction.view()) {
            flags |= kNewTransaction;
        }
        if (first ? !e.detail.empty() : e.detail != previous->detail) {
            flags |= kNewDetail;
        }
        coded.WriteVarint64(WireFormatLite::ZigZagEncode64(wrappingDifference(t, previousT)));
        coded.WriteVarint32(static_cast<std::uint32_t>(e.kind));
        coded.WriteVarint32(static_cast<std::uint32_t>(e.source));
        // Consecutive events mostly name the same actor and channel.
        if (first || e.actor != previous->actor) {
            actorId = idOf(nameIds, e.actor);
        }
        if (first || e.channel != previous->channel) {
            channelId = idOf(nameIds, e.channel);
        }
        coded.WriteVarint32(actorId);
        coded.WriteVarint32(channelId);
        coded.WriteVarint32(flags);
        if ((flags & kNewMessageId) != 0) {
            writeText(coded, e.messageId.view());
        }
        if ((flags & kNewTransaction) != 0) {
            writeText(coded, e.transaction.view());
        }
        if ((flags & kNewDetail) != 0) {
            writeText(coded, e.detail);
        }
        coded.WriteVarint64(e.sequence);
        coded.WriteVarint32(WireFormatLite::ZigZagEncode32(e.receiveCount));
        coded.WriteVarint64(WireFormatLite::ZigZagEncode64(e.value));
        coded.WriteVarint64(WireFormatLite::ZigZagEncode64(e.count2));
        previousT = t;
        previous = &e;
    }
}

bool decodeStagedEvents(std::string_view blob, std::uint64_t count, std::int64_t originNs,
                        const std::vector<Name>& names,
                        const std::function<void(const Event&)>& visit, std::string* error) {
    StagedReader reader(blob, names);
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
