#include "profiles/spark/spark_store.h"

#include <algorithm>
#include <functional>
#include <regex>

#include "models/text.h"
#include "profiles/detail/rows.h"
#include "profiles/detail/spark_metrics.h"
#include "profiles/spark/spark_summary_records.h"
#include "profiles/spark/spark_task_metrics.h"

namespace perfplan::profiles::spark {
namespace {

using profiles::detail::CollectRows;
using profiles::detail::EachRow;
using profiles::detail::FirstRow;
using profiles::detail::ReadColumns;

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
  tasks += ",\n  PRIMARY KEY(attempt_key, task_id)) WITHOUT ROWID;\n";
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

// `sql` with every task metric named as a spark_tasks column before schema version 7
// ("input_bytes", "t.input_bytes") read from the metrics blob instead
// (MetricSql: "spark_metric(t.metrics, 'input_bytes')").
std::string TaskMetricsSql(const std::string& sql) {
  static const std::regex metric = [] {
    std::string names;
    for (const auto& m : detail::kTaskMetrics) {
      names += (names.empty() ? "" : "|") + std::string(m.column);
    }
    return std::regex("\\b(?:([A-Za-z_][A-Za-z_0-9]*)\\.)?(" + names + ")\\b");
  }();
  std::string out;
  auto at = sql.cbegin();
  for (std::sregex_iterator it(sql.begin(), sql.end(), metric), end; it != end; ++it) {
    const std::smatch& m = *it;
    out.append(at, m[0].first);
    out += MetricSql(m[2].str(), m[1].matched ? m[1].str() : "");
    at = m[0].second;
  }
  out.append(at, sql.cend());
  return out;
}

// The summaries kept at ingest (schema version 2): what the History Server keeps live, so the
// read paths answer from them instead of grouping an application's tasks at every request. Each
// INSERT … SELECT groups one application attempt's tasks (`where` = "WHERE attempt_key = ?1", at
// ingest) or every stored task (`where` = "", the migration that fills an older store).
// `metric` gives the SQL of a metric column: the column itself before version 7 (the version 2
// migration), TaskMetricsSql after.
std::string SummaryInserts(const std::string& where,
                           const std::function<std::string(const std::string&)>& metric) {
  std::string stage_sums;
  for (const auto& m : detail::kTaskMetrics) {
    stage_sums += ", SUM(" + std::string(m.column) + ")";
  }
  return metric("INSERT INTO spark_stage_summaries SELECT attempt_key, stage_id, stage_attempt_id, "
         "COUNT(*), SUM(status = 'RUNNING'), SUM(status = 'SUCCESS'), SUM(status = 'FAILED'), "
         "SUM(status = 'KILLED'), COALESCE(SUM(duration_ms), 0), MAX(finish_time_ms)" +
         stage_sums + " FROM spark_tasks " + where +
         " GROUP BY attempt_key, stage_id, stage_attempt_id;\n"
         "INSERT INTO spark_stage_executor_summaries SELECT attempt_key, stage_id, "
         "stage_attempt_id, COALESCE(executor_id, ''), COUNT(*), COALESCE(SUM(duration_ms), 0), "
         "SUM(status = 'FAILED'), SUM(status = 'SUCCESS'), SUM(status = 'KILLED'), "
         "SUM(input_bytes), SUM(input_records), SUM(output_bytes), SUM(output_records), "
         "SUM(shuffle_remote_bytes_read + shuffle_local_bytes_read), SUM(shuffle_records_read), "
         "SUM(shuffle_bytes_written), SUM(shuffle_records_written), SUM(memory_bytes_spilled), "
         "SUM(disk_bytes_spilled) FROM spark_tasks " +
         where +
         " GROUP BY attempt_key, stage_id, stage_attempt_id, COALESCE(executor_id, '');\n"
         "INSERT INTO spark_executor_summaries SELECT attempt_key, COALESCE(executor_id, ''), "
         "COUNT(*), SUM(status = 'RUNNING'), SUM(status = 'FAILED'), SUM(status = 'SUCCESS'), "
         "COALESCE(SUM(duration_ms), 0), SUM(input_bytes), SUM(shuffle_remote_bytes_read + "
         "shuffle_local_bytes_read), SUM(shuffle_bytes_written), SUM(jvm_gc_time_ms) FROM "
         "spark_tasks " +
         where + " GROUP BY attempt_key, COALESCE(executor_id, '');\n");
}

// Version 2: the summary tables, filled from the tasks already stored, and the stage index made
// covering for the durations of a stage's successful tasks in launch order
// (TaskDurationsByStage: `stragglers`, `app`), which then never touch the task rows.
std::string SchemaV2() {
  std::string stage_metrics;
  for (const auto& m : detail::kTaskMetrics) {
    stage_metrics += ",\n  " + std::string(m.column) + " INTEGER NOT NULL";
  }
  return "CREATE TABLE spark_stage_summaries(\n"
         "  attempt_key INTEGER NOT NULL, stage_id INTEGER NOT NULL,\n"
         "  stage_attempt_id INTEGER NOT NULL, tasks INTEGER NOT NULL,\n"
         "  running_tasks INTEGER NOT NULL, succeeded_tasks INTEGER NOT NULL,\n"
         "  failed_tasks INTEGER NOT NULL, killed_tasks INTEGER NOT NULL,\n"
         "  duration_ms_sum INTEGER NOT NULL, finish_time_ms_max INTEGER" +
         stage_metrics +
         ",\n  PRIMARY KEY(attempt_key, stage_id, stage_attempt_id)) WITHOUT ROWID;\n"
         "CREATE TABLE spark_stage_executor_summaries(\n"
         "  attempt_key INTEGER NOT NULL, stage_id INTEGER NOT NULL,\n"
         "  stage_attempt_id INTEGER NOT NULL, executor_id TEXT NOT NULL, tasks INTEGER NOT NULL,\n"
         "  duration_ms_sum INTEGER NOT NULL, failed_tasks INTEGER NOT NULL,\n"
         "  succeeded_tasks INTEGER NOT NULL, killed_tasks INTEGER NOT NULL,\n"
         "  input_bytes INTEGER NOT NULL, input_records INTEGER NOT NULL,\n"
         "  output_bytes INTEGER NOT NULL, output_records INTEGER NOT NULL,\n"
         "  shuffle_read_bytes INTEGER NOT NULL, shuffle_records_read INTEGER NOT NULL,\n"
         "  shuffle_bytes_written INTEGER NOT NULL, shuffle_records_written INTEGER NOT NULL,\n"
         "  memory_bytes_spilled INTEGER NOT NULL, disk_bytes_spilled INTEGER NOT NULL,\n"
         "  PRIMARY KEY(attempt_key, stage_id, stage_attempt_id, executor_id)) WITHOUT ROWID;\n"
         "CREATE TABLE spark_executor_summaries(\n"
         "  attempt_key INTEGER NOT NULL, executor_id TEXT NOT NULL, tasks INTEGER NOT NULL,\n"
         "  running_tasks INTEGER NOT NULL, failed_tasks INTEGER NOT NULL,\n"
         "  succeeded_tasks INTEGER NOT NULL, duration_ms_sum INTEGER NOT NULL,\n"
         "  input_bytes INTEGER NOT NULL, shuffle_read_bytes INTEGER NOT NULL,\n"
         "  shuffle_bytes_written INTEGER NOT NULL, jvm_gc_time_ms INTEGER NOT NULL,\n"
         "  PRIMARY KEY(attempt_key, executor_id)) WITHOUT ROWID;\n"
         "DROP INDEX spark_tasks_stage;\n"
         "CREATE INDEX spark_tasks_stage ON spark_tasks(attempt_key, stage_id, stage_attempt_id, "
         "status, launch_time_ms, task_id, duration_ms);\n" +
         SummaryInserts("", [](const std::string& sql) { return sql; });
}

// Version 3 (issue 18): per-stage executor peaks and speculation summaries, executors' storage
// use from block updates, RDD storage (storage/rdd) and miscellaneous processes.
const char* SchemaV3() {
  return R"sql(
ALTER TABLE spark_stages ADD COLUMN executor_peaks_json TEXT;
ALTER TABLE spark_stages ADD COLUMN speculation_summary_json TEXT;
ALTER TABLE spark_stages ADD COLUMN shuffle_push_enabled INTEGER NOT NULL DEFAULT 0;
ALTER TABLE spark_stages ADD COLUMN shuffle_mergers_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE spark_executors ADD COLUMN memory_used_bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE spark_executors ADD COLUMN disk_used_bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE spark_executors ADD COLUMN rdd_blocks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE spark_executors ADD COLUMN used_onheap_storage_bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE spark_executors ADD COLUMN used_offheap_storage_bytes INTEGER NOT NULL DEFAULT 0;
CREATE TABLE spark_rdds(
  attempt_key INTEGER NOT NULL, rdd_id INTEGER NOT NULL, info_json TEXT NOT NULL,
  PRIMARY KEY(attempt_key, rdd_id));
CREATE TABLE spark_misc_processes(
  attempt_key INTEGER NOT NULL, process_id TEXT NOT NULL, host_port TEXT, cores INTEGER,
  add_time_ms INTEGER, logs_json TEXT, PRIMARY KEY(attempt_key, process_id));
)sql";
}

// Version 4 (issue 18): what the History Server's sql endpoints answer from. An execution's root
// execution id, its jobs with their status in the job map's order, the printable plan nodes with
// their aggregated SQL metric values and the plan edges (profiles/spark/spark_sql_listener.h).
// A store written before keeps its executions; their jobs are filled from spark_jobs (in job id
// order), their plan graph stays empty until the log is ingested again with replace.
const char* SchemaV4() {
  return R"sql(
ALTER TABLE spark_sql_executions ADD COLUMN root_execution_id INTEGER;
ALTER TABLE spark_sql_executions ADD COLUMN jobs_json TEXT NOT NULL DEFAULT '[]';
ALTER TABLE spark_sql_executions ADD COLUMN nodes_json TEXT NOT NULL DEFAULT '[]';
ALTER TABLE spark_sql_executions ADD COLUMN edges_json TEXT NOT NULL DEFAULT '[]';
UPDATE spark_sql_executions SET jobs_json = COALESCE((SELECT json_group_array(json_array(j.job_id,
  j.status)) FROM (SELECT job_id, status FROM spark_jobs WHERE spark_jobs.attempt_key =
  spark_sql_executions.attempt_key AND spark_jobs.sql_execution_id =
  spark_sql_executions.execution_id ORDER BY job_id) j), '[]');
)sql";
}

