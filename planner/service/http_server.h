// A small event-driven HTTP/1.1 server for `perfplan serve` (issue 17: a service that eight
// clients cannot stall).
//
// A few I/O threads (one epoll loop per core; the first accepts and deals connections out
// round-robin) own the sockets, non-blocking; a pool of worker threads runs the handler on
// complete requests. An idle, slow or stalled connection therefore costs a few bytes
// of buffer, never a worker. What it enforces, before any handler runs:
//   - a connection limit: the connection over it is answered 503 (Retry-After) and closed;
//   - a header timeout: the request line and headers must arrive within header_timeout of their
//     first byte (or of the connection), else 408 and close (slowloris);
//   - a keep-alive timeout for idle connections between requests, a read timeout between body
//     bytes and a write timeout for clients that do not read their answer;
//   - head and body limits: 431 for a head over max_header_bytes, 413 for a Content-Length or a
//     chunked body (counted as it is decoded) over max_body_bytes, decided before the body is
//     buffered; `head_check` (authentication) runs on the head alone, so a request it refuses
//     never has its body read;
//   - pipelining: requests on one connection are answered one at a time, in order, including
//     those that arrived in the same packet;
//   - HEAD: the answer's headers (Content-Length of the GET body) without the body.
// Framing errors (bad request line, both Content-Length and Transfer-Encoding, a non-chunked
// transfer coding, a malformed chunk) are 400/501 and close the connection.
//
// Thread-safety: Start() once; Stop() from any thread returns after in-flight requests have been
// answered (or 5 s). Callbacks run on worker threads (handle) or an I/O thread (answer_inline,
// head_check, on_done, error_body, and handle for inline requests) and must be thread-safe.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/status.h"
#include "planner/service/http_parser.h"

namespace perfplan::planner {

struct HttpResponse {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
};

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 0;
  std::size_t max_body_bytes = 1 << 20;
  std::size_t max_header_bytes = 16 << 10;
  int header_timeout_ms = 5000;
  int read_timeout_ms = 5000;
  int write_timeout_ms = 5000;
  int keep_alive_timeout_ms = 1000;
  int threads = 8;
  // I/O threads (epoll loops); 0: one per core, at most 4. The first also accepts.
  int io_threads = 0;
  int max_connections = 1024;
  int backlog = 1024;
};

// Counters the server keeps (read with HttpServer::stats()).
struct HttpServerStats {
  std::int64_t open_connections = 0;
  std::int64_t accepted_connections = 0;
  std::int64_t rejected_connections = 0;  // answered 503: over max_connections
  std::int64_t header_timeouts = 0;       // 408
  std::int64_t in_flight = 0;             // requests being handled by a worker
};

struct HttpCallbacks {
  // The answer to a complete request (runs on a worker thread, or on the I/O thread when
  // answer_inline says so).
  std::function<HttpResponse(const HttpRequest&)> handle;
  // True for a request cheap and bounded enough to answer on the I/O thread that read it,
  // saving the hand-off to a worker and back (two wake-ups); an I/O thread answering one serves
  // none of its other connections meanwhile. Unset: every request goes to a worker.
  std::function<bool(const HttpRequest&)> answer_inline;
  // Runs when the head has arrived, before any body byte is read; an answer refuses the request
  // (its body is then never read and the connection closes after the answer).
  std::function<std::optional<HttpResponse>(const HttpRequest&)> head_check;
  // The body of an error the server answers itself: status, error code, message.
  std::function<std::string(int, const std::string&, const std::string&)> error_body;
  // After each answer is queued: the request (its method and target may be empty when the head
  // could not be read), the answer and the time from the request's first byte, microseconds.
  std::function<void(const HttpRequest&, const HttpResponse&, std::int64_t)> on_done;
};

class HttpServer {
 public:
  HttpServer(HttpServerOptions options, HttpCallbacks callbacks);
  ~HttpServer();  // stops if running
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds, listens and starts the I/O and worker threads. kFailed when the address cannot be
  // bound.
  Status Start();
  void Stop();
  int port() const;
  HttpServerStats stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// "OK", "Not Found", … for a status code ("Unknown" for others).
const char* ReasonPhrase(int status);

}  // namespace perfplan::planner
