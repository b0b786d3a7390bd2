#include "planner/plan/capacity_store.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>

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

}  // namespace

Result<profiles::SwimTrace> StoreJobs(const std::string& store_path,
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
  profiles::SwimTrace trace;
  trace.file = store_path;
  const std::int64_t first = arrivals.front().submit_ms;
  double previous = 0;
  for (const Arrival& a : arrivals) {
    profiles::SwimJob job;
    job.id = a.id;
    job.submit_seconds = static_cast<double>(a.submit_ms - first) / 1000;
    job.gap_seconds = job.submit_seconds - previous;
    previous = job.submit_seconds;
    job.map_input_bytes = a.input_bytes;
    trace.jobs.push_back(std::move(job));
  }
  return trace;
}

}  // namespace perfplan::planner
