// The seed corpus of fuzz_recording_reader (tests/recording/fuzz_corpus),
// written by `fuzz_recording_reader --write-seeds DIR`: a tiny finished
// recording made with the writer, one that never finished, and damaged copies
// of the first (cut short, a wrong header, a page of zeros).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "recording/recording_writer.h"

namespace {

namespace fs = std::filesystem;

void makeRecording(const fs::path& path, bool finished) {
    std::string error;
    auto writer = qs::recording::RecordingWriter::create(path.string(), 0, {}, &error);
    if (!writer) {
        std::fprintf(stderr, "cannot write %s: %s\n", path.c_str(), error.c_str());
        std::exit(1);
    }
    writer->setSetting("scenario", std::string("fuzz"));
    writer->setSetting("seed", std::int64_t{7});
    std::vector<qs::Event> batch;
    for (int i = 0; i < 4; ++i) {
        qs::Event event;
        event.timeNs = 1000 * i;
        event.kind = i % 2 == 0 ? qs::EventKind::TaskSent : qs::EventKind::Acked;
        event.sequence = static_cast<std::uint64_t>(i / 2 + 1);
        event.messageId = "m-" + std::to_string(i / 2);
        event.detail = "d" + std::to_string(i);
        batch.push_back(event);
    }
    writer->append(batch);
    if (finished) {
        writer->setOutcome("result", std::string("passed"));
        writer->setOutcome("acked", std::int64_t{2});
        writer->setOutcome("seconds", 0.5);
    }
    if (!writer->close(&error)) {
        std::fprintf(stderr, "cannot close %s: %s\n", path.c_str(), error.c_str());
        std::exit(1);
    }
}

std::string readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void writeBytes(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

}  // namespace

void writeFuzzSeeds(const fs::path& directory) {
    fs::create_directories(directory);
    makeRecording(directory / "finished.qsrun", true);
    makeRecording(directory / "unfinished.qsrun", false);
    const std::string whole = readBytes(directory / "finished.qsrun");
    writeBytes(directory / "cut-short.qsrun", whole.substr(0, whole.size() / 2));
    std::string header = whole;
    header.replace(0, 6, "SQLitX");
    writeBytes(directory / "wrong-header.qsrun", header);
    std::string zeroed = whole;
    if (zeroed.size() > 2 * 4096)
        zeroed.replace(4096, 4096, std::string(4096, '\0'));
    writeBytes(directory / "page-of-zeros.qsrun", zeroed);
}