// Version 7 (issue 16): one B-tree per task row, the 34 metrics packed. spark_tasks is keyed by
// (attempt_key, stage_id, stage_attempt_id, task_id), which serves both the duplicate check at
// ingest and one stage's reads, so the stage index goes; the metric columns and has_metrics
// become one BLOB `metrics` (spark_task_metrics.h; NULL where has_metrics was 0). Every stored
// task is rewritten, in this migration's one transaction.
std::string SchemaV7() {
  std::string metrics;
  for (const auto& m : detail::kTaskMetrics) {
    metrics += std::string(metrics.empty() ? "" : ", ") + std::string(m.column);
  }
  const std::string columns =
      "attempt_key, task_id, stage_id, stage_attempt_id, task_index, task_attempt, partition_id, "
      "launch_time_ms, finish_time_ms, getting_result_time_ms, duration_ms, executor_id, host, "
      "status, locality, speculative, error_message, accumulables_json";
  return "CREATE TABLE spark_tasks_v7(\n"
         "  attempt_key INTEGER NOT NULL, task_id INTEGER NOT NULL, stage_id INTEGER NOT NULL,\n"
         "  stage_attempt_id INTEGER NOT NULL, task_index INTEGER, task_attempt INTEGER,\n"
         "  partition_id INTEGER, launch_time_ms INTEGER, finish_time_ms INTEGER,\n"
         "  getting_result_time_ms INTEGER, duration_ms INTEGER, executor_id TEXT, host TEXT,\n"
         "  status TEXT, locality TEXT, speculative INTEGER, error_message TEXT,\n"
         "  accumulables_json TEXT, metrics BLOB,\n"
         "  PRIMARY KEY(attempt_key, stage_id, stage_attempt_id, task_id)) WITHOUT ROWID;\n"
         "INSERT INTO spark_tasks_v7 SELECT " +
         columns + ", CASE WHEN has_metrics THEN spark_pack_metrics(" + metrics +
         ") END FROM spark_tasks ORDER BY attempt_key, stage_id, stage_attempt_id, task_id;\n"
         "DROP TABLE spark_tasks;\n"
         "ALTER TABLE spark_tasks_v7 RENAME TO spark_tasks;\n";
}

