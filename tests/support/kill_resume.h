// The crash tests' protocol, shared by the ingest crash tests (Spark, MapReduce): the real
// perfplan binary SIGKILLed at random points and resumed until enough kills landed (defined in
// test_support.cpp, beside RunPerfplanKilledAfter).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace perfplan::testing {

// The crash tests' protocol (SIGKILL at random points, resumed): how many runs to kill, how many
// runs (finished ones included) that may take at the most, and the seed of the kill points.
struct KillSchedule {
  int kills = 0;
  int max_runs = 0;
  unsigned seed = 0;
};
struct KillReport {
  int runs = 0, kills = 0;
  int progressed = 0;  // kills after which the store held more than after the kill before
  long clean_us = 0;   // the clean run's length
};
// Calls add_inputs(24), runs args(dir + "/timing.db") to completion to time a clean run, then
// args(dir + "/killed.db") killed after a time drawn uniformly over that length
// (std::mt19937(seed)) until `kills` runs were killed. A run that finishes before its kill is
// followed by add_inputs(4), so that killing goes on (as a live folder grows); after a kill,
// committed(killed store), when the store exists, is compared with its value after the kill
// before. Ends with one run on the killed store to completion. Throws std::runtime_error when
// `max_runs` runs were not enough.
KillReport KillAndResume(const KillSchedule& schedule, const std::string& dir,
                         const std::function<std::vector<std::string>(const std::string& db)>& args,
                         const std::function<void(int n)>& add_inputs,
                         const std::function<std::int64_t(const std::string& db)>& committed);
}  // namespace perfplan::testing
