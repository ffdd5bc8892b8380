#include "broker/frame_checksum.h"

#include <isa-l/crc.h>

// ISA-L's 128-bit PCLMULQDQ version (SSE4.1), exported by libisal2 since 2.19
// (Debian's symbols file lists it) though crc.h declares only the dispatcher.
extern "C" std::uint32_t crc32_gzip_refl_by8(std::uint32_t crc, const unsigned char* data,
                                             std::uint64_t size);

namespace qs::broker {

namespace {

using CrcFunction = std::uint32_t (*)(std::uint32_t, const unsigned char*, std::uint64_t);

// Not ISA-L's dispatcher: on a CPU with AVX-512 it picks a version that returns
// with the upper halves of the vector registers dirty (no vzeroupper), and the
// SSE code after it (memcpy, protobuf) ran slower: with it the broker took 6 %
// more CPU per message with --sync batch than with zlib's CRC (docs/broker.md,
// Files).
CrcFunction chooseCrc() {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1"))
        return crc32_gzip_refl_by8;
    return crc32_gzip_refl;  // a CPU without PCLMULQDQ has no AVX-512 either
}

}  // namespace

std::uint32_t frameChecksum(std::string_view data) {
    static const CrcFunction crc = chooseCrc();
    return crc(0, reinterpret_cast<const unsigned char*>(data.data()),
               static_cast<std::uint64_t>(data.size()));
}

}  // namespace qs::broker
