// The SQL part of a Spark event log, folded as Spark 3.5's SQLAppStatusListener folds it for the
// History Server's `applications/ID/sql` answers (SqlResource): executions with their plan graph
// (SparkPlanGraph: node ids, WholeStageCodegen clusters, reused exchanges), their jobs and the
// SQL metric values aggregated from task accumulator updates, heartbeats and driver updates
// (SQLMetrics.stringValue: "1,024", "2.0 KiB", "total (min, med, max (stageId: taskId))\n…").
//
// Events: SparkListenerSQLExecutionStart/End, SparkListenerSQLAdaptiveExecutionUpdate,
// SparkListenerSQLAdaptiveSQLMetricUpdates, SparkListenerDriverAccumUpdates, and the job, stage
// and task events of jobs started with the `spark.sql.execution.id` property. The ingester
// (spark_ingest.cpp) feeds it; Finish returns what spark_sql_executions stores.
//
// Thread-safety: none (one per application being folded).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace perfplan::profiles::spark {

// SQLMetrics.stringValue of Spark 3.5 for one metric: `type` is "sum", "size", "timing",
// "nsTiming" or "average" ("v2Custom_…" gives "N/A", as a History Server without the metric's
// class shows); `max` is {value, stage id, stage attempt, task id} of the largest task value, or
// empty for a driver-side value. Exposed for tests.
std::string SqlMetricString(const std::string& type, std::vector<std::int64_t> values,
                            const std::vector<std::int64_t>& max);
// Utils.bytesToString ("0.0 B", "2.0 KiB", "1500.0 B") and Utils.msDurationToString ("12 ms",
// "1.3 s", "2.0 m", "1.50 h"), as Spark formats them.
std::string SparkBytesString(std::int64_t bytes);
std::string SparkDurationString(std::int64_t ms);

class SqlListener {
 public:
  // One accumulator update of a task: its id and its "Update" as a whole number.
  struct Accum {
    std::int64_t id = 0, update = 0;
  };
  // What spark_sql_executions keeps of an execution (JSON columns as text).
  struct Execution {
    std::int64_t id = 0;
    std::optional<std::int64_t> root_id;
    std::optional<std::string> description, details, plan;
    std::int64_t submission_ms = -1;
    std::optional<std::int64_t> completion_ms;
    std::string error;
    std::string jobs_json = "[]";   // [[job id, "RUNNING"|"SUCCEEDED"|"FAILED"], …] in the order
                                    // the History Server's job map iterates (Scala 2.12 Map)
    std::string nodes_json = "[]";  // SqlResource's printable nodes, node id descending
    std::string edges_json = "[]";  // [{fromId, toId}, …] in graph order
  };

  SqlListener();
  ~SqlListener();
  SqlListener(const SqlListener&) = delete;
  SqlListener& operator=(const SqlListener&) = delete;

  // The SQL events by their "Event" name; returns true when `type` is one of them. `problem`
  // receives a reason when the event lacks what it needs.
  bool OnSqlEvent(const std::string& type, const nlohmann::json& e, std::string* problem);
  // SparkListenerJobStart: the job's execution id (if any), stage infos and stage ids.
  void OnJobStart(const nlohmann::json& e);
  void OnJobEnd(int job_id, bool succeeded);
  void OnStageSubmitted(int stage_id, int stage_attempt);
  void OnTaskStart(int stage_id, int stage_attempt, std::int64_t task_id, std::int64_t index);
  void OnTaskEnd(int stage_id, int stage_attempt, std::int64_t task_id, std::int64_t index,
                 bool successful, const std::vector<Accum>& accums);
  // SparkListenerExecutorMetricsUpdate's "Metrics Updated" (task accumulator updates).
  void OnExecutorMetricsUpdate(const nlohmann::json& e);

  // Every execution seen, by id; metrics of executions still running at the end of the log are
  // aggregated now (the History Server's flush at the end of a replay).
  std::vector<Execution> Finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace perfplan::profiles::spark
