#pragma once

#include <map>
#include <string>
#include <string_view>

// A minimal HTTP/1.1 client for the tests: one request on its own loopback
// connection ("Connection: close"), the whole answer read until the server
// closes it. Plain sockets, so what is checked is the bytes on the wire.
namespace qs::test {

struct HttpResponse {
    int status = 0;  // 0 = no valid answer (see error)
    std::map<std::string, std::string> headers;  // names in lower case
    std::string body;
    std::string error;  // why status is 0
};

HttpResponse httpRequest(int port, std::string_view method, std::string_view path);

}  // namespace qs::test
