#include "run/word_changes.h"

#include <algorithm>
#include <limits>

#include "run/first_from_event.h"

namespace qs::run {

void WordChanges::pushBits(std::uint32_t event, std::uint32_t bits) {
    entries_.push_back({event, static_cast<std::uint16_t>(bits >> 16),
                        static_cast<std::uint16_t>(bits & 0xFFFFu)});
}

std::uint32_t WordChanges::bitsAt(std::size_t index) const {
    const Entry& e = entries_[index];
    return static_cast<std::uint32_t>(e.head) << 16 | e.low;
}

void WordChanges::push(std::uint32_t event, std::uint32_t slot, std::int64_t before,
                       std::int64_t after) {
    const auto step = static_cast<std::int64_t>(static_cast<std::uint64_t>(after) -
                                                static_cast<std::uint64_t>(before));
    auto pushWhole = [&] {
        const auto value = static_cast<std::uint64_t>(after);
        pushBits(event, static_cast<std::uint32_t>(value >> 32));
        pushBits(event, static_cast<std::uint32_t>(value & 0xFFFFFFFFu));
    };
    if (slot >= kSlotLimit) {
        entries_.push_back({event, static_cast<std::uint16_t>(kWideSlot << 14), 0});
        pushBits(event, slot);
        pushWhole();
        return;
    }
    const auto slot14 = static_cast<std::uint16_t>(slot);
    if (step >= std::numeric_limits<std::int16_t>::min() &&
        step <= std::numeric_limits<std::int16_t>::max()) {
        entries_.push_back({event, static_cast<std::uint16_t>(kSmall << 14 | slot14),
                            static_cast<std::uint16_t>(static_cast<std::int16_t>(step))});
    } else if (step >= std::numeric_limits<std::int32_t>::min() &&
               step <= std::numeric_limits<std::int32_t>::max()) {
        entries_.push_back({event, static_cast<std::uint16_t>(kStep32 << 14 | slot14), 0});
        pushBits(event, static_cast<std::uint32_t>(static_cast<std::int32_t>(step)));
    } else {
        entries_.push_back({event, static_cast<std::uint16_t>(kWhole << 14 | slot14), 0});
        pushWhole();
    }
}

WordChanges::Change WordChanges::read(std::size_t& index) const {
    const Entry& first = entries_[index++];
    Change change;
    change.slot = first.head & (kSlotLimit - 1);
    auto readWhole = [&] {
        const std::uint64_t high = bitsAt(index++);
        const std::uint64_t low = bitsAt(index++);
        change.value = static_cast<std::int64_t>(high << 32 | low);
        change.whole = true;
    };
    switch (static_cast<Format>(first.head >> 14)) {
        case kSmall:
            change.value = static_cast<std::int16_t>(first.low);
            break;
        case kStep32:
            change.value = static_cast<std::int32_t>(bitsAt(index++));
            break;
        case kWhole:
            readWhole();
            break;
        case kWideSlot:
            change.slot = bitsAt(index++);
            readWhole();
            break;
    }
    return change;
}

std::size_t WordChanges::firstFrom(std::uint64_t eventCount) const {
    return firstEntryFromEvent(entries_, eventCount);
}

}  // namespace qs::run
