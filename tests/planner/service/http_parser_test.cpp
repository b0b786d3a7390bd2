// The HTTP/1.1 request framing of `perfplan serve` (planner/service/http_parser.h), byte for byte.
#include "planner/service/http_parser.h"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

namespace perfplan::planner {
namespace {

using Step = HttpRequestParser::Step;

struct Parsed {
  std::vector<HttpRequest> requests;
  std::vector<bool> keep_alive;
  std::optional<HttpParseError> error;
  std::size_t consumed = 0;
};

// Feeds `stream` in pieces of `fragment` bytes, accepting every body.
Parsed Parse(const std::string& stream, std::size_t fragment = 1 << 20,
             std::size_t max_head = 256, std::size_t max_body = 64) {
  HttpRequestParser p(max_head, max_body);
  Parsed out;
  std::string in;
  std::size_t pos = 0;
  for (std::size_t fed = 0; fed < stream.size() && !out.error;) {
    const std::size_t n = std::min(fragment, stream.size() - fed);
    in.append(stream, fed, n);
    fed += n;
    for (;;) {
      const Step step = p.Next(in, &pos);
      if (step == Step::kNeedMore) break;
      if (step == Step::kError) {
        out.error = p.error();
        break;
      }
      if (step == Step::kHead) {
        p.AcceptBody();
        continue;
      }
      out.requests.push_back(p.request());
      out.keep_alive.push_back(p.keep_alive());
      p.Reset();
    }
  }
  out.consumed = pos;
  return out;
}

void CheckError(const Parsed& got, int status, const std::string& code,
                const std::string& message) {
  REQUIRE(got.error.has_value());
  CHECK(got.error->status == status);
  CHECK(got.error->code == code);
  CHECK(got.error->message == message);
}

TEST_CASE("a GET with headers: names lower-cased, values trimmed, keep-alive by default") {
  const Parsed got = Parse("GET /v1/health?x=1 HTTP/1.1\r\nHost:  a \r\nX-Token: t\r\n\r\n");
  REQUIRE(!got.error);
  REQUIRE(got.requests.size() == 1);
  const HttpRequest& r = got.requests[0];
  CHECK(r.method == "GET");
  CHECK(r.target == "/v1/health?x=1");
  CHECK(r.version == "HTTP/1.1");
  CHECK(r.Header("host") == "a");
  CHECK(r.Header("x-token") == "t");
  CHECK(r.body.empty());
  CHECK(got.keep_alive[0]);
}

TEST_CASE("pipelined requests come out in order, whatever the fragmentation") {
  const std::string stream =
      "\r\nPOST /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"
      "POST /b HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\n"
      "X-Trailer: ignored\r\n\r\n"
      "GET /c HTTP/1.0\r\n\r\n";
  for (std::size_t fragment : {1, 2, 7, 64, 4096}) {
    CAPTURE(fragment);
    const Parsed got = Parse(stream, fragment);
    REQUIRE(!got.error);
    REQUIRE(got.requests.size() == 3);
    CHECK(got.requests[0].target == "/a");
    CHECK(got.requests[0].body == "hello");
    CHECK(got.requests[1].body == "abcde");
    CHECK(got.requests[2].target == "/c");
    CHECK(got.keep_alive == std::vector<bool>{true, true, false});
    CHECK(got.consumed == stream.size());
  }
}

TEST_CASE("Connection: close and HTTP/1.0 keep-alive are honoured") {
  const Parsed got = Parse(
      "GET / HTTP/1.1\r\nConnection: Upgrade, Close\r\n\r\n"
      "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
  CHECK(got.keep_alive == std::vector<bool>{false, true});
}

TEST_CASE("framing errors name what is wrong") {
  CheckError(Parse("GET /\r\n\r\n"), 400, "bad_request", "malformed request line");
  CheckError(Parse("GET  / HTTP/1.1\r\n\r\n"), 400, "bad_request", "malformed request line");
  CheckError(Parse("GET http://x/ HTTP/1.1\r\n\r\n"), 400, "bad_request",
             "malformed request line");
  CheckError(Parse("GET /\x01 HTTP/1.1\r\n\r\n"), 400, "bad_request", "malformed request line");
  CheckError(Parse("GET / HTTP/2.0\r\n\r\n"), 505, "http_version",
             "only HTTP/1.0 and HTTP/1.1 are served");
  CheckError(Parse("GET / HTTP/1.1\r\nHost : a\r\n\r\n"), 400, "bad_request",
             "malformed header line");
  CheckError(Parse("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n"), 400, "bad_request",
             "malformed header line");
  CheckError(Parse("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"), 400, "bad_request",
             "malformed Content-Length");
  CheckError(Parse("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"), 400,
             "bad_request", "malformed Content-Length");
  CheckError(Parse("POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n"),
             400, "bad_request", "both Content-Length and Transfer-Encoding");
  CheckError(Parse("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"), 501,
             "not_implemented", "only the chunked transfer coding is accepted");
  CheckError(Parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"), 400,
             "bad_request", "malformed chunk size line");
  CheckError(Parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY"), 400,
             "bad_request", "a chunk does not end with CRLF");
}

TEST_CASE("limits are decided before the bytes are buffered") {
  CheckError(Parse("GET /" + std::string(300, 'a') + " HTTP/1.1\r\n\r\n"), 431,
             "header_too_large", "the request line and headers are larger than 256 bytes");
  // A head that never ends is refused as soon as it is over the limit.
  CheckError(Parse("GET / HTTP/1.1\r\nX: " + std::string(300, 'a'), 16), 431, "header_too_large",
             "the request line and headers are larger than 256 bytes");
  CheckError(Parse("POST / HTTP/1.1\r\nContent-Length: 65\r\n\r\n"), 413, "payload_too_large",
             "the request body is larger than 64 bytes");
  // A chunked body is counted as it is decoded: the second chunk passes the limit.
  CheckError(Parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n20\r\n" +
                   std::string(32, 'a') + "\r\n21\r\n"),
             413, "payload_too_large", "the request body is larger than 64 bytes");
  CheckError(Parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" +
                   std::string(2000, '0')),
             400, "bad_request", "malformed chunk size line");
}

TEST_CASE("a refused head leaves the body unread") {
  HttpRequestParser p(256, 64);
  const std::string in = "POST /v1/predict HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789";
  std::size_t pos = 0;
  REQUIRE(p.Next(in, &pos) == Step::kHead);
  CHECK(p.has_body());
  CHECK(pos == in.size() - 10);  // the caller may answer 401 without reading the body
  CHECK(p.Next(in, &pos) == Step::kHead);  // waits for AcceptBody
  CHECK(p.AcceptBody() == Step::kNeedMore);
  CHECK(p.Next(in, &pos) == Step::kRequest);
  CHECK(p.request().body == "0123456789");
}

TEST_CASE("HasHeaderToken reads comma-separated values without case") {
  CHECK(HasHeaderToken("Keep-Alive, Upgrade", "keep-alive"));
  CHECK(HasHeaderToken(" 100-Continue ", "100-continue"));
  CHECK(!HasHeaderToken("closed", "close"));
  CHECK(!HasHeaderToken("", "close"));
}

}  // namespace
}  // namespace perfplan::planner