// spark-rapids-tools' aggregate columns and the SQL over spark_tasks (alias t) computing each.
// CPU and shuffle-write times are summed in nanoseconds per stage, then truncated to
// milliseconds (for jobs: the truncated stage values are summed, as the profiler does).
constexpr std::pair<const char*, const char*> kAggregateColumns[] = {
    {"numTasks", "COUNT(t.task_id)"},
    {"duration", "%DURATION%"},
    {"diskBytesSpilledSum", "SUM(t.disk_bytes_spilled)"},
    {"durationSum", "SUM(t.duration_ms)"},
    {"durationMax", "MAX(t.duration_ms)"},
    {"durationMin", "MIN(t.duration_ms)"},
    {"durationAvg", "ROUND(AVG(t.duration_ms), 1)"},
    {"executorCPUTimeSum", "SUM(t.executor_cpu_time_ns) / 1000000"},
    {"executorDeserializeCpuTimeSum", "SUM(t.executor_deserialize_cpu_time_ns) / 1000000"},
    {"executorDeserializeTimeSum", "SUM(t.executor_deserialize_time_ms)"},
    {"executorRunTimeSum", "SUM(t.executor_run_time_ms)"},
    {"inputBytesReadSum", "SUM(t.input_bytes)"},
    {"inputBytesReadMax", "MAX(t.input_bytes)"},
    {"inputRecordsReadSum", "SUM(t.input_records)"},
    {"jvmGCTimeSum", "SUM(t.jvm_gc_time_ms)"},
    {"memoryBytesSpilledSum", "SUM(t.memory_bytes_spilled)"},
    {"outputBytesWrittenSum", "SUM(t.output_bytes)"},
    {"outputRecordsWrittenSum", "SUM(t.output_records)"},
    {"peakExecutionMemoryMax", "MAX(t.peak_execution_memory_bytes)"},
    {"resultSerializationTimeSum", "SUM(t.result_serialization_time_ms)"},
    {"resultSizeMax", "MAX(t.result_size_bytes)"},
    {"srFetchWaitTimeSum", "SUM(t.shuffle_fetch_wait_time_ms)"},
    {"srLocalBlocksFetchedSum", "SUM(t.shuffle_local_blocks_fetched)"},
    {"srcLocalBytesReadSum", "SUM(t.shuffle_local_bytes_read)"},
    {"srRemoteBlocksFetchSum", "SUM(t.shuffle_remote_blocks_fetched)"},
    {"srRemoteBytesReadSum", "SUM(t.shuffle_remote_bytes_read)"},
    {"srRemoteBytesReadToDiskSum", "SUM(t.shuffle_remote_bytes_read_to_disk)"},
    {"srTotalBytesReadSum", "SUM(t.shuffle_remote_bytes_read + t.shuffle_local_bytes_read)"},
    {"swBytesWrittenSum", "SUM(t.shuffle_bytes_written)"},
    {"swRecordsWrittenSum", "SUM(t.shuffle_records_written)"},
    {"swWriteTimeSum", "SUM(t.shuffle_write_time_ns) / 1000000"},
};

