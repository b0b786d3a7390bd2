// Executor what-if on the executor timeline: replays a recorded Spark application's tasks on the
// executors it actually had (each alive from its add to its remove time, with its own task slots
// and resource profile), or on N executors alive for the whole run (a what-if on top of it).
//
// The replay follows Spark's scheduling rules, not a fitted constant:
//  * Task slots: an executor offers floor(cores / task cpus) slots (TaskSchedulerImpl's
//    resourceOffers); it takes tasks from its add time until its remove time (a task already
//    running there finishes; its slot is not offered again).
//  * Resource profiles: a stage's tasks run only on executors of the stage's resource profile
//    (stage-level scheduling, Spark 3.1+).
//  * Order: FIFO scheduling, the default spark.scheduler.mode: a free slot takes the next task of
//    the runnable stage with the smallest (job id, stage id) (FIFOSchedulingAlgorithm: priority =
//    job id, then stage id); a stage is runnable once its parent stages in the job finished
//    (DAGScheduler.submitMissingTasks); tasks of a stage in their recorded launch order.
//  * Driver time: a job is submitted when the driver saw the job it last waited for end, plus the
//    recorded gap. "Waited for" is the interval order of the recording: job k precedes job j when
//    k ended before j was submitted, reduced to its direct edges (k is direct when no other job
//    was submitted after k ended and ended before j was submitted). Jobs with no predecessor are
//    submitted at their recorded offset from the application start; the application ends its
//    recorded gap after its last jobs. So jobs that overlapped in the recording (submitted from
//    several driver threads) overlap in the replay and share the slots.
//  * Every finished task attempt is replayed with its recorded duration, failed and speculative
//    ones too (they held a slot).
//
// Pure functions over plain data; thread-safe. Units: seconds from the application start.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "models/status.h"

namespace perfplan::models {

struct TimelineStage {
  int stage_id = 0;
  std::vector<int> parent_ids;       // stages of the same job that must finish first
  std::vector<double> task_seconds;  // recorded durations of its task attempts, launch order
  int resource_profile_id = 0;
};

struct TimelineJob {
  int job_id = 0;
  double submit_seconds = 0;  // recorded submission, from the application start
  double end_seconds = 0;     // recorded completion, from the application start
  std::vector<TimelineStage> stages;  // stages that ran in this job
};

struct TimelineExecutor {
  std::string id;
  double add_seconds = 0;
  double remove_seconds = std::numeric_limits<double>::infinity();  // never removed: infinity
  int slots = 1;  // floor(cores / task cpus), at least 1
  int resource_profile_id = 0;
};

struct TimelineApplication {
  std::vector<TimelineJob> jobs;
  double measured_seconds = 0;               // recorded application duration
  std::vector<TimelineExecutor> executors;   // the recorded timeline (not the driver in cluster mode)
  int static_slots_per_executor = 1;         // slots of one executor in the N-executor what-if
  // The what-if answer's descriptive fields, as models::WhatIfApplication defines them:
  double driver_seconds = 0;   // measured time outside the union of job spans
  int observed_executors = 1;  // non-driver executors that ran tasks (1 in local mode)
  int cores_per_executor = 1;  // their recorded Total Cores, else the most tasks at once on one
};

struct TimelineReplay {
  double seconds = 0;            // predicted application duration
  int revived_executors = 0;     // removed executors kept alive because no other one could run
                                 // the remaining tasks (the replay ran slower than the recording)
  std::size_t most_running = 0;  // the most task attempts running at once in the replay
};

// The replay on the recorded executor timeline. InvalidArgument when the application has jobs
// with tasks but no executor, or a stage names itself as a parent (directly or via a cycle).
Result<TimelineReplay> ReplayOnTimeline(const TimelineApplication& app);

// The what-if with `executors` executors of `static_slots_per_executor` slots, all alive from the
// first recorded executor's add time to the end, any resource profile. InvalidArgument when
// executors < 1 or on a cycle.
Result<TimelineReplay> ReplayWithExecutors(const TimelineApplication& app, int executors);

// The task slots of ReplayWithExecutors(app, executors): executors × static_slots_per_executor
// (at least 1 each), at most INT_MAX. A count whose slots lie between the most_running of a
// replay and that replay's slots answers exactly as it (when most_running is below its slots, no
// task ever waited there for a slot, so any slot count from most_running up replays the same).
int WhatIfSlots(const TimelineApplication& app, int executors);

// How the stages of a recording divide at `slots` task slots (the derived profile's split of a
// replay into the time more compute nodes shorten and the time they do not, issue 15). A stage
// lasts at least max(work / slots, longest task), work = Σ its task seconds:
//  * work-bound when work / slots > its longest task (more tasks than the slots take in one
//    wave): more slots shorten it, and work / slots is its share of the parallel term;
//  * span-bound otherwise (as many tasks as slots or fewer, or one straggler longer than the
//    rest's share): it lasts as long as its longest task whatever the slots.
struct StageBounds {
  double work_bound_seconds = 0;  // Σ work / slots over the work-bound stages
  double span_bound_seconds = 0;  // Σ longest task over the span-bound stages
  int work_bound_stages = 0;
  int stages = 0;  // stages with at least one task
};
// Precondition: slots >= 1 (a double: executors × cores may exceed an int). Every stage of every
// job, as recorded (not a replay).
StageBounds BoundStages(const TimelineApplication& app, double slots);

// Length of the union of [first, second] intervals (any order, overlapping or not).
std::int64_t UnionLength(std::vector<std::pair<std::int64_t, std::int64_t>> spans);

// The largest number of executors alive at once in the timeline (an executor removed at the
// instant another is added is not counted with it).
int MaxConcurrentExecutors(const std::vector<TimelineExecutor>& executors);

}  // namespace perfplan::models
