#include "broker/frame_checksum.h"

#include <isa-l/crc.h>

namespace qs::broker {

std::uint32_t frameChecksum(std::string_view data) {
    return crc32_gzip_refl(0, reinterpret_cast<const unsigned char*>(data.data()),
                           static_cast<std::uint64_t>(data.size()));
}

}  // namespace qs::broker
