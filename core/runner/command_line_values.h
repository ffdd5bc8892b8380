#pragma once

#include <string>
#include <vector>

#include "common/limit.h"

// Reading the values of command-line options: whole text or nothing ("12x" is
// not 12), ranges from the settings' Limit records. Pure functions.
namespace qs::runner {

// A finite number, the whole text.
bool parseDouble(const std::string& text, double* out);
// A whole number in [min, max], the whole text.
bool parseInt(const std::string& text, long long min, long long max, int* out);
bool parseInt(const std::string& text, const Limit<int>& limit, int* out);
// A number inside the limit.
bool parseNumber(const std::string& text, const Limit<double>& limit, double* out);
// `text` cut at each `sep`; with maxParts > 0 the last part keeps the rest.
std::vector<std::string> split(const std::string& text, char sep, std::size_t maxParts = 0);
// "HOST:PORT" with a port 1..65535 (client::addressProblem): empty when fine, else the reason.
std::string checkHostPort(const std::string& address);
// The same file, by name or after resolving both paths.
bool sameFile(const std::string& a, const std::string& b);

}  // namespace qs::runner
