// The service under hostile but legal clients, over real loopback sockets (issue 17): idle and
// slow-header connections cannot stall /v1/health, the connection limit answers 503, a slow head
// gets 408, chunked bodies count against the body limit, the token is checked before a body is
// read, pipelined requests are all answered in order, HEAD sends headers only, /metrics counts.
// Every wait is bounded (a few seconds at most).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "planner/service/service.h"
#include "tests/support/example_catalog.h"
#include "tests/support/loopback_client.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

using Clock = std::chrono::steady_clock;

using testing::BodyOf;
using testing::ExampleCatalog;
using testing::Get;
using testing::Post;
using testing::Socket;
using testing::StatusOf;

// Options of a service on a free port (read it back with port()); a case sets what it tests.
ServiceOptions OnAnyPort() {
  ServiceOptions options;
  options.port = 0;
  return options;
}

const std::string kPredictBody =
    R"({"application": "kmeans", "dataset_bytes": 8e9, "storage_nodes": 4, )"
    R"("compute_nodes": 16, "bandwidth_bytes_per_second": 1.25e8})";

TEST_CASE("idle and slow-header connections do not stall /v1/health on a two-worker service") {
  ServiceOptions options = OnAnyPort();
  options.threads = 2;
  Service service(ExampleCatalog(), options, nullptr);
  REQUIRE(service.Start().ok());
  std::vector<Socket> hostile;
  for (int i = 0; i < 50; ++i) hostile.emplace_back(service.port());  // idle
  for (int i = 0; i < 50; ++i) {
    hostile.emplace_back(service.port());
    hostile.back().Send("GET /v1/health HTTP/1.1\r\nHost: slow\r\nX-A: ");  // never finished
  }
  for (int i = 0; i < 20; ++i) {
    const auto start = Clock::now();
    Socket good(service.port());
    good.Send(Get("/v1/health"));
    const std::string answer = good.ReadAnswer();
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    CHECK(StatusOf(answer) == 200);
    CHECK(ms < 500);
  }
}

TEST_CASE("the connection over the limit is answered 503 and closed") {
  ServiceOptions options = OnAnyPort();
  options.max_connections = 4;
  std::ostringstream log;
  Service service(ExampleCatalog(), options, &log);
  REQUIRE(service.Start().ok());
  std::vector<Socket> held;
  for (int i = 0; i < 4; ++i) held.emplace_back(service.port());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // all four accepted
  Socket over(service.port());
  bool eof = false;
  const std::string answer = over.ReadAnswer(3000, &eof);
  CHECK(StatusOf(answer) == 503);
  CHECK(answer.find("\r\nRetry-After: 1\r\n") != std::string::npos);
  CHECK(BodyOf(answer) ==
        R"({"error":"unavailable","field":null,"message":"the service has 4 open connections, its limit; retry"})"
        "\n");
  // Once one held connection goes, a new one is served again.
  held.pop_back();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  Socket again(service.port());
  again.Send(Get("/v1/health"));
  CHECK(StatusOf(again.ReadAnswer()) == 200);
}

TEST_CASE("a request head that does not arrive within the header timeout gets 408") {
  ServiceOptions options = OnAnyPort();
  options.header_timeout_seconds = 1;
  options.read_timeout_seconds = 60;  // slowloris keeps sending: only the header timeout holds
  Service service(ExampleCatalog(), options, nullptr);
  REQUIRE(service.Start().ok());
  Socket slow(service.port());
  const auto start = Clock::now();
  std::string answer;
  for (int i = 0; i < 40 && answer.empty(); ++i) {
    slow.Send("X");  // one byte every 100 ms, forever
    answer = slow.ReadUntil([](const std::string& t) { return Socket::Complete(t) > 0; }, 100);
  }
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  CHECK(StatusOf(answer) == 408);
  CHECK(BodyOf(answer) ==
        R"({"error":"timeout","field":null,"message":"the request line and headers did not arrive within 1000 ms"})"
        "\n");
  CHECK(ms >= 900);
  CHECK(ms < 2500);
}

TEST_CASE("chunked bodies count against the body limit; the token is checked before the body") {
  ServiceOptions options = OnAnyPort();
  options.max_body_bytes = 4096;
  options.token = "s3cret";
  Service service(ExampleCatalog(), options, nullptr);
  REQUIRE(service.Start().ok());
  const std::string chunked_head =
      "POST /v1/predict HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n";
  {
    // No token: 401 from the head alone, though not one body byte has been sent.
    Socket s(service.port());
    s.Send(chunked_head + "\r\n");
    bool eof = false;
    const std::string answer = s.ReadAnswer(3000, &eof);
    CHECK(StatusOf(answer) == 401);
    CHECK(answer.find("Connection: close") != std::string::npos);
  }
  {
    // With the token, chunks beyond 4096 bytes in total: 413 as soon as the limit is crossed.
    Socket s(service.port());
    s.Send(chunked_head + "Authorization: Bearer s3cret\r\n\r\n");
    const std::string chunk(1000, ' ');
    for (int i = 0; i < 5; ++i) s.Send("3e8\r\n" + chunk + "\r\n");
    const std::string answer = s.ReadAnswer();
    CHECK(StatusOf(answer) == 413);
    CHECK(BodyOf(answer) ==
          R"({"error":"payload_too_large","field":null,"message":"the request body is larger than 4096 bytes"})"
          "\n");
  }
  {
    // A chunked body within the limit is decoded and answered like a plain one.
    Socket s(service.port());
    const std::string a = kPredictBody.substr(0, 10), b = kPredictBody.substr(10);
    char sizes[64];
    std::snprintf(sizes, sizeof sizes, "%zx", b.size());
    s.Send(chunked_head + "Authorization: Bearer s3cret\r\n\r\na\r\n" + a + "\r\n" + sizes +
           ";ext=1\r\n" + b + "\r\n0\r\nX-Trailer: 1\r\n\r\n");
    const std::string answer = s.ReadAnswer();
    CHECK(StatusOf(answer) == 200);
    CHECK(BodyOf(answer).find("\"runtime_seconds\"") != std::string::npos);
  }
  {
    // A Content-Length over the limit is refused before its body is read.
    Socket s(service.port());
    s.Send("POST /v1/predict HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer s3cret\r\n"
           "Content-Length: 300000000\r\n\r\n");
    CHECK(StatusOf(s.ReadAnswer()) == 413);
  }
  {
    // Smuggling-shaped framing is refused.
    Socket s(service.port());
    s.Send("POST /v1/predict HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n"
           "Transfer-Encoding: chunked\r\n\r\n");
    const std::string answer = s.ReadAnswer();
    CHECK(StatusOf(answer) == 400);
    CHECK(BodyOf(answer).find("both Content-Length and Transfer-Encoding") != std::string::npos);
  }
}

