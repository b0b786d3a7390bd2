// Spark store helpers shared by the Spark store tests: a store with the Spark schema, one holding
// every log of the shared data, and (from store_query.h) the first column of a one-row query.
// Header only; the tests link doctest.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "models/executor_whatif.h"
#include "profiles/spark/history_api.h"

#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "profiles/spark/spark_task_metrics.h"
#include "profiles/store.h"
#include "tests/support/store_query.h"
#include "tests/support/test_support.h"

namespace perfplan::testing {

inline std::unique_ptr<profiles::Store> OpenSparkStore(const std::string& path) {
  auto store = profiles::Store::Open(path, {profiles::spark::StoreMigrations()});
  REQUIRE(store.ok());
  return std::move(store.value());
}

// An in-memory store holding every log of ../shared/data/01-spark-eventlogs (the data tests').
inline std::unique_ptr<profiles::Store> SharedSparkStore() {
  auto store = OpenSparkStore(":memory:");
  REQUIRE(profiles::spark::IngestEventLogs(*store, {SharedDataDir() + "/01-spark-eventlogs"}).ok());
  return store;
}

// A copy at `path` of the Spark store at `current_path` (this build's schema) as schema version 6
// held it: spark_tasks keyed by (attempt_key, task_id) with the stage index, has_metrics and the
// 34 metrics as columns (read out of the blob with spark_metric), every other table as is. For
// the tests of the version 7 migration; `path` must not exist yet.
inline void WriteVersion6Copy(const std::string& current_path, const std::string& path) {
  profiles::Migrations v6 = profiles::spark::StoreMigrations();
  REQUIRE(v6.steps.size() >= 6);
  v6.steps.resize(6);
  auto opened = profiles::Store::Open(path, {v6});
  REQUIRE(opened.ok());
  profiles::Store& s = *opened.value();
  REQUIRE(s.SchemaVersion("spark") == 6);
  REQUIRE(s.Exec("ATTACH '" + current_path + "' AS cur").ok());
  std::vector<std::string> tables;
  {
    auto q = s.Prepare(
        "SELECT name FROM cur.sqlite_master WHERE type = 'table' AND name LIKE 'spark!_%' "
        "ESCAPE '!' AND name != 'spark_tasks' ORDER BY name");
    REQUIRE(q.ok());
    while (q.value().Step()) tables.push_back(q.value().ColumnText(0));
  }
  for (const std::string& t : tables) {
    REQUIRE(s.Exec("INSERT INTO main." + t + " SELECT * FROM cur." + t).ok());
  }
  const std::string columns =
      "attempt_key, task_id, stage_id, stage_attempt_id, task_index, task_attempt, "
      "partition_id, launch_time_ms, finish_time_ms, getting_result_time_ms, duration_ms, "
      "executor_id, host, status, locality, speculative, error_message, accumulables_json";
  std::string metric_columns, metric_values;
  for (std::size_t i = 0; i < profiles::spark::TaskMetricValues().size(); ++i) {
    const std::string column(profiles::spark::TaskMetricName(i));
    metric_columns += ", " + column;
    metric_values += ", spark_metric(metrics, '" + column + "')";
  }
  const Status copied =
      s.Exec("INSERT INTO main.spark_tasks(" + columns + ", has_metrics" + metric_columns +
             ") SELECT " + columns + ", metrics IS NOT NULL" + metric_values +
             " FROM cur.spark_tasks");
  REQUIRE_MESSAGE(copied.ok(), copied.message());
  REQUIRE(s.Exec("DETACH cur").ok());
}

// Every answer the store gives about each stored application, as text: the History-Server
// answers (every stage with its tasks and summaries, each stage attempt's task list and task
// summary, executors), the stage list, durations, β, the aggregates, the derived profile and
// the what-if predictions. Two stores equal in content give equal texts.
inline std::string EverySparkAnswer(profiles::Store& store) {
  namespace spark = profiles::spark;
  std::ostringstream out;
  out.precision(17);
  auto text = [&](const std::string& path) {
    auto r = spark::HistoryApi(store, path);
    out << path << ": " << (r.ok() ? r.value() : "error: " + r.status().message()) << "\n";
  };
  auto apps = spark::ListApplications(store);
  REQUIRE(apps.ok());
  text("applications");
  for (const spark::ApplicationSummary& a : apps.value()) {
    const std::string app = "applications/" + a.app_id;
    for (const char* p : {"", "/jobs", "/stages?details=true&withSummaries=true", "/executors",
                          "/allexecutors"}) {
      text(app + p);
    }
    auto described = spark::DescribeApplication(store, a.app_id, a.attempt_id);
    REQUIRE(described.ok());
    for (const spark::StageSummary& st : described.value().second) {
      const std::string stage = app + "/stages/" + std::to_string(st.stage_id) + "/" +
                                std::to_string(st.stage_attempt_id);
      text(stage + "/taskList?length=100000000");
      text(stage + "/taskSummary");
      out << st.name << " " << st.num_tasks << " " << st.succeeded_tasks << " "
          << st.failed_tasks << " " << st.task_seconds_median << " " << st.task_seconds_max
          << " " << st.task_seconds_sum << "\n";
    }
    if (auto d = spark::TaskDurationsByStage(store, a.app_id, a.attempt_id); d.ok()) {
      for (const auto& st : d.value()) {
        out << st.stage_id << "." << st.stage_attempt_id << ":";
        for (double x : st.task_duration_seconds) out << " " << x;
        out << "\n";
      }
    }
    if (auto b = spark::ComputeEfficiencyVector(store, a.app_id, a.attempt_id); b.ok()) {
      const spark::EfficiencyVector& e = b.value();
      out << "beta " << e.compute_share << " " << e.shuffle_share << " " << e.shuffle_bytes << " "
          << e.gc_share << " " << e.total_seconds << " " << e.result_serialization_share << " "
          << e.task_seconds << " " << e.finished_tasks << " " << e.tasks_with_cpu_time << " "
          << e.input_bytes << "\n";
    }
    for (bool jobs : {false, true}) {
      auto agg = jobs ? spark::JobAggregates(store, a.app_id, a.attempt_id)
                      : spark::StageAggregates(store, a.app_id, a.attempt_id);
      if (!agg.ok()) continue;
      for (const auto& row : agg.value()) {
        out << (jobs ? "job " : "stage ") << row.id;
        for (const auto& [name, v] : row.values) out << " " << name << "=" << v;
        out << "\n";
      }
    }
    if (auto d = spark::DeriveRuntimeProfile(store, a.app_id, a.attempt_id, 125e6); d.ok()) {
      const auto& run = d.value().profile.runs.at(0);
      out << "profile " << run.dataset_bytes << " " << run.compute_seconds << " "
          << run.disk_seconds << " " << run.network_seconds << " " << run.reduction_seconds;
      for (const std::string& note : d.value().notes) out << " | " << note;
      out << "\n";
    } else {
      out << "profile error: " << d.status().message() << "\n";
    }
    if (auto w = spark::LoadWhatIfApplication(store, a.app_id, a.attempt_id); w.ok()) {
      for (int executors : {1, 2, 3, 8}) {
        auto p = models::PredictWithExecutors(w.value(), executors);
        out << "whatif " << executors << " " << (p.ok() ? p.value() : -1.0) << "\n";
      }
    }
  }
  return out.str();
}

}  // namespace perfplan::testing