// The aggregate columns' SQL (", COALESCE(expr, 0)" each) over one stage's (jobs: one job's)
// task rows t.
std::string AggregateColumnsSql(bool jobs) {
  std::string cols;
  for (const auto& [name, expr] : kAggregateColumns) {
    std::string e = expr;
    const std::string ns_suffix = ") / 1000000";
    if (jobs && e.size() > ns_suffix.size() &&
        e.compare(e.size() - ns_suffix.size(), ns_suffix.size(), ns_suffix) == 0) {
      // The profiler truncates nanoseconds to milliseconds per stage, then sums the stages.
      // The stage sums come from spark_stage_summaries (one row per stage attempt of the job).
      e = "(SELECT SUM(x) FROM (SELECT " + std::string(expr).replace(0, 6, "SUM(m.") +
          " AS x FROM json_each(j.stage_ids_json) je2 JOIN spark_stage_summaries m ON "
          "m.attempt_key = j.attempt_key AND m.stage_id = je2.value GROUP BY m.stage_id))";
    }
    if (e == "%DURATION%") {
      e = jobs ? "MAX(j.completion_time_ms) - MAX(j.submission_time_ms)"
               : "(SELECT s.completion_time_ms - s.submission_time_ms FROM spark_stages s WHERE "
                 "s.attempt_key = t.attempt_key AND s.stage_id = t.stage_id ORDER BY "
                 "s.stage_attempt_id DESC LIMIT 1)";
    }
    if (e == expr) e = TaskMetricsSql(e);  // over spark_tasks t (the rest reads summaries)
    cols += ", COALESCE(" + e + ", 0)";
  }
  return cols;
}

Result<std::vector<MetricAggregates>> Aggregates(Store& store, const std::string& app_id,
                                                 const std::string& attempt_id, bool jobs) {
  auto key = FindAttemptKey(store, app_id, attempt_id);
  if (!key.ok()) return key.status();
  // Built once: TaskMetricsSql is a regex pass, not to be repeated per application.
  static const std::string kStageColumns = AggregateColumnsSql(false);
  static const std::string kJobColumns = AggregateColumnsSql(true);
  const std::string& cols = jobs ? kJobColumns : kStageColumns;
  std::string sql =
      jobs ? "SELECT j.job_id" + cols +
                 " FROM spark_jobs j JOIN json_each(j.stage_ids_json) je JOIN spark_tasks t ON "
                 "t.attempt_key = j.attempt_key AND t.stage_id = je.value WHERE j.attempt_key = "
                 "?1 GROUP BY j.job_id ORDER BY j.job_id"
           : "SELECT t.stage_id" + cols +
                 " FROM spark_tasks t WHERE t.attempt_key = ?1 GROUP BY t.stage_id ORDER BY "
                 "t.stage_id";
  return CollectRows(
      store, sql,
      [](const Statement& q) {
        MetricAggregates a;
        a.id = q.ColumnInt(0);
        int i = 1;
        for (const auto& [name, expr] : kAggregateColumns) {
          a.values.emplace_back(name, q.ColumnDouble(i++));
        }
        return a;
      },
      key.value());
}

constexpr const char* kApplicationSql =
    "SELECT a.app_id, a.attempt_id, a.app_name, a.spark_user, a.spark_version, a.source, "
    "a.start_time_ms, a.end_time_ms, a.completed, "
    "(SELECT COUNT(*) FROM spark_jobs j WHERE j.attempt_key = a.attempt_key), "
    "(SELECT COUNT(*) FROM spark_stages s WHERE s.attempt_key = a.attempt_key), "
    "(SELECT COALESCE(SUM(x.tasks), 0) FROM spark_executor_summaries x WHERE x.attempt_key = "
    "a.attempt_key), "
    "(SELECT COALESCE(SUM(x.failed_tasks), 0) FROM spark_executor_summaries x WHERE "
    "x.attempt_key = a.attempt_key), "
    "(SELECT COUNT(*) FROM spark_executors e WHERE e.attempt_key = a.attempt_key AND "
    "e.executor_id != 'driver'), a.events, a.skipped_lines, a.attempt_key "
    "FROM spark_attempts a WHERE a.app_id NOT LIKE char(1) || '%' ";

