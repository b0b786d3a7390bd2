#include "planner/runtime/store_backtest.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "models/json_text.h"
#include "planner/output/backtest_export.h"
#include "profiles/spark/spark_store.h"
#include "profiles/spark/spark_summary_records.h"
#include "tuning/spark_units.h"

namespace perfplan::planner {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kDefaultExecutorMemoryBytes = 1 * kGiB;  // spark.executor.memory's default, 1g
// Bandwidth does not enter the pooled forms; a fixed figure keeps the runs valid.
constexpr double kNominalBandwidth = 125e6;

struct AppRun {
  profiles::spark::ApplicationSummary summary;
  models::MeasuredRun run;
  bool has_input = false;
};

}  // namespace

Result<StoreBacktestAnswer> AnswerStoreBacktest(const StoreBacktestRequest& request) {
  if (Status s = request.options.Validate(); !s.ok()) return s;
  auto store = profiles::Store::OpenReadOnly(request.store_path,
                                             {profiles::spark::StoreMigrations()});
  if (!store.ok()) return store.status();
  profiles::Store& db = *store.value();
  auto apps = profiles::spark::ListApplications(db);
  if (!apps.ok()) return apps.status();

  StoreBacktestAnswer out;
  std::set<std::string> names, seen;
  std::vector<AppRun> runs;
  for (const profiles::spark::ApplicationSummary& a : apps.value()) {  // latest start first
    names.insert(a.name);
    if (a.name != request.app_name || !seen.insert(a.app_id).second) continue;  // latest attempt
    if (!a.end_time_ms) {
      out.notes.push_back(a.app_id + " skipped: no application end in its log");
      continue;
    }
    if (!(*a.end_time_ms > a.start_time_ms)) {
      out.notes.push_back(a.app_id + " skipped: it lasted 0 s");
      continue;
    }
    // The profile carries the executors its replay ran on; only when it fails (no input read,
    // no tasks) is the replay loaded alone, so each application is replayed once.
    auto profile =
        profiles::spark::DeriveRuntimeProfile(db, a.app_id, a.attempt_id, kNominalBandwidth);
    int executors = 0, cores = 0;
    if (profile.ok()) {
      executors = profile.value().observed_executors;
      cores = profile.value().cores_per_executor;
    } else {
      auto shape = profiles::spark::LoadApplicationShape(db, a.app_id, a.attempt_id);
      if (!shape.ok()) {
        out.notes.push_back(a.app_id + " skipped: " + shape.status().message());
        continue;
      }
      executors = shape.value().observed_executors;
      cores = shape.value().cores_per_executor;
    }
    AppRun r;
    r.summary = a;
    models::MeasuredRun& m = r.run;
    m.workload = a.name;
    m.compute_nodes = m.storage_nodes = std::max(1, executors);
    m.vcpus = std::max(1, cores);
    m.instance_type = std::to_string(static_cast<int>(m.vcpus)) + "-core executors";
    m.bandwidth_bytes_per_second = kNominalBandwidth;
    m.runtime_seconds = static_cast<double>(*a.end_time_ms - a.start_time_ms) / 1000.0;
    m.completed = a.completed;
    m.memory_bytes = kDefaultExecutorMemoryBytes;
    auto key = profiles::spark::FindAttemptKey(db, a.app_id, a.attempt_id);
    if (!key.ok()) return key.status();
    auto properties = profiles::spark::LoadSparkProperties(db, key.value());
    if (!properties.ok()) return properties.status();
    bool memory_set = false;
    for (const auto& [name, value] : properties.value()) {
      if (name != "spark.executor.memory") continue;
      auto q = tuning::ParseSparkQuantity(value, tuning::UnitHint::kBytes);
      if (q.ok() && q.value().value > 0) {
        m.memory_bytes = q.value().value;
        memory_set = true;
      }
    }
    if (!memory_set) {
      out.notes.push_back(a.app_id + ": spark.executor.memory not set, Spark's default 1g taken");
    }
    if (profile.ok() && !profile.value().profile.runs.empty() &&
        profile.value().dataset_source == profiles::spark::DatasetSource::kInputBytes) {
      m.dataset_bytes = profile.value().profile.runs[0].dataset_bytes;
      r.has_input = m.dataset_bytes > 0;
    }
    runs.push_back(r);
  }
  if (runs.empty()) {
    std::string listed;
    for (const std::string& n : names) listed += (listed.empty() ? "" : ", ") + ("'" + n + "'");
    return Status::InvalidField("app_name", "no completed application named '" +
                                                request.app_name + "' in the store " +
                                                request.store_path + " (names: " + listed + ")");
  }
  std::stable_sort(runs.begin(), runs.end(), [](const AppRun& x, const AppRun& y) {
    return x.summary.start_time_ms < y.summary.start_time_ms;
  });
  const bool sizes = std::all_of(runs.begin(), runs.end(), [](const AppRun& r) { return r.has_input; });
  if (!sizes) {
    out.notes.push_back(
        "some application read no input bytes: the dataset size is left out of the configuration "
        "(1 byte for every run)");
  }
  std::vector<double> times;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!sizes) runs[i].run.dataset_bytes = 1;
    out.answer.rows.push_back(runs[i].run);
    out.answer.row_lines.push_back(static_cast<int>(i + 1));
    out.app_ids.push_back(runs[i].summary.app_id);
    times.push_back(static_cast<double>(runs[i].summary.start_time_ms) / 1000.0);
  }
  out.answer.runs_file = "store:" + request.store_path;
  out.answer.time_column = "start_time_seconds";
  Result<models::Backtest> bt =
      models::BacktestWorkload(out.answer.rows, times, request.app_name, request.options);
  if (!bt.ok()) return bt.status();
  out.answer.backtest = bt.value();
  return out;
}

std::string ToJson(const StoreBacktestAnswer& a) {
  using nlohmann::json;
  const json table = json::parse(ToJson(BacktestTable(a.answer, a.app_ids)));
  const models::ErrorSummary& s = a.answer.backtest.summary;
  return JsonLine(json{{"store", a.answer.runs_file.substr(6)},
                       {"app_name", a.answer.backtest.workload},
                       {"time_column", a.answer.time_column},
                       {"refit_every", a.answer.backtest.refit_every},
                       {"notes", a.notes},
                       {"runs", table["rows"]},
                       {"summary",
                        {{"predicted", s.predicted},
                         {"median_ape", s.median_ape},
                         {"p90_ape", s.p90_ape},
                         {"mean_ape", s.mean_ape}}},
                       {"coverage", a.answer.backtest.coverage}});
}

}  // namespace perfplan::planner
