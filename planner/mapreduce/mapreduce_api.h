// MapReduce answers of the planner: `perfplan jobs`, `perfplan job ID` and the MapReduce branch
// of `perfplan stragglers JOB`, over the store's "mapreduce" component (profiles/mapreduce/).
//
// Phases: the map phase spans the first MAP attempt start to the last MAP attempt finish, the
// reduce phase the same over REDUCE attempts. A reduce attempt's sub-phases are shuffle (start →
// shuffle finish), merge (shuffle finish → sort finish) and reduce (sort finish → finish), as
// Hadoop's JobHistory records them. Times are seconds in answers (milliseconds in the store).
// Thread-safety: one call per Store at a time; nlohmann::json stays in the .cpp files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "models/hindex.h"
#include "models/status.h"
#include "planner/hindex/stragglers.h"
#include "profiles/mapreduce/mapreduce_ingest.h"
#include "profiles/mapreduce/mapreduce_store.h"
#include "profiles/store.h"

namespace perfplan::planner {

// {"files": N, "jobs": N, "events": N, "lines": N, "bytes_read": N, "files_ingested": [{path,
//  format, job_ids, events, problems, unchanged}], "ignored": [...], "skipped": [{file, line,
//  field, message, text}]}
std::string ToJson(const profiles::mapreduce::IngestSummary& summary);

// {"jobs": [{job_id, name, user, queue, status, format, submit_time_ms, launch_time_ms,
//  finish_time_ms, duration_seconds, maps, reduces, other_tasks, attempts, failed_attempts,
//  killed_attempts, events, conf_properties, source}]}
std::string ToJson(const std::vector<profiles::mapreduce::JobSummary>& jobs);

// Seconds between two optional epoch-ms times; absent unless both are present and b ≥ a.
std::optional<double> SecondsBetween(std::optional<std::int64_t> a, std::optional<std::int64_t> b);

struct PhaseSpan {
  std::string phase;  // "map", "reduce", "reduce.shuffle", "reduce.merge", "reduce.reduce"
  std::size_t attempts = 0;                // successful attempts measured
  std::optional<double> wall_seconds;      // first start → last finish (map / reduce only)
  double attempt_seconds_sum = 0, attempt_seconds_max = 0, attempt_seconds_median = 0;
};

struct TaskDuration {
  std::string task_id, task_type, attempt_id, host;
  double seconds = 0;
};

// `perfplan job ID`.
struct JobAnswer {
  profiles::mapreduce::JobSummary summary;
  std::optional<double> duration_seconds;  // submit (or launch) → finish
  std::optional<std::int64_t> total_maps, total_reduces, finished_maps, finished_reduces,
      failed_maps, failed_reduces, killed_maps, killed_reduces;
  std::string diagnostics;
  std::vector<PhaseSpan> phases;
  // tasks by type then status, e.g. ("MAP", "SUCCEEDED", 10)
  std::vector<std::tuple<std::string, std::string, std::int64_t>> task_counts;
  std::vector<profiles::mapreduce::Counter> counters;  // the job's total counters
  std::vector<profiles::mapreduce::Attempt> unsuccessful_attempts;  // FAILED / KILLED, file order
  std::vector<TaskDuration> slowest;                                // longest successful attempts
  std::vector<std::pair<std::string, std::int64_t>> event_counts;
  std::size_t conf_properties = 0;
};

// Fails NotFound "no MapReduce job ID in the store[; did you mean "X"?]". `slowest` ≥ 0 tasks.
Result<JobAnswer> AnswerJob(profiles::Store& store, const std::string& job_id, std::size_t slowest);
std::string ToJson(const JobAnswer& answer);

// `perfplan stragglers JOB` for a MapReduce job: the H-index of the successful attempt durations
// of the map phase and of the reduce phase (each with Lorenz curve and change point), the
// reduce's shuffle / merge / reduce sub-phase durations as bucket sets of their own, and
// H_job = Σ w·H over the map and reduce phases, w = the phase's share of their summed attempt
// time (the paper's job-level measure). Phases with fewer than 2ω + 2 attempts are listed with the
// reason and left out of H_job.
struct MapReduceStragglersAnswer {
  std::string job_id;
  std::vector<std::pair<std::string, StageStragglers>> phases;  // map, reduce
  std::vector<std::pair<std::string, StageStragglers>> reduce_sub_phases;
  std::optional<double> h_job;
  std::size_t phases_used = 0;
  std::string h_job_note;
};

// Fails like AnswerJob; InvalidArgument from options.Validate().
Result<MapReduceStragglersAnswer> AnswerMapReduceStragglers(profiles::Store& store,
                                                            const std::string& job_id,
                                                            const models::HIndexOptions& options);
std::string ToJson(const MapReduceStragglersAnswer& answer);

// True when `id` looks like a MapReduce job id (job_<cluster>_<n>), so `stragglers` can route it.
bool IsMapReduceJobId(const std::string& id);

}  // namespace perfplan::planner