// ComputeEfficiencyVector's sums over an attempt's finished tasks (alias t), and
// DeriveRuntimeProfile's; a summary-only attempt keeps both results in spark_summary_attempts
// (written by WriteSummaryOnlyTotals with this same SQL).
constexpr const char* kEfficiencySums =
    "COALESCE(SUM(t.duration_ms), 0) / 1e3, "
    "COALESCE(SUM(t.executor_cpu_time_ns), 0) / 1e9, "
    "COALESCE(SUM(t.shuffle_fetch_wait_time_ms), 0) / 1e3 + "
    "COALESCE(SUM(t.shuffle_write_time_ns), 0) / 1e9, "
    "COALESCE(SUM(t.shuffle_remote_bytes_read + t.shuffle_local_bytes_read + "
    "t.shuffle_bytes_written), 0), "
    "COALESCE(SUM(t.jvm_gc_time_ms), 0) / 1e3, "
    "COALESCE(SUM(t.result_serialization_time_ms), 0) / 1e3, "
    "(SELECT CASE WHEN a.completed = 1 AND a.end_time_ms IS NOT NULL THEN a.end_time_ms ELSE "
    "COALESCE(MAX(t.finish_time_ms), a.start_time_ms) END - a.start_time_ms FROM "
    "spark_attempts a WHERE a.attempt_key = ?1) / 1e3, "
    "COUNT(*), COUNT(CASE WHEN t.executor_cpu_time_ns > 0 THEN 1 END), "
    "COALESCE(SUM(t.input_bytes), 0) ";
constexpr const char* kProfileSums =
    "COALESCE(SUM(input_bytes), 0), "
    "COALESCE(SUM(CASE WHEN input_bytes > 0 THEN MAX(0, executor_run_time_ms - "
    "executor_cpu_time_ns / 1000000 - shuffle_fetch_wait_time_ms) ELSE 0 END), 0) / 1e3, "
    "COALESCE(SUM(shuffle_fetch_wait_time_ms), 0) / 1e3, "
    "COALESCE(SUM(shuffle_remote_bytes_read), 0), "
    "COALESCE(SUM(executor_cpu_time_ns), 0) / 1e9, "
    "COALESCE(MAX(result_size_bytes), 0), "
    "COALESCE(SUM(result_serialization_time_ms + CASE WHEN getting_result_time_ms > 0 THEN "
    "finish_time_ms - getting_result_time_ms ELSE 0 END), 0) / 1e3, "
    "(SELECT COUNT(DISTINCT host) FROM spark_tasks h WHERE h.attempt_key = ?1 AND "
    "h.executor_id != 'driver') ";
constexpr const char* kFinishedTasks =
    "FROM spark_tasks t WHERE t.attempt_key = ?1 AND t.finish_time_ms IS NOT NULL";

// The SELECT of `sums` (kEfficiencySums or kProfileSums) over an attempt's finished task rows,
// the metrics read from the packed blob. Callers keep it in a static: TaskMetricsSql is a regex
// pass, not to be repeated per application.
std::string FinishedTaskSumsSql(const char* sums) {
  return TaskMetricsSql(std::string("SELECT ") + sums + kFinishedTasks);
}

// row(q) on an attempt's sums: `stored`, columns of its spark_summary_attempts row, when it is
// summary only (loaded by spark reduce, which summed its tasks at insert); else `task_sums`
// (FinishedTaskSumsSql) over its finished task rows, the same values in the same order.
template <typename Row>
Status ReadAttemptSums(Store& store, std::int64_t key, const char* stored,
                       const std::string& task_sums, Row&& row) {
  auto summary = IsSummaryOnly(store, key);
  if (!summary.ok()) return summary.status();
  return FirstRow(store,
                  summary.value() ? std::string("SELECT ") + stored +
                                        " FROM spark_summary_attempts WHERE attempt_key = ?1"
                                  : task_sums,
                  row, key);
}

ApplicationSummary ReadApplication(const Statement& q) {
  ApplicationSummary a;
  ReadColumns(q, 0, a.app_id, a.attempt_id, a.name, a.user, a.spark_version, a.source,
              a.start_time_ms, a.end_time_ms);
  a.completed = q.ColumnInt(8) != 0;
  ReadColumns(q, 9, a.jobs, a.stages, a.tasks, a.failed_tasks, a.executors, a.events,
              a.skipped_lines);
  return a;
}

}  // namespace

Result<std::vector<ApplicationSummary>> ListApplications(Store& store) {
  return CollectRows(
      store, std::string(kApplicationSql) + "ORDER BY a.start_time_ms DESC, a.app_id, a.attempt_id",
      ReadApplication);
}

Result<std::pair<ApplicationSummary, std::vector<StageSummary>>> DescribeApplication(
    Store& store, const std::string& app_id, const std::string& attempt_id) {
  auto key = FindAttemptKey(store, app_id, attempt_id);
  if (!key.ok()) return key.status();
  auto q = store.Prepare(std::string(kApplicationSql) + "AND a.attempt_key = ?1");
  if (!q.ok()) return q.status();
  q.value().Bind(1, key.value());
  if (!q.value().Step()) return Status::Failed("application row vanished: " + app_id);
  std::pair<ApplicationSummary, std::vector<StageSummary>> out;
  out.first = ReadApplication(q.value());
  auto stages = CollectRows(
      store,
      "SELECT stage_id, stage_attempt_id, name, status, num_tasks, num_complete_tasks, "
      "num_failed_tasks, submission_time_ms, completion_time_ms FROM spark_stages WHERE "
      "attempt_key = ?1 ORDER BY stage_id, stage_attempt_id",
      [](const Statement& r) {
        StageSummary s;
        s.stage_id = static_cast<int>(r.ColumnInt(0));
        s.stage_attempt_id = static_cast<int>(r.ColumnInt(1));
        ReadColumns(r, 2, s.name, s.status, s.num_tasks, s.succeeded_tasks, s.failed_tasks);
        if (!r.ColumnIsNull(7) && !r.ColumnIsNull(8)) {
          s.duration_seconds = static_cast<double>(r.ColumnInt(8) - r.ColumnInt(7)) / 1000.0;
        }
        return s;
      },
      key.value());
  if (!stages.ok()) return stages.status();
  out.second = std::move(stages.value());
  auto durations = TaskDurationsByStage(store, app_id, out.first.attempt_id);
  if (!durations.ok()) return durations.status();
  for (StageSummary& s : out.second) {
    for (const StageTaskDurations& d : durations.value()) {
      if (d.stage_id != s.stage_id || d.stage_attempt_id != s.stage_attempt_id) continue;
      std::vector<double> v = d.task_duration_seconds;
      if (v.empty()) continue;
      std::sort(v.begin(), v.end());
      s.task_seconds_median =
          v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
      s.task_seconds_max = v.back();
      for (double x : v) s.task_seconds_sum += x;
    }
  }
  return out;
}

