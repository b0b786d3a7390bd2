// The Spark part of the profile store: schema (component "spark") and the derived views other
// modules read, such as the task durations of every stage attempt.
//
// Tables (all keyed by attempt_key, the row id of spark_attempts; see docs/spark.md):
//   spark_attempts        one row per application attempt (app id + attempt id unique)
//   spark_sources         which file or rolling folder produced an attempt, with its size and
//                         modification time, so an unchanged file is not ingested again
//   spark_properties      environment: sections jvm, spark, hadoop, system, classpath, metrics
//   spark_resource_profiles, spark_executors, spark_jobs, spark_stages (one row per stage
//   attempt), spark_tasks (one row per task attempt, keyed by stage attempt and task id; from
//   schema version 7 its 34 metrics in one blob, profiles/spark/spark_task_metrics.h),
//   spark_sql_executions (from schema version 4 with each execution's jobs, plan nodes with their
//   SQL metric values and plan edges), and the summaries WriteSummaries keeps (schema version 2)
// Times are epoch milliseconds (`_ms`), CPU and shuffle-write times nanoseconds (`_ns`), sizes
// bytes, exactly as Spark logs them.
//
// Thread-safety: as Store (one per thread).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/executor_whatif.h"
#include "models/runtime_model.h"
#include "models/status.h"
#include "profiles/store.h"

