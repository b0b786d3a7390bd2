// `perfplan whatif executors`: the what-if answer with what the executor timeline adds
// (models/executor_timeline.h, profiles/spark/spark_executor_timeline.h). Kept out of
// spark_api.h, which planner.h includes everywhere.
#pragma once

#include <string>
#include <vector>

#include "models/status.h"
#include "planner/spark/spark_api.h"
#include "profiles/store.h"

namespace perfplan::planner {

struct ExecutorTimelineAnswer {
  int max_concurrent_executors = 0;  // most executors alive at once in the recording
  int timeline_executors = 0;        // executors in the recorded timeline
  int revived_executors = 0;         // removed executors the replay had to keep (it ran late)
  double predicted_static_at_observed_seconds = 0;  // observed_executors alive the whole run
};

struct WhatIfOnTimeline {
  // predicted_at_observed_seconds and relative_error_at_observed are the replay on the recorded
  // executor timeline; points and critical_path_seconds are N executors alive the whole run.
  WhatIfAnswer whatif;
  ExecutorTimelineAnswer timeline;
};

// The what-if for `counts` (each >= 1) with the timeline replay; fails as AnswerWhatIfExecutors.
Result<WhatIfOnTimeline> AnswerWhatIfOnTimeline(profiles::Store& store, const std::string& app_id,
                                                const std::string& attempt_id,
                                                const std::vector<int>& counts);

// ToJson(WhatIfAnswer)'s keys plus "max_concurrent_executors", "timeline_executors",
// "revived_executors", "predicted_static_at_observed_seconds".
std::string ToJson(const WhatIfOnTimeline& answer);

}  // namespace perfplan::planner
