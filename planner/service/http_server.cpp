#include "planner/service/http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace perfplan::planner {
namespace {

using Clock = std::chrono::steady_clock;

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  std::size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

bool IsToken(const std::string& s) {
  if (s.empty()) return false;
  for (unsigned char c : s) {
    if (c <= 32 || c >= 127 || std::strchr("()<>@,;:\\\"/[]?={}", c)) return false;
  }
  return true;
}

// Whether a comma-separated header value holds `word` (case-insensitive), e.g. Connection.
bool HasToken(const std::string& value, const std::string& word) {
  std::size_t start = 0;
  const std::string v = Lower(value);
  while (start <= v.size()) {
    std::size_t comma = v.find(',', start);
    if (Trim(v.substr(start, comma - start)) == word) return true;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return false;
}

enum class Phase {
  kHead,      // reading a request head (or idle between requests)
  kBody,      // reading a Content-Length or chunked body
  kBusy,      // a worker is handling the request
  kDraining,  // answered and closing: discard what the client still sends, then close
};

enum class ChunkState { kSize, kData, kDataEnd, kTrailer };

struct Conn {
  std::uint64_t id = 0;
  int fd = -1;
  std::string remote;
  std::string in;
  std::size_t in_pos = 0;  // bytes of `in` already consumed
  std::string out;
  std::size_t out_pos = 0;
  Phase phase = Phase::kHead;
  bool peer_closed = false;       // the client shut down its sending side
  bool close_after_write = false;  // close once `out` is written
  bool idle = true;                // kHead with no byte of the next request yet
  Clock::time_point deadline;      // of the current phase
  Clock::time_point write_deadline;
  Clock::time_point request_start;
  std::size_t drained = 0;
  bool rejected = false;  // answered 503: not counted against the limit while it closes
  // The request being read.
  HttpRequest req;
  bool keep_alive = true;
  bool chunked = false;
  std::size_t content_length = 0;
  ChunkState chunk_state = ChunkState::kSize;
  std::size_t chunk_left = 0;
  std::uint32_t interest = 0;

  std::size_t Buffered() const { return in.size() - in_pos; }
  void Compact() {
    if (in_pos > 0 && (in_pos == in.size() || in_pos > (64u << 10))) {
      in.erase(0, in_pos);
      in_pos = 0;
    }
  }
};

struct Completion {
  std::uint64_t conn_id;
  HttpRequest req;
  HttpResponse res;
};

}  // namespace

std::string HttpRequest::Header(const std::string& name) const {
  for (const auto& [k, v] : headers) {
    if (k == name) return v;
  }
  return "";
}

const char* ReasonPhrase(int status) {
  switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Entity";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
  }
}

struct HttpServer::Impl {
  HttpServerOptions options;
  HttpCallbacks callbacks;
  int listen_fd = -1;
  int epoll_fd = -1;
  int wake_fd = -1;
  int port = 0;
  std::thread io_thread;
  std::vector<std::thread> workers;
  std::atomic<bool> stopping{false};
  std::mutex stop_mu;

  // Worker queue.
  std::mutex work_mu;
  std::condition_variable work_cv;
  std::deque<Completion> work;  // res empty until done
  bool workers_quit = false;
  // Completed answers for the I/O thread.
  std::mutex done_mu;
  std::deque<Completion> done;

  // I/O-thread state.
  std::unordered_map<std::uint64_t, Conn> conns;
  std::unordered_map<int, std::uint64_t> by_fd;
  std::uint64_t next_id = 1;
  std::size_t live_rejected = 0;  // rejected connections still closing

  std::atomic<std::int64_t> open{0}, accepted{0}, rejected{0}, header_timeouts{0}, in_flight{0};

