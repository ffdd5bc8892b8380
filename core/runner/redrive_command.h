#pragma once

#include <atomic>
#include <iosfwd>
#include <string>
#include <vector>

// `queuescope redrive --address HOST:PORT --from CH [--to CH2] [--max N]
// [--ids ID,ID | --sequences N,N] [--max-receive-count N] [--dead-letter-queue CH]`:
// moves dead-lettered messages back (runner/redrive.h) and says how many moved,
// failed and were left.
//
// Exit codes: 0 every message received was moved (or there was none);
// 1 some stay in the source (refused, no target), are now in both channels,
// or some selected were not found;
// 2 bad command line; 3 the server could not be reached or went away.
namespace qs::runner {

// argv[0] is the program; argv[1] may be the word "redrive" (skipped).
// SIGINT / SIGTERM cancel between batches; the report is still printed.
int runRedrive(int argc, char** argv);
// The same with explicit arguments (no program name, no "redrive"); `cancel`
// (may be null) ends it between batches.
int runRedrive(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
               const std::atomic<bool>* cancel = nullptr);

std::string redriveUsage();

}  // namespace qs::runner
