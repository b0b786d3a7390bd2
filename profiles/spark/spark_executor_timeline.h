// The input of the executor-timeline what-if (models/executor_timeline.h) for an application
// attempt in the profile store: what the log recorded about jobs, stages, tasks and executors.
//
//  * jobs: every job of spark_jobs in id order, with its recorded submission and completion (a
//    job cut off by the end of the log ends at its last task's finish); its stages are the stage
//    ids whose first job it is, with their parents, resource profile and every finished task
//    attempt's duration (all attempts of a stage id together, in launch order);
//  * executors: the non-driver executors with their ExecutorAdded / ExecutorRemoved times (an
//    executor never removed, or removed at or after the application end, stays to the end; a
//    recorded add after a task launch on it, or a removal before one, gives way to the task) and
//    slots = floor(Total Cores / task cpus), task cpus from the executor's resource profile
//    ("Task Resource Requests" cpus), else spark.task.cpus, else 1; cores unknown = the most
//    tasks seen running at once on it; an executor added after the application end is left
//    out. When tasks ran on the driver (local mode), or there is no other executor, the driver
//    is an executor too, alive from the application start;
//  * the N-executor what-if slots: the largest slot count of one recorded executor.
// Times are seconds from the application start. Fails like TaskDurationsByStage.
#pragma once

#include <string>

#include "models/executor_timeline.h"
#include "models/status.h"
#include "profiles/store.h"

namespace perfplan::profiles::spark {

Result<models::TimelineApplication> LoadExecutorTimeline(Store& store, const std::string& app_id,
                                                         const std::string& attempt_id = "");

}  // namespace perfplan::profiles::spark
