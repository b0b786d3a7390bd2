#include "profiles/spark_store.h"

#include "profiles/detail/spark_metrics.h"

namespace perfplan::profiles::spark {
namespace {

std::string SchemaV1() {
  std::string tasks =
      "CREATE TABLE spark_tasks(\n"
      "  attempt_key INTEGER NOT NULL, task_id INTEGER NOT NULL, stage_id INTEGER NOT NULL,\n"
      "  stage_attempt_id INTEGER NOT NULL, task_index INTEGER, task_attempt INTEGER,\n"
      "  partition_id INTEGER, launch_time_ms INTEGER, finish_time_ms INTEGER,\n"
      "  getting_result_time_ms INTEGER, duration_ms INTEGER, executor_id TEXT, host TEXT,\n"
      "  status TEXT, locality TEXT, speculative INTEGER, error_message TEXT,\n"
      "  accumulables_json TEXT, has_metrics INTEGER NOT NULL DEFAULT 0";
  for (const auto& m : detail::kTaskMetrics) {
    tasks += ",\n  " + std::string(m.column) + " INTEGER NOT NULL DEFAULT 0";
  }
  tasks += ",\n  PRIMARY KEY(attempt_key, task_id));\n";
  return R"sql(
CREATE TABLE spark_attempts(
  attempt_key INTEGER PRIMARY KEY,
  app_id TEXT NOT NULL, attempt_id TEXT NOT NULL DEFAULT '', app_name TEXT, spark_user TEXT,
  spark_version TEXT, start_time_ms INTEGER, end_time_ms INTEGER, completed INTEGER NOT NULL,
  last_updated_ms INTEGER, events INTEGER NOT NULL DEFAULT 0, skipped_lines INTEGER NOT NULL
  DEFAULT 0, source TEXT);
CREATE UNIQUE INDEX spark_attempts_app ON spark_attempts(app_id, attempt_id);
CREATE TABLE spark_sources(
  source TEXT PRIMARY KEY, size_bytes INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
  fingerprint TEXT NOT NULL, attempt_key INTEGER, app_id TEXT, attempt_id TEXT,
  events INTEGER, completed INTEGER);
CREATE TABLE spark_properties(
  attempt_key INTEGER NOT NULL, section TEXT NOT NULL, ord INTEGER NOT NULL, name TEXT NOT NULL,
  value TEXT);
CREATE INDEX spark_properties_key ON spark_properties(attempt_key, section, ord);
CREATE TABLE spark_resource_profiles(
  attempt_key INTEGER NOT NULL, profile_id INTEGER NOT NULL, executor_resources_json TEXT,
  task_resources_json TEXT, PRIMARY KEY(attempt_key, profile_id));
CREATE TABLE spark_executors(
  attempt_key INTEGER NOT NULL, executor_id TEXT NOT NULL, host_port TEXT, host TEXT,
  total_cores INTEGER, add_time_ms INTEGER, remove_time_ms INTEGER, remove_reason TEXT,
  max_memory_bytes INTEGER, max_onheap_memory_bytes INTEGER, max_offheap_memory_bytes INTEGER,
  log_urls_json TEXT, attributes_json TEXT, resources_json TEXT, resource_profile_id INTEGER,
  excluded INTEGER NOT NULL DEFAULT 0, excluded_in_stages_json TEXT, peak_metrics_json TEXT,
  ord INTEGER NOT NULL, PRIMARY KEY(attempt_key, executor_id));
CREATE TABLE spark_jobs(
  attempt_key INTEGER NOT NULL, job_id INTEGER NOT NULL, name TEXT, description TEXT,
  submission_time_ms INTEGER, completion_time_ms INTEGER, status TEXT NOT NULL,
  stage_ids_json TEXT, job_group TEXT, job_tags_json TEXT, sql_execution_id INTEGER,
  num_tasks INTEGER, num_active_tasks INTEGER, num_completed_tasks INTEGER,
  num_skipped_tasks INTEGER, num_failed_tasks INTEGER, num_killed_tasks INTEGER,
  num_completed_indices INTEGER, num_active_stages INTEGER, num_completed_stages INTEGER,
  num_skipped_stages INTEGER, num_failed_stages INTEGER, killed_tasks_summary_json TEXT,
  PRIMARY KEY(attempt_key, job_id));
CREATE TABLE spark_stages(
  attempt_key INTEGER NOT NULL, stage_id INTEGER NOT NULL, stage_attempt_id INTEGER NOT NULL,
  name TEXT, description TEXT, details TEXT, num_tasks INTEGER, status TEXT NOT NULL,
  submission_time_ms INTEGER, first_task_launched_time_ms INTEGER, completion_time_ms INTEGER,
  failure_reason TEXT, scheduling_pool TEXT, rdd_ids_json TEXT, parent_ids_json TEXT,
  job_ids_json TEXT, accumulables_json TEXT, resource_profile_id INTEGER,
  num_active_tasks INTEGER, num_complete_tasks INTEGER, num_failed_tasks INTEGER,
  num_killed_tasks INTEGER, num_completed_indices INTEGER, killed_tasks_summary_json TEXT,
  peak_executor_metrics_json TEXT, excluded_executors_json TEXT,
  PRIMARY KEY(attempt_key, stage_id, stage_attempt_id));
CREATE TABLE spark_sql_executions(
  attempt_key INTEGER NOT NULL, execution_id INTEGER NOT NULL, description TEXT, details TEXT,
  physical_plan TEXT, start_time_ms INTEGER, end_time_ms INTEGER, error_message TEXT,
  PRIMARY KEY(attempt_key, execution_id));
)sql" + tasks +
         "CREATE INDEX spark_tasks_stage ON spark_tasks(attempt_key, stage_id, "
         "stage_attempt_id);\n";
}

}  // namespace

