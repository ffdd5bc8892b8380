#include "http_get.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace qs::test {

namespace {

std::string lowerCase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// Splits a raw answer into status, headers and body.
HttpResponse parseAnswer(const std::string& raw) {
    HttpResponse response;
    const std::size_t headEnd = raw.find("\r\n\r\n");
    if (!raw.starts_with("HTTP/1.") || headEnd == std::string::npos || raw.size() < 12) {
        response.error = "not an HTTP answer: '" + raw.substr(0, 80) + "'";
        return response;
    }
    std::size_t lineStart = raw.find("\r\n") + 2;
    while (lineStart < headEnd) {
        const std::size_t lineEnd = raw.find("\r\n", lineStart);
        const std::string line = raw.substr(lineStart, lineEnd - lineStart);
        const std::size_t colon = line.find(':');
        if (colon != std::string::npos) {
            std::size_t valueStart = colon + 1;
            while (valueStart < line.size() && line[valueStart] == ' ')
                ++valueStart;
            response.headers[lowerCase(line.substr(0, colon))] = line.substr(valueStart);
        }
        lineStart = lineEnd + 2;
    }
    response.body = raw.substr(headEnd + 4);
    response.status = std::atoi(raw.substr(9, 3).c_str());
    return response;
}

}  // namespace

HttpResponse httpRequest(int port, std::string_view method, std::string_view path) {
    HttpResponse failed;
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        failed.error = std::strerror(errno);
        return failed;
    }
    timeval timeout{60, 0};  // only bounds a failure
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
        failed.error = std::string("connect: ") + std::strerror(errno);
        close(fd);
        return failed;
    }
    const std::string request = std::string(method) + ' ' + std::string(path) +
                                " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    std::string raw;
    if (send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
        static_cast<ssize_t>(request.size())) {
        char buffer[4096];
        ssize_t got = 0;
        while ((got = recv(fd, buffer, sizeof(buffer), 0)) > 0)
            raw.append(buffer, static_cast<std::size_t>(got));
    }
    close(fd);
    return parseAnswer(raw);
}

}  // namespace qs::test
