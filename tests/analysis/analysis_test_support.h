#pragma once

#include <QtTest/QtTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "runner/headless_command.h"

namespace qs::test {

struct CommandOutput {
    int code = -1;
    std::string out;
    std::string err;
};

using Command = int (*)(const std::vector<std::string>&, std::ostream&, std::ostream&);

inline CommandOutput call(Command command, const std::vector<std::string>& args) {
    std::ostringstream out;
    std::ostringstream err;
    CommandOutput r;
    r.code = command(args, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

inline std::string scenarioPath(const std::string& file) {
    return std::string(QUEUESCOPE_SCENARIO_DIR) + "/" + file;
}

// `queuescope run ARGS --record PATH --quiet` against the embedded broker.
inline void record(std::vector<std::string> args, const std::string& path) {
    args.insert(args.end(), {"--record", path, "--quiet"});
    const CommandOutput run = call(&runner::runHeadless, args);
    QVERIFY2(run.code == 0, (run.out + run.err).c_str());
}

// A bundled scenario's JSON changed by `edit`, written to `path`.
template <typename Edit>
void writeEditedScenario(const std::string& bundled, const std::string& path, Edit edit) {
    std::ifstream in(scenarioPath(bundled));
    nlohmann::json scenario = nlohmann::json::parse(in);
    edit(scenario);
    std::ofstream(path) << scenario.dump(2);
}

inline std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
        ++n;
    }
    return n;
}

}  // namespace qs::test