const Migrations& StoreMigrations() {
  static const Migrations kMigrations = {"spark", {SchemaV1()}};
  return kMigrations;
}

Result<std::int64_t> FindAttemptKey(Store& store, const std::string& app_id,
                                    const std::string& attempt_id) {
  // Latest attempt: the one that started last (attempt ids are not always numeric).
  auto st = store.Prepare(
      attempt_id.empty()
          ? "SELECT attempt_key FROM spark_attempts WHERE app_id = ?1 "
            "ORDER BY start_time_ms DESC, attempt_key DESC LIMIT 1"
          : "SELECT attempt_key FROM spark_attempts WHERE app_id = ?1 AND attempt_id = ?2");
  if (!st.ok()) return st.status();
  st.value().Bind(1, app_id);
  if (!attempt_id.empty()) st.value().Bind(2, attempt_id);
  if (!st.value().Step()) {
    if (!st.value().Error().ok()) return st.value().Error();
    return Status::NotFound("no Spark application " + app_id +
                            (attempt_id.empty() ? "" : "/" + attempt_id) + " in the store");
  }
  return st.value().ColumnInt(0);
}

Result<std::vector<StageTaskDurations>> TaskDurationsByStage(Store& store,
                                                             const std::string& app_id,
                                                             const std::string& attempt_id) {
  auto key = FindAttemptKey(store, app_id, attempt_id);
  if (!key.ok()) return key.status();
  auto st = store.Prepare(
      "SELECT s.stage_id, s.stage_attempt_id, t.duration_ms FROM spark_stages s "
      "LEFT JOIN spark_tasks t ON t.attempt_key = s.attempt_key AND t.stage_id = s.stage_id AND "
      "t.stage_attempt_id = s.stage_attempt_id AND t.status = 'SUCCESS' "
      "WHERE s.attempt_key = ?1 "
      "ORDER BY s.stage_id, s.stage_attempt_id, t.launch_time_ms, t.task_id");
  if (!st.ok()) return st.status();
  st.value().Bind(1, key.value());
  std::vector<StageTaskDurations> out;
  while (st.value().Step()) {
    int stage = static_cast<int>(st.value().ColumnInt(0));
    int attempt = static_cast<int>(st.value().ColumnInt(1));
    if (out.empty() || out.back().stage_id != stage || out.back().stage_attempt_id != attempt) {
      out.push_back({stage, attempt, {}});
    }
    if (!st.value().ColumnIsNull(2)) {
      out.back().task_duration_seconds.push_back(st.value().ColumnDouble(2) / 1000.0);
    }
  }
  if (!st.value().Error().ok()) return st.value().Error();
  return out;
}

}  // namespace perfplan::profiles::spark
