// `perfplan capacity` (issue 20): how many nodes finish a day of jobs within N hours, and at
// what price.
//
// The jobs come from a SWIM trace (profiles/runtime/swim_trace.h) or from a store
// (planner/plan/capacity_store.h: its MapReduce jobs by submit time and HDFS bytes read, its
// Spark applications by start time and input bytes read). For each job and each cluster size N:
//   width    w = clamp(ceil(map_input_bytes / split_bytes), 1, N)  nodes (one split per node)
//   runtime  = either the FREERIDE-G model of a profile (models::PredictRuntimeSeconds, the
//              function behind `perfplan predict`), or the runtime model fitted to the measured
//              history of one workload in a runs CSV (planner::AnswerFit, the function behind
//              `perfplan fit`, predicted with models::PredictFitted as `perfplan plan --runs`
//              does), at dataset_bytes = the job's map input bytes (at least 1: the model scales
//              the job by its input), storage = compute = w nodes, the model's reference
//              bandwidth (the profile's first run, the fit's reference run), same hardware
// then the jobs are replayed FIFO over the N nodes (models/fifo_replay.h) and each size reports
// makespan, mean and P95 queueing delay, utilisation and — with a price — the cost of renting the
// N nodes for the makespan (models/plan_cost.h billing terms).
//
// A store's jobs may span years (the shared data's span 424,043 h), so `--store` replays one
// window of them (CapacityWindow, below): by default the busiest 24 hours — "a day of jobs".
//
// Thread-safe; no globals. InvalidArgument = bad input (exit 2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/fifo_replay.h"
#include "models/plan_cost.h"
#include "models/status.h"

namespace perfplan::planner {

// Which of a store's jobs are replayed (submit time in [from, to)):
//   from and to     → exactly [from, to)
//   from only       → [from, from + hours)       (hours 0: from `from` on)
//   to only         → [to − hours, to)           (hours 0: everything before `to`)
//   neither         → the busiest `hours` hours: the window [t, t + hours) starting at a job's
//                     submit time t that holds the most jobs (ties: the earliest); hours 0: every
//                     job. Default 24 h: a day of jobs, as a SWIM trace holds.
struct CapacityWindow {
  std::optional<std::int64_t> from_ms, to_ms;  // epoch ms
  double hours = 24;
};

// Sets window.from_ms / to_ms from command-line times (planner::ParseTimeArgument: a date, a
// date and time, or epoch ms; "" leaves the bound unset). InvalidArgument naming the flag.
Status ParseCapacityWindow(const std::string& from, const std::string& to,
                           CapacityWindow* window);

struct CapacityRequest {
  std::string trace_file;          // SWIM .tsv; this or store_path
  std::string store_path;          // profile store: its MapReduce jobs and Spark applications
  CapacityWindow window;           // store_path only
  // The runtime model: a FREERIDE-G profile of a representative job, or a runs CSV and the
  // workload in it whose fitted history predicts each job (instance_type "" = the type with the
  // most completed runs, as `perfplan fit`). One of the two.
  std::string profile_file;
  std::string runs_file, workload, instance_type;
  std::vector<int> cluster_nodes;  // sizes to replay, each >= 1; required
  // Map input per node-task; 128 MiB = HDFS's default block. Change it for other split sizes.
  double split_bytes = 128.0 * 1024 * 1024;
  // Storage → compute bandwidth; 0 = the bandwidth of the profile's first run.
  double bandwidth_bytes_per_second = 0;
  std::string price_file;   // optional price file …
  std::string price_site;   // … and the site (entry) whose price applies; both or neither
  double within_hours = 0;  // marks the sizes whose makespan is within; 0 = no target

  Status Validate() const;
};

struct CapacityRow {
  int nodes = 0;
  models::ReplaySummary replay;       // replay.jobs cleared (the rows stay small)
  std::size_t extrapolated_jobs = 0;  // predictions farther than the model's warning ratio
  bool priced = false;
  models::Cost cost;
  bool within_target = false;
};

struct CapacityAnswer {
  CapacityRequest request;
  std::size_t jobs = 0;
  double trace_span_seconds = 0;  // last submit − first submit
  double map_input_bytes = 0;     // summed over the jobs
  std::string runtime_model;      // e.g. "FREERIDE-G runtime model (simple variant), 3 runs"
  // Store only: the window replayed and how it was chosen ("busiest 24 h", "given").
  std::size_t stored_jobs = 0;  // jobs with a submit time in the store
  std::optional<std::int64_t> window_from_ms, window_to_ms;
  std::string window_chosen_by;
  std::string currency;
  std::vector<CapacityRow> rows;       // in the order of request.cluster_nodes
  std::optional<int> smallest_within;  // fewest nodes meeting within_hours
  std::vector<std::string> warnings;
};

Result<CapacityAnswer> AnswerCapacity(const CapacityRequest& request);

std::string ToJson(const CapacityAnswer& answer);

}  // namespace perfplan::planner
