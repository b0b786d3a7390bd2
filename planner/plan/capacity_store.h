// The jobs of a store as the arrivals of `perfplan capacity --store DB` (issue 20, Deliver 2: "or
// the jobs/applications in the store"): each stored MapReduce job at its submit time with its
// HDFS bytes read (the job's total HDFS_BYTES_READ counter: the map input a SWIM trace records),
// and each Spark application attempt at its start time with the bytes its tasks read (Spark's
// inputMetrics.bytesRead summed over its jobs, profiles::spark::JobAggregates). Submit times are
// seconds after the earliest job; jobs are ordered by submit time (then id), as a SWIM trace.
// A job without a submit time is left out with a warning. NotFound for a store that does not
// exist; InvalidArgument (field "store") when it holds no job with a submit time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "models/status.h"
#include "planner/plan/capacity.h"
#include "profiles/runtime/swim_trace.h"

namespace perfplan::planner {

// Every job of the store (no window).
Result<profiles::SwimTrace> StoreJobs(const std::string& store_path,
                                      std::vector<std::string>* warnings);

// The jobs of the store submitted in the window (CapacityWindow, planner/plan/capacity.h);
// submit times are seconds after the window's first job. InvalidArgument (field "window") when
// no job falls in it, saying when the stored jobs were submitted.
struct WindowedJobs {
  profiles::SwimTrace trace;
  std::size_t stored_jobs = 0;
  std::int64_t from_ms = 0, to_ms = 0;  // the window; to_ms exclusive
  bool bounded = false;                 // false: every job (hours 0 and no bound)
  std::string chosen_by;                // "busiest 24 h of 424043 h", "given", …
};
Result<WindowedJobs> StoreJobs(const std::string& store_path, const CapacityWindow& window,
                               std::vector<std::string>* warnings);

}  // namespace perfplan::planner
