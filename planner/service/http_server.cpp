#include "planner/service/http_server.h"
#include "planner/service/http_parser.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
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

enum class Phase {
  kHead,      // reading a request head (or idle between requests)
  kBody,      // reading a Content-Length or chunked body
  kBusy,      // a worker is handling the request
  kDraining,  // answered and closing: discard what the client still sends, then close
};

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
  // The request being read (its framing: planner/service/http_parser.h).
  HttpRequestParser parser{16u << 10, 1u << 20};
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
  std::size_t loop;  // the I/O loop that owns the connection
  std::uint64_t conn_id;
  HttpRequest req;
  HttpResponse res;
};

// A connection the acceptor hands to another I/O loop.
struct Incoming {
  int fd;
  std::string remote;
};

}  // namespace

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
  struct Loop;

  HttpServerOptions options;
  HttpCallbacks callbacks;
  int listen_fd = -1;
  int port = 0;
  // loops[0] also accepts; connections are dealt round-robin over the loops.
  std::vector<std::unique_ptr<Loop>> loops;
  std::vector<std::thread> workers;
  std::atomic<bool> stopping{false};
  std::mutex stop_mu;
  std::atomic<std::size_t> next_loop{0};

  // Worker queue.
  std::mutex work_mu;
  std::condition_variable work_cv;
  std::deque<Completion> work;  // res empty until done
  bool workers_quit = false;

  std::atomic<std::int64_t> open{0}, accepted{0}, rejected{0}, header_timeouts{0}, in_flight{0};
  std::atomic<std::int64_t> live_rejected{0};  // rejected connections still closing

  void WorkerLoop();
  HttpResponse Handle(const HttpRequest& req);  // the handler; an exception is a 500
};

// One I/O thread: its epoll set, its connections, and the answers and connections other threads
// hand it (through `mu` and a wake-up on its eventfd).
struct HttpServer::Impl::Loop {
  Impl& s;
  const std::size_t index;
  const HttpServerOptions& options;
  const HttpCallbacks& callbacks;
  int epoll_fd = -1;
  int wake_fd = -1;
  std::thread thread;
  std::mutex mu;
  std::deque<Completion> done;      // answered by a worker
  std::deque<Incoming> incoming;    // accepted by loops[0]

  // Owned by the loop's thread.
  std::unordered_map<std::uint64_t, Conn> conns;
  std::uint64_t next_id = 1;

  Loop(Impl& server, std::size_t i)
      : s(server), index(i), options(server.options), callbacks(server.callbacks) {}
  ~Loop() {
    for (int* fd : {&epoll_fd, &wake_fd}) {
      if (*fd >= 0) close(*fd), *fd = -1;
    }
  }

  void Wake() {
    const std::uint64_t one = 1;
    (void)!write(wake_fd, &one, sizeof one);
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
    HttpRequest req = c.parser.request();
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
    c.parser.Reset();
    c.parser.request().remote_addr = c.remote;
  }

