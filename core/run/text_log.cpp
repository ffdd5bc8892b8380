#include "run/text_log.h"

#include <bit>
#include <cstring>
#include <functional>
#include <span>
#include <stdexcept>
#include <utility>

namespace qs::run {

void TextLog::Table::clear() {
    std::memset(slots_.data(), 0, slots_.size() * sizeof(Slot));
    used = 0;
}

namespace {

std::size_t slotsFor(std::size_t generation) {
    return std::bit_ceil(std::max<std::size_t>(generation, 8) * 2);  // at most half full
}

}  // namespace

TextLog::TextLog(std::size_t maxTexts, std::size_t generation)
    : maxTexts_(std::min(maxTexts, kMaxTexts)),
      generation_(std::max<std::size_t>(generation, 1)),
      fullSlots_(slotsFor(generation_)),
      young_(std::min(kFirstSlots, fullSlots_)),
      old_(std::min(kFirstSlots, fullSlots_)) {}

std::uint64_t TextLog::hashOf(std::string_view text) {
    const std::uint64_t h = std::hash<std::string_view>{}(text);
    return h * 0x9E3779B97F4A7C15ULL;  // spreads the bits the tag and slot use
}

std::string_view TextLog::text(std::uint32_t id) const {
    if (id == kEmpty)
        return {};
    const std::uint64_t place = places_[id - 1];
    const std::size_t length = place & kLong;
    const std::uint64_t at = place >> kLengthBits;
    if (length == kLong)
        return long_[at];
    const std::span<const char> chunk = bytes_.chunk(at / kChunkBytes);
    return {chunk.data() + at % kChunkBytes, length};
}

std::size_t TextLog::slotOf(const Table& table, std::string_view text, std::uint64_t hash) const {
    const auto tag = static_cast<std::uint32_t>(hash >> 32);
    for (std::size_t slot = hash & table.mask();; slot = (slot + 1) & table.mask()) {
        const Slot& s = table[slot];
        if (s.id == kEmpty || (s.tag == tag && this->text(s.id) == text))
            return slot;
    }
}

std::uint32_t TextLog::find(std::string_view text) const {
    if (text.empty())
        return kEmpty;
    const std::uint64_t hash = hashOf(text);
    if (const std::uint32_t id = young_[slotOf(young_, text, hash)].id)
        return id;
    return old_[slotOf(old_, text, hash)].id;
}

std::uint32_t TextLog::intern(std::string_view text) {
    if (text.empty())
        return kEmpty;
    const std::uint64_t hash = hashOf(text);
    const std::size_t slot = slotOf(young_, text, hash);
    if (young_[slot].id != kEmpty)
        return young_[slot].id;
    if (const std::uint32_t id = old_[slotOf(old_, text, hash)].id)
        return id;
    if (size() >= maxTexts_)
        throw std::length_error("a run's events hold at most " + std::to_string(maxTexts_) +
                                " texts");
    places_.push_back(store(text));
    const auto id = static_cast<std::uint32_t>(size());
    young_[slot] = {id, static_cast<std::uint32_t>(hash >> 32)};
    if (++young_.used >= generation_)
        newGeneration();
    else if (young_.used * 2 > young_.mask() + 1)
        growYoung();
    return id;
}

// The bytes go after the last text, or at the next chunk if they would
// cross into it (a text is read as one span of one chunk).
std::uint64_t TextLog::store(std::string_view text) {
    if (text.size() > kChunkBytes) {
        long_.emplace_back(text);
        return (std::uint64_t{long_.size() - 1} << kLengthBits) | kLong;
    }
    const std::size_t room = kChunkBytes - bytes_.size() % kChunkBytes;
    if (text.size() > room)
        bytes_.growTo(bytes_.size() + room, '\0');
    const std::uint64_t at = bytes_.size();
    bytes_.append(std::span<const char>(text.data(), text.size()));
    return (at << kLengthBits) | text.size();
}

// The generation before is forgotten: its texts are found no more (a text
// named again gets a new id), and its slots take the next generation.
void TextLog::newGeneration() {
    // The bytes before the (new) old generation's are found no more: to the file.
    bytes_.spillBefore(youngBytesFrom_ / kChunkBytes);
    youngBytesFrom_ = bytes_.size();
    std::swap(young_, old_);
    if (young_.mask() + 1 < fullSlots_)
        young_ = Table(fullSlots_);
    else
        young_.clear();
}

// Until a generation has filled it, the young table starts small and doubles
// (a small run touches a few slots); its texts are recent, so in RAM.
void TextLog::growYoung() {
    Table bigger((young_.mask() + 1) * 2);
    for (std::size_t slot = 0; slot <= young_.mask(); ++slot) {
        const Slot s = young_[slot];
        if (s.id == kEmpty)
            continue;
        std::size_t to = hashOf(text(s.id)) & bigger.mask();
        while (bigger[to].id != kEmpty)
            to = (to + 1) & bigger.mask();
        bigger[to] = s;
    }
    bigger.used = young_.used;
    young_ = std::move(bigger);
}

void TextLog::spillTo(const std::shared_ptr<SpillFile>& file) {
    // The places of two generations stay in RAM: a lookup reads them.
    places_.spillTo(file, 2 * generation_ / kPlacesPerChunk + 1);
    // The bytes go when their generation is forgotten (newGeneration), or
    // when the newest kMaxByteChunksInRam hold no more (long texts).
    bytes_.spillTo(file, kMaxByteChunksInRam);
}

std::size_t TextLog::memoryBytes() const {
    std::size_t bytes = (young_.mask() + 1 + old_.mask() + 1) * sizeof(Slot) + places_.memoryBytes() +
                        bytes_.memoryBytes() + long_.capacity() * sizeof(std::string);
    for (const std::string& text : long_)
        bytes += text.capacity();
    return bytes;
}

}  // namespace qs::run
