// A bounded stand-in for libFuzzer's main, for builds without clang's
// -fsanitize=fuzzer: runs every file of the given corpus folders through
// LLVMFuzzerTestOneInput, then random mutations of them (bit flips, byte
// changes, cuts, insertions, splices) with a fixed seed for at most --seconds
// or --runs. `--write-seeds DIR` writes the seed corpus the repository keeps.
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "broker/message_codec.h"
#include "broker/store_record.h"
#include "kubemq.pb.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

// The input being run, written out by the abort handler so a failure can be replayed.
const std::string* current = nullptr;

void saveCurrentInput(int) {
    if (current != nullptr) {
        std::FILE* file = std::fopen("fuzz-failure-input", "wb");
        if (file != nullptr) {
            std::fwrite(current->data(), 1, current->size(), file);
            std::fclose(file);
            std::fprintf(stderr, "fuzz_broker_inputs: input saved as ./fuzz-failure-input\n");
        }
    }
    std::signal(SIGABRT, SIG_DFL);
}

void run(const std::string& input) {
    current = &input;
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

std::string mutate(std::string input, const std::vector<std::string>& corpus,
                   std::mt19937& random) {
    const int steps = 1 + static_cast<int>(random() % 4);
    for (int step = 0; step < steps; ++step) {
        const std::size_t at = input.empty() ? 0 : random() % input.size();
        switch (random() % 6) {
            case 0:
                if (!input.empty())
                    input[at] = static_cast<char>(input[at] ^ (1 << (random() % 8)));
                break;
            case 1:
                if (!input.empty())
                    input[at] = static_cast<char>(random());
                break;
            case 2:
                input.resize(at);
                break;
            case 3:
                input.insert(at, 1 + random() % 8, static_cast<char>(random()));
                break;
            case 4: {
                const std::string& other = corpus[random() % corpus.size()];
                if (!other.empty())
                    input.insert(at, other.substr(random() % other.size(), 1 + random() % 32));
                break;
            }
            default:
                if (input.size() > 1)
                    input.erase(at, 1 + random() % std::min<std::size_t>(8, input.size() - at));
                break;
        }
    }
    if (input.empty())
        input.push_back(static_cast<char>(random() % 4));
    return input;
}

void writeSeeds(const fs::path& directory) {
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
        (*message->mutable_tags())["k"] = "v";
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

}  // namespace

int main(int argc, char** argv) {
    double seconds = 10;
    long runs = 1000000;
    std::vector<fs::path> folders;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--write-seeds" && i + 1 < argc) {
            writeSeeds(argv[++i]);
            return 0;
        } else if (arg == "--seconds" && i + 1 < argc) {
            seconds = std::atof(argv[++i]);
        } else if (arg == "--runs" && i + 1 < argc) {
            runs = std::atol(argv[++i]);
        } else {
            folders.emplace_back(arg);
        }
    }
    std::vector<std::string> corpus;
    for (const auto& folder : folders) {
        for (const auto& entry : fs::directory_iterator(folder)) {
            std::ifstream in(entry.path(), std::ios::binary);
            std::ostringstream bytes;
            bytes << in.rdbuf();
            corpus.push_back(bytes.str());
        }
    }
    if (corpus.empty()) {
        std::fprintf(stderr,
                     "usage: fuzz_broker_inputs [--seconds S] [--runs N] CORPUS_DIR...\n"
                     "       fuzz_broker_inputs --write-seeds DIR\n");
        return 2;
    }
    std::signal(SIGABRT, saveCurrentInput);
    for (const auto& input : corpus)
        run(input);
    std::mt19937 random(20261202);
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(seconds));
    long done = 0;
    for (; done < runs && std::chrono::steady_clock::now() < deadline; ++done)
        run(mutate(corpus[random() % corpus.size()], corpus, random));
    std::printf("fuzz_broker_inputs: %zu corpus inputs and %ld mutations, no failure\n",
                corpus.size(), done);
    return 0;
}