namespace perfplan::profiles::spark {

// The "spark" component's migrations; pass to Store::Open.
const Migrations& StoreMigrations();

// The durations of the successful tasks of one stage attempt, in launch order.
struct StageTaskDurations {
  int stage_id = 0;
  int stage_attempt_id = 0;
  std::vector<double> task_duration_seconds;  // finish − launch time of each successful task
};

// Task durations of every stage attempt of an application, ordered by stage then attempt.
// `attempt_id` selects an application attempt ("1", "2"…); when empty the latest attempt is
// used. Fails with NotFound "no Spark application APP[/ATTEMPT] in the store" when absent.
Result<std::vector<StageTaskDurations>> TaskDurationsByStage(Store& store,
                                                             const std::string& app_id,
                                                             const std::string& attempt_id = "");

// Per-stage or per-job task-metric aggregates, named as spark-rapids-tools' profiler names its
// columns (`numTasks`, `duration`, `durationSum`, `executorCPUTimeSum`, `swWriteTimeSum`, …; times
// in milliseconds, sizes in bytes), so its expected CSVs can be compared directly.
struct MetricAggregates {
  std::int64_t id = 0;                                 // stage id or job id
  std::vector<std::pair<std::string, double>> values;  // in the profiler's column order
};

// Aggregates over the tasks of each stage (all attempts; `duration` = completion − submission of
// the last attempt) or of each job (tasks of its stages; `duration` = job completion −
// submission), ordered by id. Fails like TaskDurationsByStage.
Result<std::vector<MetricAggregates>> StageAggregates(Store& store, const std::string& app_id,
                                                      const std::string& attempt_id = "");
Result<std::vector<MetricAggregates>> JobAggregates(Store& store, const std::string& app_id,
                                                    const std::string& attempt_id = "");

// One application attempt in the store, for listings.
struct ApplicationSummary {
  std::string app_id, attempt_id, name, user, spark_version, source;
  std::int64_t start_time_ms = 0;
  std::optional<std::int64_t> end_time_ms;  // absent while running / when the log was cut
  bool completed = false;
  std::int64_t jobs = 0, stages = 0, tasks = 0, failed_tasks = 0, executors = 0, events = 0,
               skipped_lines = 0;
};

// One stage attempt of an application, with its task-duration statistics.
struct StageSummary {
  int stage_id = 0, stage_attempt_id = 0;
  std::string name, status;
  std::int64_t num_tasks = 0, succeeded_tasks = 0, failed_tasks = 0;
  std::optional<double> duration_seconds;  // completion − submission
  double task_seconds_median = 0, task_seconds_max = 0, task_seconds_sum = 0;
};

// Every application attempt, latest start first.
Result<std::vector<ApplicationSummary>> ListApplications(Store& store);
// One attempt (latest when attempt_id is empty) and its stage attempts in stage order; NotFound
// as TaskDurationsByStage.
Result<std::pair<ApplicationSummary, std::vector<StageSummary>>> DescribeApplication(
    Store& store, const std::string& app_id, const std::string& attempt_id = "");

// The input of the executor what-if (models/executor_whatif.h) for an application attempt: jobs
// in id order, each with the stage attempts it ran (a stage counted in its first job only),
// their parents and every finished task's duration; driver time = application duration minus the
// union of job spans; executors = non-driver executors that ran tasks (1 in local mode); cores per
// executor = the executors' recorded "Total Cores", else the largest number of tasks seen running
// at once on one executor. Fails like TaskDurationsByStage.
Result<models::WhatIfApplication> LoadWhatIfApplication(Store& store, const std::string& app_id,
                                                        const std::string& attempt_id = "");

// The efficiency vector β of DESIGN §3.5 for one application attempt, from its task metrics.
// Shares are fractions of the summed task time (Σ finish − launch over finished tasks).
struct EfficiencyVector {
  double compute_share = 0;  // Σ executor CPU time / task time
  double shuffle_share = 0;  // (Σ shuffle fetch wait + Σ shuffle write time) / task time
  double shuffle_bytes = 0;  // Σ shuffle bytes read (remote + local) + written
  double gc_share = 0;       // Σ JVM GC time / task time
  double total_seconds = 0;  // application duration (end − start; last task if cut)
  double result_serialization_share = 0;  // Σ result serialization time / task time
  double task_seconds = 0;                // the denominator, for reference
  std::int64_t finished_tasks = 0;        // tasks with a finish time
  std::int64_t tasks_with_cpu_time = 0;   // of those, how many have Executor CPU Time > 0
                                          // (the store keeps an unlogged metric as 0; Spark
                                          // < 2.1 logs none: compute_share is 0 but unmeasured)
  double input_bytes = 0;                 // Σ input bytes read
};

// β for an application attempt (latest when attempt_id is empty); all shares 0 when no task
// finished. Fails like TaskDurationsByStage.
Result<EfficiencyVector> ComputeEfficiencyVector(Store& store, const std::string& app_id,
                                                 const std::string& attempt_id = "");

// A FREERIDE-G profile (DESIGN §3.1) derived from a Spark application, so `perfplan predict` can
// scale it. One profile run at the observed configuration (issue 15, docs/spark.md):
//   dataset_bytes        Σ input bytes read; when the application read none (data generated in
//                        the job), the shuffle bytes its stages read, else Σ task result bytes
//                        (noted, dataset_source says which); InvalidArgument when all are 0,
//                        and when no task finished ("APP ran no tasks: there is nothing to
//                        profile")
//   storage/compute nodes distinct hosts of the executors that ran tasks (1 in local mode)
//   bandwidth            remote shuffle bytes / Σ shuffle fetch wait, when both are > 0; else
//                        `fallback_bandwidth_bytes_per_second` (noted)
//   the wall time        the replay of the tasks on the recorded executor timeline
//                        (ApplicationShape::replay_seconds), split in two at S = executors ×
//                        cores task slots: the work-bound stages' Σ work / S (models::BoundStages)
//                        is what more compute nodes shorten; the rest (driver time outside jobs,
//                        the longest tasks of span-bound stages, gaps with no task running) is
//                        serial. Without a stored replay: Σ task time / S + driver time, all the
//                        task time parallel (noted).
//   disk_seconds, network_seconds  the parallel time × (input-reading tasks' run time not on CPU
//                        or fetch wait) / Σ task time, and × Σ fetch wait / Σ task time
//   compute_seconds      the rest of the parallel time + the serial time
//   reduction_seconds    the serial time, as the fixed B_ro of reduction_communication (A_ro = 0):
//                        constant in compute nodes and data; reduction_object_bytes the largest
//                        task result; global_reduction_seconds 0
// So `predict` at the observed configuration answers the replay, and with c_x compute nodes the
// parallel part scales by c/c_x while the serial part stays. With one run the classes cannot be
// inferred: reduction object constant, global reduction linear-constant are stated (and noted).
enum class DatasetSource { kInputBytes, kShuffleBytesRead, kResultBytes };
struct DerivedProfile {
  models::RuntimeProfile profile;
  DatasetSource dataset_source = DatasetSource::kInputBytes;
  std::vector<std::string> notes;  // how each value was obtained when it was not measured
  // The executors the profile's replay ran on (LoadApplicationShape): count, cores of each.
  int observed_executors = 1, cores_per_executor = 1;
};
Result<DerivedProfile> DeriveRuntimeProfile(Store& store, const std::string& app_id,
                                            const std::string& attempt_id,
                                            double fallback_bandwidth_bytes_per_second);

// The distinct hosts an attempt's executors ran on, sorted, without empty names; the driver's
// host(s) apart. Failed on a store error.
struct ExecutorHosts {
  std::vector<std::string> executors;
  std::vector<std::string> driver;
};
Result<ExecutorHosts> LoadExecutorHosts(Store& store, std::int64_t attempt_key);

// The attempt's `spark.*` properties (environment section "spark") in log order.
Result<std::vector<std::pair<std::string, std::string>>> LoadSparkProperties(
    Store& store, std::int64_t attempt_key);

// Writes the summaries of an application attempt whose tasks are all stored (the ingester calls it
// inside the transaction that wrote them, after removing any earlier summaries of that key):
//   spark_stage_summaries           per stage attempt: task counts by status, Σ duration, last
//                                   finish, Σ of every task metric (the stage list's sums)
//   spark_stage_executor_summaries  per stage attempt × executor: the History Server's
//                                   ExecutorStageSummary sums
//   spark_executor_summaries        per executor: the ExecutorSummary task counts and sums
// Read paths answer from these instead of grouping the application's tasks at every request.
Status WriteSummaries(Store& store, std::int64_t attempt_key);

// The attempt_key of an application attempt (latest attempt when attempt_id is empty).
Result<std::int64_t> FindAttemptKey(Store& store, const std::string& app_id,
                                    const std::string& attempt_id);

}  // namespace perfplan::profiles::spark
