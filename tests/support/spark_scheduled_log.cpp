#include "tests/support/spark_scheduled_log.h"

#include <algorithm>
#include <cstddef>

namespace perfplan::testing {
namespace {

constexpr long kStart = 1700000000000;

// A stage's launch times and slots: each task on the slot that frees first (lowest index on a
// tie), not before the stage is submitted. Slot i is core i % cores of executor i / cores + 1.
struct Placed {
  long launch = 0;
  int slot = 0;
};
std::vector<Placed> Place(const std::vector<long>& tasks, int slots, long submit) {
  std::vector<long> free_at(static_cast<std::size_t>(slots), submit);
  std::vector<Placed> out;
  for (long d : tasks) {
    const auto first = std::min_element(free_at.begin(), free_at.end());
    out.push_back({*first, static_cast<int>(first - free_at.begin())});
    *first += d;
  }
  return out;
}

// Each job's submission and end, from the application start.
std::vector<std::pair<long, long>> JobSpans(const ScheduledApplication& app) {
  std::vector<std::pair<long, long>> spans;
  long now = kStart;
  for (const std::vector<long>& tasks : app.stages) {
    const long submit = now + app.gap_ms;
    long end = submit;
    const std::vector<Placed> placed = Place(tasks, app.executors * app.cores, submit);
    for (std::size_t k = 0; k < tasks.size(); ++k) end = std::max(end, placed[k].launch + tasks[k]);
    spans.emplace_back(submit, end);
    now = end;
  }
  return spans;
}

}  // namespace

long ScheduledDurationMs(const ScheduledApplication& app) {
  const auto spans = JobSpans(app);
  return (spans.empty() ? kStart : spans.back().second) + app.gap_ms - kStart;
}

std::string ScheduledEventLog(const std::string& app_id, const ScheduledApplication& app) {
  const std::string n = "\n";
  std::string log = R"({"Event":"SparkListenerLogStart","Spark Version":"3.4.1"})" + n;
  log += R"({"Event":"SparkListenerApplicationStart","App Name":"scheduled","App ID":")" + app_id +
         R"(","Timestamp":)" + std::to_string(kStart) + R"(,"User":"tester"})" + n;
  for (int e = 1; e <= app.executors; ++e) {
    log += R"({"Event":"SparkListenerExecutorAdded","Timestamp":)" + std::to_string(kStart) +
           R"(,"Executor ID":")" + std::to_string(e) + R"(","Executor Info":{"Host":"host)" +
           std::to_string(e) + R"(","Total Cores":)" + std::to_string(app.cores) +
           R"(,"Log Urls":{}}})" + n;
  }
  const auto spans = JobSpans(app);
  long task_id = 0;
  for (std::size_t s = 0; s < app.stages.size(); ++s) {
    const std::vector<long>& tasks = app.stages[s];
    const auto [submit, end] = spans[s];
    const std::string id = std::to_string(s);
    const std::string info = R"({"Stage ID":)" + id +
                             R"(,"Stage Attempt ID":0,"Stage Name":"stage )" + id +
                             R"(","Number of Tasks":)" + std::to_string(tasks.size()) +
                             R"(,"RDD Info":[],"Parent IDs":[],"Details":"")";
    log += R"({"Event":"SparkListenerJobStart","Job ID":)" + id + R"(,"Submission Time":)" +
           std::to_string(submit) + R"(,"Stage Infos":[)" + info + R"(,"Accumulables":[]}],)" +
           R"("Stage IDs":[)" + id + R"(],"Properties":{}})" + n;
    log += R"({"Event":"SparkListenerStageSubmitted","Stage Info":)" + info +
           R"(,"Submission Time":)" + std::to_string(submit) +
           R"(,"Accumulables":[]},"Properties":{}})" + n;
    const std::vector<Placed> placed = Place(tasks, app.executors * app.cores, submit);
    for (std::size_t k = 0; k < tasks.size(); ++k, ++task_id) {
      const int executor = placed[k].slot / app.cores + 1;
      const std::string task_info =
          R"({"Task ID":)" + std::to_string(task_id) + R"(,"Index":)" + std::to_string(k) +
          R"(,"Attempt":0,"Partition ID":)" + std::to_string(k) + R"(,"Launch Time":)" +
          std::to_string(placed[k].launch) + R"(,"Executor ID":")" + std::to_string(executor) +
          R"(","Host":"host)" + std::to_string(executor) +
          R"(","Locality":"PROCESS_LOCAL","Speculative":false,"Getting Result Time":0,)"
          R"("Finish Time":)";
      log += R"({"Event":"SparkListenerTaskStart","Stage ID":)" + id +
             R"(,"Stage Attempt ID":0,"Task Info":)" + task_info +
             R"(0,"Failed":false,"Killed":false,"Accumulables":[]}})" + n;
      log += R"({"Event":"SparkListenerTaskEnd","Stage ID":)" + id +
             R"(,"Stage Attempt ID":0,"Task Type":"ResultTask","Task End Reason":{"Reason":)"
             R"("Success"},"Task Info":)" +
             task_info + std::to_string(placed[k].launch + tasks[k]) +
             R"(,"Failed":false,"Killed":false,"Accumulables":[]},"Task Metrics":{)"
             R"("Executor Deserialize Time":0,"Executor Run Time":)" +
             std::to_string(tasks[k]) + R"(,"Executor CPU Time":)" +
             std::to_string(tasks[k] / 2 * 1000000) +
             R"(,"Result Size":1000,"JVM GC Time":0,"Input Metrics":{"Bytes Read":)" +
             std::to_string(app.input_bytes_per_task) +
             R"(,"Records Read":1},"Shuffle Read Metrics":{"Remote Bytes Read":0,)"
             R"("Local Bytes Read":0},"Shuffle Write Metrics":{"Shuffle Bytes Written":0}}})" +
             n;
    }
    log += R"({"Event":"SparkListenerStageCompleted","Stage Info":)" + info +
           R"(,"Submission Time":)" + std::to_string(submit) + R"(,"Completion Time":)" +
           std::to_string(end) + R"(,"Accumulables":[]}})" + n;
    log += R"({"Event":"SparkListenerJobEnd","Job ID":)" + id + R"(,"Completion Time":)" +
           std::to_string(end) + R"(,"Job Result":{"Result":"JobSucceeded"}})" + n;
  }
  log += R"({"Event":"SparkListenerApplicationEnd","Timestamp":)" +
         std::to_string(kStart + ScheduledDurationMs(app)) + "}" + n;
  return log;
}

}  // namespace perfplan::testing
