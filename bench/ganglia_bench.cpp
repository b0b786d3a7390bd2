// Benchmark of the Ganglia path (issue 6):
//   parse a generated gmetad XML of 500 hosts × 32 metrics (target: within 20 ms), as MB/s;
//   store that snapshot in an in-memory profile store (samples/s);
//   score 10,000 applications against a 100-run history (target: within 1 s);
//   k-means (K = 2, 10 restarts) over 10,000 normalized γ vectors.
// Usage: ganglia_bench [--hosts N] [--reps R]   (prints a table; docs/performance.md records it)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "models/heuristic_score.h"
#include "models/task_clustering.h"
#include "profiles/ganglia/ganglia.h"
#include "profiles/ganglia/ganglia_store.h"

namespace {

using Clock = std::chrono::steady_clock;
double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// CPU seconds of this thread: on a machine shared with other jobs, wall time includes the time
// the scheduler gave the core to someone else; CPU time does not.
double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// A gmetad reply shaped like a real gmond 3.7.2 host (32 metrics, each with its EXTRA_DATA),
// hosts spread over clusters of 50 inside one GRID.
std::string GenerateGmetad(int hosts) {
  struct M {
    const char* name;
    const char* type;
    const char* units;
    const char* group;
  };
  static const M kMetrics[] = {
      {"cpu_user", "float", "%", "cpu"},
      {"cpu_system", "float", "%", "cpu"},
      {"cpu_idle", "float", "%", "cpu"},
      {"cpu_nice", "float", "%", "cpu"},
      {"cpu_wio", "float", "%", "cpu"},
      {"cpu_steal", "float", "%", "cpu"},
      {"cpu_aidle", "float", "%", "cpu"},
      {"cpu_num", "uint16", "CPUs", "cpu"},
      {"mem_free", "float", "KB", "memory"},
      {"mem_cached", "float", "KB", "memory"},
      {"mem_buffers", "float", "KB", "memory"},
      {"mem_shared", "float", "KB", "memory"},
      {"mem_total", "float", "KB", "memory"},
      {"swap_free", "float", "KB", "memory"},
      {"swap_total", "float", "KB", "memory"},
      {"bytes_in", "float", "bytes/sec", "network"},
      {"bytes_out", "float", "bytes/sec", "network"},
      {"pkts_in", "float", "packets/sec", "network"},
      {"pkts_out", "float", "packets/sec", "network"},
      {"os_name", "string", "", "system"},
      {"os_release", "string", "", "system"},
      {"machine_type", "string", "", "system"},
      {"boottime", "timestamp", "s", "system"},
      {"disk_free", "double", "GB", "disk"},
      {"disk_total", "double", "GB", "disk"},
      {"part_max_used", "float", "%", "disk"},
      {"load_one", "float", " ", "load"},
      {"load_five", "float", " ", "load"},
      {"load_fifteen", "float", " ", "load"},
      {"proc_run", "uint32", " ", "process"},
      {"proc_total", "uint32", " ", "process"},
      {"gexec", "string", "", "core"},
  };
  std::mt19937_64 rng(1);
  std::string x =
      "<?xml version=\"1.0\" encoding=\"ISO-8859-1\" standalone=\"yes\"?>\n"
      "<GANGLIA_XML VERSION=\"3.7.2\" SOURCE=\"gmetad\">\n"
      "<GRID NAME=\"bench\" AUTHORITY=\"http://bench/ganglia/\" LOCALTIME=\"1795956949\">\n";
  char buf[512];
  for (int h = 0; h < hosts; ++h) {
    if (h % 50 == 0) {
      if (h > 0) x += "</CLUSTER>\n";
      std::snprintf(buf, sizeof buf,
                    "<CLUSTER NAME=\"c%d\" LOCALTIME=\"1795956949\" OWNER=\"o\" LATLONG=\"l\" "
                    "URL=\"u\">\n",
                    h / 50);
      x += buf;
    }
    std::snprintf(buf, sizeof buf,
                  "<HOST NAME=\"node%05d.example.org\" IP=\"10.%d.%d.%d\" TAGS=\"\" "
                  "REPORTED=\"1795956929\" TN=\"19\" TMAX=\"20\" DMAX=\"0\" "
                  "LOCATION=\"unspecified\" GMOND_STARTED=\"1795956869\">\n",
                  h, h / 65536, (h / 256) % 256, h % 256);
    x += buf;
    for (const M& m : kMetrics) {
      std::string val;
      if (std::strcmp(m.type, "string") == 0) {
        val = "Linux";
      } else if (std::strcmp(m.type, "float") == 0 || std::strcmp(m.type, "double") == 0) {
        std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(rng() % 100000) / 10);
        val = buf;
      } else {
        val = std::to_string(rng() % 60000);
      }
      std::snprintf(buf, sizeof buf,
                    "<METRIC NAME=\"%s\" VAL=\"%s\" TYPE=\"%s\" UNITS=\"%s\" TN=\"%d\" "
                    "TMAX=\"90\" DMAX=\"0\" SLOPE=\"both\" SOURCE=\"gmond\">\n"
                    "<EXTRA_DATA>\n<EXTRA_ELEMENT NAME=\"GROUP\" VAL=\"%s\"/>\n"
                    "<EXTRA_ELEMENT NAME=\"DESC\" VAL=\"%s of the host\"/>\n"
                    "<EXTRA_ELEMENT NAME=\"TITLE\" VAL=\"%s\"/>\n</EXTRA_DATA>\n</METRIC>\n",
                    m.name, val.c_str(), m.type, m.units, static_cast<int>(rng() % 60), m.group,
                    m.name, m.name);
      x += buf;
    }
    x += "</HOST>\n";
  }
  x += "</CLUSTER>\n</GRID>\n</GANGLIA_XML>\n";
  return x;
}

