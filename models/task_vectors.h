// The performance vectors of DESIGN §3.5 (seed 002): α (cluster resources an application used,
// from Ganglia samples), β (how efficiently it ran, from its event log) and γ = (α, β), each of
// the 12 dimensions with a direction.
//
// Pure functions over plain structs: no I/O; the caller loads samples from the store. Thread-safe
// as any value type.
//
// Units: times are Unix epoch seconds; cpu/disk/memory in percent (0–100); disk and network
// throughput in bytes per second; load is the 1-minute load average per CPU; shares are
// fractions 0–1; shuffle in bytes; total time in seconds.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfplan::models {

// One numeric Ganglia sample of one host (as stored by profiles/ganglia/ganglia_store.h).
struct MetricSample {
  std::string host;
  std::string metric;  // Ganglia metric name, e.g. "cpu_idle"
  std::int64_t time_seconds = 0;
  double value = 0;
};

// α: averaged over the application's window and hosts. A dimension is absent (nullopt) when no
// host had a metric it can be computed from — "no resource data", never a zero.
struct ResourceVector {
  std::optional<double> cpu_percent;               // 100 − cpu_idle (fallback: sum of busy)
  std::optional<double> disk_io_bytes_per_second;  // diskstat module read+write
  std::optional<double> network_bytes_per_second;  // bytes_in + bytes_out
  std::optional<double> disk_used_percent;         // (disk_total − disk_free)/disk_total
  std::optional<double> memory_used_percent;       // (total − free − cached − buffers)/total
  std::optional<double> load_per_cpu;              // load_one / cpu_num
};

struct ResourceWindow {
  std::int64_t from_seconds = 0;   // inclusive
  std::int64_t to_seconds = 0;     // inclusive
  std::vector<std::string> hosts;  // the application's executors' hosts; empty = every host
};

// α with how each dimension was obtained: `sources[d]` names the metrics used (or why absent),
// `hosts_with_data` the hosts that had any sample in the window.
struct ResourceVectorResult {
  ResourceVector alpha;
  std::array<std::string, 6> sources;
  std::vector<std::string> hosts_with_data;
  std::vector<std::string> warnings;  // e.g. a host of the application without samples
  bool has_data() const { return !hosts_with_data.empty(); }
};

// Averages each metric over the window per host (mean of that host's samples with time in
// [from, to]), derives the six dimensions per host (with the fallbacks of docs/ganglia.md), then
// averages each dimension over the hosts that could compute it. Samples outside the window or of
// other hosts are ignored. Never fails: missing data yields absent dimensions with the reason
// in `sources` and `warnings`.
ResourceVectorResult ComputeResourceVector(const std::vector<MetricSample>& samples,
                                           const ResourceWindow& window);

// β: from the application's event log (filled by the Spark ingester; absent = unknown).
struct EfficiencyVector {
  std::optional<double> executor_compute_time_share;  // executor run time / task time
  std::optional<double> shuffle_time_share;           // shuffle read+write time / task time
  std::optional<double> shuffle_bytes;                // shuffle read + write bytes
  std::optional<double> gc_time_share;                // JVM GC time / executor run time
  std::optional<double> total_time_seconds;           // application end − start
  std::optional<double> result_serialization_share;   // result serialization / run time
};

enum class Direction { kLowerIsBetter, kHigherIsBetter };

constexpr std::size_t kDimensions = 12;
// Dimension order of γ: the six of α, then the six of β (the order of the structs above).
enum class Dimension : std::size_t {
  kCpuPercent = 0,
  kDiskIoBytesPerSecond,
  kNetworkBytesPerSecond,
  kDiskUsedPercent,
  kMemoryUsedPercent,
  kLoadPerCpu,
  kExecutorComputeTimeShare,
  kShuffleTimeShare,
  kShuffleBytes,
  kGcTimeShare,
  kTotalTimeSeconds,
  kResultSerializationShare,
};

struct DimensionInfo {
  std::string_view name;  // snake_case with units, as in JSON output
  Direction direction;
};
// Name and direction of each dimension: resource use, shuffle, GC, serialization and total
// time are better lower; the executor compute share is better higher.
const std::array<DimensionInfo, kDimensions>& Dimensions();
constexpr std::size_t Index(Dimension d) { return static_cast<std::size_t>(d); }

// γ = (α, β): 12 optional values in Dimensions() order.
struct PerformanceVector {
  std::array<std::optional<double>, kDimensions> values{};
  std::optional<double>& operator[](Dimension d) { return values[Index(d)]; }
  const std::optional<double>& operator[](Dimension d) const { return values[Index(d)]; }
};
PerformanceVector MakePerformanceVector(const ResourceVector& alpha, const EfficiencyVector& beta);

// A host as a monitoring system knows it (Ganglia's HOST NAME and IP).
struct KnownHost {
  std::string cluster;
  std::string name;
  std::string ip;  // "" when not known
};
// The names in `known` that stand for `host` (an executor host of an event log): the same name,
// the same short name (the part before the first '.', so "node1" matches "node1.example.com" and
// back; IPv4 addresses are never shortened), or an address equal to the known host's IP or to
// a known name that is an IP. Case-insensitive, trailing '.' ignored. Several matches (the same
// host in several clusters) are all returned, in `known` order, without repeats.
std::vector<std::string> MatchHost(const std::string& host, const std::vector<KnownHost>& known);

// True when `a` is worse than `b` in the dimension's direction.
bool IsWorse(std::size_t dimension, double a, double b);

}  // namespace perfplan::models
