#include "planner/ganglia/ganglia_collect.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <set>
#include <thread>

#include "profiles/ganglia/ganglia.h"
#include "profiles/ganglia/ganglia_store.h"

namespace perfplan::planner {

Status CollectOptions::Validate() const {
  if (source.empty()) {
    return Status::InvalidArgument("--source: empty (expected HOST:PORT or a file path)");
  }
  auto positive = [](const char* field, double v, bool zero_ok) -> Status {
    if (!std::isfinite(v) || v < 0 || (!zero_ok && v == 0)) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", v);
      return Status::InvalidArgument(std::string(field) + ": " + buf + " is not " +
                                     (zero_ok ? "a number >= 0" : "a number > 0") + " of seconds");
    }
    return Status::Ok();
  };
  if (Status s = positive("--interval", interval_seconds, false); !s.ok()) return s;
  if (Status s = positive("--duration", duration_seconds, true); !s.ok()) return s;
  return positive("--timeout", timeout_seconds, false);
}

namespace {

void Merge(CollectAnswer& answer, std::set<std::string>& hosts_seen,
           std::set<std::string>& metrics_seen, const profiles::GangliaStoreCounts& counts) {
  answer.samples += counts.samples_added;
  answer.samples_seen += counts.samples_seen;
  for (const std::string& h : counts.hosts) {
    if (hosts_seen.insert(h).second) answer.hosts.push_back(h);
  }
  for (const std::string& m : counts.metrics) {
    if (metrics_seen.insert(m).second) answer.metrics.push_back(m);
  }
}

void FillDefaults(CollectHooks& hooks) {
  if (!hooks.should_stop) hooks.should_stop = [] { return false; };
  if (!hooks.now_epoch) {
    hooks.now_epoch = [] {
      return static_cast<std::int64_t>(std::chrono::duration_cast<std::chrono::seconds>(
                                           std::chrono::system_clock::now().time_since_epoch())
                                           .count());
    };
  }
  if (!hooks.monotonic_seconds) {
    hooks.monotonic_seconds = [] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
          .count();
    };
  }
  if (!hooks.sleep_seconds) {
    auto stop = hooks.should_stop;
    hooks.sleep_seconds = [stop](double seconds) {
      const auto end = std::chrono::steady_clock::now() +
                       std::chrono::microseconds(static_cast<long long>(seconds * 1e6));
      while (!stop() && std::chrono::steady_clock::now() < end) {
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
            std::chrono::milliseconds(50), end - std::chrono::steady_clock::now()));
      }
    };
  }
}

Result<CollectAnswer> CollectFile(profiles::Store& store, const CollectOptions& settings,
                                  CollectHooks& hooks) {
  Result<profiles::GangliaFile> file = profiles::ReadGangliaFile(settings.source);
  if (!file.ok()) return file.status();
  CollectAnswer answer;
  answer.source = settings.source;
  std::set<std::string> hosts, metrics;
  Result<profiles::GangliaStoreCounts> counts =
      file.value().kind == profiles::GangliaFileKind::kXml
          ? profiles::StoreGangliaSnapshot(store, *file.value().snapshot, hooks.now_epoch())
          : profiles::StoreGangliaExport(store, *file.value().exported);
  if (!counts.ok()) return counts.status();
  answer.kind = file.value().kind == profiles::GangliaFileKind::kXml
                    ? "xml-file"
                    : file.value().exported->format;
  answer.polls = 1;
  Merge(answer, hosts, metrics, counts.value());
  return answer;
}

}  // namespace

Result<CollectAnswer> CollectGanglia(profiles::Store& store, const CollectOptions& settings,
                                     CollectHooks hooks) {
  if (Status s = settings.Validate(); !s.ok()) return s;
  FillDefaults(hooks);
  std::error_code ec;
  if (std::filesystem::exists(settings.source, ec)) return CollectFile(store, settings, hooks);
  Result<std::pair<std::string, int>> endpoint = profiles::ParseHostPort(settings.source);
  if (!endpoint.ok()) {
    return Status::InvalidArgument("--source " + settings.source +
                                   ": no such file, and not HOST:PORT (e.g. 127.0.0.1:8649)");
  }
  const auto& [host, port] = endpoint.value();
  CollectAnswer answer;
  answer.source = settings.source;
  answer.kind = "live";
  std::set<std::string> hosts_seen, metrics_seen;
  const double start = hooks.monotonic_seconds();
  for (int poll = 0;; ++poll) {
    if (hooks.should_stop()) {
      answer.interrupted = true;
      break;
    }
    const std::int64_t poll_epoch = hooks.now_epoch();
    Result<profiles::GangliaSnapshot> snap =
        profiles::FetchGangliaXml(host, port, settings.timeout_seconds);
    if (!snap.ok()) {
      if (hooks.should_stop()) {  // the signal cut the poll short: nothing of it is kept
        answer.interrupted = true;
        break;
      }
      if (answer.polls == 0 && answer.failed_polls == 0) return snap.status();
      ++answer.failed_polls;
      answer.warnings.push_back("poll " + std::to_string(poll + 1) + ": " +
                                snap.status().message());
    } else {
      Result<profiles::GangliaStoreCounts> counts =
          profiles::StoreGangliaSnapshot(store, snap.value(), poll_epoch);
      if (!counts.ok()) return counts.status();
      ++answer.polls;
      Merge(answer, hosts_seen, metrics_seen, counts.value());
    }
    const double next = start + (poll + 1) * settings.interval_seconds;
    if (next >= start + settings.duration_seconds) break;
    const double wait = next - hooks.monotonic_seconds();
    if (wait > 0) hooks.sleep_seconds(wait);
  }
  if (answer.polls == 0 && !answer.interrupted) {
    return Status::Failed(settings.source + ": every poll failed");
  }
  return answer;
}

}  // namespace perfplan::planner