TEST_CASE("pipelined requests are all answered, in order; HEAD sends headers only") {
  Service service(ExampleCatalog(), OnAnyPort(), nullptr);
  REQUIRE(service.Start().ok());
  Socket s(service.port());
  // Sent in one write: predict, a 404, HEAD of health, a bad predict, health.
  s.Send(Post("/v1/predict", kPredictBody) + Get("/nope") +
         "HEAD /v1/health HTTP/1.1\r\nHost: t\r\n\r\n" + Post("/v1/predict", "{}") +
         Get("/v1/health"));
  std::string all = s.ReadUntil(
      [](const std::string& t) {
        return std::count(t.begin(), t.end(), '\n') > 0 &&
               t.find("\"applications\"") != std::string::npos;
      },
      5000);
  std::vector<int> statuses;
  std::vector<std::string> bodies;
  while (!all.empty()) {
    // The third answer is HEAD's: its Content-Length announces a body that is not sent.
    std::size_t n = statuses.size() == 2 ? all.find("\r\n\r\n") + 4 : Socket::Complete(all);
    if (n == 0) break;
    const std::string one = all.substr(0, n);
    statuses.push_back(StatusOf(one));
    bodies.push_back(BodyOf(one));
    all.erase(0, n);
  }
  CHECK(statuses == std::vector<int>{200, 404, 200, 400, 200});
  REQUIRE(bodies.size() == 5);
  CHECK(bodies[0].find("\"runtime_seconds\"") != std::string::npos);
  CHECK(bodies[2].empty());  // HEAD
  CHECK(bodies[4].find("\"status\": \"ok\"") != std::string::npos);
  // The HEAD answer's Content-Length is the GET body's.
  Socket g(service.port());
  g.Send(Get("/v1/health"));
  const std::string get = g.ReadAnswer();
  Socket h(service.port());
  h.Send("HEAD /v1/health HTTP/1.1\r\nHost: t\r\n\r\n");
  const std::string head = h.ReadAnswer();
  CHECK(head.substr(head.find("Content-Length")) ==
        "Content-Length: " + std::to_string(BodyOf(get).size()) +
            "\r\nConnection: keep-alive\r\n\r\n");
}

TEST_CASE("GET /metrics counts requests by route and status in the Prometheus text format") {
  Service service(ExampleCatalog(), OnAnyPort(), nullptr);
  REQUIRE(service.Start().ok());
  Socket s(service.port());
  for (int i = 0; i < 3; ++i) {
    s.Send(Post("/v1/predict", kPredictBody));
    CHECK(StatusOf(s.ReadAnswer()) == 200);
  }
  s.Send(Post("/v1/predict", "[]"));
  CHECK(StatusOf(s.ReadAnswer()) == 400);
  s.Send(Get("/v1/apps/x%2Fy/score"));
  CHECK(StatusOf(s.ReadAnswer()) == 400);
  s.Send(Get("/metrics"));
  const std::string answer = s.ReadAnswer();
  CHECK(StatusOf(answer) == 200);
  CHECK(answer.find("Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n") !=
        std::string::npos);
  const std::string m = BodyOf(answer);
  CHECK(m.find("# TYPE perfplan_http_requests_total counter\n") != std::string::npos);
  CHECK(m.find("perfplan_http_requests_total{route=\"/v1/predict\",code=\"200\"} 3\n") !=
        std::string::npos);
  CHECK(m.find("perfplan_http_requests_total{route=\"/v1/predict\",code=\"400\"} 1\n") !=
        std::string::npos);
  CHECK(m.find("perfplan_http_requests_total{route=\"/v1/apps/{id}/score\",code=\"400\"} 1\n") !=
        std::string::npos);
  CHECK(m.find("perfplan_http_request_duration_seconds_bucket{route=\"/v1/predict\",le=\"+Inf\"} "
               "4\n") != std::string::npos);
  CHECK(m.find("perfplan_http_request_duration_seconds_count{route=\"/v1/predict\"} 4\n") !=
        std::string::npos);
  CHECK(m.find("perfplan_http_requests_in_flight 1\n") != std::string::npos);  // this one
  CHECK(m.find("perfplan_http_connections_open 1\n") != std::string::npos);
  CHECK(m.find("perfplan_http_connections_rejected_total 0\n") != std::string::npos);
  CHECK(m.find("perfplan_store_age_seconds") == std::string::npos);  // no store served
}

}  // namespace
}  // namespace perfplan::planner
