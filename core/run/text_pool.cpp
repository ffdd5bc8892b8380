#include "run/text_pool.h"

#include <cstring>
#include <functional>
#include <algorithm>
#include <stdexcept>
#include <string>

namespace qs::run {

TextPool::TextPool(std::size_t maxTexts) : maxTexts_(std::min(maxTexts, kMaxTexts)) {}

std::size_t TextPool::slotOf(std::string_view text, std::size_t hash) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
        const std::uint32_t id = slots_[slot];
        if (id == kEmpty || texts_[id - 1] == text)
            return slot;
    }
}

bool TextPool::contains(std::string_view text) const {
    return text.empty() || find(text) != kEmpty;
}

std::uint32_t TextPool::find(std::string_view text) const {
    if (text.empty() || slots_.empty())
        return kEmpty;
    return slots_[slotOf(text, std::hash<std::string_view>{}(text))];
}

std::uint32_t TextPool::intern(std::string_view text) {
    if (text.empty())
        return kEmpty;
    // At most half the slots in use: probes stay short.
    if ((texts_.size() + 1) * 2 > slots_.size())
        grow();
    const std::size_t slot = slotOf(text, std::hash<std::string_view>{}(text));
    if (slots_[slot] != kEmpty)
        return slots_[slot];
    if (texts_.size() >= maxTexts_)
        throw std::length_error("a run holds at most " + std::to_string(maxTexts_) +
                                " distinct texts");
    texts_.push_back(store(text));
    const auto id = static_cast<std::uint32_t>(texts_.size());
    slots_[slot] = id;
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

void TextPool::grow() {
    std::vector<std::uint32_t> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, kEmpty);
    for (const std::uint32_t id : old) {
        if (id != kEmpty) {
            const std::string_view text = texts_[id - 1];
            slots_[slotOf(text, std::hash<std::string_view>{}(text))] = id;
        }
    }
}

std::size_t TextPool::memoryBytes() const {
    return texts_.memoryBytes() + slots_.capacity() * sizeof(std::uint32_t) + blockBytes_ +
           blocks_.capacity() * sizeof(blocks_[0]);
}

}  // namespace qs::run
