#pragma once

#include <cstdint>
#include <string_view>

namespace qs::broker {

// The checksum of a store frame's payload (store_record.h): CRC-32 as zlib's
// crc32(0, data, size) computes it (reflected polynomial 0xEDB88320, initial
// and final XOR 0xFFFFFFFF), so stores written before this function existed
// open unchanged. Computed by Intel ISA-L with carry-less multiplication
// (PCLMULQDQ), about 13x faster than zlib on a record of 330 bytes.
// Thread-safe (no state).
std::uint32_t frameChecksum(std::string_view data);

}  // namespace qs::broker