Result<EfficiencyVector> ComputeEfficiencyVector(Store& store, const std::string& app_id,
                                                 const std::string& attempt_id) {
  auto key = FindAttemptKey(store, app_id, attempt_id);
  if (!key.ok()) return key.status();
  EfficiencyVector b;
  static const std::string kTaskSums = FinishedTaskSumsSql(kEfficiencySums);
  Status s = ReadAttemptSums(
      store, key.value(),
      "e_task_seconds, e_compute_seconds, e_shuffle_seconds, e_shuffle_bytes, e_gc_seconds, "
      "e_result_serialization_seconds, e_total_seconds, e_finished_tasks, e_tasks_with_cpu_time, "
      "e_input_bytes",
      kTaskSums, [&](const Statement& r) {
        b.task_seconds = r.ColumnDouble(0);
        b.shuffle_bytes = r.ColumnDouble(3);
        b.total_seconds = r.ColumnDouble(6);
        b.finished_tasks = r.ColumnInt(7);
        b.tasks_with_cpu_time = r.ColumnInt(8);
        b.input_bytes = r.ColumnDouble(9);
        if (b.task_seconds > 0) {
          b.compute_share = r.ColumnDouble(1) / b.task_seconds;
          b.shuffle_share = r.ColumnDouble(2) / b.task_seconds;
          b.gc_share = r.ColumnDouble(4) / b.task_seconds;
          b.result_serialization_share = r.ColumnDouble(5) / b.task_seconds;
        }
      });
  if (!s.ok()) return s;
  return b;
}

