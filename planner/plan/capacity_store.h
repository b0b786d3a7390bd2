// The jobs of a store as the arrivals of `perfplan capacity --store DB` (issue 20, Deliver 2: "or
// the jobs/applications in the store"): each stored MapReduce job at its submit time with its
// HDFS bytes read (the job's total HDFS_BYTES_READ counter: the map input a SWIM trace records),
// and each Spark application attempt at its start time with the bytes its tasks read (Spark's
// inputMetrics.bytesRead summed over its jobs, profiles::spark::JobAggregates). Submit times are
// seconds after the earliest job; jobs are ordered by submit time (then id), as a SWIM trace.
// A job without a submit time is left out with a warning. NotFound for a store that does not
// exist; InvalidArgument (field "store") when it holds no job with a submit time.
#pragma once

#include <string>
#include <vector>

#include "models/status.h"
#include "profiles/runtime/swim_trace.h"

namespace perfplan::planner {

Result<profiles::SwimTrace> StoreJobs(const std::string& store_path,
                                      std::vector<std::string>* warnings);

}  // namespace perfplan::planner
