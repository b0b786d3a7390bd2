// MapReduce jobs as runs for the models (issue 19, deliver item 3), over the store's
// "mapreduce" component through profiles/mapreduce/mapreduce_run_table.h:
//   * `perfplan tune … --store DB`: StoreRunsAreJobs decides whether the store's runs are its
//     MapReduce jobs (the selected ids are job ids, or the store has jobs and no Spark
//     application); the table itself is profiles::mapreduce::ReadJobRunTable.
//   * `perfplan score JOB --store DB`: γ of every job — α from the Ganglia samples of its hosts
//     over [submit, finish], β from its counters (compute share = CPU_MILLISECONDS / Σ
//     successful attempt time, shuffle share = Σ reduce shuffle time / Σ attempt time, GC share =
//     GC_TIME_MILLIS / Σ attempt time, shuffle bytes = REDUCE_SHUFFLE_BYTES, total time; no
//     result-serialization share in MapReduce) — task types by k-means over the jobs, then the
//     score of the job against the other jobs of its name (planner/scoring/task_scoring.h).
//   * `perfplan export --what runs --store DB`: the runs CSV of the jobs (runs_csv.h columns,
//     then job_id, maps, reduces, submit_time_seconds, vcpus, memory_bytes) for `fit --runs`
//     and `backtest --runs … --time-column submit_time_seconds`.
// Stateless; one call per Store at a time.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "planner/output/export.h"
#include "planner/scoring/task_scoring.h"
#include "profiles/spark/spark_run_table.h"
#include "profiles/store.h"

namespace perfplan::planner {

// spark + mapreduce, for the stores `tune --store` reads.
std::vector<profiles::Migrations> RunStoreMigrations();

// True when the runs of `store` for `selection` are MapReduce jobs: every selected id is a job id
// (IsMapReduceJobId), or no id is selected and the store holds jobs but no Spark application.
Result<bool> StoreRunsAreJobs(profiles::Store& store,
                              const profiles::spark::RunTableSelection& selection);

// Hadoop's documented defaults (mapred-default.xml, 2.x and 3.x) of the tuning properties a job
// is judged by: a job ran with the default configuration when none of them is set to another
// value. Returns the non-default ones as "name=value", in configuration order.
std::vector<std::string> NonDefaultJobProperties(
    const std::vector<std::pair<std::string, std::string>>& conf);

// The scores of `job_id` (or of every job with a successful attempt, when empty) against the
// store's jobs. NotFound as LoadJob; InvalidArgument "job ID has no successful attempt: a job
// without tasks is not scored" / "no MapReduce job in the store has a successful attempt:
// nothing to score".
Result<std::vector<ScoreAnswer>> ScoreStoredJobs(profiles::Store& store, const std::string& job_id);

// ScoreStoredJobs over the store file (NotFound "PATH: no such store; run `perfplan ingest
// mapreduce` first" when absent).
Result<std::vector<ScoreAnswer>> AnswerJobScores(const std::string& store_path,
                                                 const std::string& job_id);

// `tune sensitivity --store` without a target, when the store's runs are MapReduce jobs: the
// score of the latest selected job (by submit time) that has a successful attempt, against the
// store's jobs; nullopt when no selected job has one.
Result<std::optional<ScoreAnswer>> ScoreLatestJob(
    profiles::Store& store, const profiles::spark::RunTableSelection& selection);

// The job run-table metric (JobMetricColumns) that stands for score dimension `dimension`:
// shuffle_time_share → shuffle_seconds, shuffle_bytes → shuffle_bytes, gc_time_share →
// gc_time_seconds, total_time_seconds → itself; "" for the others (a job has no compute or
// result-serialization share among its metrics).
std::string_view JobMetricOfDimension(std::string_view dimension);

// `perfplan scores`: every Spark application and every MapReduce job of the store, each scored
// among its own kind (IsMapReduceJobId tells them apart). A store without MapReduce jobs answers
// as AnswerScores (its errors included), one without Spark applications as ScoreStoredJobs;
// with both, the answers of each kind that scores (the Spark error when neither does).
Result<std::vector<ScoreAnswer>> AnswerStoreScores(const std::string& store_path);

// `export --what runs`: the runs CSV table of the store's jobs (what = "runs"); `notes` gets the
// defaults taken and the jobs left out. InvalidArgument "no job in the store … has a start and
// finish time" when no row is left.
Result<ExportTable> JobRunsTable(const std::string& store_path, std::vector<std::string>* notes);

}  // namespace perfplan::planner
