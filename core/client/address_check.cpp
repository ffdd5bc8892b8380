#include "client/address_check.h"

#include <algorithm>

#include "client/argument_checks.h"

namespace qs::client {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

}  // namespace

std::string addressProblem(std::string_view address) {
    if (address.empty()) {
        return "Enter the server's address as host:port, e.g. localhost:50000.";
    }
    if (std::any_of(address.begin(), address.end(), isAsciiWhitespace)) {
        return "An address has no spaces: host:port, e.g. localhost:50000.";
    }
    const std::size_t colon = address.rfind(':');
    if (colon == std::string_view::npos || colon == address.size() - 1) {
        return "Expected host:port, e.g. localhost:50000 (the port is missing).";
    }
    if (colon == 0) {
        return "Expected host:port, e.g. localhost:50000 (the host is missing).";
    }
    const std::string_view port = address.substr(colon + 1);
    // Six digits or more cannot be a port; counting them first keeps the sum from overflowing.
    long number = 0;
    const bool digits = port.size() <= 5 && std::all_of(port.begin(), port.end(), isDigit);
    if (digits) {
        for (const char c : port) {
            number = number * 10 + (c - '0');
        }
    }
    if (!digits || number < 1 || number > 65535) {
        return "Expected host:port with a port 1..65535 (got " + std::string(port) + ").";
    }
    return {};
}

}  // namespace qs::client
