// Live Ganglia over TCP: connect, read until the peer closes, all within one deadline.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>

#include "profiles/ganglia/ganglia.h"

namespace perfplan::profiles {
namespace {

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

using Clock = std::chrono::steady_clock;

// Milliseconds left before `deadline`, at least 0.
int MillisLeft(Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

std::string FormatSeconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

}  // namespace

Result<std::pair<std::string, int>> ParseHostPort(std::string_view text) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    return Status::InvalidArgument("'" + std::string(text) +
                                   "' is not HOST:PORT (e.g. 127.0.0.1:8649)");
  }
  std::string_view host = text.substr(0, colon);
  std::string_view port_text = text.substr(colon + 1);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  int port = 0;
  auto [ptr, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || ec != std::errc() || ptr != port_text.data() + port_text.size() ||
      port < 1 || port > 65535) {
    return Status::InvalidArgument("'" + std::string(text) + "': port '" + std::string(port_text) +
                                   "' is not in 1-65535");
  }
  return std::pair<std::string, int>{std::string(host), port};
}

Result<std::string> FetchTcp(const std::string& host, int port, double timeout_seconds,
                             std::size_t max_bytes) {
  const std::string where = host + ":" + std::to_string(port);
  const auto deadline =
      Clock::now() + std::chrono::milliseconds(static_cast<long long>(timeout_seconds * 1000));
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string port_text = std::to_string(port);
  if (int rc = ::getaddrinfo(host.c_str(), port_text.c_str(), &hints, &found); rc != 0) {
    return Status::Failed(where + ": cannot resolve host: " + gai_strerror(rc));
  }
  std::string last_error = "no address";
  int connected = -1;
  for (addrinfo* ai = found; ai != nullptr && connected < 0; ai = ai->ai_next) {
    int fd =
        ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      last_error = std::strerror(errno);
      continue;
    }
    if (::connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
      connected = fd;
      break;
    }
    if (errno != EINPROGRESS) {
      last_error = std::strerror(errno);
      ::close(fd);
      continue;
    }
    pollfd p{fd, POLLOUT, 0};
    int rc = ::poll(&p, 1, MillisLeft(deadline));
    if (rc == 0) {
      ::close(fd);
      ::freeaddrinfo(found);
      return Status::Failed(where + ": no answer within " + FormatSeconds(timeout_seconds) +
                            " s (connect timed out)");
    }
    if (rc < 0) {
      last_error = std::strerror(errno);
      ::close(fd);
      if (errno == EINTR) break;
      continue;
    }
    int err = 0;
    socklen_t len = sizeof err;
    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0) {
      last_error = std::strerror(err);
      ::close(fd);
      continue;
    }
    connected = fd;
  }
  ::freeaddrinfo(found);
  if (connected < 0) return Status::Failed(where + ": cannot connect: " + last_error);
  Fd fd(connected);
  std::string data;
  char buf[65536];
  while (true) {
    const int left = MillisLeft(deadline);
    if (left == 0) {
      return Status::Failed(where + ": no complete answer within " +
                            FormatSeconds(timeout_seconds) + " s (read " +
                            std::to_string(data.size()) + " bytes; the peer did not close)");
    }
    pollfd p{fd.get(), POLLIN, 0};
    int rc = ::poll(&p, 1, left);
    if (rc < 0) {
      if (errno == EINTR) return Status::Failed(where + ": interrupted");
      return Status::Failed(where + ": poll: " + std::strerror(errno));
    }
    if (rc == 0) continue;
    ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      return Status::Failed(where + ": read: " + std::strerror(errno));
    }
    if (data.size() + static_cast<std::size_t>(n) > max_bytes) {
      return Status::Failed(where + ": the answer is larger than " + std::to_string(max_bytes) +
                            " bytes (the limit for one gmond/gmetad answer)");
    }
    data.append(buf, static_cast<std::size_t>(n));
  }
  return data;
}

Result<GangliaSnapshot> FetchGangliaXml(const std::string& host, int port, double timeout_seconds,
                                        std::string* raw) {
  Result<std::string> bytes = FetchTcp(host, port, timeout_seconds);
  if (!bytes.ok()) return bytes.status();
  const std::string where = host + ":" + std::to_string(port);
  if (bytes.value().empty()) {
    return Status::Failed(where +
                          ": the peer closed without sending anything (not a gmond or "
                          "gmetad XML port?)");
  }
  Result<GangliaSnapshot> snap = ParseGangliaXml(bytes.value(), where);
  if (raw != nullptr) *raw = std::move(bytes).value();
  return snap;
}

}  // namespace perfplan::profiles
