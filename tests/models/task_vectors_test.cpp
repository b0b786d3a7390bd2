#include "models/task_vectors.h"

#include <doctest/doctest.h>

namespace perfplan::models {
namespace {

// Sums of a few decimals: exact to well under this.
constexpr double kTolerance = 1e-9;

TEST_CASE("Alpha averages each metric over the window per host, then over hosts, with fallbacks") {
  const std::vector<MetricSample> samples = {
      // host a: every primary metric.
      {"a", "cpu_idle", 10, 70},
      {"a", "cpu_idle", 20, 90},
      {"a", "cpu_idle", 100, 0},  // outside the window: ignored
      {"a", "bytes_in", 10, 100},
      {"a", "bytes_out", 10, 50},
      {"a", "disk_total", 10, 100},
      {"a", "disk_free", 10, 25},
      {"a", "mem_total", 10, 1000},
      {"a", "mem_free", 10, 100},
      {"a", "mem_cached", 10, 200},
      {"a", "mem_buffers", 10, 100},
      {"a", "load_one", 10, 1.0},
      {"a", "cpu_num", 10, 2},
      {"a", "diskstat_sda_read_bytes_per_sec", 10, 10},
      {"a", "diskstat_sda_write_bytes_per_sec", 10, 30},
      // host b: only the fallbacks.
      {"b", "cpu_user", 10, 30},
      {"b", "cpu_system", 10, 10},
      {"b", "part_max_used", 10, 50},
      {"b", "mem_total", 10, 1000},
      {"b", "mem_free", 10, 500},
      {"b", "load_one", 10, 3.0},
      // host d: not one of the application's hosts.
      {"d", "cpu_idle", 10, 0},
  };
  const ResourceVectorResult r = ComputeResourceVector(samples, {0, 50, {"a", "b", "c"}});
  REQUIRE(r.has_data());
  CHECK(r.hosts_with_data == std::vector<std::string>{"a", "b"});
  CHECK(r.alpha.cpu_percent.value() == doctest::Approx((20.0 + 40.0) / 2).epsilon(kTolerance));
  CHECK(r.alpha.disk_io_bytes_per_second.value() == doctest::Approx(40.0).epsilon(kTolerance));
  CHECK(r.alpha.network_bytes_per_second.value() == doctest::Approx(150.0).epsilon(kTolerance));
  CHECK(r.alpha.disk_used_percent.value() ==
        doctest::Approx((75.0 + 50.0) / 2).epsilon(kTolerance));
  CHECK(r.alpha.memory_used_percent.value() ==
        doctest::Approx((60.0 + 50.0) / 2).epsilon(kTolerance));
  CHECK(r.alpha.load_per_cpu.value() == doctest::Approx((0.5 + 3.0) / 2).epsilon(kTolerance));
  CHECK(r.sources[0] == "100 - cpu_idle; cpu_user + cpu_system (+ nice, wio, steal, intr present)");
  CHECK(r.sources[5] == "load_one (no cpu_num: not divided by CPUs); load_one / cpu_num");
  CHECK(r.warnings == std::vector<std::string>{"host c has no Ganglia samples in the window"});
}

TEST_CASE("A window without samples gives no resource data, never zeros") {
  const ResourceVectorResult r = ComputeResourceVector({{"a", "cpu_idle", 500, 10}}, {0, 50, {}});
  CHECK_FALSE(r.has_data());
  CHECK_FALSE(r.alpha.cpu_percent.has_value());
  CHECK_FALSE(r.alpha.load_per_cpu.has_value());
  CHECK(r.sources[0] == "no resource data: no Ganglia samples in the window");
  CHECK(r.warnings ==
        std::vector<std::string>{"no resource data: no Ganglia samples between 0 and 50"});
}

TEST_CASE("Gamma joins alpha and beta in the documented order with directions") {
  ResourceVector a;
  a.cpu_percent = 1;
  EfficiencyVector b;
  b.total_time_seconds = 2;
  b.executor_compute_time_share = 0.5;
  const PerformanceVector g = MakePerformanceVector(a, b);
  CHECK(g.values[0] == 1.0);
  CHECK(g[Dimension::kTotalTimeSeconds] == 2.0);
  CHECK(Dimensions()[10].name == "total_time_seconds");
  CHECK(Dimensions()[6].direction == Direction::kHigherIsBetter);
  CHECK(IsWorse(10, 3, 2));
  CHECK(IsWorse(6, 0.4, 0.5));
}

TEST_CASE("Executor hosts match Ganglia hosts by name, short name, FQDN and IP") {
  const std::vector<KnownHost> known = {{"c", "node1", "10.0.0.1"},
                                        {"c", "node2.example.org", "10.0.0.2"},
                                        {"c", "10.0.0.3", ""},
                                        {"d", "NODE1", "10.0.0.1"}};
  CHECK(MatchHost("node1", known) == std::vector<std::string>{"node1", "NODE1"});
  CHECK(MatchHost("node1.example.org.", known) == std::vector<std::string>{"node1", "NODE1"});
  CHECK(MatchHost("node2", known) == std::vector<std::string>{"node2.example.org"});
  CHECK(MatchHost("Node2.Other.Domain", known) == std::vector<std::string>{"node2.example.org"});
  CHECK(MatchHost("10.0.0.2", known) == std::vector<std::string>{"node2.example.org"});
  CHECK(MatchHost("10.0.0.3", known) == std::vector<std::string>{"10.0.0.3"});
  // An IP is never shortened: 10.0.0.4 is not "10".
  CHECK(MatchHost("10.0.0.4", known).empty());
  CHECK(MatchHost("node3", known).empty());
  CHECK(MatchHost("node1", {}).empty());
}

}  // namespace
}  // namespace perfplan::models
