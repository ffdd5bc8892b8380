#pragma once

#include <string>
#include <string_view>

// The one check of a server address, for the console's Connect field and the
// headless runner's --address alike. Pure function; safe from any thread.
namespace qs::client {

// Empty when `address` is a usable host:port (a host, no whitespace, a port
// 1..65535 in decimal digits); otherwise a sentence saying what is wrong, for
// the place the address was typed. gRPC would take "hello world" and round
// port 99999 to another port. The caller trims the address if it wants to.
std::string addressProblem(std::string_view address);

}  // namespace qs::client
