#pragma once

#include <cstddef>
#include <iosfwd>

#include "analysis/recorded_run.h"

// A recorded run as one self-contained HTML page (inline CSS and SVG, no
// script, nothing fetched): the result, the run's settings, the per-worker
// summary (the numbers `queuescope summary` prints), the queue depth over
// time and the deliveries per worker by how they ended, what happened in
// sentences (crashes, and each redelivered or not-acked message), and those
// messages' journeys hand-out by hand-out. Every piece of user text is
// escaped (analysis/html_text.h).
namespace qs::analysis {

struct ReportOptions {
    // Messages whose journeys are told; the rest are counted.
    std::size_t maxJourneys = 200;
};

struct ReportStats {
    std::size_t journeys = 0;         // told
    std::size_t notableMessages = 0;  // redelivered or not acked
};

ReportStats writeHtmlReport(const RecordedRun& run, std::ostream& out, ReportOptions options = {});

}  // namespace qs::analysis
