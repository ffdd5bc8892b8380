#pragma once

#include <cstdint>
#include <string>
#include <string_view>

// Expands a task body / metadata template: `{n}` becomes the task number
// (1-based), `{total}` the number of tasks. Every other character, including
// other braces, is kept literally (so JSON bodies need no escaping).
namespace qs::workers {

std::string expandTaskTemplate(std::string_view text, std::int64_t n, std::int64_t total);

}  // namespace qs::workers
