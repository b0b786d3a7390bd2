// The MapReduce jobs of the profile store as runs for the models (issue 19, deliver item 3):
//   * a run table (models/run_table.h) for `perfplan tune … --store DB`, the MapReduce twin of
//     profiles/spark/spark_run_table.h: one row per job, its configuration from conf.xml as
//     parameters, counters as metrics;
//   * runs-CSV rows (profiles/runtime/runs_csv.h) for `perfplan fit` / `backtest`: input bytes,
//     nodes → runtime, with the job's maps, reduces and submit time as extra columns.
//
// Per job (JobRun, from the stored job; ToJobRun is the pure part):
//   total_time_seconds  finish − submit (launch when the submit time is absent)
//   cpu_seconds         counter CPU_MILLISECONDS / 1000
//   gc_time_seconds     counter GC_TIME_MILLIS / 1000
//   spilled_records     counter SPILLED_RECORDS
//   shuffle_bytes       counter REDUCE_SHUFFLE_BYTES
//   input_bytes         Σ FileSystem counters *_BYTES_READ other than FILE_BYTES_READ (HDFS, S3A…)
//   task_seconds        Σ (finish − start) of the successful attempts
//   shuffle_seconds     Σ (shuffle finish − start) of the successful reduce attempts
// Counters are the job's JobFinished totals; a job without them (Rumen traces, failed jobs) sums
// the counters of its successful attempts. A counter the job has nowhere stays absent (an empty
// cell), never 0. Counter names are matched whatever their group (1.x groups differ from 2.x).
//
// Parameters: every conf.xml property set for every selected job with different values, as the
// logged text — Hadoop's own units stay in the name and value (`mapreduce.map.memory.mb` = 1024
// means MiB; tuning/spark_units.h reads a suffixed value such as dfs.blocksize=128m as bytes).
// Identity properties (job name, user, paths, hosts, ports, times, ids) are never parameters.
// Stateless functions; thread-safety as Store (one per thread).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/runtime_fit.h"
#include "models/status.h"
#include "profiles/mapreduce/mapreduce_history.h"
#include "profiles/spark/spark_run_table.h"
#include "profiles/store.h"

namespace perfplan::profiles::mapreduce {

// The metric column names of the run table, in table order.
const std::vector<std::string>& JobMetricColumns();

struct JobRun {
  std::string job_id, name, status;
  std::optional<std::int64_t> start_ms, finish_ms;  // submit (or launch), finish
  std::int64_t maps = 0, reduces = 0;               // tasks stored, by type
  std::vector<std::string> hosts;                   // distinct attempt hosts, first-seen order
  std::vector<std::pair<std::string, std::string>> conf;
  std::optional<double> total_seconds, cpu_seconds, gc_seconds, spilled_records, shuffle_bytes,
      input_bytes;
  double task_seconds = 0, shuffle_seconds = 0;
  bool counters_from_attempts = false;  // no JobFinished totals: summed over attempts
  // The metrics in JobMetricColumns order (absent = no value).
  std::vector<std::optional<double>> Metrics() const;
};

// Pure: the run of one loaded job.
JobRun ToJobRun(const Job& job);

// Whether the job counts as finished for a runtime model: status SUCCEEDED (1.x, Rumen: SUCCESS).
bool JobSucceeded(const JobRun& run);

// Every selected job of the store (spark::RunTableSelection: app_ids = job ids, name_contains =
// substring of the job name), by submit time then id. Errors: InvalidArgument "no MapReduce jobs
// in the store PATH; …" when it holds none; InvalidField("app_ids", "job ID not in the store
// PATH") for an unknown id; InvalidField("name_contains", "no job in the store PATH matches
// \"TEXT\"") when the selection leaves none; a store error.
Result<std::vector<JobRun>> LoadJobRuns(Store& store, const spark::RunTableSelection& selection);

// The run table of the selected jobs (source "store:PATH", row line = 1-based job number);
// errors as LoadJobRuns.
Result<spark::StoreRunTable> ReadJobRunTable(Store& store,
                                             const spark::RunTableSelection& selection);

// Pure: the run table of `runs` (at least one), notes naming the properties left out and why.
spark::StoreRunTable JobRunTable(const std::vector<JobRun>& runs, const std::string& source);

// One runs-CSV row per job that has a finish time: workload = the job name (the id when it has
// none), dataset_bytes = input_bytes (1 when the job read none, with a note), storage = compute
// nodes = distinct attempt hosts (at least 1), vcpus and memory_bytes per node from
// yarn.nodemanager.resource.cpu-vcores / memory-mb (YARN's defaults 8 and 8192 MiB when the
// configuration does not say, with a note), instance type "yarn-<MiB>mb-<vcores>vcore",
// bandwidth a nominal 125e6 B/s (the runtime forms pool it; it keeps the rows valid),
// runtime = total_seconds, completed = JobSucceeded.
struct JobRunsCsvRow {
  models::MeasuredRun run;
  std::string job_id;
  std::int64_t maps = 0, reduces = 0;
  double submit_time_seconds = 0;
};
struct JobRunsCsv {
  std::vector<JobRunsCsvRow> rows;
  std::vector<std::string> notes;
};
JobRunsCsv ToRunsCsvRows(const std::vector<JobRun>& runs);

// The extra columns the runs CSV carries after the required ones (RunsCsvColumns), in order.
const std::vector<std::string>& JobRunsCsvExtraColumns();

}  // namespace perfplan::profiles::mapreduce
