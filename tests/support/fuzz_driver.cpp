// A bounded stand-in for libFuzzer's main, for builds without clang's
// -fsanitize=fuzzer: runs every file of the given corpus folders through
// LLVMFuzzerTestOneInput, then random mutations of them (bit flips, byte
// changes, cuts, insertions, splices) with a fixed seed for at most --seconds
// or --runs. Shared by every fuzz target (queuescope_add_fuzz_target); a
// target built with QUEUESCOPE_FUZZ_SEEDS also has `--write-seeds DIR`, which
// writes the seed corpus the repository keeps (writeFuzzSeeds, its own file).
#include <algorithm>
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

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
#ifdef QUEUESCOPE_FUZZ_SEEDS
void writeFuzzSeeds(const std::filesystem::path& directory);
#endif

namespace {

namespace fs = std::filesystem;

// The input being run, written out by the abort handler so a failure can be replayed.
const std::string* current = nullptr;
std::string programName = "fuzz target";

void saveCurrentInput(int) {
    if (current != nullptr) {
        std::FILE* file = std::fopen("fuzz-failure-input", "wb");
        if (file != nullptr) {
            std::fwrite(current->data(), 1, current->size(), file);
            std::fclose(file);
            std::fprintf(stderr, "%s: input saved as ./fuzz-failure-input\n", programName.c_str());
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

}  // namespace

int main(int argc, char** argv) {
    double seconds = 10;
    long runs = 1000000;
    std::vector<fs::path> folders;
    programName = fs::path(argv[0]).filename().string();
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
#ifdef QUEUESCOPE_FUZZ_SEEDS
        if (arg == "--write-seeds" && i + 1 < argc) {
            writeFuzzSeeds(argv[++i]);
            return 0;
        }
#endif
        if (arg == "--seconds" && i + 1 < argc) {
            seconds = std::atof(argv[++i]);
        } else if (arg == "--runs" && i + 1 < argc) {
            runs = std::atol(argv[++i]);
        } else {
            folders.emplace_back(arg);
        }
    }
    // Sorted, so the fixed seed picks the same inputs on every file system.
    std::vector<fs::path> files;
    for (const auto& folder : folders) {
        for (const auto& entry : fs::directory_iterator(folder)) {
            if (entry.is_regular_file())
                files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    std::vector<std::string> corpus;
    for (const auto& file : files) {
        std::ifstream in(file, std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        corpus.push_back(bytes.str());
    }
    if (corpus.empty()) {
        std::fprintf(stderr, "usage: %s [--seconds S] [--runs N] CORPUS_DIR...\n",
                     programName.c_str());
#ifdef QUEUESCOPE_FUZZ_SEEDS
        std::fprintf(stderr, "       %s --write-seeds DIR\n", programName.c_str());
#endif
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
    std::printf("%s: %zu corpus inputs and %ld mutations, no failure\n", programName.c_str(),
                corpus.size(), done);
    return 0;
}
