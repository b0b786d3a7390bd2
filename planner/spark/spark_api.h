// Spark answers of the planner: the JSON of `perfplan ingest spark`, `apps`, `app` and the executor
// what-if. The History Server's `/api/v1` answers live next to the schema they read, in
// profiles/spark/history_api.h. Thread-safety: one call per Store at a time. nlohmann::json stays
// inside the .cpp files.
#pragma once

#include <string>

#include "models/status.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "profiles/store.h"

namespace perfplan::planner {

// {"applications": N, "events": N, "lines": N, "bytes_read": N, "applications_ingested": [...],
//  "skipped": [{file, line, reason}]}
std::string ToJson(const profiles::spark::IngestSummary& summary);

// `perfplan whatif executors APP --counts …`: the replay at each count, the critical-path lower
// bound, and the model checked against the recording at the observed executor count.
struct WhatIfAnswer {
  std::string app_id, attempt_id;
  std::vector<std::pair<int, double>> points;  // (executors, predicted_seconds)
  double critical_path_seconds = 0;
  double measured_seconds = 0;
  double driver_seconds = 0;
  int observed_executors = 0;
  int cores_per_executor = 1;
  double predicted_at_observed_seconds = 0;
  double relative_error_at_observed = 0;  // (predicted − measured) / measured; 0 if measured is 0
};

// Runs the what-if for `counts` (each >= 1). NotFound for an unknown application; InvalidArgument
// for a bad count.
Result<WhatIfAnswer> AnswerWhatIfExecutors(profiles::Store& store, const std::string& app_id,
                                           const std::string& attempt_id,
                                           const std::vector<int>& counts);

// {"app_id", "attempt_id", "points": [{executors, predicted_seconds}], "critical_path_seconds",
//  "measured_seconds", "driver_seconds", "observed_executors", "cores_per_executor",
//  "predicted_at_observed_seconds", "relative_error_at_observed"}
std::string ToJson(const WhatIfAnswer& answer);

// `perfplan apps --json`: {"applications": [{app_id, attempt_id, name, user, spark_version,
// start_time_ms, end_time_ms|null, duration_seconds|null, completed, jobs, stages, tasks,
// failed_tasks, executors, events, skipped_lines, source}]}
std::string ToJson(const std::vector<profiles::spark::ApplicationSummary>& apps);
// `perfplan app ID --json`: the application's keys as above plus "stages": [{stage_id,
// stage_attempt_id, name, status, num_tasks, succeeded_tasks, failed_tasks,
// duration_seconds|null, task_seconds_median, task_seconds_max, task_seconds_sum}]
std::string ToJson(const profiles::spark::ApplicationSummary& app,
                   const std::vector<profiles::spark::StageSummary>& stages);

}  // namespace perfplan::planner
