// The HTTP JSON service (`perfplan serve`, DESIGN §4): the facade's answers over HTTP.
//
// Endpoints (docs/openapi.json): GET /v1/health, POST /v1/predict, POST /v1/select; with a Spark
// store, GET /api/v1/… (the History Server's REST paths); with a models folder,
// GET /v1/tuning/{workload}/sensitivity and POST /v1/tuning/recommend. Requests are
// decoded strictly (request_decoder.h); answers are the same JSON documents the CLI prints with
// --json. Errors are {"error", "message", "field"} with a 4xx status. Loopback by default, request
// body limit, read/write timeouts, optional bearer token (constant-time comparison), one
// access-log line per request (ISO time, client, method, target, status, bytes, duration).
// Paths and queries are percent-decoded; HEAD answers every GET; GET /metrics answers the
// Prometheus text format. The sockets are http_server.h's event-driven server: idle and slow
// clients cost no worker, a connection limit answers 503, a header timeout answers 408, chunked
// bodies count against the body limit, the token is checked before a body is read, pipelined
// requests are answered in order.
//
// Thread-safety: requests run concurrently on a worker pool; the catalog is immutable. Start() is
// called once; Stop() may be called from any thread and returns after in-flight requests finish.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "models/status.h"
#include "planner/service/catalog.h"

namespace perfplan::planner {

struct ServiceOptions {
  // Address to bind. Default loopback; anything else exposes the planner to the network, so use
  // a token then.
  std::string host = "127.0.0.1";
  // TCP port; 0 picks a free one (read it back with Service::port()).
  int port = 8080;
  // Largest request body accepted; larger bodies get 413. Default 1 MiB: requests are small.
  std::size_t max_body_bytes = 1 << 20;
  // A client that stops sending its request body for this long gets 408. Default 5 s.
  int read_timeout_seconds = 5;
  // A request line and headers must arrive within this long of their first byte (slowloris);
  // else 408. Default 5 s.
  int header_timeout_seconds = 5;
  // Open connections served at once; the next one is answered 503 and closed. Default 1024.
  int max_connections = 1024;
  // A client that does not read its answer for this long is disconnected. Default 5 s.
  int write_timeout_seconds = 5;
  // An idle keep-alive connection is closed after this long. Default 1 s (an idle connection
  // holds no worker, but it holds a connection slot).
  int keep_alive_timeout_seconds = 1;
  // Worker threads running requests. Default 8; slow clients hold none.
  int threads = 8;
  // When not empty, every request except GET /v1/health must carry
  // "Authorization: Bearer <token>".
  std::string token;
  // Profile store with ingested Spark event logs, answering GET /api/v1/…; "" = not served.
  // Opened per request (SQLite connections are per thread), read only.
  std::string store_path;
  // Folder of tuning models saved by `perfplan tune train`, named <workload>.model.json, for the
  // /v1/tuning endpoints; "" = not served.
  std::string models_dir;

  Status Validate() const;
};

// The answer to one request, independent of sockets (used by tests and the fuzz target).
struct HttpReply {
  int status = 200;
  std::string body;  // JSON
};

// Routes one request. `target` is the request target (path and optional "?query");
// `authorization` is the Authorization header ("" when absent).
HttpReply HandleRequest(const Catalog& catalog, const ServiceOptions& options,
                        const std::string& method, const std::string& target,
                        const std::string& authorization, const std::string& body);

class Service {
 public:
  // `access_log` (may be null) receives one line per request, in batches written at most 50 ms
  // after the answer (every line is written by the time Stop returns); it must outlive the
  // service.
  Service(Catalog catalog, ServiceOptions options, std::ostream* access_log);
  ~Service();  // stops if running
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  // Binds and starts serving on a background thread; returns once the socket is listening.
  // Fails (kFailed) when the address cannot be bound.
  Status Start();
  // Stops accepting, lets in-flight requests finish, joins the server thread. Idempotent.
  void Stop();
  int port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The HTTP server the service is built with, for `perfplan --version`.
const char* HttpServerName();

// 401 unless `path` needs no token (GET /v1/health) or `authorization` carries the token.
std::optional<HttpReply> Authorize(const ServiceOptions& options, const std::string& path,
                                   const std::string& authorization);

// True when `a` equals `b`; the time taken depends only on the lengths, not the contents.
bool ConstantTimeEquals(const std::string& a, const std::string& b);

}  // namespace perfplan::planner
