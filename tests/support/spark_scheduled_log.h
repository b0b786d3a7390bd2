// Test support: a Spark 3 event log of an application whose runtime structure is known, written
// from the format (issue 15's second sample for the derived profile). The application runs on
// `executors` executors of `cores` cores, each on its own host and alive from the application
// start; its jobs run one after another, each one stage of the given task durations. The driver
// spends `gap_ms` before each job and after the last. A stage's tasks are launched in order, each
// on the slot that frees first (ties: the lowest executor, then core), as Spark's scheduler hands
// a free slot the next pending task. Every task reads `input_bytes_per_task` bytes, spends half
// its run time on CPU, and returns a 1000-byte result.
#pragma once

#include <string>
#include <vector>

namespace perfplan::testing {

struct ScheduledApplication {
  int executors = 1;
  int cores = 1;
  std::vector<std::vector<long>> stages;  // one job each: its tasks' durations in ms
  long gap_ms = 0;
  long input_bytes_per_task = 0;
};

// The whole log, ending with ApplicationEnd.
std::string ScheduledEventLog(const std::string& app_id, const ScheduledApplication& app);

// What the log records as the application's duration (end − start), in ms: the truth a
// prediction for this many executors is checked against.
long ScheduledDurationMs(const ScheduledApplication& app);

}  // namespace perfplan::testing
