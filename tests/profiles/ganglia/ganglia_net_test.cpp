// FetchTcp against a loopback peer: the answer-size cap (issue 17: a 400 MB answer used to cost
// 831 MB of memory before parsing).
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <thread>

#include "profiles/ganglia/ganglia.h"
#include "tests/support/result_checks.h"

namespace perfplan::profiles {
namespace {

// Listens on a free loopback port; the first connection gets `bytes` bytes of '<', then close.
class FloodingPeer {
 public:
  explicit FloodingPeer(std::size_t bytes) {
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(listen(listener_, 1) == 0);
    socklen_t len = sizeof a;
    getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this, bytes] {
      const int c = accept(listener_, nullptr, nullptr);
      if (c < 0) return;
      const std::string chunk(65536, '<');
      for (std::size_t sent = 0; sent < bytes;) {
        const ssize_t n = write(c, chunk.data(), std::min(chunk.size(), bytes - sent));
        if (n <= 0) break;  // the reader gave up (the cap): stop
        sent += static_cast<std::size_t>(n);
      }
      close(c);
    });
  }
  ~FloodingPeer() {
    thread_.join();
    close(listener_);
  }
  int port() const { return port_; }

 private:
  int listener_ = -1;
  int port_ = 0;
  std::thread thread_;
};

TEST_CASE("an answer larger than the cap is refused while it arrives, not buffered whole") {
  FloodingPeer peer(4 << 20);
  Result<std::string> r = FetchTcp("127.0.0.1", peer.port(), 30, 1 << 20);
  REQUIRE(!r.ok());
  CHECK(r.status().message() == "127.0.0.1:" + std::to_string(peer.port()) +
                                    ": the answer is larger than 1048576 bytes (the limit for "
                                    "one gmond/gmetad answer)");
}

TEST_CASE("an answer within the cap is read whole") {
  FloodingPeer peer(300000);
  const std::string r = testing::ValueOf(FetchTcp("127.0.0.1", peer.port(), 30, 1 << 20));
  CHECK(r.size() == 300000);
}

}  // namespace
}  // namespace perfplan::profiles
