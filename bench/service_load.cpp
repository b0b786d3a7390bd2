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
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

const char* kBody =
    R"({"application": "kmeans", "dataset_bytes": 8e9, "storage_nodes": 4, "compute_nodes": 16,
        "bandwidth_bytes_per_second": 1.25e8, "site": "anl-cluster"})";

struct CpuSeconds {
  double user = 0, system = 0;
  double total() const { return user + system; }
  CpuSeconds operator-(const CpuSeconds& o) const { return {user - o.user, system - o.system}; }
};

// The CPU seconds of one /proc/.../stat line (fields 14 and 15, in clock ticks) and the command
// name between its parentheses (which may hold spaces); false when the line cannot be read.
bool ParseStat(const std::string& path, CpuSeconds* cpu, std::string* name) {
  std::ifstream in(path);
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t open = stat.find('('), close = stat.rfind(')');
  if (open == std::string::npos || close == std::string::npos) return false;
  std::istringstream fields(stat.substr(close + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  *cpu = {static_cast<double>(utime) / tick, static_cast<double>(stime) / tick};
  if (name) *name = stat.substr(open + 1, close - open - 1);
  return true;
}

// CPU seconds the process `pid` has used so far; zero when it cannot be read.
CpuSeconds ProcessCpuSeconds(pid_t pid) {
  CpuSeconds cpu;
  ParseStat("/proc/" + std::to_string(pid) + "/stat", &cpu, nullptr);
  return cpu;
}

// CPU seconds by thread name (/proc/PID/task/TID/stat; the name is the thread's comm, e.g. the
// server's "pp-io" and "pp-work"), summed over the threads of each name.
std::map<std::string, CpuSeconds> ThreadCpuSeconds(pid_t pid) {
  std::map<std::string, CpuSeconds> by_name;
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  DIR* dir = opendir(tasks.c_str());
  if (!dir) return by_name;
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    CpuSeconds cpu;
    std::string name;
    if (!ParseStat(tasks + "/" + e->d_name + "/stat", &cpu, &name)) continue;
    CpuSeconds& sum = by_name[name];
    sum.user += cpu.user;
    sum.system += cpu.system;
  }
  closedir(dir);
  return by_name;
}

CpuSeconds OwnCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return {seconds(usage.ru_utime), seconds(usage.ru_stime)};
}

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


// The load generator: one thread, `connections` keep-alive connections driven by epoll, so that
// the client costs a few microseconds a request and the measurement is of the server (64
// blocking client threads cost as much CPU as the server they measured, docs/performance.md).
// Open loop: request i is due at start + i * interval and goes out on the first idle
// connection; its latency runs from that due time, so a request that waits for a connection
// counts its wait (no coordinated omission). A connection that fails counts its request as an
// error and reconnects.
struct ClientConn {
  int fd = -1;
  bool busy = false;
  Clock::time_point due;
  std::string in;
  std::size_t out_sent = 0;
};

// The length of a complete response at the front of `in` (head + Content-Length body) and its
// status, or 0 while incomplete.
std::size_t CompleteResponse(const std::string& in, int* status) {
  const std::size_t head_end = in.find("\r\n\r\n");
  if (head_end == std::string::npos) return 0;
  *status = in.size() > 12 ? std::atoi(in.c_str() + 9) : 0;
  std::size_t length = 0;
  const std::size_t at = in.find("Content-Length: ");
  if (at != std::string::npos && at < head_end) length = std::strtoull(in.c_str() + at + 16, nullptr, 10);
  const std::size_t size = head_end + 4 + length;
  return in.size() >= size ? size : 0;
}

