// FIFO replay of a day of jobs over a cluster's slots (issue 20, `perfplan capacity`).
//
// Each job arrives at submit_seconds, needs `slots` slots at once for runtime_seconds. Jobs start
// strictly in arrival order (ties: input order): a job starts at the earliest time t >= its
// submit time and >= the previous job's start at which `slots` slots are free, and holds them
// until t + runtime_seconds. A job wider than the cluster is clamped to the whole cluster (and
// counted in `clamped_jobs`). Queueing delay = start − submit.
//
// Pure; no I/O; O(J log J) for J jobs (free slots are kept as (free-at, count) runs, so the cost
// does not grow with the slot count). Units in names.
#pragma once

#include <cstddef>
#include <vector>

#include "models/status.h"

namespace perfplan::models {

struct ReplayJob {
  double submit_seconds = 0;   // >= 0, any order (sorted stably here)
  double runtime_seconds = 0;  // >= 0
  long long slots = 1;         // >= 1
};

struct ReplayedJob {
  std::size_t job = 0;  // index into the input
  double start_seconds = 0;
  double end_seconds = 0;
  double queue_seconds = 0;
  long long slots = 0;  // after clamping
};

struct ReplaySummary {
  long long cluster_slots = 0;
  std::vector<ReplayedJob> jobs;  // in start order
  double first_submit_seconds = 0;
  double makespan_seconds = 0;  // last end − first submit
  double mean_queue_seconds = 0;
  double p95_queue_seconds = 0;  // nearest-rank P95 of the queueing delays
  double max_queue_seconds = 0;
  double busy_slot_seconds = 0;  // Σ slots × runtime
  double utilisation = 0;        // busy_slot_seconds / (cluster_slots × makespan_seconds)
  std::size_t clamped_jobs = 0;
};

// InvalidArgument for cluster_slots < 1 or a job with a negative/non-finite time or slots < 1
// (message names the job index and field). An empty job list gives an empty summary.
Result<ReplaySummary> ReplayFifo(const std::vector<ReplayJob>& jobs, long long cluster_slots);

}  // namespace perfplan::models
