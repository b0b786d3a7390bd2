// `perfplan capacity` (issue 20): how many nodes finish a day of jobs within N hours, and at
// what price.
//
// The jobs come from a SWIM trace (profiles/runtime/swim_trace.h) or from a store
// (planner/plan/capacity_store.h: its MapReduce jobs by submit time and HDFS bytes read, its
// Spark applications by start time and input bytes read). For each job and each cluster size N:
//   width    w = clamp(ceil(map_input_bytes / split_bytes), 1, N)  nodes (one split per node)
//   runtime  = the FREERIDE-G model of the profile (models::PredictRuntimeSeconds, the function
//              behind `perfplan predict`) at dataset_bytes = map input bytes (at least 1),
//              storage = compute = w nodes, the profile's reference bandwidth, same hardware
// then the jobs are replayed FIFO over the N nodes (models/fifo_replay.h) and each size reports
// makespan, mean and P95 queueing delay, utilisation and — with a price — the cost of renting the
// N nodes for the makespan (models/plan_cost.h billing terms).
//
// Thread-safe; no globals. InvalidArgument = bad input (exit 2).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/fifo_replay.h"
#include "models/plan_cost.h"
#include "models/status.h"

namespace perfplan::planner {

struct CapacityRequest {
  std::string trace_file;          // SWIM .tsv; this or store_path
  std::string store_path;          // profile store: its MapReduce jobs and Spark applications
  std::string profile_file;        // FREERIDE-G profile of a representative job; required
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
  std::string currency;
  std::vector<CapacityRow> rows;       // in the order of request.cluster_nodes
  std::optional<int> smallest_within;  // fewest nodes meeting within_hours
  std::vector<std::string> warnings;
};

Result<CapacityAnswer> AnswerCapacity(const CapacityRequest& request);

std::string ToJson(const CapacityAnswer& answer);

}  // namespace perfplan::planner
