#pragma once

#include <string_view>

// Where a value named by a schema path ("steps[0].checks[1].measure", as
// json_schema's SchemaError names it) sits in a JSON text, so an error about
// a file can say its line. A parsed nlohmann::json keeps no positions, so the
// text is scanned again (strings, escapes and // or /* */ comments as the
// parsers accept them). Pure function; any thread.
namespace qs {

// The 1-based line of the value at `path` (of its key, inside an object).
// A path that is not in the text (a missing key) gives the line of its
// nearest ancestor that is; the root path "" (and, at worst, text the
// scanner cannot follow) gives line 1.
int lineOfJsonPath(std::string_view text, std::string_view path);

}  // namespace qs
