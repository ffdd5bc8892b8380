#pragma once

#include <string>
#include <vector>

#include "analysis/recorded_run.h"

// Plain sentences about a recorded run, from core facts only (the ledger's
// deliveries and end states, the workers' crashes): why a message came back
// and how it ended, and what each crash did. Times are "t=1.250 s" since the
// recording's origin. The console's explainer (ui/) speaks of the live run;
// these are for the report.
namespace qs::analysis {

// A message the report tells the story of: handed out more than once, or
// not acked (dead-lettered, dropped, expired, lost...).
bool isNotable(const MessageRecord& message);

// The journey of `message` in sentences, oldest first.
std::vector<std::string> explainMessage(const RecordedRun& run, const MessageRecord& message);

// One sentence per worker crash: when, what it held, who got those next.
std::vector<std::string> explainCrashes(const RecordedRun& run);

// One sentence per worker whose hand-outs went back unsettled without a
// crash (its stream ended, it closed): how many, and when the first did.
std::vector<std::string> explainReturns(const RecordedRun& run);

// "t=1.250 s" for a recording time.
std::string atTime(std::int64_t sinceOriginNs);

}  // namespace qs::analysis
