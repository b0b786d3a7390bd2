// Hadoop 2.x job histories and job configurations written from the format (Events.avpr's
// Avro-JSON encoding as JobHistoryEventHandler writes it; Configuration's XML), for tests that
// need jobs with chosen settings, times and counters.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace perfplan::testing {

struct SyntheticJob {
  std::string job_id = "job_1500000000000_0001";
  std::string name = "wordcount";
  std::int64_t submit_ms = 1500000000000;
  std::int64_t runtime_ms = 60000;  // submit → finish
  int maps = 4, reduces = 1;
  std::int64_t map_ms = 5000, reduce_ms = 9000, shuffle_ms = 3000;  // attempt durations
  std::vector<std::int64_t> map_durations_ms;  // per map when not empty (else map_ms each)
  std::vector<std::string> hosts = {"node1", "node2", "node3"};     // attempts round-robin
  // JobFinished's totalCounters (group, name, value); empty = the event has no counters, and
  // every attempt then carries CPU_MILLISECONDS = 100 · its index + 100.
  std::vector<std::pair<std::string, std::pair<std::string, std::int64_t>>> totals;
  bool failed = false;  // JOB_FAILED instead of JOB_FINISHED
};

// The `.jhist` text: Avro-Json, the schema line, JOB_SUBMITTED, JOB_INITED, per task
// TASK_STARTED / *_ATTEMPT_STARTED / *_ATTEMPT_FINISHED / TASK_FINISHED, and the job's end.
std::string SyntheticJhistText(const SyntheticJob& job);

// A `job_…_conf.xml` with these properties, in order.
std::string SyntheticConfXml(const std::vector<std::pair<std::string, std::string>>& properties);

}  // namespace perfplan::testing
