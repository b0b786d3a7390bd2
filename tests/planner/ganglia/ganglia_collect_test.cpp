#include "planner/ganglia/ganglia_collect.h"

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "profiles/ganglia/ganglia_store.h"
#include "tests/support/result_checks.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

// A fake gmond on a free loopback port: each connection gets a one-host document whose
// LOCALTIME advances by 10 s, so every poll carries new samples; then the server closes it.
class FakeGmond {
 public:
  FakeGmond() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    REQUIRE(::listen(fd_, 8) == 0);
    thread_ = std::thread([this] { Serve(); });
  }
  ~FakeGmond() {
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  int port() const { return port_; }
  int served() const { return served_; }

 private:
  void Serve() {
    while (true) {
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      const int n = served_++;
      const std::string xml =
          "<GANGLIA_XML VERSION=\"3.7.2\" SOURCE=\"gmond\"><CLUSTER NAME=\"fake\" LOCALTIME=\"" +
          std::to_string(1000 + 10 * n) +
          "\"><HOST NAME=\"h\" IP=\"127.0.0.1\"><METRIC NAME=\"load_one\" VAL=\"" +
          std::to_string(n) +
          "\" TYPE=\"float\" UNITS=\" \" TN=\"0\"/></HOST></CLUSTER>"
          "</GANGLIA_XML>";
      ::write(c, xml.data(), xml.size());
      ::close(c);
    }
  }
  int fd_ = -1;
  int port_ = 0;
  std::atomic<int> served_{0};
  std::thread thread_;
};

std::unique_ptr<profiles::Store> OpenMemory() {
  auto store = profiles::Store::Open(":memory:", {profiles::GangliaMigrations()});
  REQUIRE(store.ok());
  return std::move(store).value();
}

// A clock that advances only when the collector sleeps: no real waiting in the test.
struct FakeClock {
  double now = 0;
  CollectHooks Hooks() {
    CollectHooks h;
    h.now_epoch = [this] { return static_cast<std::int64_t>(1000 + now); };
    h.monotonic_seconds = [this] { return now; };
    h.sleep_seconds = [this](double s) { now += s; };
    return h;
  }
};

TEST_CASE("Polling every interval for the duration stores each poll's samples") {
  FakeGmond gmond;
  auto store = OpenMemory();
  FakeClock clock;
  CollectOptions s;
  s.source = "127.0.0.1:" + std::to_string(gmond.port());
  s.interval_seconds = 5;
  s.duration_seconds = 20;
  const auto answer = testing::ValueOf(CollectGanglia(*store, s, clock.Hooks()));
  CHECK(answer.polls == 4);  // at 0, 5, 10, 15 s
  CHECK(answer.samples == 4);
  CHECK(answer.hosts == std::vector<std::string>{"fake/h"});
  CHECK(answer.metrics == std::vector<std::string>{"load_one"});
  CHECK_FALSE(answer.interrupted);
  const auto samples = testing::ValueOf(profiles::LoadGangliaSamples(*store, 0, 5000, {}));
  CHECK(samples.size() == 4);
}

TEST_CASE("A stop request ends the collection and keeps every committed poll") {
  FakeGmond gmond;
  auto store = OpenMemory();
  FakeClock clock;
  CollectHooks hooks = clock.Hooks();
  int polls_before_stop = 0;
  // should_stop is asked once before each poll: false twice, then "SIGINT".
  hooks.should_stop = [&] { return polls_before_stop++ >= 2; };
  CollectOptions s;
  s.source = "127.0.0.1:" + std::to_string(gmond.port());
  s.interval_seconds = 1;
  s.duration_seconds = 3600;
  const auto answer = testing::ValueOf(CollectGanglia(*store, s, hooks));
  CHECK(answer.interrupted);
  CHECK(answer.polls == 2);
  const auto samples = testing::ValueOf(profiles::LoadGangliaSamples(*store, 0, 5000, {}));
  CHECK(samples.size() == 2);
}

TEST_CASE("An unreachable gmond fails the collection with the connection error") {
  auto store = OpenMemory();
  CollectOptions s;
  s.source = "127.0.0.1:1";
  const Status answer = testing::ErrorOf(CollectGanglia(*store, s));
  CHECK(answer.code() == StatusCode::kFailed);
  CHECK(answer.message() == "127.0.0.1:1: cannot connect: Connection refused");
}

TEST_CASE("Settings out of range are refused naming the flag") {
  CollectOptions s;
  s.source = "h:1";
  s.interval_seconds = 0;
  CHECK(s.Validate().message() == "--interval: 0 is not a number > 0 of seconds");
  s.interval_seconds = 1;
  s.duration_seconds = -1;
  CHECK(s.Validate().message() == "--duration: -1 is not a number >= 0 of seconds");
  s.duration_seconds = 0;
  s.source = "";
  CHECK(s.Validate().message() == "--source: empty (expected HOST:PORT or a file path)");
}

TEST_CASE("A malformed saved file is bad input, located") {
  auto store = OpenMemory();
  const std::string path = testing::MakeTempDir() + "/bad.xml";
  testing::WriteFile(path,
                     "<GANGLIA_XML>\n<CLUSTER NAME=\"c\">\n<HOST NAME=\"h\">\n"
                     "<METRIC NAME=\"m\" VAL=\"abc\" TYPE=\"double\"/>\n</HOST></CLUSTER>"
                     "</GANGLIA_XML>\n");
  CollectOptions s;
  s.source = path;
  const Status answer = testing::ErrorOf(CollectGanglia(*store, s));
  CHECK(answer.code() == StatusCode::kInvalidArgument);
  CHECK(answer.message() ==
        path + ":4:2 (byte 50): HOST 'h' METRIC 'm': VAL 'abc' is not a double");
}

}  // namespace
}  // namespace perfplan::planner
