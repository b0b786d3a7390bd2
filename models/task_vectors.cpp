#include "models/task_vectors.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace perfplan::models {

const std::array<DimensionInfo, kDimensions>& Dimensions() {
  static const std::array<DimensionInfo, kDimensions> kInfo = {{
      {"cpu_percent", Direction::kLowerIsBetter},
      {"disk_io_bytes_per_second", Direction::kLowerIsBetter},
      {"network_bytes_per_second", Direction::kLowerIsBetter},
      {"disk_used_percent", Direction::kLowerIsBetter},
      {"memory_used_percent", Direction::kLowerIsBetter},
      {"load_per_cpu", Direction::kLowerIsBetter},
      {"executor_compute_time_share", Direction::kHigherIsBetter},
      {"shuffle_time_share", Direction::kLowerIsBetter},
      {"shuffle_bytes", Direction::kLowerIsBetter},
      {"gc_time_share", Direction::kLowerIsBetter},
      {"total_time_seconds", Direction::kLowerIsBetter},
      {"result_serialization_share", Direction::kLowerIsBetter},
  }};
  return kInfo;
}

bool IsWorse(std::size_t dimension, double a, double b) {
  return Dimensions()[dimension].direction == Direction::kLowerIsBetter ? a > b : a < b;
}

PerformanceVector MakePerformanceVector(const ResourceVector& alpha, const EfficiencyVector& beta) {
  PerformanceVector g;
  g[Dimension::kCpuPercent] = alpha.cpu_percent;
  g[Dimension::kDiskIoBytesPerSecond] = alpha.disk_io_bytes_per_second;
  g[Dimension::kNetworkBytesPerSecond] = alpha.network_bytes_per_second;
  g[Dimension::kDiskUsedPercent] = alpha.disk_used_percent;
  g[Dimension::kMemoryUsedPercent] = alpha.memory_used_percent;
  g[Dimension::kLoadPerCpu] = alpha.load_per_cpu;
  g[Dimension::kExecutorComputeTimeShare] = beta.executor_compute_time_share;
  g[Dimension::kShuffleTimeShare] = beta.shuffle_time_share;
  g[Dimension::kShuffleBytes] = beta.shuffle_bytes;
  g[Dimension::kGcTimeShare] = beta.gc_time_share;
  g[Dimension::kTotalTimeSeconds] = beta.total_time_seconds;
  g[Dimension::kResultSerializationShare] = beta.result_serialization_share;
  return g;
}

