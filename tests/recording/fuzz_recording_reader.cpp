// Fuzz target for the recording reader (core/recording/recording_reader.h):
// arbitrary bytes written to a temporary .qsrun and opened, with and without
// the integrity check. A refusal must say why, naming the file; an opened
// recording is read whole (by index and by time, every lookup) and each read
// either fails with a message or visits events in increasing index order
// inside the range asked for. Seeds: a tiny real recording and damaged copies
// of it (fuzz_recording_seeds.cpp). Built as a libFuzzer target with
// -DQUEUESCOPE_FUZZ=ON and clang, otherwise linked with fuzz_driver.cpp for
// the bounded ctest run.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>

#include "recording/recording_reader.h"

namespace {

using qs::recording::RecordingReader;

void require(bool condition, const std::string& what) {
    if (!condition) {
        std::fprintf(stderr, "fuzz_recording_reader: %s\n", what.c_str());
        std::abort();
    }
}

// A fresh folder of this process's own (the reader may leave -wal / -shm files).
const std::string& scratchFolder() {
    static const std::string folder = [] {
        char pattern[] = "/tmp/qs-fuzz-recording-XXXXXX";
        const char* made = ::mkdtemp(pattern);
        require(made != nullptr, "cannot make a temporary directory");
        return std::string(made);
    }();
    return folder;
}

void readWhole(RecordingReader& reader) {
    std::string error;
    std::uint64_t previous = 0;
    const std::uint64_t to = reader.lastIndex() == std::numeric_limits<std::uint64_t>::max()
                                 ? reader.lastIndex()
                                 : reader.lastIndex() + 1;
    const bool read = reader.forEachEvent(1, to, [&](std::uint64_t index, const qs::Event&) {
        require(index > previous && index < to, "an event out of order or out of range");
        previous = index;
    }, &error);
    require(read || !error.empty(), "a failed read by index gave no reason");

    previous = 0;
    error.clear();
    const bool timed = reader.forEachEventInTime(
        std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(),
        [&](std::uint64_t index, const qs::Event&) {
            require(index > previous, "an event out of order by time range");
            previous = index;
        },
        &error);
    require(timed || !error.empty(), "a failed read by time gave no reason");

    (void)reader.lostEvents();
    (void)reader.settingText("scenario");
    (void)reader.settingInt("seed");
    (void)reader.outcomeText("result");
    (void)reader.outcomeInt("acked");
    (void)reader.outcomeDouble("seconds");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace fs = std::filesystem;
    fs::remove_all(scratchFolder());
    fs::create_directories(scratchFolder());
    const std::string path = scratchFolder() + "/run.qsrun";
    {
        std::FILE* file = std::fopen(path.c_str(), "wb");
        require(file != nullptr, "cannot write the recording file");
        std::fwrite(data, 1, size, file);
        std::fclose(file);
    }
    for (const bool check : {true, false}) {
        std::string error;
        auto reader = RecordingReader::open(path, &error, {check});
        if (!reader) {
            require(error.rfind(path + ": ", 0) == 0, "a refusal that does not name the file");
            require(error.size() > path.size() + 2, "a refusal that does not say why");
            continue;
        }
        readWhole(*reader);
    }
    return 0;
}