Result<DerivedProfile> DeriveRuntimeProfile(Store& store, const std::string& app_id,
                                            const std::string& attempt_id,
                                            double fallback_bandwidth_bytes_per_second) {
  auto shape = LoadApplicationShape(store, app_id, attempt_id);
  if (!shape.ok()) return shape.status();
  auto key = FindAttemptKey(store, app_id, attempt_id);
  if (!key.ok()) return key.status();
  auto beta = ComputeEfficiencyVector(store, app_id, attempt_id);  // Σ task time
  if (!beta.ok()) return beta.status();
  if (beta.value().finished_tasks == 0) {
    return Status::InvalidArgument(app_id + " ran no tasks: there is nothing to profile");
  }
  // Σ input bytes, the input-reading tasks' disk time, Σ fetch wait, remote bytes, the largest
  // result, distinct executor hosts. (The row also holds Σ CPU time and the result-sending time,
  // columns 4 and 6: both are inside the task time the split below divides.)
  double input_bytes = 0, disk_seconds = 0, fetch_wait_seconds = 0, remote_bytes = 0;
  double result_bytes = 0;
  std::int64_t hosts = 0;
  bool read = false;
  static const std::string kTaskSums = FinishedTaskSumsSql(kProfileSums);
  Status s = ReadAttemptSums(
      store, key.value(),
      "p_input_bytes, p_disk_seconds, p_fetch_wait_seconds, p_remote_bytes, p_cpu_seconds, "
      "p_result_bytes, p_result_seconds, p_hosts",
      kTaskSums, [&](const Statement& r) {
        read = true;
        ReadColumns(r, 0, input_bytes, disk_seconds, fetch_wait_seconds, remote_bytes);
        ReadColumns(r, 5, result_bytes);
        ReadColumns(r, 7, hosts);
      });
  if (!s.ok()) return s;
  if (!read) return Status::Failed("no task rows for " + app_id);
  DerivedProfile out;
  models::ProfileRun run;
  // The dataset: the bytes the tasks read from storage; for data generated in the job, the bytes
  // its later stages read back through the shuffle; else the task results the driver collected.
  run.dataset_bytes = input_bytes;
  if (input_bytes <= 0) {
    double shuffle_read = 0, results = 0;
    s = FirstRow(
        store,
        "SELECT COALESCE(SUM(shuffle_remote_bytes_read + shuffle_local_bytes_read), 0), "
        "COALESCE(SUM(result_size_bytes), 0) FROM spark_stage_summaries WHERE attempt_key = ?1",
        [&](const Statement& r) { ReadColumns(r, 0, shuffle_read, results); }, key.value());
    if (!s.ok()) return s;
    const char* what = "shuffle bytes its later stages read";
    out.dataset_source = DatasetSource::kShuffleBytesRead;
    run.dataset_bytes = shuffle_read;
    if (shuffle_read <= 0) {
      what = "bytes of task results the driver collected";
      out.dataset_source = DatasetSource::kResultBytes;
      run.dataset_bytes = results;
    }
    if (run.dataset_bytes <= 0) {
      return Status::InvalidArgument(app_id +
                                     " read no bytes (no input, shuffle or task result): there is "
                                     "no dataset size to scale");
    }
    out.notes.push_back("no input read: dataset_bytes is the " +
                        models::FormatFixed(run.dataset_bytes, 0) + " " + what +
                        " (a stand-in: predict at it to scale compute nodes; how the time grows "
                        "with the data is unknown)");
  }
  const ApplicationShape& app = shape.value();
  const double slots =
      static_cast<double>(app.observed_executors) * std::max(1, app.cores_per_executor);
  const double task_seconds = beta.value().task_seconds;
  run.compute_nodes = static_cast<double>(std::max<std::int64_t>(1, hosts));
  run.storage_nodes = run.compute_nodes;
  if (fetch_wait_seconds > 0 && remote_bytes > 0) {
    run.bandwidth_bytes_per_second = remote_bytes / fetch_wait_seconds;
  } else {
    run.bandwidth_bytes_per_second = fallback_bandwidth_bytes_per_second;
    out.notes.push_back("no remote shuffle fetch measured: bandwidth set to " +
                        std::to_string(fallback_bandwidth_bytes_per_second) + " bytes/s");
  }
  // The observed run's wall time and the part of it more task slots shorten (the work-bound
  // stages' work / slots); without a replay, every task second divided by the slots plus the
  // driver's time.
  double observed = task_seconds / slots + app.driver_seconds;
  double parallel = task_seconds / slots;
  const std::string slots_text = std::to_string(static_cast<long long>(slots)) + " task slots (" +
                                 std::to_string(app.observed_executors) + " executors x " +
                                 std::to_string(app.cores_per_executor) + " cores)";
  if (app.replay_seconds && app.work_bound_seconds) {
    observed = *app.replay_seconds;
    parallel = std::min(*app.work_bound_seconds, observed);
    out.notes.push_back(
        "replay of the tasks on the recorded executors: " + models::FormatFixed(observed, 3) +
        " s; stages whose work over " + slots_text + " exceeds their longest task take " +
        models::FormatFixed(parallel, 3) + " s of it, which more compute nodes shorten");
  } else {
    out.notes.push_back(
        "no replay of the tasks stored: all task time divided by " + slots_text +
        " is taken as shortened by more compute nodes, idle slots are not modelled");
  }
  // The parallel time divides as the task time does: input-reading time, shuffle fetch wait,
  // and the rest (CPU, GC, (de)serialization, shuffle writes, result sending).
  const double share = task_seconds > 0 ? parallel / task_seconds : 0;
  run.disk_seconds = std::min(parallel, disk_seconds * share);
  run.network_seconds = std::min(parallel - run.disk_seconds, fetch_wait_seconds * share);
  run.reduction_object_bytes = result_bytes;
  // What more compute nodes do not shorten — the driver's time outside jobs, the longest tasks of
  // stages with no more tasks than slots, gaps where no task runs — is serial: the fixed part B_ro
  // of the reduction term, which grows with neither compute nodes nor data (issue 15).
  const double serial = observed - parallel;
  models::ReductionCommunication rc;
  rc.fixed_seconds = serial;
  run.reduction_seconds = serial;
  run.global_reduction_seconds = 0;
  run.compute_seconds = parallel - run.disk_seconds - run.network_seconds + serial;
  out.profile.application = app_id;
  out.profile.runs.push_back(run);
  out.profile.reduction_communication = rc;
  out.notes.push_back("the other " + models::FormatFixed(serial, 3) +
                      " s (driver time outside jobs " + models::FormatFixed(app.driver_seconds, 3) +
                      " s, longest tasks, gaps with no task running) are the fixed reduction time "
                      "B_ro: constant in compute nodes and data");
  // One run cannot show how r and T_g scale: state the common case (a fixed-size result merged
  // once per compute node) and say so.
  out.profile.reduction_object_class = models::ReductionObjectClass::kConstant;
  out.profile.global_reduction_class = models::GlobalReductionClass::kLinearConstant;
  out.notes.push_back(
      "one run: reduction object class set to constant, global reduction to linear-constant");
  out.observed_executors = app.observed_executors;
  out.cores_per_executor = app.cores_per_executor;
  return out;
}

Result<std::vector<MetricAggregates>> StageAggregates(Store& store, const std::string& app_id,
                                                      const std::string& attempt_id) {
  return Aggregates(store, app_id, attempt_id, false);
}

Result<std::vector<MetricAggregates>> JobAggregates(Store& store, const std::string& app_id,
                                                    const std::string& attempt_id) {
  return Aggregates(store, app_id, attempt_id, true);
}

const Migrations& StoreMigrations() {
  static const Migrations kMigrations = {
      "spark",
      {SchemaV1(), SchemaV2(), SchemaV3(), SchemaV4(), SummaryOnlySchema(), SummaryReplaySchema(),
       SchemaV7()},
      TaskMetricSqlFunctions()};
  return kMigrations;
}

