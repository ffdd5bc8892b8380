#include "run/text_pool.h"

#include <cstring>
#include <functional>
#include <algorithm>
#include <stdexcept>
#include <string>

namespace qs::run {

TextPool::TextPool(std::size_t maxTexts) : maxTexts_(std::min(maxTexts, kMaxTexts)) {}

std::size_t TextPool::hashOf(std::string_view text) {
    return std::hash<std::string_view>{}(text);
}

std::size_t TextPool::slotOf(const Slots& table, std::string_view text, std::size_t hash) const {
    const std::size_t mask = table.size() - 1;
    const auto low = static_cast<std::uint32_t>(hash);
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
        const Slot& s = table[slot];
        if (s.id == kEmpty || (s.hashLow == low && texts_[s.id - 1] == text))
            return slot;
    }
}

// While growing, a text not moved yet is in the old table only.
std::uint32_t TextPool::lookup(std::string_view text, std::size_t hash) const {
    if (slots_.size() == 0)
        return kEmpty;
    const std::uint32_t id = slots_[slotOf(slots_, text, hash)].id;
    if (id != kEmpty || oldSlots_.size() == 0)
        return id;
    return oldSlots_[slotOf(oldSlots_, text, hash)].id;
}

bool TextPool::contains(std::string_view text) const {
    return text.empty() || find(text) != kEmpty;
}

std::uint32_t TextPool::find(std::string_view text) const {
    if (text.empty())
        return kEmpty;
    return lookup(text, hashOf(text));
}

std::uint32_t TextPool::intern(std::string_view text) {
    if (text.empty())
        return kEmpty;
    const std::size_t hash = hashOf(text);
    if (const std::uint32_t known = lookup(text, hash); known != kEmpty)
        return known;
    if (texts_.size() >= maxTexts_)
        throw std::length_error("a run holds at most " + std::to_string(maxTexts_) +
                                " distinct texts");
    // At most half the slots in use: probes stay short.
    if ((texts_.size() + 1) * 2 > slots_.size())
        startGrowing();
    const std::size_t slot = slotOf(slots_, text, hash);
    texts_.push_back(store(text));
    const auto id = static_cast<std::uint32_t>(texts_.size());
    slots_[slot] = {id, static_cast<std::uint32_t>(hash)};
    if (oldSlots_.size() != 0)
        moveOldTexts(kSlotsMovedPerIntern);
    return id;
}

// Small texts share blocks; a long one gets a block of its own, so a shared
// block wastes at most a quarter of itself.
std::string_view TextPool::store(std::string_view text) {
    char* at = nullptr;
    if (text.size() > kBlockBytes / 4) {
        blocks_.push_back(std::make_unique_for_overwrite<char[]>(text.size()));
        blockBytes_ += text.size();
        at = blocks_.back().get();
    } else {
        if (kBlockBytes - blockUsed_ < text.size()) {
            blocks_.push_back(std::make_unique_for_overwrite<char[]>(kBlockBytes));
            blockBytes_ += kBlockBytes;
            block_ = blocks_.back().get();
            blockUsed_ = 0;
        }
        at = block_ + blockUsed_;
        blockUsed_ += text.size();
    }
    std::memcpy(at, text.data(), text.size());
    return {at, text.size()};
}

// The current table becomes the old one; a table twice its size takes new
// texts, and the old table's texts move into it over the next interns.
void TextPool::startGrowing() {
    if (oldSlots_.size() != 0)
        moveOldTexts(oldSlots_.size());  // not reached: the moves end before
    oldSlots_ = std::move(slots_);
    slots_ = Slots(oldSlots_.size() == 0 ? 1024 : oldSlots_.size() * 2);
    moveCursor_ = 0;
}

// Moves the texts of up to `count` of the old table's slots, in slot order,
// into the new table, and frees the old table once all are moved. Until then
// a text stays in the old table too, so a probe there never meets a hole that
// was not there before. A text is in one table or both, never twice in the
// new one, so it takes the first free slot from its place.
void TextPool::moveOldTexts(std::size_t count) {
    const std::size_t mask = slots_.size() - 1;
    const bool lowBitsPlace = mask <= 0xFFFFFFFFu;  // the stored bits index the new table
    const std::size_t end = std::min(oldSlots_.size(), moveCursor_ + count);
    for (; moveCursor_ < end; ++moveCursor_) {
        const Slot old = oldSlots_[moveCursor_];
        if (old.id == kEmpty)
            continue;
        const std::size_t hash = lowBitsPlace ? old.hashLow : hashOf(texts_[old.id - 1]);
        std::size_t slot = hash & mask;
        while (slots_[slot].id != kEmpty)
            slot = (slot + 1) & mask;
        slots_[slot] = old;
    }
    if (moveCursor_ == oldSlots_.size())
        oldSlots_ = Slots();
}

std::size_t TextPool::memoryBytes() const {
    return texts_.memoryBytes() +
           (slots_.size() + oldSlots_.size()) * sizeof(Slot) + blockBytes_ +
           blocks_.capacity() * sizeof(blocks_[0]);
}

}  // namespace qs::run
