#pragma once

#include <span>
#include <string>
#include <string_view>

#include "runner/headless_command.h"

// The options of `queuescope run`, each defined once: its name, whether it
// takes a value, its help text (with the range of the setting it sets, from
// that setting's Limit record) and what it does to the run's arguments. The
// parser and the help text both read this table. Pure data; any thread.
namespace qs::runner {

struct HeadlessOption {
    std::string_view name;         // without the leading "--"
    std::string_view placeholder;  // the value's name in the help ("N", "FILE"); empty: a switch
    std::string_view section;      // the help's heading it is listed under
    std::string help;              // one or more lines; "\n" starts an indented line
    // Applies the value ("" for a switch) to the arguments; false with *why
    // (the reason only: the caller names the option and value). Null for the
    // options the parser acts on itself (help, version, scenario).
    bool (*apply)(HeadlessArgs& args, const std::string& value, std::string* why) = nullptr;
    std::string_view label = {};  // the help's left column when not "--name PLACEHOLDER"
    bool listed = true;           // false: covered by another entry's label
    bool preformatted = false;    // help is printed as it is (a block of its own)
};

// Every option, in the help's order.
std::span<const HeadlessOption> headlessOptions();
const HeadlessOption* findHeadlessOption(std::string_view name);
// The help's option sections, from the table.
std::string formatHeadlessOptions();

}  // namespace qs::runner
