// Load test of `perfplan serve` (issue: HTTP service): an open-loop client sends POST /v1/predict
// at a fixed rate over keep-alive loopback connections and measures each latency from the
// request's *scheduled* send time, so a stalled server cannot hide its queueing delay
// (no coordinated omission).
//
// Usage: service_load PERFPLAN_BINARY EXAMPLES_DIR [--rate R] [--seconds S] [--connections C]
//                     [--idle I] [--slow S]
// Defaults: 2,000 requests/s for 60 s over 8 connections. Prints p50/p90/p99/max and errors.
// --idle I holds I connections open that send nothing; --slow S holds S slowloris connections
// that send one byte of a request head every 500 ms and never finish it. Both reconnect as soon
// as the server closes them (idle timeout, 408), so the hostile load stays on for the whole run.
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

const char* kBody =
    R"({"application": "kmeans", "dataset_bytes": 8e9, "storage_nodes": 4, "compute_nodes": 16,
        "bandwidth_bytes_per_second": 1.25e8, "site": "anl-cluster"})";

int StartServer(const std::string& binary, const std::string& examples, pid_t* pid) {
  const std::string err_file = "/tmp/perfplan-service-load-" + std::to_string(getpid()) + ".err";
  *pid = fork();
  if (*pid == 0) {
    freopen(err_file.c_str(), "w", stderr);
    execl(binary.c_str(), "perfplan", "serve", "--listen", "127.0.0.1:0", "--profiles",
          (examples + "/profiles").c_str(), "--topology", (examples + "/topology.yaml").c_str(),
          nullptr);
    _exit(127);
  }
  for (int i = 0; i < 1000; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::ifstream in(err_file);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string err = ss.str();
    const std::size_t at = err.find("http://127.0.0.1:");
    if (at != std::string::npos && err.find('\n', at) != std::string::npos) {
      // The access log goes to that file too; keep it out of the measurement's way.
      return std::stoi(err.substr(at + 17));
    }
  }
  return 0;
}

int Connect(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);  // EINPROGRESS: completes meanwhile
  return fd;
}

// Holds `idle` silent and `slow` slowloris connections until `stop`; counts reconnections.
void Hostile(int port, int idle, int slow, const std::atomic<bool>& stop,
             std::atomic<long long>* reconnects) {
  const std::string head = "GET /v1/health HTTP/1.1\r\nHost: slow\r\nX-Slow: ";
  std::vector<int> fds(idle + slow);
  std::vector<std::size_t> sent(fds.size(), 0);
  for (int& fd : fds) fd = Connect(port);
  while (!stop) {
    for (std::size_t i = 0; i < fds.size(); ++i) {
      char buf[4096];
      const ssize_t n = recv(fds[i], buf, sizeof buf, MSG_DONTWAIT);
      const bool closed = n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
                                     errno != ENOTCONN && errno != EINPROGRESS);
      if (closed || n > 0) {  // an answer (408) or a close: connect again
        close(fds[i]);
        fds[i] = Connect(port);
        sent[i] = 0;
        ++*reconnects;
        continue;
      }
      if (static_cast<int>(i) >= idle) {
        const char c = sent[i] < head.size() ? head[sent[i]] : 'x';
        if (send(fds[i], &c, 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1) ++sent[i];
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  for (int fd : fds) close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: service_load PERFPLAN_BINARY EXAMPLES_DIR [--rate R] [--seconds S] "
                 "[--connections C] [--idle I] [--slow S]\n");
    return 2;
  }
  double rate = 2000, seconds = 60;
  int connections = 8, idle = 0, slow = 0;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--rate")) rate = std::atof(argv[i + 1]);
    if (!std::strcmp(argv[i], "--seconds")) seconds = std::atof(argv[i + 1]);
    if (!std::strcmp(argv[i], "--connections")) connections = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--idle")) idle = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--slow")) slow = std::atoi(argv[i + 1]);
  }
  pid_t pid = 0;
  const int port = StartServer(argv[1], argv[2], &pid);
  if (port <= 0) {
    std::fprintf(stderr, "perfplan serve did not start\n");
    return 1;
  }

  std::atomic<bool> stop_hostile{false};
  std::atomic<long long> reconnects{0};
  std::thread hostile;
  if (idle + slow > 0) {
    hostile = std::thread(Hostile, port, idle, slow, std::cref(stop_hostile), &reconnects);
    std::this_thread::sleep_for(std::chrono::seconds(2));  // all of them connected and trickling
  }
  const long long total = static_cast<long long>(rate * seconds);
  const auto interval = std::chrono::duration<double>(1.0 / rate);
  const auto start = Clock::now() + std::chrono::milliseconds(200);
  std::atomic<long long> next{0};
  std::atomic<long long> errors{0};
  std::vector<std::vector<double>> latencies(connections);
  std::vector<std::thread> threads;
  for (int c = 0; c < connections; ++c) {
    threads.emplace_back([&, c] {
      httplib::Client client("127.0.0.1", port);
      client.set_keep_alive(true);
      client.set_tcp_nodelay(true);
      for (;;) {
        const long long i = next.fetch_add(1);
        if (i >= total) break;
        const auto scheduled =
            start + std::chrono::duration_cast<Clock::duration>(interval * static_cast<double>(i));
        std::this_thread::sleep_until(scheduled);
        auto r = client.Post("/v1/predict", kBody, "application/json");
        const double ms =
            std::chrono::duration<double, std::milli>(Clock::now() - scheduled).count();
        if (!r || r->status != 200) ++errors;
        latencies[c].push_back(ms);
      }
    });
  }
  for (auto& t : threads) t.join();
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  stop_hostile = true;
  if (hostile.joinable()) hostile.join();
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);

  std::vector<double> all;
  for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  std::sort(all.begin(), all.end());
  auto pct = [&](double p) { return all[std::min(all.size() - 1, std::size_t(p * all.size()))]; };
  std::printf("requests %zu in %.1f s (%.0f/s offered, %.0f/s achieved) over %d connections\n",
              all.size(), wall, rate, all.size() / wall, connections);
  std::printf("latency ms: p50 %.3f  p90 %.3f  p99 %.3f  max %.3f\n", pct(0.5), pct(0.9), pct(0.99),
              all.back());
  if (idle + slow > 0) {
    std::printf("hostile: %d idle + %d slow-header connections held, %lld reconnections\n", idle,
                slow, reconnects.load());
  }
  std::printf("errors %lld; server exit %s\n", errors.load(),
              WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "clean (SIGTERM)" : "NOT clean");
  return errors.load() == 0 ? 0 : 1;
}