Status WriteSummaries(Store& store, std::int64_t attempt_key) {
  static const std::string kSql = SummaryInserts("WHERE attempt_key = ?1", TaskMetricsSql);
  // Three statements: each is prepared and run in turn (Store::Exec cannot bind).
  std::size_t at = 0;
  while (at < kSql.size()) {
    const std::size_t end = kSql.find(";\n", at);
    auto st = store.Prepare(kSql.substr(at, end - at));
    if (!st.ok()) return st.status();
    st.value().Bind(1, attempt_key);
    if (Status s = st.value().Run(); !s.ok()) return s;
    at = end + 2;
  }
  return Status::Ok();
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

Result<ExecutorHosts> LoadExecutorHosts(Store& store, std::int64_t attempt_key) {
  ExecutorHosts out;
  Status s = EachRow(
      store,
      "SELECT DISTINCT executor_id = 'driver', host FROM spark_executors WHERE attempt_key = ?1 "
      "AND host IS NOT NULL AND host <> '' ORDER BY host",
      [&](const Statement& q) {
        auto& hosts = q.ColumnInt(0) != 0 ? out.driver : out.executors;
        std::string host = q.ColumnText(1);
        if (hosts.empty() || hosts.back() != host) hosts.push_back(std::move(host));
      },
      attempt_key);
  if (!s.ok()) return s;
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> LoadSparkProperties(
    Store& store, std::int64_t attempt_key) {
  return CollectRows(
      store,
      "SELECT name, value FROM spark_properties WHERE attempt_key = ?1 AND section = 'spark' "
      "ORDER BY ord",
      [](const Statement& q) { return std::make_pair(q.ColumnText(0), q.ColumnText(1)); },
      attempt_key);
}

Result<std::vector<StageTaskDurations>> TaskDurationsByStage(Store& store,
                                                             const std::string& app_id,
                                                             const std::string& attempt_id) {
  auto key = FindAttemptKey(store, app_id, attempt_id);
  if (!key.ok()) return key.status();
  auto summary = IsSummaryOnly(store, key.value());
  if (!summary.ok()) return summary.status();
  std::vector<StageTaskDurations> out;
  // A summary-only attempt keeps the same durations, in the same order, as a JSON array per
  // stage attempt (spark_stage_durations).
  Status s = EachRow(
      store,
      summary.value()
          ? "SELECT s.stage_id, s.stage_attempt_id, je.value FROM spark_stages s "
            "LEFT JOIN spark_stage_durations d ON d.attempt_key = s.attempt_key AND "
            "d.stage_id = s.stage_id AND d.stage_attempt_id = s.stage_attempt_id "
            "LEFT JOIN json_each(d.durations_ms_json) je WHERE s.attempt_key = ?1 "
            "ORDER BY s.stage_id, s.stage_attempt_id, je.key"
          : "SELECT s.stage_id, s.stage_attempt_id, t.duration_ms FROM spark_stages s "
            "LEFT JOIN spark_tasks t ON t.attempt_key = s.attempt_key AND t.stage_id = s.stage_id "
            "AND t.stage_attempt_id = s.stage_attempt_id AND t.status = 'SUCCESS' "
            "WHERE s.attempt_key = ?1 "
            "ORDER BY s.stage_id, s.stage_attempt_id, t.launch_time_ms, t.task_id",
      [&](const Statement& q) {
        int stage = static_cast<int>(q.ColumnInt(0));
        int attempt = static_cast<int>(q.ColumnInt(1));
        if (out.empty() || out.back().stage_id != stage || out.back().stage_attempt_id != attempt) {
          out.push_back({stage, attempt, {}});
        }
        if (!q.ColumnIsNull(2)) {
          out.back().task_duration_seconds.push_back(q.ColumnDouble(2) / 1000.0);
        }
      },
      key.value());
  if (!s.ok()) return s;
  return out;
}

}  // namespace perfplan::profiles::spark

namespace perfplan::profiles::spark {

Status WriteSummaryOnlyTotals(Store& store, std::int64_t attempt_key, const ApplicationShape& shape,
                              const std::string& shape_error) {
  static const std::string kSql = TaskMetricsSql(
      std::string("INSERT INTO spark_summary_attempts SELECT ?1, e.*, p.*, ?2, ?3, ?4, ?5, ?6, "
                  "?7, ?8 FROM (SELECT ") +
      kEfficiencySums + kFinishedTasks + ") e, (SELECT " + kProfileSums +
      "FROM spark_tasks WHERE attempt_key = ?1 AND finish_time_ms IS NOT NULL) p");
  auto q = store.Prepare(kSql);
  if (!q.ok()) return q.status();
  q.value().Bind(1, attempt_key).Bind(2, shape.driver_seconds).Bind(3, shape.measured_seconds);
  q.value().Bind(4, std::int64_t{shape.observed_executors});
  q.value().Bind(5, std::int64_t{shape.cores_per_executor});
  if (shape_error.empty()) {
    q.value().BindNull(6);
  } else {
    q.value().Bind(6, shape_error);
  }
  q.value().Bind(7, shape.replay_seconds).Bind(8, shape.work_bound_seconds);
  return q.value().Run();
}

}  // namespace perfplan::profiles::spark
