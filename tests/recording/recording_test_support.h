#pragma once

#include <QtTest/QtTest>
#include <sstream>
#include <string>
#include <vector>

#include "runner/headless_command.h"
#include "runner/summary_command.h"

namespace qs::test {

struct CommandOutput {
    int code = -1;
    std::string out;
    std::string err;
};

inline CommandOutput runCommand(const std::vector<std::string>& args) {
    std::ostringstream out;
    std::ostringstream err;
    CommandOutput r;
    r.code = runner::runHeadless(args, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

inline CommandOutput summaryCommand(const std::vector<std::string>& args) {
    std::ostringstream out;
    std::ostringstream err;
    CommandOutput r;
    r.code = runner::runSummary(args, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

}  // namespace qs::test
