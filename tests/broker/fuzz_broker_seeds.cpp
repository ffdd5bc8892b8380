// The seed corpus of fuzz_broker_inputs (tests/broker/fuzz_corpus), written by
// `fuzz_broker_inputs --write-seeds DIR`: one input per path of the target,
// the first byte picking the path.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "broker/message_codec.h"
#include "broker/store_record.h"
#include "kubemq.pb.h"

namespace fs = std::filesystem;

void writeFuzzSeeds(const fs::path& directory) {
    fs::create_directories(directory);
    auto write = [&](const std::string& name, char path, const std::string& body) {
        std::ofstream(directory / name, std::ios::binary) << path << body;
    };
    kubemq::QueuesUpstreamRequest upstream;
    upstream.set_requestid("r1");
    for (int i = 0; i < 3; ++i) {
        auto* message = upstream.add_messages();
        message->set_clientid("c");
        message->set_channel(i == 2 ? "bad channel" : "q");
        message->set_body("body");
        message->mutable_policy()->set_maxreceivecount(1);
        message->mutable_policy()->set_maxreceivequeue("dlq");
        message->mutable_policy()->set_expirationseconds(i);
        message->mutable_tags()->insert({"k", "v"});  // GCC 12 -Wrestrict on operator=(const char*)
    }
    write("send-upstream", 0, upstream.SerializeAsString());
    kubemq::QueueMessage content;
    content.set_clientid("c");
    content.set_body("b");
    write("content", 1, qs::broker::encodeContent(content, "id-1"));
    qs::broker::StoredMessage stored;
    stored.content = qs::broker::encodeContent(content, "id-2");
    stored.sequence = 3;
    stored.setRouting("dlq", "from");
    std::string frames;
    qs::broker::appendChannelFrame(frames, "q", 5, 7);
    qs::broker::appendPutFrame(frames, "q", stored, {"q", 2, 0});
    qs::broker::appendRemoveFrame(frames, "q", 3);
    qs::broker::appendDelayFrame(frames, 4, "q", stored, {});
    qs::broker::appendDeleteChannelFrame(frames, "old");
    // recordPath's chunks: [u8 length][payload] (the frames without their headers).
    std::string chunks;
    for (std::string_view rest = frames; rest.size() >= qs::broker::kFrameHeaderBytes;) {
        std::uint32_t length = 0;
        std::memcpy(&length, rest.data(), 4);
        if (length < 256) {
            chunks.push_back(static_cast<char>(length));
            chunks.append(rest.substr(qs::broker::kFrameHeaderBytes, length));
        }
        rest.remove_prefix(qs::broker::kFrameHeaderBytes + length);
    }
    write("records", 2, chunks);
    write("file-log", 3, std::string(1, '\0') + "QSBLOG01" + frames);
    write("file-snapshot", 3, std::string(1, '\1') + "QSBSNP01" + frames);
}

