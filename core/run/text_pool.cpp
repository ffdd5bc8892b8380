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
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
        const std::uint32_t id = table[slot];
        if (id == kEmpty || texts_[id - 1] == text)
            return slot;
    }
}

// While growing, a text not moved yet is in the old table only.
std::uint32_t TextPool::lookup(std::string_view text, std::size_t hash) const {
    if (slots_.size() == 0)
        return kEmpty;
    const std::uint32_t id = slots_[slotOf(slots_, text, hash)];
    if (id != kEmpty || oldSlots_.size() == 0)
        return id;
    return oldSlots_[slotOf(oldSlots_, text, hash)];
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
    slots_[slot] = id;
    if (oldSlots_.size() != 0)
        moveOldTexts(kMovesPerIntern);
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
        moveOldTexts(unmoved_);  // not reached while kMovesPerIntern >= 1
    oldSlots_ = std::move(slots_);
    slots_ = Slots(oldSlots_.size() == 0 ? 1024 : oldSlots_.size() * 2);
    unmoved_ = oldSlots_.size() == 0 ? 0 : texts_.size();
}

// Moves up to `count` of the old table's texts into the new one, newest first
// (the texts a run asks for again soonest are found in the new table first;
// their views and bytes are read in order), and frees the old table once all
// are moved. Until then a text stays in the old table too, so a probe there
// never meets a hole that was not there before.
void TextPool::moveOldTexts(std::size_t count) {
    for (; count > 0 && unmoved_ > 0; --count, --unmoved_) {
        const std::string_view text = texts_[unmoved_ - 1];  // id unmoved_
        slots_[slotOf(slots_, text, hashOf(text))] = static_cast<std::uint32_t>(unmoved_);
    }
    if (unmoved_ == 0)
        oldSlots_ = Slots();
}

std::size_t TextPool::memoryBytes() const {
    return texts_.memoryBytes() +
           (slots_.size() + oldSlots_.size()) * sizeof(std::uint32_t) + blockBytes_ +
           blocks_.capacity() * sizeof(blocks_[0]);
}

}  // namespace qs::run
