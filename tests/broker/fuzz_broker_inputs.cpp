// Fuzz target for what the broker reads from outside: request messages as
// they arrive on the wire (decoded protobuf through the send path, the
// stored form, a hand-out and an ack), the hand-written MessageID scanner,
// and the durable store's records and files. The first input byte picks the
// path. Built as a libFuzzer target with -DQUEUESCOPE_FUZZ=ON and clang, and
// otherwise linked with fuzz_driver.cpp for the bounded ctest run.
// Any inconsistency found aborts (a crash for the fuzzer).
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>

#include "broker/durable_log.h"
#include "broker/event_sink.h"
#include "broker/message_codec.h"
#include "broker/message_sender.h"
#include "broker/queue_channel.h"
#include "broker/queue_engine.h"
#include "broker/recovered_state.h"
#include "broker/store_record.h"

using namespace qs::broker;

namespace {

void require(bool condition, const char* what) {
    if (!condition) {
        std::fprintf(stderr, "fuzz_broker_inputs: %s\n", what);
        std::abort();
    }
}

// One upstream request's messages through the send path, then each stored
// message handed out, decoded for the wire, and acked or nacked.
void sendPath(std::string_view bytes) {
    static EventSink events;
    static QueueEngine engine(events);
    kubemq::QueuesUpstreamRequest request;
    if (!request.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        return;
    MessageSender sender(engine);
    int stored = 0;
    for (auto message : request.messages()) {
        message.mutable_policy()->set_delayseconds(0);  // no timer thread here
        const auto result = sender.send(message);
        if (!result.iserror()) {
            ++stored;
            require(!result.messageid().empty(), "a stored message has no id");
        }
    }
    for (const auto& queue : engine.channels()) {
        std::vector<StoredMessage> out;
        engine.collect(*queue, 1024, {}, out, Actor{});
        for (const auto& message : out) {
            kubemq::QueueMessage wire;
            decodeMessage(message, queue->name(), &wire);
            require(wire.messageid() == messageIdOf(message.content), "MessageID lost");
            if (message.receiveCount % 2 == 0)
                engine.ack(*queue, message.sequence, Actor{});
            else
                engine.nack(*queue, message.sequence, Actor{});
        }
    }
    for (const auto& queue : engine.channels())
        engine.deleteChannel(queue->name());
    (void)stored;
}

// The MessageID scanner and decoding of an arbitrary content blob.
void contentPath(std::string_view bytes) {
    StoredMessage stored;
    stored.content.assign(bytes);
    const std::string_view id = messageIdOf(stored.content);
    require(id.empty() || (id.data() >= stored.content.data() &&
                           id.data() + id.size() <= stored.content.data() + stored.content.size()),
            "messageIdOf points outside its input");
    kubemq::QueueMessage wire;
    decodeMessage(stored, "channel", &wire);
}

// Store records: the input is chunks of [u8 length][payload], framed here with
// a correct checksum so the decoder, not the CRC, is what gets exercised.
void recordPath(std::string_view bytes) {
    std::string frames;
    while (!bytes.empty()) {
        const std::size_t length =
            std::min<std::size_t>(static_cast<unsigned char>(bytes.front()), bytes.size() - 1);
        const std::string_view payload = bytes.substr(1, length);
        bytes.remove_prefix(1 + length);
        if (payload.empty())
            continue;
        const std::size_t start = frames.size();
        frames.append(kFrameHeaderBytes, '\0');
        frames.append(payload);
        const auto payloadLength = static_cast<std::uint32_t>(payload.size());
        const auto crc = static_cast<std::uint32_t>(::crc32(
            0L, reinterpret_cast<const Bytef*>(payload.data()), static_cast<uInt>(payload.size())));
        std::memcpy(frames.data() + start, &payloadLength, 4);
        std::memcpy(frames.data() + start + 4, &crc, 4);
    }
    RecoveredState state;
    state.maxSequenceGap = 1u << 16;  // a crafted record may claim any sequence
    std::string_view rest = frames;
    StoreRecord record;
    while (!rest.empty()) {
        std::size_t frameBytes = 0;
        if (readFrame(rest, &record, &frameBytes) != FrameCheck::Complete)
            break;
        require(frameBytes > 0 && frameBytes <= rest.size(), "frame size out of range");
        if (!state.apply(std::move(record)))
            break;
        rest.remove_prefix(frameBytes);
    }
    // What was recovered must survive a snapshot round trip unchanged.
    const std::size_t count = state.messageCount();
    std::string snapshot;
    state.forEachFrame([&](std::string& chunk) { snapshot += chunk; });
    RecoveredState again;
    rest = snapshot;
    while (!rest.empty()) {
        std::size_t frameBytes = 0;
        require(readFrame(rest, &record, &frameBytes) == FrameCheck::Complete,
                "a snapshot frame does not read back");
        require(again.apply(std::move(record)), "a snapshot record is refused");
        rest.remove_prefix(frameBytes);
    }
    require(again.messageCount() == count, "a snapshot round trip changed the message count");
    // Load each channel as the engine would (sequence spans bounded: a real
    // store's gaps are messages that passed through, a crafted one's need not be).
    for (auto& [name, channel] : state.channels) {
        if (!channel.messages.empty() &&
            channel.nextSequence - channel.messages.firstSequence() > (1u << 16))
            continue;
        if (!channel.messages.empty() && channel.nextSequence <= channel.messages.lastSequence())
            continue;
        QueueChannel queue(name);
        const std::size_t messages = channel.messages.size();
        queue.restore(std::move(channel));
        std::vector<StoredMessage> out;
        require(queue.reserve(messages + 1, out) == messages, "restored messages not all ready");
    }
}

// A whole store file, opened as the broker opens its data directory.
void filePath(std::string_view bytes) {
    static const std::string directory = [] {
        char pattern[] = "/tmp/qs-fuzz-store-XXXXXX";
        const char* made = ::mkdtemp(pattern);
        require(made != nullptr, "cannot make a temporary directory");
        return std::string(made);
    }();
    std::filesystem::remove_all(directory);
    std::filesystem::create_directories(directory);
    const bool snapshot = !bytes.empty() && (bytes.front() & 1) != 0;
    if (!bytes.empty())
        bytes.remove_prefix(1);
    {
        const std::string name =
            directory + (snapshot ? "/snapshot-00000000000000000001" : "/log-00000000000000000001");
        std::FILE* file = std::fopen(name.c_str(), "wb");
        require(file != nullptr, "cannot write the store file");
        std::fwrite(bytes.data(), 1, bytes.size(), file);
        std::fclose(file);
    }
    DurableLogOptions options;
    options.directory = directory;
    options.sync = SyncMode::None;
    RecoveredState state;
    std::string error;
    auto log = DurableLog::open(options, &state, &error);
    require(log != nullptr || !error.empty(), "a refused store gave no reason");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool quiet = [] {
        google::protobuf::SetLogHandler(nullptr);  // invalid UTF-8 is expected here
        return true;
    }();
    (void)quiet;
    if (size == 0)
        return 0;
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 4) {
        case 0:
            sendPath(bytes);
            break;
        case 1:
            contentPath(bytes);
            break;
        case 2:
            recordPath(bytes);
            break;
        default:
            filePath(bytes);
            break;
    }
    return 0;
}
