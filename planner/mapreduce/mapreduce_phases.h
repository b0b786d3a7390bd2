// The phases of one MapReduce job as sets of durations, for the answers that chart or export
// them (the report's Lorenz figures, planner/output/report_mapreduce.h). The same durations
// `perfplan stragglers JOB` measures (planner/mapreduce/mapreduce_api.h): successful attempts
// only, in file order, seconds.
#pragma once

#include <string>
#include <vector>

#include "profiles/mapreduce/mapreduce_history.h"

namespace perfplan::planner {

struct PhaseDurations {
  std::string phase;  // "map", "reduce", "reduce.shuffle", "reduce.merge", "reduce.reduce"
  std::vector<double> seconds;
};

// The five phases above, in that order (a phase without attempts has no seconds).
std::vector<PhaseDurations> JobPhaseDurations(const profiles::mapreduce::Job& job);

}  // namespace perfplan::planner
