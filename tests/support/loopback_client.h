// A blocking loopback HTTP/1.1 client for tests of `perfplan serve` and its HTTP server: raw
// sockets, so a test can send exactly the bytes a hostile or pipelining client would. Every read
// is bounded in time.
#pragma once

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace perfplan::testing {

struct Socket {
  int fd = -1;
  explicit Socket(int port) {
    fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  }
  ~Socket() {
    if (fd >= 0) close(fd);
  }
  Socket(const Socket&) = delete;
  Socket(Socket&& o) noexcept : fd(o.fd) { o.fd = -1; }
  void Send(const std::string& s) const {
    std::size_t at = 0;
    while (at < s.size()) {
      const ssize_t n = send(fd, s.data() + at, s.size() - at, MSG_NOSIGNAL);
      if (n <= 0) return;  // the server may close early (413, 401); the test reads its answer
      at += static_cast<std::size_t>(n);
    }
  }
  // Reads until `done(text)` holds, EOF, or `ms` pass.
  template <typename Done>
  std::string ReadUntil(Done done, int ms, bool* eof = nullptr) const {
    std::string text;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!done(text)) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) break;
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(left)) <= 0) continue;
      char buf[65536];
      const ssize_t n = recv(fd, buf, sizeof buf, 0);
      if (n <= 0) {
        if (eof) *eof = true;
        break;
      }
      text.append(buf, static_cast<std::size_t>(n));
    }
    return text;
  }
  // One whole answer (head and Content-Length body), or what arrived within `ms`.
  std::string ReadAnswer(int ms = 3000, bool* eof = nullptr) const {
    return ReadUntil([](const std::string& t) { return Complete(t) > 0; }, ms, eof);
  }
  // The length of the first complete answer in `t`, 0 when incomplete.
  static std::size_t Complete(const std::string& t) {
    const std::size_t end = t.find("\r\n\r\n");
    if (end == std::string::npos) return 0;
    const std::size_t cl = t.find("Content-Length: ");
    if (cl == std::string::npos || cl > end) return end + 4;
    const std::size_t length = std::stoul(t.substr(cl + 16));
    return t.size() >= end + 4 + length ? end + 4 + length : 0;
  }
};

inline std::string Get(const std::string& path, const std::string& extra = "") {
  return "GET " + path + " HTTP/1.1\r\nHost: t\r\n" + extra + "\r\n";
}

inline std::string Post(const std::string& path, const std::string& body) {
  return "POST " + path + " HTTP/1.1\r\nHost: t\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

inline int StatusOf(const std::string& answer) {
  return answer.rfind("HTTP/1.1 ", 0) == 0 ? std::stoi(answer.substr(9, 3)) : 0;
}

inline std::string BodyOf(const std::string& answer) {
  const std::size_t end = answer.find("\r\n\r\n");
  return end == std::string::npos ? "" : answer.substr(end + 4);
}

}  // namespace perfplan::testing
