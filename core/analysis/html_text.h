#pragma once

#include <string>
#include <string_view>

namespace qs::analysis {

// User text (bodies, names, file paths) made safe inside HTML or SVG, in
// element content and in quoted attributes: & < > " ' become entities;
// bytes that are not valid UTF-8 and control characters other than tab and
// newline become U+FFFD, so a body cut mid-character or a binary body cannot
// break the page.
std::string htmlEscape(std::string_view text);

}  // namespace qs::analysis