  // ---- worker pool ----
  void WorkerLoop() {
    for (;;) {
      Completion c;
      {
        std::unique_lock<std::mutex> lock(work_mu);
        work_cv.wait(lock, [&] { return workers_quit || !work.empty(); });
        if (work.empty()) return;
        c = std::move(work.front());
        work.pop_front();
      }
      try {
        c.res = callbacks.handle(c.req);
      } catch (...) {
        c.res = {500, callbacks.error_body(500, "internal", "internal error")};
      }
      {
        std::lock_guard<std::mutex> lock(done_mu);
        done.push_back(std::move(c));
      }
      const std::uint64_t one = 1;
      (void)!write(wake_fd, &one, sizeof one);
    }
  }

  // ---- answers ----
  void Queue(Conn& c, const HttpRequest& req, const HttpResponse& res, bool close) {
    const bool head = req.method == "HEAD";
    std::string out = "HTTP/1.1 " + std::to_string(res.status) + " " + ReasonPhrase(res.status) +
                      "\r\nContent-Type: " + res.content_type +
                      "\r\nContent-Length: " + std::to_string(res.body.size()) + "\r\n";
    if (res.status == 503) out += "Retry-After: 1\r\n";
    out += close ? "Connection: close\r\n\r\n" : "Connection: keep-alive\r\n\r\n";
    if (!head) out += res.body;
    if (c.out_pos == c.out.size()) {
      c.out.clear();
      c.out_pos = 0;
      c.write_deadline = Clock::now() + std::chrono::milliseconds(options.write_timeout_ms);
    }
    c.out += out;
    if (close) c.close_after_write = true;
    if (callbacks.on_done) {
      const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                              Clock::now() - c.request_start)
                              .count();
      callbacks.on_done(req, res, micros);
    }
  }

  // Answers an error the server detects itself and closes the connection after it; what the
  // client still sends is read and dropped for a moment, so the answer is not lost to a reset.
  void Fail(Conn& c, int status, const std::string& code, const std::string& message) {
    HttpRequest req = c.req;
    req.remote_addr = c.remote;
    Queue(c, req, {status, callbacks.error_body(status, code, message)}, true);
    StartDraining(c);
  }

  void StartDraining(Conn& c) {
    c.phase = Phase::kDraining;
    c.close_after_write = true;
    c.in.clear();
    c.in_pos = 0;
    c.deadline = Clock::now() + std::chrono::seconds(2);
  }

  // ---- parsing ----
  void ResetRequest(Conn& c) {
    c.req = HttpRequest{};
    c.req.remote_addr = c.remote;
    c.keep_alive = true;
    c.chunked = false;
    c.content_length = 0;
    c.chunk_state = ChunkState::kSize;
    c.chunk_left = 0;
  }

  // Reads as much of the current request as is buffered; returns false when it waits for bytes.
  bool ParseHead(Conn& c) {
    // Empty lines before a request line are allowed (RFC 9112 §2.2).
    while (c.Buffered() >= 2 && c.in.compare(c.in_pos, 2, "\r\n") == 0) c.in_pos += 2;
    if (c.Buffered() > 0 && c.idle) {
      c.idle = false;
      c.request_start = Clock::now();
      c.deadline = c.request_start + std::chrono::milliseconds(options.header_timeout_ms);
    }
    const std::size_t end = c.in.find("\r\n\r\n", c.in_pos);
    if (end == std::string::npos) {
      if (c.Buffered() > options.max_header_bytes) {
        Fail(c, 431, "header_too_large",
             "the request line and headers are larger than " +
                 std::to_string(options.max_header_bytes) + " bytes");
      }
      return false;
    }
    if (end - c.in_pos > options.max_header_bytes) {
      Fail(c, 431, "header_too_large",
           "the request line and headers are larger than " +
               std::to_string(options.max_header_bytes) + " bytes");
      return false;
    }
    const std::string head = c.in.substr(c.in_pos, end - c.in_pos);
    c.in_pos = end + 4;
    ResetRequest(c);
    std::size_t line_end = head.find("\r\n");
    const std::string line = head.substr(0, line_end);
    const std::size_t sp1 = line.find(' ');
    const std::size_t sp2 = sp1 == std::string::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp1 == std::string::npos || sp2 == std::string::npos ||
        line.find(' ', sp2 + 1) != std::string::npos) {
      Fail(c, 400, "bad_request", "malformed request line");
      return false;
    }
    c.req.method = line.substr(0, sp1);
    c.req.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    c.req.version = line.substr(sp2 + 1);
    if (!IsToken(c.req.method) || c.req.target.empty() || c.req.target[0] != '/' ||
        std::any_of(c.req.target.begin(), c.req.target.end(),
                    [](char ch) { return static_cast<unsigned char>(ch) <= 32 || ch == 127; })) {
      Fail(c, 400, "bad_request", "malformed request line");
      return false;
    }
    if (c.req.version != "HTTP/1.1" && c.req.version != "HTTP/1.0") {
      Fail(c, 505, "http_version", "only HTTP/1.0 and HTTP/1.1 are served");
      return false;
    }
    c.keep_alive = c.req.version == "HTTP/1.1";
    bool has_length = false;
    std::string transfer_encoding;
    while (line_end != std::string::npos) {
      const std::size_t next = head.find("\r\n", line_end + 2);
      const std::string h = head.substr(line_end + 2, next - line_end - 2);
      line_end = next;
      const std::size_t colon = h.find(':');
      // No space before the colon (request smuggling), no obsolete line folding.
      if (colon == std::string::npos || !IsToken(h.substr(0, colon))) {
        Fail(c, 400, "bad_request", "malformed header line");
        return false;
      }
      std::string name = Lower(h.substr(0, colon));
      std::string value = Trim(h.substr(colon + 1));
      if (name == "content-length") {
        if (value.empty() || value.size() > 18 ||
            value.find_first_not_of("0123456789") != std::string::npos ||
            (has_length && std::stoull(value) != c.content_length)) {
          Fail(c, 400, "bad_request", "malformed Content-Length");
          return false;
        }
        has_length = true;
        c.content_length = std::stoull(value);
      } else if (name == "transfer-encoding") {
        transfer_encoding += (transfer_encoding.empty() ? "" : ",") + value;
      } else if (name == "connection") {
        if (HasToken(value, "close")) c.keep_alive = false;
        if (HasToken(value, "keep-alive") && c.req.version == "HTTP/1.0") c.keep_alive = true;
      }
      c.req.headers.emplace_back(std::move(name), std::move(value));
    }
    if (!transfer_encoding.empty()) {
      if (has_length) {
        Fail(c, 400, "bad_request", "both Content-Length and Transfer-Encoding");
        return false;
      }
      if (Lower(Trim(transfer_encoding)) != "chunked") {
        Fail(c, 501, "not_implemented", "only the chunked transfer coding is accepted");
        return false;
      }
      c.chunked = true;
    }
    if (callbacks.head_check) {
      if (std::optional<HttpResponse> refusal = callbacks.head_check(c.req)) {
        const bool body_pending = c.chunked || c.content_length > 0;
        Queue(c, c.req, *refusal, body_pending || !c.keep_alive);
        if (body_pending) {
          StartDraining(c);
          return false;
        }
        return AfterAnswer(c);
      }
    }
    if (c.content_length > options.max_body_bytes) {
      Fail(c, 413, "payload_too_large",
           "the request body is larger than " + std::to_string(options.max_body_bytes) + " bytes");
      return false;
    }
    if ((c.chunked || c.content_length > 0) && HasToken(c.req.Header("expect"), "100-continue")) {
      if (c.out_pos == c.out.size()) {
        c.write_deadline = Clock::now() + std::chrono::milliseconds(options.write_timeout_ms);
      }
      c.out += "HTTP/1.1 100 Continue\r\n\r\n";
    }
    c.phase = Phase::kBody;
    c.deadline = Clock::now() + std::chrono::milliseconds(options.read_timeout_ms);
    return true;
  }

  // Reads body bytes; true once the body is complete (the request then goes to a worker).
  bool ParseBody(Conn& c) {
    if (!c.chunked) {
      const std::size_t want = c.content_length - c.req.body.size();
      const std::size_t take = std::min(want, c.Buffered());
      c.req.body.append(c.in, c.in_pos, take);
      c.in_pos += take;
      return c.req.body.size() == c.content_length;
    }
    for (;;) {
      switch (c.chunk_state) {
        case ChunkState::kSize: {
          const std::size_t eol = c.in.find("\r\n", c.in_pos);
          if (eol == std::string::npos) {
            if (c.Buffered() > 1024) {
              Fail(c, 400, "bad_request", "malformed chunk size line");
            }
            return false;
          }
          std::string size = c.in.substr(c.in_pos, eol - c.in_pos);
          c.in_pos = eol + 2;
          size = Trim(size.substr(0, size.find(';')));
          if (size.empty() || size.size() > 15 ||
              size.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
            Fail(c, 400, "bad_request", "malformed chunk size line");
            return false;
          }
          c.chunk_left = std::stoull(size, nullptr, 16);
          if (c.chunk_left == 0) {
            c.chunk_state = ChunkState::kTrailer;
            break;
          }
          if (c.req.body.size() + c.chunk_left > options.max_body_bytes) {
            Fail(c, 413, "payload_too_large",
                 "the request body is larger than " + std::to_string(options.max_body_bytes) +
                     " bytes");
            return false;
          }
          c.chunk_state = ChunkState::kData;
          break;
        }
        case ChunkState::kData: {
          const std::size_t take = std::min(c.chunk_left, c.Buffered());
          c.req.body.append(c.in, c.in_pos, take);
          c.in_pos += take;
          c.chunk_left -= take;
          if (c.chunk_left > 0) return false;
          c.chunk_state = ChunkState::kDataEnd;
          break;
        }
        case ChunkState::kDataEnd:
          if (c.Buffered() < 2) return false;
          if (c.in.compare(c.in_pos, 2, "\r\n") != 0) {
            Fail(c, 400, "bad_request", "a chunk does not end with CRLF");
            return false;
          }
          c.in_pos += 2;
          c.chunk_state = ChunkState::kSize;
          break;
        case ChunkState::kTrailer: {
          const std::size_t eol = c.in.find("\r\n", c.in_pos);
          if (eol == std::string::npos) {
            if (c.Buffered() > options.max_header_bytes) {
              Fail(c, 431, "header_too_large", "the chunked trailer is too large");
            }
            return false;
          }
          const bool last = eol == c.in_pos;
          c.in_pos = eol + 2;
          if (last) return true;
          break;  // trailer fields are read and ignored
        }
      }
    }
  }

  // After an answer was queued for a request without a body to drain: back to reading heads.
  bool AfterAnswer(Conn& c) {
    ResetRequest(c);
    if (c.close_after_write) {
      StartDraining(c);
      return false;
    }
    c.phase = Phase::kHead;
    c.idle = true;
    c.deadline = Clock::now() + std::chrono::milliseconds(options.keep_alive_timeout_ms);
    return true;
  }

  // Advances the connection's requests as far as the buffered bytes allow.
  void Process(Conn& c) {
    while (!stopping) {
      if (c.phase == Phase::kHead) {
        if (!ParseHead(c)) break;
        continue;  // kBody now, or back to kHead after a refusal
      }
      if (c.phase == Phase::kBody) {
        if (!ParseBody(c)) break;
        c.phase = Phase::kBusy;
        ++in_flight;
        {
          std::lock_guard<std::mutex> lock(work_mu);
          work.push_back({c.id, c.req, {}});
        }
        work_cv.notify_one();
      }
      break;  // kBusy or kDraining
    }
    c.Compact();
  }

  // ---- sockets ----
  void SetInterest(Conn& c) {
    std::uint32_t want = 0;
    const bool reading = c.phase == Phase::kHead || c.phase == Phase::kBody ||
                         c.phase == Phase::kDraining;
    if (reading && !c.peer_closed) want |= EPOLLIN;
    if (c.out_pos < c.out.size()) want |= EPOLLOUT;
    if (want == c.interest) return;
    epoll_event ev{};
    ev.events = want;
    ev.data.u64 = c.id;
    epoll_ctl(epoll_fd, EPOLL_CTL_MOD, c.fd, &ev);
    c.interest = want;
  }

  void Close(std::uint64_t id) {
    auto it = conns.find(id);
    if (it == conns.end()) return;
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, it->second.fd, nullptr);
    close(it->second.fd);
    by_fd.erase(it->second.fd);
    if (it->second.rejected) --live_rejected;
    conns.erase(it);
    --open;
  }

  // Writes what it can; false when the connection was closed.
  bool Flush(Conn& c) {
    while (c.out_pos < c.out.size()) {
      const ssize_t n =
          send(c.fd, c.out.data() + c.out_pos, c.out.size() - c.out_pos, MSG_NOSIGNAL);
      if (n > 0) {
        c.out_pos += static_cast<std::size_t>(n);
        c.write_deadline = Clock::now() + std::chrono::milliseconds(options.write_timeout_ms);
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
      if (n < 0 && errno == EINTR) continue;
      Close(c.id);
      return false;
    }
    c.out.clear();
    c.out_pos = 0;
    if (c.close_after_write && c.phase == Phase::kDraining) {
      // Half-close: the client reads the answer, then sees EOF; its late bytes are drained.
      shutdown(c.fd, SHUT_WR);
      if (c.peer_closed) {
        Close(c.id);
        return false;
      }
    }
    return true;
  }

  void OnReadable(Conn& c) {
    char buf[65536];
    std::size_t total = 0;
    while (total < (256u << 10)) {
      const ssize_t n = recv(c.fd, buf, sizeof buf, 0);
      if (n > 0) {
        total += static_cast<std::size_t>(n);
        if (c.phase == Phase::kDraining) {
          c.drained += static_cast<std::size_t>(n);
          if (c.drained > options.max_body_bytes + (1u << 20)) {
            Close(c.id);
            return;
          }
          continue;
        }
        c.in.append(buf, static_cast<std::size_t>(n));
        if (c.phase == Phase::kBody) {
          c.deadline = Clock::now() + std::chrono::milliseconds(options.read_timeout_ms);
        }
        // Enough for a head plus the largest body; more waits in the kernel.
        if (c.Buffered() > options.max_body_bytes + options.max_header_bytes + (64u << 10)) break;
        continue;
      }
      if (n == 0) {
        c.peer_closed = true;
        break;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      Close(c.id);
      return;
    }
    const std::uint64_t id = c.id;
    if (c.phase != Phase::kDraining) Process(c);
    if (!conns.count(id)) return;
    if (!Flush(c)) return;
    if (c.peer_closed && c.phase != Phase::kBusy && c.out_pos == c.out.size()) {
      // Nothing more will arrive: a partial request can never complete.
      Close(id);
      return;
    }
    SetInterest(c);
  }

  void Accept() {
    for (;;) {
      sockaddr_storage addr{};
      socklen_t len = sizeof addr;
      const int fd = accept4(listen_fd, reinterpret_cast<sockaddr*>(&addr), &len,
                             SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EINTR || errno == ECONNABORTED) continue;
        return;  // EAGAIN, or EMFILE: the next epoll round retries
      }
      ++accepted;
      int yes = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
      char host[INET6_ADDRSTRLEN] = "";
      if (addr.ss_family == AF_INET) {
        inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(&addr)->sin_addr, host, sizeof host);
      } else if (addr.ss_family == AF_INET6) {
        inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(&addr)->sin6_addr, host,
                  sizeof host);
      }
      Conn c;
      c.id = next_id++;
      c.fd = fd;
      c.remote = host;
      c.request_start = Clock::now();
      c.deadline = c.request_start + std::chrono::milliseconds(options.header_timeout_ms);
      ResetRequest(c);
      const bool over =
          static_cast<int>(conns.size() - live_rejected) >= options.max_connections;
      ++open;
      auto [it, inserted] = conns.emplace(c.id, std::move(c));
      Conn& conn = it->second;
      by_fd[fd] = conn.id;
      epoll_event ev{};
      ev.events = EPOLLIN;
      ev.data.u64 = conn.id;
      conn.interest = EPOLLIN;
      epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &ev);
      if (over) {
        ++rejected;
        conn.rejected = true;
        ++live_rejected;
        Fail(conn, 503, "unavailable",
             "the service has " + std::to_string(options.max_connections) +
                 " open connections, its limit; retry");
        conn.deadline = Clock::now() + std::chrono::milliseconds(500);
        // A flood of rejected connections must not grow without bound either.
        if (live_rejected > 256) {
          send(fd, conn.out.data(), conn.out.size(), MSG_NOSIGNAL);
          Close(conn.id);
          continue;
        }
        if (Flush(conn)) SetInterest(conn);
      }
    }
  }

  void DrainCompletions() {
    std::deque<Completion> ready;
    {
      std::lock_guard<std::mutex> lock(done_mu);
      ready.swap(done);
    }
    for (Completion& d : ready) {
      --in_flight;
      auto it = conns.find(d.conn_id);
      if (it == conns.end()) continue;
      Conn& c = it->second;
      Queue(c, d.req, d.res, !c.keep_alive || stopping);
      if (!AfterAnswer(c)) {
        // Closing: nothing to drain (the body was read), close once written.
      } else {
        Process(c);  // pipelined requests already buffered
      }
      if (!conns.count(d.conn_id)) continue;
      if (!Flush(c)) continue;
      if (c.peer_closed && c.phase != Phase::kBusy && c.out_pos == c.out.size()) {
        Close(d.conn_id);
        continue;
      }
      SetInterest(c);
    }
  }

  void Sweep() {
    const auto now = Clock::now();
    std::vector<std::uint64_t> expired;
    std::vector<std::uint64_t> timed_out_heads;
    for (auto& [id, c] : conns) {
      if (c.out_pos < c.out.size() && now > c.write_deadline) {
        expired.push_back(id);
      } else if (c.phase == Phase::kBusy) {
        continue;
      } else if (now > c.deadline) {
        if (c.phase == Phase::kDraining) {
          expired.push_back(id);
        } else if (c.phase == Phase::kHead && c.idle && c.Buffered() == 0) {
          expired.push_back(id);  // idle keep-alive (or never sent anything): close quietly
        } else {
          timed_out_heads.push_back(id);
        }
      }
    }
    for (std::uint64_t id : expired) Close(id);
    for (std::uint64_t id : timed_out_heads) {
      Conn& c = conns.at(id);
      if (c.phase == Phase::kHead) ++header_timeouts;
      Fail(c, 408, "timeout",
           c.phase == Phase::kHead
               ? "the request line and headers did not arrive within " +
                     std::to_string(options.header_timeout_ms) + " ms"
               : "the request body stalled for " + std::to_string(options.read_timeout_ms) +
                     " ms");
      if (Flush(c)) SetInterest(c);
    }
  }

  void Loop() {
    epoll_event events[256];
    auto last_sweep = Clock::now();
    Clock::time_point stop_deadline{};
    for (;;) {
      if (stopping) {
        if (stop_deadline == Clock::time_point{}) {
          stop_deadline = Clock::now() + std::chrono::seconds(5);
          epoll_ctl(epoll_fd, EPOLL_CTL_DEL, listen_fd, nullptr);
          // Connections not in the middle of a request are closed now.
          std::vector<std::uint64_t> idle;
          for (auto& [id, c] : conns) {
            if (c.phase != Phase::kBusy && c.out_pos == c.out.size()) idle.push_back(id);
          }
          for (std::uint64_t id : idle) Close(id);
        }
        if (in_flight == 0) {
          bool pending = false;
          for (auto& [id, c] : conns) pending |= c.out_pos < c.out.size();
          if (!pending || Clock::now() > stop_deadline) break;
        } else if (Clock::now() > stop_deadline) {
          break;
        }
      }
      const int n = epoll_wait(epoll_fd, events, 256, 50);
      for (int i = 0; i < n; ++i) {
        const std::uint64_t id = events[i].data.u64;
        if (id == 0) {
          Accept();
          continue;
        }
        if (id == UINT64_MAX) {
          std::uint64_t v;
          (void)!read(wake_fd, &v, sizeof v);
          DrainCompletions();
          continue;
        }
        auto it = conns.find(id);
        if (it == conns.end()) continue;
        Conn& c = it->second;
        if (events[i].events & (EPOLLERR)) {
          Close(id);
          continue;
        }
        if (events[i].events & EPOLLOUT) {
          if (!Flush(c)) continue;
          if (c.close_after_write && c.phase == Phase::kDraining && c.peer_closed) {
            Close(id);
            continue;
          }
          SetInterest(c);
        }
        if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLRDHUP)) {
          it = conns.find(id);
          if (it != conns.end()) OnReadable(it->second);
        }
      }
      const auto now = Clock::now();
      if (now - last_sweep > std::chrono::milliseconds(50)) {
        last_sweep = now;
        Sweep();
      }
    }
    std::vector<std::uint64_t> all;
    for (auto& [id, c] : conns) all.push_back(id);
    for (std::uint64_t id : all) Close(id);
  }
};