  // Reads the head of the next request; false when it waits for bytes or the request ended
  // (refused or failed). True in kBody.
  bool ParseHead(Conn& c) {
    HttpRequestParser::SkipEmptyLines(c.in, &c.in_pos);
    if (c.Buffered() > 0 && c.idle) {
      c.idle = false;
      c.request_start = Clock::now();
      c.deadline = c.request_start + std::chrono::milliseconds(options.header_timeout_ms);
    }
    HttpRequestParser& p = c.parser;
    const HttpRequestParser::Step step = p.Next(c.in, &c.in_pos);
    if (step == HttpRequestParser::Step::kNeedMore) return false;
    if (step == HttpRequestParser::Step::kError) return FailParse(c);
    if (callbacks.head_check) {
      if (std::optional<HttpResponse> refusal = callbacks.head_check(p.request())) {
        Queue(c, p.request(), *refusal, p.has_body() || !p.keep_alive());
        if (p.has_body()) {
          StartDraining(c);
          return false;
        }
        return AfterAnswer(c);
      }
    }
    if (p.AcceptBody() == HttpRequestParser::Step::kError) return FailParse(c);
    if (p.has_body() && HasHeaderToken(p.request().Header("expect"), "100-continue")) {
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
    const HttpRequestParser::Step step = c.parser.Next(c.in, &c.in_pos);
    if (step == HttpRequestParser::Step::kError) return FailParse(c);
    return step == HttpRequestParser::Step::kRequest;
  }

  bool FailParse(Conn& c) {
    const HttpParseError& e = c.parser.error();
    Fail(c, e.status, e.code, e.message);
    return false;
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
    while (!s.stopping) {
      if (c.phase == Phase::kHead) {
        if (!ParseHead(c)) break;
        continue;  // kBody now, or back to kHead after a refusal
      }
      if (c.phase == Phase::kBody) {
        if (!ParseBody(c)) break;
        const HttpRequest& req = c.parser.request();
        if (callbacks.answer_inline && callbacks.answer_inline(req)) {
          // Cheap and bounded: answered here, without a worker's two wake-ups.
          ++s.in_flight;
          const HttpResponse res = s.Handle(req);
          --s.in_flight;
          Queue(c, req, res, !c.parser.keep_alive() || s.stopping);
          if (!AfterAnswer(c)) break;
          continue;  // a pipelined request may already be buffered
        }
        c.phase = Phase::kBusy;
        ++s.in_flight;
        {
          std::lock_guard<std::mutex> lock(s.work_mu);
          s.work.push_back({index, c.id, c.parser.request(), {}});
        }
        s.work_cv.notify_one();
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
    if (it->second.rejected) --s.live_rejected;
    conns.erase(it);
    --s.open;
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
        // A short read emptied the socket: the recv that would say EAGAIN is saved (epoll is
        // level-triggered, so later bytes or the peer's close still wake this loop).
        if (static_cast<std::size_t>(n) < sizeof buf) break;
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

  // loops[0] only: accepts what the backlog holds and deals the connections out.
  void Accept() {
    for (;;) {
      sockaddr_storage addr{};
      socklen_t len = sizeof addr;
      const int fd = accept4(s.listen_fd, reinterpret_cast<sockaddr*>(&addr), &len,
                             SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EINTR || errno == ECONNABORTED) continue;
        return;  // EAGAIN, or EMFILE: the next epoll round retries
      }
      ++s.accepted;
      int yes = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
      char host[INET6_ADDRSTRLEN] = "";
      if (addr.ss_family == AF_INET) {
        inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(&addr)->sin_addr, host, sizeof host);
      } else if (addr.ss_family == AF_INET6) {
        inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(&addr)->sin6_addr, host,
                  sizeof host);
      }
      ++s.open;
      if (s.open - s.live_rejected > options.max_connections) {
        Reject(Adopt(fd, host));  // answered here, never handed on
        continue;
      }
      Loop& target = *s.loops[s.next_loop++ % s.loops.size()];
      if (&target == this) {
        Adopt(fd, host);
        continue;
      }
      {
        std::lock_guard<std::mutex> lock(target.mu);
        target.incoming.push_back({fd, host});
      }
      target.Wake();
    }
  }

  // A new connection of this loop (already counted in s.open).
  Conn& Adopt(int fd, std::string remote) {
    Conn c;
    c.id = next_id++;
    c.fd = fd;
    c.remote = std::move(remote);
    c.request_start = Clock::now();
    c.deadline = c.request_start + std::chrono::milliseconds(options.header_timeout_ms);
    c.parser = HttpRequestParser(options.max_header_bytes, options.max_body_bytes);
    ResetRequest(c);
    auto [it, inserted] = conns.emplace(c.id, std::move(c));
    Conn& conn = it->second;
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = conn.id;
    conn.interest = EPOLLIN;
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &ev);
    return conn;
  }

  // Over the connection limit: 503 and close.
  void Reject(Conn& conn) {
    ++s.rejected;
    conn.rejected = true;
    ++s.live_rejected;
    Fail(conn, 503, "unavailable",
         "the service has " + std::to_string(options.max_connections) +
             " open connections, its limit; retry");
    conn.deadline = Clock::now() + std::chrono::milliseconds(500);
    // A flood of rejected connections must not grow without bound either.
    if (s.live_rejected > 256) {
      send(conn.fd, conn.out.data(), conn.out.size(), MSG_NOSIGNAL);
      Close(conn.id);
      return;
    }
    if (Flush(conn)) SetInterest(conn);
  }

  // What other threads handed this loop: new connections, then answers.
  void OnWake() {
    std::uint64_t v;
    (void)!read(wake_fd, &v, sizeof v);
    std::deque<Incoming> arrived;
    std::deque<Completion> ready;
    {
      std::lock_guard<std::mutex> lock(mu);
      arrived.swap(incoming);
      ready.swap(done);
    }
    for (Incoming& in : arrived) {
      if (s.stopping) {
        close(in.fd);
        --s.open;
        continue;
      }
      Adopt(in.fd, std::move(in.remote));
    }
    for (Completion& d : ready) {
      --s.in_flight;
      auto it = conns.find(d.conn_id);
      if (it == conns.end()) continue;
      Conn& c = it->second;
      Queue(c, d.req, d.res, !c.parser.keep_alive() || s.stopping);
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
      if (c.phase == Phase::kHead) ++s.header_timeouts;
      Fail(c, 408, "timeout",
           c.phase == Phase::kHead
               ? "the request line and headers did not arrive within " +
                     std::to_string(options.header_timeout_ms) + " ms"
               : "the request body stalled for " + std::to_string(options.read_timeout_ms) +
                     " ms");
      if (Flush(c)) SetInterest(c);
    }
  }

