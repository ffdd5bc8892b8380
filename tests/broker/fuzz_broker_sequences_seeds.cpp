// The seed corpus of fuzz_broker_sequences (tests/broker/fuzz_sequences_corpus),
// written by `fuzz_broker_sequences --write-seeds DIR`. An input is
// [message count] then requests: [op][argument bytes...]; op % 18 is the
// request (fuzz_broker_sequences.cpp), bit 7 the stream (first or second).
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>

namespace {

// Op numbers as the target decodes them.
enum Op : std::uint8_t {
    Get = 0,
    AckAll = 1,
    AckRange = 2,
    NAckAll = 3,
    NAckRange = 4,
    ReQueueAll = 5,
    ReQueueRange = 6,
    ActiveOffsets = 7,
    CloseByClient = 8,
    UnknownType = 9,
    CloseDownstream = 10,
    V1Receive = 11,
    V1Ack = 12,
    V1Reject = 13,
    V1Visibility = 14,
    V1Resend = 15,
    V1SendModified = 16,
    CloseV1 = 17,
};

// The same op on the second stream: bit 7 set, op % 18 unchanged.
std::uint8_t second(Op op) {
    return static_cast<std::uint8_t>(128 + (op + 18 - 128 % 18) % 18);
}

void writeSeed(const std::filesystem::path& file, std::initializer_list<std::uint8_t> bytes) {
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(std::data(bytes)),
               static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

void writeFuzzSeeds(const std::filesystem::path& directory) {
    std::filesystem::create_directories(directory);
    // Count byte 4 = 5 messages. Get 3, ack one, nack one, re-queue the rest,
    // Get one from the re-queue channel and ack it, close.
    writeSeed(directory / "downstream-settlements",
              {4, Get, 0, 2, AckRange, 0, 1, NAckRange, 0, 2, ReQueueAll, 0, 0, Get, 1, 0,
               AckAll, 1, 0, ActiveOffsets, 0, 0, CloseDownstream});
    // 3 messages through the v1 stream: ack, reject, visibility then resend,
    // send-modified from the re-queue channel.
    writeSeed(directory / "v1-settlements",
              {2, V1Receive, 0, V1Ack, 0, V1Receive, 0, V1Reject, 0, V1Receive, 2, 5,
               V1Visibility, 0, 5, V1Resend, 0, V1Receive, 1, V1SendModified, 0, 5, CloseV1});
    // Both kinds of streams at once, each holding messages when it closes.
    writeSeed(directory / "mixed-streams",
              {3, Get, 0, 1, V1Receive, 0, second(Get), 0, 0, second(V1Receive), 0,
               CloseDownstream, CloseV1, UnknownType, 0, 0, second(CloseByClient), 0, 0,
               second(ActiveOffsets), 0, 0, second(CloseV1)});
    // Refused requests: bad Get, unknown transaction, a range naming what is
    // not held, bad visibility, a wrong sequence, a bad resend channel, a
    // send-modified without its message.
    writeSeed(directory / "refusals",
              {1, Get, 0x30, 0, Get, 0x34, 0, AckAll, 0xff, 0, Get, 0, 0, AckRange, 0, 0x60,
               ReQueueRange, 0, 0x81, V1Receive, 6, V1Receive, 0, V1Ack, 1, V1Resend, 2,
               V1SendModified, 8, 5, V1Visibility, 4, CloseV1, AckAll, 0, 0, NAckAll, 0, 0});
}
