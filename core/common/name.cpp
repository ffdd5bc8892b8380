#include "common/name.h"

#include <array>
#include <ostream>

#include "common/name_table.h"

namespace qs {

namespace {

// Immortal: names may be read by threads that outlive static destruction.
NameTable& table() {
    static NameTable* const instance = new NameTable(Name::kMaxNames);
    return *instance;
}

// Names this thread made before, by a hash of their text: a broker thread
// names the same few clients and channels for every message it handles, and
// a hit costs a hash and one comparison instead of the table's lock.
struct RecentNames {
    static constexpr std::size_t kSlots = 64;
    std::array<std::string_view, kSlots> texts{};  // views of the table's immortal copies
    std::array<std::uint32_t, kSlots> ids{};
};
thread_local RecentNames recent;

}  // namespace

std::uint32_t Name::intern(std::string_view text) {
    if (text.empty())
        return 0;
    const std::size_t slot = std::hash<std::string_view>{}(text) % RecentNames::kSlots;
    if (recent.ids[slot] != 0 && recent.texts[slot] == text)
        return recent.ids[slot];
    const std::uint32_t id = table().intern(text);
    if (id != NameTable::kOverflowId) {  // the marker's text is not `text`
        recent.texts[slot] = table().textOf(id);
        recent.ids[slot] = id;
    }
    return id;
}

std::string_view Name::textOf(std::uint32_t id) noexcept {
    return table().textOf(id);
}

std::size_t Name::count() {
    return table().count();
}

std::ostream& operator<<(std::ostream& out, Name name) {
    return out << name.view();
}

}  // namespace qs