HttpServer::HttpServer(HttpServerOptions options, HttpCallbacks callbacks)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  impl_->callbacks = std::move(callbacks);
}

HttpServer::~HttpServer() { Stop(); }

Status HttpServer::Start() {
  Impl& s = *impl_;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(s.options.port);
  const std::string failure = "cannot listen on " + s.options.host + ":" + port +
                              " (address in use, or not an address of this machine)";
  if (getaddrinfo(s.options.host.c_str(), port.c_str(), &hints, &found) != 0 || !found) {
    return Status::Failed(failure);
  }
  for (addrinfo* a = found; a && s.listen_fd < 0; a = a->ai_next) {
    const int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
                          a->ai_protocol);
    if (fd < 0) continue;
    // SO_REUSEADDR for quick restarts; no SO_REUSEPORT, which would let a second server bind
    // the same port and silently take half the traffic.
    int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, s.options.backlog) == 0) {
      s.listen_fd = fd;
    } else {
      close(fd);
    }
  }
  freeaddrinfo(found);
  if (s.listen_fd < 0) return Status::Failed(failure);
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  getsockname(s.listen_fd, reinterpret_cast<sockaddr*>(&bound), &len);
  s.port = ntohs(bound.ss_family == AF_INET6
                     ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                     : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  s.epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  s.wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (s.epoll_fd < 0 || s.wake_fd < 0) return Status::Failed("epoll: " + std::string(strerror(errno)));
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = 0;
  epoll_ctl(s.epoll_fd, EPOLL_CTL_ADD, s.listen_fd, &ev);
  ev.data.u64 = UINT64_MAX;
  epoll_ctl(s.epoll_fd, EPOLL_CTL_ADD, s.wake_fd, &ev);
  for (int i = 0; i < s.options.threads; ++i) s.workers.emplace_back([&s] { s.WorkerLoop(); });
  s.io_thread = std::thread([&s] { s.Loop(); });
  return Status::Ok();
}

void HttpServer::Stop() {
  Impl& s = *impl_;
  std::lock_guard<std::mutex> lock(s.stop_mu);
  if (s.io_thread.joinable()) {
    s.stopping = true;
    const std::uint64_t one = 1;
    (void)!write(s.wake_fd, &one, sizeof one);
    s.io_thread.join();
  }
  {
    std::lock_guard<std::mutex> work_lock(s.work_mu);
    s.workers_quit = true;
  }
  s.work_cv.notify_all();
  for (std::thread& t : s.workers) t.join();
  s.workers.clear();
  for (int* fd : {&s.listen_fd, &s.epoll_fd, &s.wake_fd}) {
    if (*fd >= 0) close(*fd), *fd = -1;
  }
}

int HttpServer::port() const { return impl_->port; }

HttpServerStats HttpServer::stats() const {
  HttpServerStats st;
  st.open_connections = impl_->open;
  st.accepted_connections = impl_->accepted;
  st.rejected_connections = impl_->rejected;
  st.header_timeouts = impl_->header_timeouts;
  st.in_flight = impl_->in_flight;
  return st;
}

}  // namespace perfplan::planner