perfplan::models::PerformanceVector RandomGamma(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.01, 1.0);
  perfplan::models::PerformanceVector g;
  for (auto& v : g.values) v = u(rng) * 100;
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  int hosts = 500;
  int reps = 21;
  bool parse_only = false;  // --parse-only: for profiling the parser under callgrind
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--parse-only") == 0) parse_only = true;
  }
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--hosts") == 0) hosts = std::atoi(argv[++i]);
    if (std::strcmp(argv[i], "--reps") == 0) reps = std::atoi(argv[++i]);
  }
  const std::string xml = GenerateGmetad(hosts);
  std::vector<double> parse_s, parse_cpu_s;
  std::size_t metrics = 0;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    const double c0 = CpuSeconds();
    auto snap = perfplan::profiles::ParseGangliaXml(xml, "bench");
    parse_cpu_s.push_back(CpuSeconds() - c0);
    parse_s.push_back(Seconds(Clock::now() - t0));
    if (!snap.ok()) {
      std::fprintf(stderr, "parse failed: %s\n", snap.status().message().c_str());
      return 1;
    }
    metrics = snap.value().MetricCount();
  }
  const double parse_median = Median(parse_s);
  std::printf("gmetad XML: %d hosts, %zu metrics, %.2f MB\n", hosts, metrics, xml.size() / 1e6);
  const double parse_cpu = Median(parse_cpu_s);
  std::printf(
      "  parse median of %d: wall %.2f ms (max %.2f ms), %.0f MB/s; CPU %.2f ms, %.0f MB/s\n", reps,
      parse_median * 1e3, *std::max_element(parse_s.begin(), parse_s.end()) * 1e3,
      xml.size() / 1e6 / parse_median, parse_cpu * 1e3, xml.size() / 1e6 / parse_cpu);

  if (parse_only) return 0;
  auto snap = perfplan::profiles::ParseGangliaXml(xml, "bench");
  auto store =
      perfplan::profiles::Store::Open(":memory:", {perfplan::profiles::GangliaMigrations()});
  if (!store.ok()) return 1;
  const auto s0 = Clock::now();
  auto counts = perfplan::profiles::StoreGangliaSnapshot(*store.value(), snap.value(), 0);
  const double store_s = Seconds(Clock::now() - s0);
  if (!counts.ok()) return 1;
  std::printf("  store (:memory:, one transaction): %.1f ms, %.0f samples/s\n", store_s * 1e3,
              counts.value().samples_added / store_s);

  std::mt19937_64 rng(2);
  perfplan::models::ScoreInput input;
  input.type = perfplan::models::TaskType::kIoIntensive;
  for (int i = 0; i < 100; ++i) {
    input.history.push_back({"h" + std::to_string(i), RandomGamma(rng), i == 0});
  }
  std::vector<perfplan::models::PerformanceVector> runs;
  for (int i = 0; i < 10000; ++i) runs.push_back(RandomGamma(rng));
  double checksum = 0;
  const double score_cpu0 = CpuSeconds();
  const auto c0 = Clock::now();
  for (const auto& g : runs) {
    input.gamma = g;
    checksum += perfplan::models::ComputeScore(input).value().score;
  }
  const double score_s = Seconds(Clock::now() - c0);
  const double score_cpu = CpuSeconds() - score_cpu0;
  std::printf(
      "score 10,000 applications (history of 100 runs each): wall %.1f ms, CPU %.1f ms "
      "(checksum %.1f)\n",
      score_s * 1e3, score_cpu * 1e3, checksum);

  std::vector<std::vector<double>> points;
  for (const auto& g : runs) {
    std::vector<double> row;
    for (const auto& v : g.values) row.push_back(*v);
    points.push_back(row);
  }
  auto scaling = perfplan::models::FitMinMax(points).value();
  for (auto& p : points) p = perfplan::models::ApplyMinMax(scaling, p);
  const auto k0 = Clock::now();
  auto km = perfplan::models::KMeans(points, {});
  const double kmeans_s = Seconds(Clock::now() - k0);
  std::printf("k-means K=2, 10 restarts, 10,000 x 12: %.1f ms (SSE %.1f)\n", kmeans_s * 1e3,
              km.value().sse);
  return 0;
}
