// The JSON object of one stage's straggler entry, for the planner's own writers that embed it in a
// larger document (the phases of a MapReduce job). Included only by .cpp files inside planner/: the
// facade headers keep nlohmann::json out of their interfaces.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "planner/hindex/stragglers.h"

namespace perfplan::planner {

// The keys of `perfplan stragglers` for one stage attempt (the JSON of planner/hindex/hindex.h).
nlohmann::json StageStragglersJson(const StageStragglers& entry);

}  // namespace perfplan::planner
