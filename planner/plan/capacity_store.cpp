#include "planner/plan/capacity_store.h"

#include <algorithm>
#include <cstdint>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "profiles/mapreduce/mapreduce_store.h"
#include "profiles/spark/spark_store.h"
#include "profiles/store.h"

namespace perfplan::planner {
namespace {

struct Arrival {
  std::string id;
  std::int64_t submit_ms = 0;
  double input_bytes = 0;
};

// Every arrival of the store, by submit time (then id).
Result<std::vector<Arrival>> StoreArrivals(const std::string& store_path,
                                           std::vector<std::string>* warnings) {
  std::error_code ec;
  if (!std::filesystem::exists(store_path, ec)) {
    return Status::NotFound(store_path + ": no such store; run `perfplan ingest mapreduce` or "
                                         "`perfplan ingest spark` first");
  }
  // A store is an SQLite file: a FIFO, device or directory would block or fail inside SQLite.
  if (!std::filesystem::is_regular_file(store_path, ec)) {
    return Status::InvalidField("store",
                                store_path + ": not a regular file (a store is an SQLite file)");
  }
  auto store = profiles::Store::OpenReadOnly(
      store_path, {profiles::spark::StoreMigrations(), profiles::mapreduce::StoreMigrations()});
  if (!store.ok()) return store.status();
  std::vector<Arrival> arrivals;
  std::size_t without_submit = 0;

  auto jobs = profiles::mapreduce::ListJobs(*store.value());
  if (!jobs.ok()) return jobs.status();
  for (const profiles::mapreduce::JobSummary& summary : jobs.value()) {
    if (!summary.submit_ms) {
      ++without_submit;
      continue;
    }
    auto job = profiles::mapreduce::LoadJob(*store.value(), summary.job_id);
    if (!job.ok()) return job.status();
    double bytes = 0;
    if (auto it = job.value().counters.find("total"); it != job.value().counters.end()) {
      for (const profiles::mapreduce::Counter& c : it->second) {
        if (c.name == "HDFS_BYTES_READ") bytes += static_cast<double>(c.value);
      }
    }
    arrivals.push_back({summary.job_id, *summary.submit_ms, bytes});
  }

  auto apps = profiles::spark::ListApplications(*store.value());
  if (!apps.ok()) return apps.status();
  for (const profiles::spark::ApplicationSummary& app : apps.value()) {
    auto aggregates = profiles::spark::JobAggregates(*store.value(), app.app_id, app.attempt_id);
    if (!aggregates.ok()) return aggregates.status();
    double bytes = 0;
    for (const profiles::spark::MetricAggregates& job : aggregates.value()) {
      for (const auto& [name, value] : job.values) {
        if (name == "inputBytesReadSum") bytes += value;
      }
    }
    const std::string id = app.attempt_id.empty() ? app.app_id : app.app_id + "/" + app.attempt_id;
    arrivals.push_back({id, app.start_time_ms, bytes});
  }
  if (without_submit > 0) {
    warnings->push_back(std::to_string(without_submit) +
                        " MapReduce job(s) without a submit time left out");
  }
  if (arrivals.empty()) {
    return Status::InvalidField("store", store_path +
                                             ": no MapReduce job or Spark application with a "
                                             "submit time; ingest some first");
  }
  std::sort(arrivals.begin(), arrivals.end(), [](const Arrival& a, const Arrival& b) {
    return a.submit_ms != b.submit_ms ? a.submit_ms < b.submit_ms : a.id < b.id;
  });
  return arrivals;
}

std::string Hours(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", ms / 3.6e6);
  return buf;
}

// [from, to) of the window over arrivals sorted by submit time (see CapacityWindow).
void ChooseWindow(const std::vector<Arrival>& arrivals, const CapacityWindow& window,
                  WindowedJobs* out) {
  const std::int64_t first = arrivals.front().submit_ms, last = arrivals.back().submit_ms;
  const std::int64_t span = static_cast<std::int64_t>(window.hours * 3.6e6);
  out->bounded = window.from_ms || window.to_ms || window.hours > 0;
  if (window.from_ms && window.to_ms) {
    out->from_ms = *window.from_ms, out->to_ms = *window.to_ms, out->chosen_by = "given";
  } else if (window.from_ms) {
    out->from_ms = *window.from_ms;
    out->to_ms = span > 0 ? *window.from_ms + span : last + 1;
    out->chosen_by = "given start";
  } else if (window.to_ms) {
    out->to_ms = *window.to_ms;
    out->from_ms = span > 0 ? *window.to_ms - span : first;
    out->chosen_by = "given end";
  } else if (span <= 0) {
    out->from_ms = first, out->to_ms = last + 1, out->chosen_by = "every job";
  } else {
    // The busiest window starting at a submit time: two pointers over the sorted times.
    std::size_t best_start = 0, best_count = 0, end = 0;
    for (std::size_t start = 0; start < arrivals.size(); ++start) {
      end = std::max(end, start);
      while (end < arrivals.size() && arrivals[end].submit_ms < arrivals[start].submit_ms + span) {
        ++end;
      }
      if (end - start > best_count) best_count = end - start, best_start = start;
    }
    out->from_ms = arrivals[best_start].submit_ms;
    out->to_ms = out->from_ms + span;
    out->chosen_by = "busiest " + Hours(static_cast<double>(span)) + " h of the " +
                     Hours(static_cast<double>(last - first)) + " h the stored jobs span";
  }
}

profiles::SwimTrace ToTrace(const std::string& store_path, const std::vector<Arrival>& arrivals,
                            std::int64_t from_ms, std::int64_t to_ms) {
  profiles::SwimTrace trace;
  trace.file = store_path;
  std::optional<std::int64_t> first;
  double previous = 0;
  for (const Arrival& a : arrivals) {
    if (a.submit_ms < from_ms || a.submit_ms >= to_ms) continue;
    if (!first) first = a.submit_ms;
    profiles::SwimJob job;
    job.id = a.id;
    job.submit_seconds = static_cast<double>(a.submit_ms - *first) / 1000;
    job.gap_seconds = job.submit_seconds - previous;
    previous = job.submit_seconds;
    job.map_input_bytes = a.input_bytes;
    trace.jobs.push_back(std::move(job));
  }
  return trace;
}

}  // namespace

Result<profiles::SwimTrace> StoreJobs(const std::string& store_path,
                                      std::vector<std::string>* warnings) {
  Result<std::vector<Arrival>> arrivals = StoreArrivals(store_path, warnings);
  if (!arrivals.ok()) return arrivals.status();
  return ToTrace(store_path, arrivals.value(), INT64_MIN, INT64_MAX);
}

Result<WindowedJobs> StoreJobs(const std::string& store_path, const CapacityWindow& window,
                               std::vector<std::string>* warnings) {
  Result<std::vector<Arrival>> arrivals = StoreArrivals(store_path, warnings);
  if (!arrivals.ok()) return arrivals.status();
  const std::vector<Arrival>& a = arrivals.value();
  WindowedJobs out;
  out.stored_jobs = a.size();
  ChooseWindow(a, window, &out);
  out.trace = ToTrace(store_path, a, out.from_ms, out.to_ms);
  if (out.trace.jobs.empty()) {
    return Status::InvalidField(
        "window", "no job of " + store_path + " was submitted in [" +
                      std::to_string(out.from_ms) + ", " + std::to_string(out.to_ms) +
                      ") ms; its " + std::to_string(a.size()) + " jobs were submitted from " +
                      std::to_string(a.front().submit_ms) + " to " +
                      std::to_string(a.back().submit_ms) + " ms");
  }
  return out;
}

}  // namespace perfplan::planner
