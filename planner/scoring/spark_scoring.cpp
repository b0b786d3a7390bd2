#include "planner/scoring/spark_scoring.h"

#include <cmath>
#include <filesystem>
#include <set>

#include "models/text.h"
#include "planner/scoring/score_runs.h"
#include "profiles/ganglia/ganglia_store.h"
#include "profiles/ganglia/task_type_hints.h"
#include "profiles/problem.h"
#include "profiles/spark/spark_store.h"

namespace perfplan::planner {
namespace {

using models::Trim;

Status NotFoundWithSuggestion(const std::string& app_id,
                              const std::vector<profiles::spark::ApplicationSummary>& apps) {
  std::string message = "no Spark application " + app_id + " in the store";
  if (apps.empty())
    return Status::NotFound(message + " (it holds none: run perfplan ingest spark)");
  std::vector<std::string_view> ids;
  for (const auto& a : apps) ids.push_back(a.app_id);
  const std::string suggestion = profiles::SuggestClosest(app_id, ids);
  if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
  return Status::NotFound(message);
}

std::optional<double> Share(double share, const profiles::spark::EfficiencyVector& b) {
  if (b.task_seconds <= 0) return std::nullopt;
  return share;
}

}  // namespace

std::vector<profiles::Migrations> ScoringMigrations() {
  return {profiles::spark::StoreMigrations(), profiles::GangliaMigrations(),
          profiles::TaskTypeMigrations()};
}

const std::vector<std::pair<std::string_view, std::string_view>>& TuningPropertyDefaults() {
  // Defaults from Spark's configuration page (3.x); "" where the default depends on the cluster.
  static const std::vector<std::pair<std::string_view, std::string_view>> kDefaults = {
      {"spark.executor.memory", "1g"},
      {"spark.executor.cores", ""},
      {"spark.executor.instances", ""},
      {"spark.executor.memoryOverhead", ""},
      {"spark.driver.memory", "1g"},
      {"spark.driver.cores", "1"},
      {"spark.default.parallelism", ""},
      {"spark.sql.shuffle.partitions", "200"},
      {"spark.memory.fraction", "0.6"},
      {"spark.memory.storageFraction", "0.5"},
      {"spark.memory.offHeap.enabled", "false"},
      {"spark.serializer", "org.apache.spark.serializer.JavaSerializer"},
      {"spark.kryoserializer.buffer.max", "64m"},
      {"spark.io.compression.codec", "lz4"},
      {"spark.shuffle.compress", "true"},
      {"spark.shuffle.spill.compress", "true"},
      {"spark.shuffle.file.buffer", "32k"},
      {"spark.reducer.maxSizeInFlight", "48m"},
      {"spark.broadcast.compress", "true"},
      {"spark.rdd.compress", "false"},
      {"spark.speculation", "false"},
      {"spark.locality.wait", "3s"},
      {"spark.task.cpus", "1"},
      {"spark.dynamicAllocation.enabled", "false"},
      {"spark.sql.autoBroadcastJoinThreshold", "10485760"},
      {"spark.sql.files.maxPartitionBytes", "134217728"},
      {"spark.sql.adaptive.enabled", ""},
  };
  return kDefaults;
}

std::vector<std::string> NonDefaultTuningProperties(
    const std::vector<std::pair<std::string, std::string>>& spark_properties) {
  std::vector<std::string> out;
  for (const auto& [name, value] : spark_properties) {
    for (const auto& [tuning, default_value] : TuningPropertyDefaults()) {
      if (name != tuning) continue;
      if (default_value.empty() || Trim(value) != default_value) {
        out.push_back(name + "=" + value);
      }
    }
  }
  return out;
}

Result<StoredRun> LoadStoredRun(profiles::Store& store, const std::string& app_id) {
  if (Status s = CheckApplicationExists(store, app_id); !s.ok()) return s;
  auto described = profiles::spark::DescribeApplication(store, app_id);
  if (!described.ok()) return described.status();
  const profiles::spark::ApplicationSummary& summary = described.value().first;
  auto key = profiles::spark::FindAttemptKey(store, app_id, summary.attempt_id);
  if (!key.ok()) return key.status();
  auto beta = profiles::spark::ComputeEfficiencyVector(store, app_id, summary.attempt_id);
  if (!beta.ok()) return beta.status();

  StoredRun out;
  ApplicationRun& run = out.run;
  run.app_id = app_id;
  const auto& b = beta.value();
  run.name = summary.name;
  run.input_bytes = b.input_bytes;
  out.tasks = b.finished_tasks;
  run.beta.executor_compute_time_share = Share(b.compute_share, b);
  if (b.task_seconds > 0 && b.tasks_with_cpu_time == 0) {
    // Spark logs Executor CPU Time since 2.1; a store keeps the unlogged metric as 0.
    run.beta.executor_compute_time_share.reset();
    out.notes.push_back("the event log records no executor CPU time: " +
                        std::string(models::Dimensions()[models::Index(
                                        models::Dimension::kExecutorComputeTimeShare)]
                                        .name) +
                        " is absent");
  }
  run.beta.shuffle_time_share = Share(b.shuffle_share, b);
  run.beta.shuffle_bytes = b.shuffle_bytes;
  run.beta.gc_time_share = Share(b.gc_share, b);
  run.beta.total_time_seconds = b.total_seconds;
  run.beta.result_serialization_share = Share(b.result_serialization_share, b);
  if (b.task_seconds <= 0) out.notes.push_back("no task finished: the event-log shares are absent");

  run.start_epoch =
      static_cast<std::int64_t>(std::floor(static_cast<double>(summary.start_time_ms) / 1000.0));
  if (summary.end_time_ms) {
    run.end_epoch =
        static_cast<std::int64_t>(std::ceil(static_cast<double>(*summary.end_time_ms) / 1000.0));
  } else {
    run.end_epoch = static_cast<std::int64_t>(
        std::ceil(static_cast<double>(summary.start_time_ms) / 1000.0 + b.total_seconds));
    out.notes.push_back("the log has no application end: the window ends at its last task");
  }

  auto hosts = profiles::spark::LoadExecutorHosts(store, key.value());
  if (!hosts.ok()) return hosts.status();
  if (!hosts.value().executors.empty()) {
    run.hosts = std::move(hosts.value().executors);
  } else {
    run.hosts = std::move(hosts.value().driver);
    if (!run.hosts.empty())
      out.notes.push_back("local mode: the driver's host stands for the executors");
  }
  if (run.hosts.empty()) out.notes.push_back("no executor host in the log: no resource data");

  auto properties = profiles::spark::LoadSparkProperties(store, key.value());
  if (!properties.ok()) return properties.status();
  out.non_default = NonDefaultTuningProperties(properties.value());
  run.baseline = out.non_default.empty();
  if (!run.baseline) {
    std::string list;
    for (const std::string& p : out.non_default) list += (list.empty() ? "" : ", ") + p;
    out.notes.push_back("not a default-configuration run: " + list);
  }
  return out;
}

Status CheckApplicationExists(profiles::Store& store, const std::string& app_id) {
  auto apps = profiles::spark::ListApplications(store);
  if (!apps.ok()) return apps.status();
  for (const auto& a : apps.value()) {
    if (a.app_id == app_id) return Status::Ok();
  }
  return NotFoundWithSuggestion(app_id, apps.value());
}

Result<std::vector<StoredRun>> LoadStoredRuns(profiles::Store& store) {
  auto apps = profiles::spark::ListApplications(store);
  if (!apps.ok()) return apps.status();
  std::set<std::string> seen;
  std::vector<StoredRun> out;
  for (const auto& a : apps.value()) {
    if (!seen.insert(a.app_id).second) continue;
    auto run = LoadStoredRun(store, a.app_id);
    if (!run.ok()) return run.status();
    out.push_back(std::move(run).value());
  }
  return out;
}

Result<ClassifyAnswer> ClassifyStoredApplications(profiles::Store& store) {
  auto stored = LoadStoredRuns(store);
  if (!stored.ok()) return stored.status();
  if (stored.value().empty()) return NotFoundWithSuggestion("*", {});
  std::vector<ApplicationRun> runs;
  for (const StoredRun& s : stored.value()) runs.push_back(s.run);
  auto vectors = BuildRunVectors(store, runs);
  if (!vectors.ok()) return vectors.status();
  return ClassifyRuns(vectors.value());
}

Result<std::vector<ScoreAnswer>> ScoreStoredApplications(profiles::Store& store,
                                                         const std::string& app_id,
                                                         const models::ScoreOptions& settings) {
  if (!app_id.empty()) {
    if (Status s = CheckApplicationExists(store, app_id); !s.ok()) return s;
  }
  auto loaded = LoadStoredRuns(store);
  if (!loaded.ok()) return loaded.status();
  if (loaded.value().empty()) return NotFoundWithSuggestion(app_id.empty() ? "*" : app_id, {});
  // Applications without a finished task are neither scored nor part of any history.
  std::vector<StoredRun> stored;
  for (StoredRun& s : loaded.value()) {
    if (s.tasks > 0) {
      stored.push_back(std::move(s));
    } else if (s.run.app_id == app_id) {
      return Status::InvalidArgument("application " + app_id +
                                     " has no finished task: an application without tasks is "
                                     "not scored");
    }
  }
  if (stored.empty()) {
    return Status::InvalidArgument("no application in the store has a finished task: nothing to "
                                   "score");
  }
  std::vector<NotedRun> runs;
  for (StoredRun& s : stored) runs.push_back({std::move(s.run), std::move(s.notes)});
  return ScoreNotedRuns(store, runs, app_id, settings);
}

Result<std::vector<ScoreAnswer>> AnswerScores(const std::string& store_path,
                                              const std::string& app_id) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(store_path, ec)) {
    return Status::NotFound(store_path + ": no such store; run `perfplan ingest spark` first");
  }
  auto store = profiles::Store::OpenReadOnly(store_path, ScoringMigrations());
  if (!store.ok()) return store.status();
  return ScoreStoredApplications(*store.value(), app_id);
}

}  // namespace perfplan::planner
