// The executor timeline read from the store (LoadExecutorTimeline) and its replay: a log written
// here in JsonProtocol's format where dynamic allocation adds an executor, removes it when the
// first job is done and adds another for the second job, with spark.task.cpus = 2.
#include "profiles/spark/spark_executor_timeline.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "models/executor_timeline.h"
#include "profiles/spark/spark_store.h"
#include "tests/profiles/spark/history_api_fixture.h"
#include "tests/support/result_checks.h"

namespace perfplan::profiles::spark {
namespace {

std::string Stage(int stage, int tasks, const std::string& times) {
  return "{\"Stage ID\":" + std::to_string(stage) +
         ",\"Stage Attempt ID\":0,\"Stage Name\":\"s\",\"Number of Tasks\":" +
         std::to_string(tasks) + ",\"RDD Info\":[],\"Parent IDs\":[],\"Details\":\"\"" + times +
         ",\"Accumulables\":[],\"Resource Profile Id\":0}";
}

// One successful task attempt: start and end lines.
std::string Task(int stage, int id, const char* exec, long launch, long finish) {
  auto info = [&](long end) {
    return "{\"Task ID\":" + std::to_string(id) + ",\"Index\":" + std::to_string(id) +
           ",\"Attempt\":0,\"Partition ID\":" + std::to_string(id) +
           ",\"Launch Time\":" + std::to_string(launch) + ",\"Executor ID\":\"" + exec +
           "\",\"Host\":\"h" + exec +
           "\",\"Locality\":\"PROCESS_LOCAL\",\"Speculative\":false,\"Getting Result Time\":0,"
           "\"Finish Time\":" +
           std::to_string(end) + ",\"Failed\":false,\"Killed\":false,\"Accumulables\":[]}";
  };
  const std::string head = "\"Stage ID\":" + std::to_string(stage) + ",\"Stage Attempt ID\":0,";
  return "{\"Event\":\"SparkListenerTaskStart\"," + head + "\"Task Info\":" + info(0) +
         "}\n{\"Event\":\"SparkListenerTaskEnd\"," + head +
         "\"Task Type\":\"ResultTask\",\"Task End Reason\":{\"Reason\":\"Success\"},"
         "\"Task Info\":" +
         info(finish) + ",\"Task Metrics\":{\"Executor Run Time\":" +
         std::to_string(finish - launch) + "}}";
}

std::string Job(int job, int stage, long submit, long end, const std::string& tasks, int n) {
  return "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":" + std::to_string(job) +
         ",\"Submission Time\":" + std::to_string(submit) + ",\"Stage Infos\":[" +
         Stage(stage, n, "") + "],\"Stage IDs\":[" + std::to_string(stage) +
         "],\"Properties\":{}}\n{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":" +
         Stage(stage, n, ",\"Submission Time\":" + std::to_string(submit)) +
         ",\"Properties\":{}}\n" + tasks +
         "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":" +
         Stage(stage, n,
               ",\"Submission Time\":" + std::to_string(submit) +
                   ",\"Completion Time\":" + std::to_string(end)) +
         "}\n{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":" + std::to_string(job) +
         ",\"Completion Time\":" + std::to_string(end) +
         ",\"Job Result\":{\"Result\":\"JobSucceeded\"}}\n";
}

std::string ExecutorAdded(const char* id, long time) {
  return std::string("{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":") +
         std::to_string(time) + ",\"Executor ID\":\"" + id + "\",\"Executor Info\":{\"Host\":\"h" +
         id + "\",\"Total Cores\":4,\"Log Urls\":{},\"Resource Profile Id\":0}}\n";
}

std::string DynamicAllocationLog() {
  return "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.0\"}\n"
         "{\"Event\":\"SparkListenerEnvironmentUpdate\",\"JVM Information\":{},"
         "\"Spark Properties\":{\"spark.task.cpus\":\"2\",\"spark.dynamicAllocation.enabled\":"
         "\"true\"},\"Hadoop Properties\":{},\"System Properties\":{},\"Classpath Entries\":{}}\n"
         "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"t\",\"App ID\":\"app-dyn\","
         "\"Timestamp\":100000,\"User\":\"u\"}\n" +
         ExecutorAdded("1", 101000) +
         Job(0, 0, 101500, 103500,
             Task(0, 0, "1", 101500, 102500) + "\n" + Task(0, 1, "1", 101500, 102500) + "\n" +
                 Task(0, 2, "1", 102500, 103500) + "\n" + Task(0, 3, "1", 102500, 103500) + "\n",
             4) +
         "{\"Event\":\"SparkListenerExecutorRemoved\",\"Timestamp\":103600,\"Executor ID\":\"1\","
         "\"Removed Reason\":\"Executor killed by driver.\"}\n" +
         ExecutorAdded("2", 104000) +
         Job(1, 1, 104100, 104600,
             Task(1, 4, "2", 104100, 104600) + "\n" + Task(1, 5, "2", 104100, 104600) + "\n", 2) +
         "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":105000}\n";
}

TEST_CASE("The timeline holds each executor's add and remove time and its task slots") {
  auto store = Ingest("app-dyn", DynamicAllocationLog());
  const models::TimelineApplication t = testing::ValueOf(LoadExecutorTimeline(*store, "app-dyn"));
  CHECK(t.measured_seconds == doctest::Approx(5.0));
  REQUIRE(t.executors.size() == 2);
  CHECK(t.executors[0].id == "1");
  CHECK(t.executors[0].add_seconds == doctest::Approx(1.0));
  CHECK(t.executors[0].remove_seconds == doctest::Approx(3.6));
  CHECK(t.executors[0].slots == 2);  // 4 cores / spark.task.cpus 2
  CHECK(t.executors[1].id == "2");
  CHECK(t.executors[1].add_seconds == doctest::Approx(4.0));
  CHECK(t.executors[1].remove_seconds == std::numeric_limits<double>::infinity());
  CHECK(t.static_slots_per_executor == 2);
  REQUIRE(t.jobs.size() == 2);
  CHECK(t.jobs[0].submit_seconds == doctest::Approx(1.5));
  CHECK(t.jobs[0].end_seconds == doctest::Approx(3.5));
  REQUIRE(t.jobs[0].stages.size() == 1);
  CHECK(t.jobs[0].stages[0].task_seconds == std::vector<double>{1, 1, 1, 1});
  CHECK(t.jobs[1].submit_seconds == doctest::Approx(4.1));
  CHECK(models::MaxConcurrentExecutors(t.executors) == 1);
  // The answer's descriptive fields, as LoadWhatIfApplication defines them.
  CHECK(t.driver_seconds == doctest::Approx(5.0 - 2.0 - 0.5));  // outside [1.5, 3.5] and [4.1, 4.6]
  CHECK(t.observed_executors == 2);
  CHECK(t.cores_per_executor == 4);
  const auto shape = testing::ValueOf(LoadWhatIfApplication(*store, "app-dyn"));
  CHECK(shape.driver_seconds == doctest::Approx(t.driver_seconds));
  CHECK(shape.observed_executors == t.observed_executors);
  CHECK(shape.cores_per_executor == t.cores_per_executor);
  CHECK(shape.measured_seconds == doctest::Approx(t.measured_seconds));
}

TEST_CASE("The replay on the recorded timeline gives the recorded duration; N executors are a what-if") {
  auto store = Ingest("app-dyn", DynamicAllocationLog());
  auto t = LoadExecutorTimeline(*store, "app-dyn").value();
  // Job 0: 1.5..3.5 on executor 1's two slots; job 1 0.6 s after it, on executor 2 (added at 4),
  // 4.1..4.6; the application ends 0.4 s later.
  const auto observed = testing::ValueOf(models::ReplayOnTimeline(t));
  CHECK(observed.seconds == doctest::Approx(5.0));
  CHECK(observed.revived_executors == 0);
  // Two executors alive from the first add (1 s): job 0 in one round, 1.5..2.5; job 1 3.1..3.6.
  CHECK(models::ReplayWithExecutors(t, 2).value().seconds == doctest::Approx(4.0));
}

TEST_CASE("Tasks that ran on the driver make it an executor, from the application start") {
  // As spark-rapids-tools' qualification logs: local mode, plus ExecutorAdded events whose clock
  // is a year after the application ended (left out of the timeline).
  const std::string log =
      "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.0\"}\n"
      "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"t\",\"App ID\":\"local-1\","
      "\"Timestamp\":100000,\"User\":\"u\"}\n"
      "{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":100200,\"Executor ID\":\"driver\","
      "\"Executor Info\":{\"Host\":\"hdriver\",\"Total Cores\":2,\"Log Urls\":{}}}\n" +
      ExecutorAdded("7", 31636000000) +
      Job(0, 0, 100500, 101500,
          Task(0, 0, "driver", 100500, 101500) + "\n" + Task(0, 1, "driver", 100500, 101500) +
              "\n",
          2) +
      "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":102000}\n";
  auto store = Ingest("local-1", log);
  auto t = LoadExecutorTimeline(*store, "local-1").value();
  REQUIRE(t.executors.size() == 1);
  CHECK(t.executors[0].id == "driver");
  CHECK(t.executors[0].add_seconds == 0);
  CHECK(t.executors[0].slots == 2);
  CHECK(models::ReplayOnTimeline(t).value().seconds == doctest::Approx(2.0));
}

TEST_CASE("A stage's task durations are in launch order, then task id, whatever the ids' order") {
  // Task ids out of launch order, and the second job's tasks numbered between the first's.
  const std::string log =
      "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.0\"}\n"
      "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"t\",\"App ID\":\"app-ord\","
      "\"Timestamp\":100000,\"User\":\"u\"}\n" +
      ExecutorAdded("1", 101000) +
      Job(0, 0, 101500, 103600,
          Task(0, 5, "1", 101500, 102000) + "\n" + Task(0, 3, "1", 101600, 103600) + "\n" +
              Task(0, 4, "1", 101500, 102500) + "\n" + Task(0, 1, "1", 101700, 101800) + "\n",
          4) +
      Job(1, 1, 104000, 105000,
          Task(1, 2, "1", 104000, 104300) + "\n" + Task(1, 0, "1", 104000, 104700) + "\n", 2) +
      "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":105500}\n";
  auto store = Ingest("app-ord", log);
  const models::TimelineApplication t = testing::ValueOf(LoadExecutorTimeline(*store, "app-ord"));
  REQUIRE(t.jobs.size() == 2);
  REQUIRE(t.jobs[0].stages.size() == 1);
  CHECK(t.jobs[0].stages[0].task_seconds == std::vector<double>{1.0, 0.5, 2.0, 0.1});
  REQUIRE(t.jobs[1].stages.size() == 1);
  CHECK(t.jobs[1].stages[0].task_seconds == std::vector<double>{0.7, 0.3});
  CHECK(t.observed_executors == 1);
  CHECK(t.cores_per_executor == 4);
  REQUIRE(t.executors.size() == 1);
  CHECK(t.executors[0].add_seconds == doctest::Approx(1.0));
}

TEST_CASE("An unknown application is NotFound") {
  auto store = Ingest("app-dyn", DynamicAllocationLog());
  auto t = LoadExecutorTimeline(*store, "app-none");
  REQUIRE(!t.ok());
  CHECK(t.status().code() == StatusCode::kNotFound);
}

}  // namespace
}  // namespace perfplan::profiles::spark
