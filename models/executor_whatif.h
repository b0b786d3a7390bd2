// Executor what-if (Sparklens-style): how long would a recorded Spark application take on a
// different number of executors?
//
// The recorded task durations are replayed on `slots` parallel task slots (executors × cores per
// executor). Jobs run one after another as recorded; inside a job a stage becomes runnable when
// all of its parent stages (that ran in the job) have finished, and runnable stages hand out their
// tasks in stage-id order to whichever slot frees first (list scheduling). Time outside jobs
// (driver work between and around jobs) is added unchanged. The critical path is the same replay
// with unlimited slots: each stage lasts as long as its longest task.
//
// Pure functions over plain data; thread-safe. Units: seconds.
#pragma once

#include <vector>

#include "models/status.h"

namespace perfplan::models {

struct WhatIfStage {
  int stage_id = 0;
  std::vector<int> parent_ids;       // stages that must finish first (others are ignored)
  std::vector<double> task_seconds;  // recorded durations of the tasks that ran
};

struct WhatIfJob {
  std::vector<WhatIfStage> stages;  // stages that ran in this job
};

struct WhatIfApplication {
  std::vector<WhatIfJob> jobs;  // in submission order
  double driver_seconds = 0;    // wall time outside every job
  double measured_seconds = 0;  // the recorded application duration
  int observed_executors = 0;   // executors the recording ran with
  int cores_per_executor = 1;   // task slots per executor
};

// Predicted application seconds on `executors` executors. InvalidArgument when executors < 1 or
// a stage names itself (directly or through a cycle) as a parent.
Result<double> PredictWithExecutors(const WhatIfApplication& app, int executors);

// Lower bound with unlimited executors: driver time + per job the longest parent chain of stages,
// each stage costing its longest task.
Result<double> CriticalPathSeconds(const WhatIfApplication& app);

}  // namespace perfplan::models
