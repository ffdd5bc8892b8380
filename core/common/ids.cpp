#include "common/ids.h"

#include <array>
#include <cstdint>
#include <random>

namespace qs {
namespace {

std::mt19937_64& engine() {
    thread_local std::mt19937_64 rng{std::random_device{}()};
    return rng;
}

}  // namespace

std::string newNuid() {
    static constexpr std::string_view kDigits =
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    std::string id(22, '0');
    auto& rng = engine();
    std::uint64_t bits = rng();
    int left = 10;  // 62^10 < 2^64: ten digits per 64-bit draw
    for (char& c : id) {
        if (left-- == 0) {
            bits = rng();
            left = 9;
        }
        c = kDigits[bits % kDigits.size()];
        bits /= kDigits.size();
    }
    return id;
}

std::string newUuid() {
    auto& rng = engine();
    std::array<std::uint8_t, 16> b{};
    for (int i = 0; i < 16; i += 8) {
        const std::uint64_t v = rng();
        for (int j = 0; j < 8; ++j)
            b[i + j] = static_cast<std::uint8_t>(v >> (8 * j));
    }
    b[6] = static_cast<std::uint8_t>((b[6] & 0x0F) | 0x40);  // version 4
    b[8] = static_cast<std::uint8_t>((b[8] & 0x3F) | 0x80);  // RFC 4122 variant
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(36);
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out.push_back('-');
        out.push_back(kHex[b[i] >> 4]);
        out.push_back(kHex[b[i] & 0x0F]);
    }
    return out;
}

}  // namespace qs
