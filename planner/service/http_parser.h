// The request framing of HTTP/1.1 (RFC 9112) for planner/service/http_server.h, without sockets:
// bytes in, requests or a framing error out. Pure and deterministic, so the server, its unit tests
// and the libFuzzer target (fuzz/http_request_fuzz.cpp) drive the same code.
//
// What it enforces: a well-formed request line (token method, origin-form target without control
// bytes or spaces, HTTP/1.0 or HTTP/1.1 — else 505), header lines with a token name and no space
// before the colon (no obsolete folding), one consistent Content-Length of at most 18 digits,
// Transfer-Encoding only "chunked" (else 501) and never together with Content-Length (400), a head
// of at most max_header_bytes (431), a body of at most max_body_bytes whether declared or chunked
// (413, decided before the body is buffered), chunk-size lines of at most 15 hex digits, chunks
// ending in CRLF, and a bounded trailer (read and ignored).
//
// Thread-safety: one parser per connection; no shared state.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace perfplan::planner {

// A request as read from the connection.
struct HttpRequest {
  std::string method;
  std::string target;   // as sent: path and optional "?query"
  std::string version;  // "HTTP/1.1" or "HTTP/1.0"
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
  std::string body;
  std::string remote_addr;
  // The first header named `name` (lower case), "" when absent.
  std::string Header(const std::string& name) const;
};

// A framing error: the status to answer, a short error code and a message. The connection closes
// after it.
struct HttpParseError {
  int status = 400;
  std::string code;
  std::string message;
};

// Whether a comma-separated header value holds `word`, case-insensitively (Connection, Expect).
bool HasHeaderToken(const std::string& value, const std::string& word);

class HttpRequestParser {
 public:
  enum class Step {
    kNeedMore,  // every buffered byte is consumed or waits for more
    kHead,      // a request's head was read: request() has method, target, version, headers
    kRequest,   // the request is complete: request() has its body too
    kError,     // error() says what; the parser reads nothing more
  };

  HttpRequestParser(std::size_t max_header_bytes, std::size_t max_body_bytes);

  // Reads from in[*pos…] and advances *pos past what it consumed. After kHead the caller may
  // refuse the request (its body is then never read) or call AcceptBody() and go on calling Next.
  // After kRequest, Reset() starts the next request of the connection (pipelining).
  Step Next(const std::string& in, std::size_t* pos);

  // After kHead: 413 when the declared body is over the limit; otherwise the body is read next.
  Step AcceptBody();

  void Reset();

  // Empty lines before a request line are allowed (RFC 9112 §2.2): skips them.
  static void SkipEmptyLines(const std::string& in, std::size_t* pos);

  HttpRequest& request() { return request_; }
  const HttpParseError& error() const { return error_; }
  bool keep_alive() const { return keep_alive_; }
  // Whether the request announced a body (chunked or a Content-Length above 0).
  bool has_body() const { return chunked_ || content_length_ > 0; }

 private:
  enum class Phase { kHead, kHeadRead, kBody, kDone, kFailed };
  enum class Chunk { kSize, kData, kDataEnd, kTrailer };

  Step Fail(int status, std::string code, std::string message);
  Step ReadHead(const std::string& in, std::size_t* pos);
  Step ReadBody(const std::string& in, std::size_t* pos);
  Step ReadChunked(const std::string& in, std::size_t* pos);

  std::size_t max_header_bytes_;
  std::size_t max_body_bytes_;
  Phase phase_ = Phase::kHead;
  HttpRequest request_;
  HttpParseError error_;
  bool keep_alive_ = true;
  bool chunked_ = false;
  std::size_t content_length_ = 0;
  Chunk chunk_ = Chunk::kSize;
  std::size_t chunk_left_ = 0;
};

}  // namespace perfplan::planner