int ConnectBlocking(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  int yes = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

void RunClient(int port, int connections, long long total, Clock::time_point start,
               Clock::duration interval, std::vector<double>* latencies, long long* errors) {
  const std::string body = kBody;
  const std::string request = "POST /v1/predict HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              "Content-Type: application/json\r\nContent-Length: " +
                              std::to_string(body.size()) + "\r\n\r\n" + body;
  const int ep = epoll_create1(EPOLL_CLOEXEC);
  std::vector<ClientConn> conns(static_cast<std::size_t>(connections));
  std::deque<std::size_t> idle;  // first in, first out: every connection carries requests
  auto open_conn = [&](std::size_t i) {
    conns[i] = ClientConn{};
    conns[i].fd = ConnectBlocking(port);
    if (conns[i].fd < 0) return;
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = i;
    epoll_ctl(ep, EPOLL_CTL_ADD, conns[i].fd, &ev);
    idle.push_back(i);
  };
  for (std::size_t i = 0; i < conns.size(); ++i) open_conn(i);
  long long next = 0, done = 0;
  auto finish = [&](std::size_t i, bool ok) {
    ClientConn& c = conns[i];
    ++done;
    latencies->push_back(
        std::chrono::duration<double, std::milli>(Clock::now() - c.due).count());
    if (!ok) {
      ++*errors;
      epoll_ctl(ep, EPOLL_CTL_DEL, c.fd, nullptr);
      close(c.fd);
      open_conn(i);
      return;
    }
    c.busy = false;
    idle.push_back(i);
  };
  auto send_rest = [&](std::size_t i) {
    ClientConn& c = conns[i];
    while (c.out_sent < request.size()) {
      const ssize_t n = send(c.fd, request.data() + c.out_sent, request.size() - c.out_sent,
                             MSG_NOSIGNAL);
      if (n > 0) {
        c.out_sent += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLOUT;
        ev.data.u64 = i;
        epoll_ctl(ep, EPOLL_CTL_MOD, c.fd, &ev);
        return;
      }
      finish(i, false);
      return;
    }
  };
  std::vector<epoll_event> events(static_cast<std::size_t>(connections) + 1);
  while (done < total) {
    const Clock::time_point now = Clock::now();
    while (next < total && !idle.empty() && start + interval * next <= now) {
      const std::size_t i = idle.front();
      idle.pop_front();
      ClientConn& c = conns[i];
      c.busy = true;
      c.due = start + interval * next;
      c.out_sent = 0;
      c.in.clear();
      ++next;
      send_rest(i);
    }
    // Sleep until a response arrives or the next request is due (nanosecond timeout).
    timespec timeout{0, 0};
    if (next < total && !idle.empty()) {
      const auto wait = start + interval * next - Clock::now();
      const long long ns = std::max<long long>(
          0, std::chrono::duration_cast<std::chrono::nanoseconds>(wait).count());
      timeout = {static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
    } else {
      timeout = {0, 100 * 1000 * 1000};
    }
    const int n = epoll_pwait2(ep, events.data(), static_cast<int>(events.size()), &timeout,
                               nullptr);
    for (int e = 0; e < n; ++e) {
      const std::size_t i = events[static_cast<std::size_t>(e)].data.u64;
      ClientConn& c = conns[i];
      if (!c.busy) {
        // An idle connection the server closed (its keep-alive timeout): connect again, as HTTP
        // clients do for a stale keep-alive connection. Not an error: no request was on it.
        char probe[1];
        if (recv(c.fd, probe, sizeof probe, MSG_PEEK) <= 0) {
          epoll_ctl(ep, EPOLL_CTL_DEL, c.fd, nullptr);
          close(c.fd);
          idle.erase(std::find(idle.begin(), idle.end(), i));
          open_conn(i);
        }
        continue;
      }
      if (events[static_cast<std::size_t>(e)].events & EPOLLOUT) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.u64 = i;
        epoll_ctl(ep, EPOLL_CTL_MOD, c.fd, &ev);
        send_rest(i);
        if (!c.busy) continue;
      }
      char buf[16384];
      bool failed = false;
      for (;;) {
        const ssize_t got = recv(c.fd, buf, sizeof buf, 0);
        if (got > 0) {
          c.in.append(buf, static_cast<std::size_t>(got));
          continue;
        }
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        failed = true;  // closed or reset
        break;
      }
      int status = 0;
      const std::size_t size = CompleteResponse(c.in, &status);
      if (size > 0) {
        finish(i, status == 200 && size == c.in.size());
      } else if (failed) {
        finish(i, false);
      }
    }
  }
  for (ClientConn& c : conns) {
    if (c.fd >= 0) close(c.fd);
  }
  close(ep);
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
  const CpuSeconds server_cpu_start = ProcessCpuSeconds(pid);
  const std::map<std::string, CpuSeconds> threads_start = ThreadCpuSeconds(pid);
  const CpuSeconds client_cpu_start = OwnCpuSeconds();
  const long long total = static_cast<long long>(rate * seconds);
  const Clock::duration interval = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(1.0 / rate));
  const auto start = Clock::now() + std::chrono::milliseconds(200);
  long long errors = 0;
  std::vector<double> all;
  all.reserve(static_cast<std::size_t>(total));
  RunClient(port, connections, total, start, interval, &all, &errors);
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  const CpuSeconds server_cpu = ProcessCpuSeconds(pid) - server_cpu_start;
  const CpuSeconds client_cpu = OwnCpuSeconds() - client_cpu_start;
  std::map<std::string, CpuSeconds> threads = ThreadCpuSeconds(pid);
  for (auto& [name, cpu] : threads) {
    auto before = threads_start.find(name);
    if (before != threads_start.end()) cpu = cpu - before->second;
  }
  stop_hostile = true;
  if (hostile.joinable()) hostile.join();
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);

  std::sort(all.begin(), all.end());
  auto pct = [&](double p) { return all[std::min(all.size() - 1, std::size_t(p * all.size()))]; };
  std::printf("requests %zu in %.1f s (%.0f/s offered, %.0f/s achieved) over %d connections\n",
              all.size(), wall, rate, all.size() / wall, connections);
  std::printf("latency ms: p50 %.3f  p90 %.3f  p99 %.3f  max %.3f\n", pct(0.5), pct(0.9), pct(0.99),
              all.back());
  // Where the two cores went: a server that needs most of a core per 10,000 requests cannot be
  // told apart from a client that does, unless both are measured.
  const double n = static_cast<double>(all.size());
  std::printf("cpu: server %.2f s (%.1f us/request: %.1f user, %.1f system), client %.2f s "
              "(%.1f us/request: %.1f user, %.1f system)\n",
              server_cpu.total(), 1e6 * server_cpu.total() / n, 1e6 * server_cpu.user / n,
              1e6 * server_cpu.system / n, client_cpu.total(), 1e6 * client_cpu.total() / n,
              1e6 * client_cpu.user / n, 1e6 * client_cpu.system / n);
  // A serial stage shows as one thread name near 1 core while the others idle.
  std::printf("server threads (cores over the run):");
  for (const auto& [name, cpu] : threads) std::printf(" %s %.2f", name.c_str(), cpu.total() / wall);
  std::printf("\n");
  if (idle + slow > 0) {
    std::printf("hostile: %d idle + %d slow-header connections held, %lld reconnections\n", idle,
                slow, reconnects.load());
  }
  std::printf("errors %lld; server exit %s\n", errors,
              WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "clean (SIGTERM)" : "NOT clean");
  return errors == 0 ? 0 : 1;
}