namespace {

using HostMeans = std::map<std::string, double>;  // metric → mean over the window

std::optional<double> Get(const HostMeans& m, const char* name) {
  auto it = m.find(name);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// One host's dimension value and the description of how it was obtained.
struct Derived {
  std::optional<double> value;
  std::string source;
};

Derived Cpu(const HostMeans& m) {
  if (auto idle = Get(m, "cpu_idle")) return {100.0 - *idle, "100 - cpu_idle"};
  auto user = Get(m, "cpu_user");
  auto system = Get(m, "cpu_system");
  if (user && system) {
    double busy = *user + *system;
    for (const char* extra : {"cpu_nice", "cpu_wio", "cpu_steal", "cpu_sintr", "cpu_intr"}) {
      if (auto v = Get(m, extra)) busy += *v;
    }
    return {busy, "cpu_user + cpu_system (+ nice, wio, steal, intr present)"};
  }
  return {std::nullopt, "no cpu_idle or cpu_user/cpu_system"};
}

Derived DiskIo(const HostMeans& m) {
  // gmond's python diskstat module: diskstat_<device>_{read,write}_bytes_per_sec.
  double sum = 0;
  int found = 0;
  for (const auto& [name, v] : m) {
    if (name.rfind("diskstat_", 0) == 0 &&
        (EndsWith(name, "_read_bytes_per_sec") || EndsWith(name, "_write_bytes_per_sec"))) {
      sum += v;
      ++found;
    }
  }
  if (found > 0) return {sum, "diskstat_*_read/write_bytes_per_sec"};
  return {std::nullopt, "no diskstat module metrics (diskstat_*_read/write_bytes_per_sec)"};
}

Derived Network(const HostMeans& m) {
  auto in = Get(m, "bytes_in");
  auto out = Get(m, "bytes_out");
  if (in && out) return {*in + *out, "bytes_in + bytes_out"};
  if (in) return {*in, "bytes_in only (no bytes_out)"};
  if (out) return {*out, "bytes_out only (no bytes_in)"};
  return {std::nullopt, "no bytes_in/bytes_out"};
}

Derived DiskUsed(const HostMeans& m) {
  auto total = Get(m, "disk_total");
  auto free = Get(m, "disk_free");
  if (total && free && *total > 0) {
    return {100.0 * (*total - *free) / *total, "100 * (disk_total - disk_free) / disk_total"};
  }
  if (auto part = Get(m, "part_max_used")) return {*part, "part_max_used"};
  return {std::nullopt, "no disk_total/disk_free or part_max_used"};
}

Derived Memory(const HostMeans& m) {
  auto total = Get(m, "mem_total");
  auto free = Get(m, "mem_free");
  if (!total || !free || *total <= 0) return {std::nullopt, "no mem_total/mem_free"};
  auto cached = Get(m, "mem_cached");
  auto buffers = Get(m, "mem_buffers");
  if (cached && buffers) {
    return {100.0 * (*total - *free - *cached - *buffers) / *total,
            "100 * (mem_total - mem_free - mem_cached - mem_buffers) / mem_total"};
  }
  return {100.0 * (*total - *free) / *total,
          "100 * (mem_total - mem_free) / mem_total (no mem_cached/mem_buffers)"};
}

Derived Load(const HostMeans& m) {
  auto load = Get(m, "load_one");
  if (!load) return {std::nullopt, "no load_one"};
  auto cpus = Get(m, "cpu_num");
  if (cpus && *cpus > 0) return {*load / *cpus, "load_one / cpu_num"};
  return {*load, "load_one (no cpu_num: not divided by CPUs)"};
}

}  // namespace

ResourceVectorResult ComputeResourceVector(const std::vector<MetricSample>& samples,
                                           const ResourceWindow& window) {
  const std::set<std::string> wanted(window.hosts.begin(), window.hosts.end());
  // host → metric → (sum, count)
  std::map<std::string, std::map<std::string, std::pair<double, int>>> acc;
  for (const MetricSample& s : samples) {
    if (s.time_seconds < window.from_seconds || s.time_seconds > window.to_seconds) continue;
    if (!wanted.empty() && !wanted.count(s.host)) continue;
    auto& cell = acc[s.host][s.metric];
    cell.first += s.value;
    ++cell.second;
  }
  ResourceVectorResult out;
  for (const std::string& h : window.hosts) {
    if (!acc.count(h))
      out.warnings.push_back("host " + h + " has no Ganglia samples in the window");
  }
  using Fn = Derived (*)(const HostMeans&);
  static constexpr Fn kDerive[6] = {Cpu, DiskIo, Network, DiskUsed, Memory, Load};
  std::array<std::pair<double, int>, 6> totals{};
  std::array<std::set<std::string>, 6> sources;
  for (const auto& [host, metrics] : acc) {
    out.hosts_with_data.push_back(host);
    HostMeans means;
    for (const auto& [name, sc] : metrics) means[name] = sc.first / sc.second;
    for (std::size_t d = 0; d < 6; ++d) {
      Derived v = kDerive[d](means);
      sources[d].insert(v.source);
      if (v.value) {
        totals[d].first += *v.value;
        ++totals[d].second;
      }
    }
  }
  std::array<std::optional<double>*, 6> dst = {&out.alpha.cpu_percent,
                                               &out.alpha.disk_io_bytes_per_second,
                                               &out.alpha.network_bytes_per_second,
                                               &out.alpha.disk_used_percent,
                                               &out.alpha.memory_used_percent,
                                               &out.alpha.load_per_cpu};
  for (std::size_t d = 0; d < 6; ++d) {
    if (out.hosts_with_data.empty()) {
      out.sources[d] = "no resource data: no Ganglia samples in the window";
      continue;
    }
    if (totals[d].second > 0) *dst[d] = totals[d].first / totals[d].second;
    std::string joined;
    for (const std::string& s : sources[d]) joined += (joined.empty() ? "" : "; ") + s;
    out.sources[d] = joined;
  }
  if (out.hosts_with_data.empty()) {
    out.warnings.push_back("no resource data: no Ganglia samples between " +
                           std::to_string(window.from_seconds) + " and " +
                           std::to_string(window.to_seconds));
  }
  return out;
}

namespace {

std::string Canonical(std::string_view name) {
  std::string out(name);
  while (!out.empty() && out.back() == '.') out.pop_back();
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsIpv4(std::string_view s) {
  int dots = 0, digits = 0;
  for (char c : s) {
    if (c == '.') {
      if (digits == 0) return false;
      ++dots;
      digits = 0;
    } else if (c >= '0' && c <= '9') {
      if (++digits > 3) return false;
    } else {
      return false;
    }
  }
  return dots == 3 && digits > 0;
}

std::string ShortName(const std::string& canonical) {
  if (IsIpv4(canonical) || canonical.find(':') != std::string::npos) return canonical;
  return canonical.substr(0, canonical.find('.'));
}

}  // namespace

std::vector<std::string> MatchHost(const std::string& host, const std::vector<KnownHost>& known) {
  const std::string h = Canonical(host);
  const std::string short_h = ShortName(h);
  std::vector<std::string> out;
  for (const KnownHost& k : known) {
    const std::string name = Canonical(k.name);
    const bool match = name == h || ShortName(name) == short_h ||
                       (!k.ip.empty() && Canonical(k.ip) == h);
    if (match && std::find(out.begin(), out.end(), k.name) == out.end()) out.push_back(k.name);
  }
  return out;
}

}  // namespace perfplan::models
