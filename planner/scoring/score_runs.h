// The scoring pass that the Spark applications' and the MapReduce jobs' scores share: γ of a set
// of runs (BuildRunVectors), their task types (ClassifyRuns), then ScoreRun of each requested run
// against the others, its own notes before the classification's warnings.
// Stateless; one call per Store at a time.
#pragma once

#include <string>
#include <vector>

#include "models/status.h"
#include "planner/scoring/task_scoring.h"
#include "profiles/store.h"

namespace perfplan::planner {

// One run to score, with what its source noted about it (shown first among its warnings).
struct NotedRun {
  ApplicationRun run;
  std::vector<std::string> notes;
};

// Scores every run of `runs` (or only `only_id`, when not empty) against all of them. `runs` must
// be non-empty and hold only runs with tasks. Errors of BuildRunVectors, ClassifyRuns and
// ScoreRun.
Result<std::vector<ScoreAnswer>> ScoreNotedRuns(profiles::Store& store,
                                                const std::vector<NotedRun>& runs,
                                                const std::string& only_id,
                                                const models::ScoreOptions& settings = {});

}  // namespace perfplan::planner
