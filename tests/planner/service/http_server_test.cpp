// The HTTP server's threading (planner/service/http_server.h): connections dealt over several
// I/O threads, cheap requests answered on the I/O thread that read them, everything else on a
// worker, and Stop() with requests in flight on every thread. Real loopback sockets; every wait
// is bounded.
#include "planner/service/http_server.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/loopback_client.h"

namespace perfplan::planner {
namespace {

using Clock = std::chrono::steady_clock;
using testing::BodyOf;
using testing::Get;
using testing::Socket;
using testing::StatusOf;

long long MillisSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

// Answers each request with its target; "/slow" takes 600 ms; "/fast…" is answered inline.
struct EchoServer {
  std::atomic<int> inline_answers{0};
  HttpServer server;
  explicit EchoServer(HttpServerOptions options)
      : server(options, Callbacks(&inline_answers)) {
    REQUIRE(server.Start().ok());
  }
  static HttpCallbacks Callbacks(std::atomic<int>* inline_answers) {
    HttpCallbacks c;
    c.handle = [](const HttpRequest& req) {
      if (req.target == "/slow") std::this_thread::sleep_for(std::chrono::milliseconds(600));
      return HttpResponse{200, req.target, "text/plain"};
    };
    c.answer_inline = [inline_answers](const HttpRequest& req) {
      const bool fast = req.target.rfind("/fast", 0) == 0;
      if (fast) ++*inline_answers;
      return fast;
    };
    c.error_body = [](int, const std::string& code, const std::string&) { return code; };
    return c;
  }
};

HttpServerOptions TwoLoops(int workers) {
  HttpServerOptions o;
  o.port = 0;
  o.io_threads = 2;
  o.threads = workers;
  return o;
}

TEST_CASE("a request held by the only worker delays no inline answer on any connection") {
  EchoServer echo(TwoLoops(1));
  Socket slow(echo.server.port());
  slow.Send(Get("/slow"));
  std::vector<Socket> others;
  for (int i = 0; i < 6; ++i) others.emplace_back(echo.server.port());  // over both I/O threads
  const auto start = Clock::now();
  for (int i = 0; i < 6; ++i) {
    others[i].Send(Get("/fast/" + std::to_string(i)));
    const std::string answer = others[i].ReadAnswer();
    CHECK(StatusOf(answer) == 200);
    CHECK(BodyOf(answer) == "/fast/" + std::to_string(i));
  }
  CHECK(MillisSince(start) < 400);
  CHECK(echo.inline_answers == 6);
  CHECK(BodyOf(slow.ReadAnswer()) == "/slow");
}

TEST_CASE("pipelined requests on many connections are answered in order, inline or not") {
  EchoServer echo(TwoLoops(2));
  std::vector<Socket> clients;
  for (int c = 0; c < 8; ++c) clients.emplace_back(echo.server.port());
  std::vector<std::string> expected(clients.size());
  for (std::size_t c = 0; c < clients.size(); ++c) {
    std::string burst;
    for (int r = 0; r < 40; ++r) {
      // Every fifth request goes to a worker: the order must hold across the hand-offs.
      const std::string target = (r % 5 == 4 ? "/worker/" : "/fast/") + std::to_string(c) + "/" +
                                 std::to_string(r);
      burst += Get(target);
      expected[c] += target;
    }
    clients[c].Send(burst);
  }
  for (std::size_t c = 0; c < clients.size(); ++c) {
    std::string all = clients[c].ReadUntil(
        [&](const std::string& t) {
          std::size_t answers = 0;
          for (std::size_t at = t.find("HTTP/1.1 "); at != std::string::npos;
               at = t.find("HTTP/1.1 ", at + 1)) {
            ++answers;
          }
          return answers == 40 && Socket::Complete(t.substr(t.rfind("HTTP/1.1 "))) > 0;
        },
        5000);
    std::string bodies;
    while (std::size_t n = Socket::Complete(all)) {
      bodies += BodyOf(all.substr(0, n));
      all.erase(0, n);
    }
    CHECK(bodies == expected[c]);
  }
  CHECK(echo.inline_answers == 8 * 32);
}

TEST_CASE("the connection limit counts the connections of every I/O thread") {
  HttpServerOptions options = TwoLoops(1);
  options.max_connections = 3;
  EchoServer echo(options);
  std::vector<Socket> held;
  for (int i = 0; i < 3; ++i) {
    held.emplace_back(echo.server.port());
    held.back().Send(Get("/fast"));
    CHECK(StatusOf(held.back().ReadAnswer()) == 200);
  }
  Socket over(echo.server.port());
  CHECK(StatusOf(over.ReadAnswer()) == 503);
  CHECK(echo.server.stats().rejected_connections == 1);
}

TEST_CASE("Stop answers the requests in flight, then returns") {
  auto echo = std::make_unique<EchoServer>(TwoLoops(2));
  std::vector<Socket> clients;
  for (int i = 0; i < 4; ++i) {
    clients.emplace_back(echo->server.port());
    clients.back().Send(Get("/slow"));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // both workers busy
  const auto start = Clock::now();
  echo->server.Stop();
  CHECK(MillisSince(start) < 3000);
  int answered = 0;
  for (Socket& c : clients) answered += StatusOf(c.ReadAnswer(500)) == 200;
  CHECK(answered == 4);  // the two in workers' hands and the two queued behind them
}

}  // namespace
}  // namespace perfplan::planner
