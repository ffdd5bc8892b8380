#pragma once

#include <QtTest/QtTest>
#include <algorithm>
#include <string>
#include <vector>

#include "runner/scenario_json.h"
#include "runner/scenario_runner.h"

namespace qs::test {

inline runner::Scenario shippedScenario(const std::string& file) {
    runner::Scenario s;
    std::string error;
    const std::string path = std::string(QUEUESCOPE_SCENARIO_DIR) + "/" + file;
    if (!runner::loadScenarioFile(path, &s, &error)) {
        qFatal("%s", error.c_str());
    }
    return s;
}

inline runner::RunResult runScenario(const runner::Scenario& s, runner::RunOptions options = {}) {
    options.seed = options.seed == 0 ? 7 : options.seed;
    options.log = [](const std::string& line) { qInfo("%s", line.c_str()); };
    runner::ScenarioRunner r(s, options);
    return r.run();
}

inline const WorkerStats* workerStats(const runner::RunResult& r, const std::string& name) {
    for (const WorkerStats& w : r.workers) {
        if (w.worker == name)
            return &w;
    }
    return nullptr;
}

inline std::vector<std::uint64_t> sortedReceived(const runner::RunResult& r) {
    std::vector<std::uint64_t> v;
    for (const WorkerStats& w : r.workers)
        v.push_back(w.received);
    std::sort(v.begin(), v.end());
    return v;
}

inline int ackedDeliveries(const MessageRecord& m) {
    int n = 0;
    for (const DeliveryRecord& d : m.deliveries) {
        if (d.outcome == DeliveryOutcome::Acked)
            ++n;
    }
    return n;
}

}  // namespace qs::test