  void Run() {
    pthread_setname_np(pthread_self(), "pp-io");
    epoll_event events[256];
    auto last_sweep = Clock::now();
    Clock::time_point stop_deadline{};
    for (;;) {
      if (s.stopping) {
        if (stop_deadline == Clock::time_point{}) {
          stop_deadline = Clock::now() + std::chrono::seconds(5);
          if (index == 0) epoll_ctl(epoll_fd, EPOLL_CTL_DEL, s.listen_fd, nullptr);
          // Connections not in the middle of a request are closed now.
          std::vector<std::uint64_t> idle;
          for (auto& [id, c] : conns) {
            if (c.phase != Phase::kBusy && c.out_pos == c.out.size()) idle.push_back(id);
          }
          for (std::uint64_t id : idle) Close(id);
        }
        if (s.in_flight == 0) {
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
          OnWake();
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
    std::lock_guard<std::mutex> lock(mu);
    for (Incoming& in : incoming) close(in.fd), --s.open;
    incoming.clear();
  }
};

HttpResponse HttpServer::Impl::Handle(const HttpRequest& req) {
  try {
    return callbacks.handle(req);
  } catch (...) {
    return {500, callbacks.error_body(500, "internal", "internal error")};
  }
}

void HttpServer::Impl::WorkerLoop() {
  pthread_setname_np(pthread_self(), "pp-work");  // names seen in /proc/PID/task/*/comm, top -H
  for (;;) {
    Completion c;
    {
      std::unique_lock<std::mutex> lock(work_mu);
      work_cv.wait(lock, [&] { return workers_quit || !work.empty(); });
      if (work.empty()) return;
      c = std::move(work.front());
      work.pop_front();
    }
    c.res = Handle(c.req);
    Loop& owner = *loops[c.loop];
    {
      std::lock_guard<std::mutex> lock(owner.mu);
      owner.done.push_back(std::move(c));
    }
    owner.Wake();
  }
}


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
  // One I/O loop per core, at most 4: on a 2-core machine a single loop was the serial stage
  // that held the server at one core (docs/performance.md).
  const int io_threads =
      s.options.io_threads > 0
          ? s.options.io_threads
          : static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
  for (int i = 0; i < io_threads; ++i) {
    auto loop = std::make_unique<Impl::Loop>(s, static_cast<std::size_t>(i));
    loop->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    loop->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (loop->epoll_fd < 0 || loop->wake_fd < 0) {
      const Status failed = Status::Failed("epoll: " + std::string(strerror(errno)));
      s.loops.clear();
      close(s.listen_fd);
      s.listen_fd = -1;
      return failed;
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = UINT64_MAX;
    epoll_ctl(loop->epoll_fd, EPOLL_CTL_ADD, loop->wake_fd, &ev);
    if (i == 0) {
      ev.data.u64 = 0;
      epoll_ctl(loop->epoll_fd, EPOLL_CTL_ADD, s.listen_fd, &ev);
    }
    s.loops.push_back(std::move(loop));
  }
  for (int i = 0; i < s.options.threads; ++i) s.workers.emplace_back([&s] { s.WorkerLoop(); });
  for (auto& loop : s.loops) loop->thread = std::thread([l = loop.get()] { l->Run(); });
  return Status::Ok();
}

void HttpServer::Stop() {
  Impl& s = *impl_;
  std::lock_guard<std::mutex> lock(s.stop_mu);
  if (!s.loops.empty()) {
    s.stopping = true;
    for (auto& loop : s.loops) loop->Wake();
    for (auto& loop : s.loops) {
      if (loop->thread.joinable()) loop->thread.join();
    }
  }
  {
    std::lock_guard<std::mutex> work_lock(s.work_mu);
    s.workers_quit = true;
  }
  s.work_cv.notify_all();
  for (std::thread& t : s.workers) t.join();
  s.workers.clear();
  s.loops.clear();
  if (s.listen_fd >= 0) close(s.listen_fd), s.listen_fd = -1;
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
