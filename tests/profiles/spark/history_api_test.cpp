// History-Server answers for the Spark 3.x events perfplan folds beyond the shared expectation
// files: exclusion and un-exclusion (both spellings, per stage), push-based shuffle read
// metrics, per-stage executor peaks (the driver included), speculation summaries, RDD storage,
// miscellaneous processes, failed tasks' error text, the listing rules and unsupported endpoints.
// Each log is written here line by line in JsonProtocol's format (Spark 3.5 field names).
#include "profiles/spark/history_api.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "tests/profiles/spark/history_api_fixture.h"
#include "tests/support/result_checks.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles::spark {
namespace {

using nlohmann::json;

const char* kCachedLevel =
    R"({"Use Disk":false,"Use Memory":true,"Use Off Heap":false,"Deserialized":true,)"
    R"("Replication":1})";
const char* kNoLevel =
    R"({"Use Disk":false,"Use Memory":false,"Use Off Heap":false,"Deserialized":false,)"
    R"("Replication":1})";

std::string StageInfo(const std::string& times) {
  return std::string(R"({"Stage ID":0,"Stage Attempt ID":0,"Stage Name":"count at t.scala:1",)") +
         R"("Number of Tasks":2,"RDD Info":[{"RDD ID":0,"Name":"cached","Callsite":"c",)" +
         R"("Parent IDs":[],"Storage Level":)" + kCachedLevel +
         R"(,"Barrier":false,"DeterministicLevel":"DETERMINATE","Number of Partitions":2,)" +
         R"("Number of Cached Partitions":0,"Memory Size":0,"Disk Size":0},{"RDD ID":1,)" +
         R"("Name":"MapPartitionsRDD","Callsite":"c","Parent IDs":[0],"Storage Level":)" +
         kNoLevel +
         R"(,"Barrier":false,"DeterministicLevel":"DETERMINATE","Number of Partitions":2,)" +
         R"("Number of Cached Partitions":0,"Memory Size":0,"Disk Size":0}],"Parent IDs":[],)" +
         R"("Details":"d")" + times +
         R"(,"Accumulables":[],"Resource Profile Id":0,"Shuffle Push Enabled":true,)" +
         R"("Shuffle Push Mergers Count":3})";
}

std::string TaskInfo(int id, int index, int attempt, const char* exec, const char* host,
                     bool speculative, long launch, long finish) {
  return "{\"Task ID\":" + std::to_string(id) + ",\"Index\":" + std::to_string(index) +
         ",\"Attempt\":" + std::to_string(attempt) + ",\"Partition ID\":" + std::to_string(index) +
         ",\"Launch Time\":" + std::to_string(launch) + ",\"Executor ID\":\"" + exec +
         "\",\"Host\":\"" + host +
         "\",\"Locality\":\"PROCESS_LOCAL\",\"Speculative\":" + (speculative ? "true" : "false") +
         ",\"Getting Result Time\":0,\"Finish Time\":" + std::to_string(finish) +
         ",\"Failed\":" + (finish > 0 && id == 1 ? "true" : "false") +
         ",\"Killed\":false,\"Accumulables\":[]}";
}

std::string TaskMetrics(int scale) {
  auto n = [&](int v) { return std::to_string(v * scale); };
  return R"({"Executor Deserialize Time":1,"Executor Deserialize CPU Time":1,)"
         R"("Executor Run Time":5,"Executor CPU Time":4,"Peak Execution Memory":0,)"
         R"("Result Size":10,"JVM GC Time":0,"Result Serialization Time":0,)"
         R"("Memory Bytes Spilled":0,"Disk Bytes Spilled":0,"Shuffle Read Metrics":{)"
         R"("Remote Blocks Fetched":1,"Local Blocks Fetched":2,"Fetch Wait Time":3,)"
         R"("Remote Bytes Read":40,"Remote Bytes Read To Disk":0,"Local Bytes Read":50,)"
         R"("Total Records Read":6,"Remote Requests Duration":7,"Shuffle Push Read Metrics":{)"
         R"("Corrupt Merged Block Chunks":)" +
         n(1) + R"(,"Merged Fetch Fallback Count":)" + n(2) +
         R"(,"Merged Remote Blocks Fetched":)" + n(3) + R"(,"Merged Local Blocks Fetched":)" +
         n(4) + R"(,"Merged Remote Chunks Fetched":)" + n(5) +
         R"(,"Merged Local Chunks Fetched":)" + n(6) + R"(,"Merged Remote Bytes Read":)" + n(7) +
         R"(,"Merged Local Bytes Read":)" + n(8) + R"(,"Merged Remote Requests Duration":)" + n(9) +
         R"(}},"Shuffle Write Metrics":{"Shuffle Bytes Written":0,"Shuffle Write Time":0,)"
         R"("Shuffle Records Written":0},"Input Metrics":{"Bytes Read":0,"Records Read":0},)"
         R"("Output Metrics":{"Bytes Written":0,"Records Written":0},"Updated Blocks":[]})";
}

std::string TaskEnd(int id, int index, int attempt, const char* exec, const char* host,
                    bool speculative, long launch, long finish, const std::string& reason,
                    int scale) {
  return R"({"Event":"SparkListenerTaskEnd","Stage ID":0,"Stage Attempt ID":0,)"
         R"("Task Type":"ResultTask","Task End Reason":)" +
         reason + R"(,"Task Info":)" +
         TaskInfo(id, index, attempt, exec, host, speculative, launch, finish) +
         R"(,"Task Executor Metrics":{"JVMHeapMemory":)" + std::to_string(500 * scale) +
         R"(,"JVMOffHeapMemory":10},"Task Metrics":)" + TaskMetrics(scale) + "}";
}

std::string TaskStart(int id, int index, int attempt, const char* exec, const char* host,
                      bool speculative, long launch) {
  return R"({"Event":"SparkListenerTaskStart","Stage ID":0,"Stage Attempt ID":0,"Task Info":)" +
         TaskInfo(id, index, attempt, exec, host, speculative, launch, 0) + "}";
}

std::string BlockManager(const char* exec, const char* host, int port, long time) {
  return std::string(R"({"Event":"SparkListenerBlockManagerAdded","Block Manager ID":{)") +
         "\"Executor ID\":\"" + exec + "\",\"Host\":\"" + host +
         "\",\"Port\":" + std::to_string(port) + R"(},"Maximum Memory":1000,"Timestamp":)" +
         std::to_string(time) + R"(,"Maximum Onheap Memory":800,"Maximum Offheap Memory":200})";
}

std::string ExecutorAdded(const char* exec, const char* host, long time) {
  return std::string(R"({"Event":"SparkListenerExecutorAdded","Timestamp":)") +
         std::to_string(time) + ",\"Executor ID\":\"" + exec + "\",\"Executor Info\":{\"Host\":\"" +
         host +
         R"(","Total Cores":2,"Log Urls":{},"Attributes":{},"Resources":{},)"
         R"("Resource Profile Id":0}})";
}

// One application on a driver and executors 1 (host h1) and 2 (host h2): one stage of two
// partitions; task 1 is lost with its executor, task 2 is a speculative copy.
std::string ExclusionLog() {
  const std::string lost =
      R"({"Reason":"ExecutorLostFailure","Executor ID":"2","Exit Caused By App":true,)"
      R"("Loss Reason":"Container killed by YARN for exceeding memory limits."})";
  const std::string ok = R"({"Reason":"Success"})";
  const std::string lines[] = {
      R"({"Event":"SparkListenerLogStart","Spark Version":"3.5.0"})",
      R"({"Event":"SparkListenerApplicationStart","App Name":"t","App ID":"app-x",)"
      R"("Timestamp":1000,"User":"u"})",
      BlockManager("driver", "h0", 7000, 1001),
      ExecutorAdded("1", "h1", 1002),
      BlockManager("1", "h1", 7001, 1002),
      ExecutorAdded("2", "h2", 1003),
      BlockManager("2", "h2", 7002, 1003),
      R"({"Event":"SparkListenerJobStart","Job ID":0,"Submission Time":1010,"Stage Infos":[)" +
          StageInfo("") + R"(],"Stage IDs":[0],"Properties":{}})",
      R"({"Event":"SparkListenerStageSubmitted","Stage Info":)" +
          StageInfo(R"(,"Submission Time":1011)") + R"(,"Properties":{}})",
      TaskStart(0, 0, 0, "1", "h1", false, 1012),
      TaskStart(1, 1, 0, "2", "h2", false, 1012),
      // Spark 3.1+ posts both spellings of each exclusion event.
      R"({"Event":"org.apache.spark.scheduler.SparkListenerExecutorBlacklisted","time":1013,)"
      R"("executorId":"2","taskFailures":2})",
      R"({"Event":"org.apache.spark.scheduler.SparkListenerExecutorExcluded","time":1013,)"
      R"("executorId":"2","taskFailures":2})",
      R"({"Event":"org.apache.spark.scheduler.SparkListenerExecutorBlacklistedForStage",)"
      R"("time":1013,"executorId":"1","taskFailures":1,"stageId":0,"stageAttemptId":0})",
      R"({"Event":"org.apache.spark.scheduler.SparkListenerExecutorExcludedForStage",)"
      R"("time":1013,"executorId":"1","taskFailures":1,"stageId":0,"stageAttemptId":0})",
      TaskEnd(0, 0, 0, "1", "h1", false, 1012, 1020, ok, 1),
      TaskEnd(1, 1, 0, "2", "h2", false, 1012, 1021, lost, 1),
      TaskStart(2, 1, 1, "1", "h1", true, 1022),
      R"({"Event":"SparkListenerBlockUpdated","Block Updated Info":{"Block Manager ID":{)"
      R"("Executor ID":"1","Host":"h1","Port":7001},"Block ID":"rdd_0_0","Storage Level":)" +
          std::string(kCachedLevel) + R"(,"Memory Size":100,"Disk Size":0}})",
      TaskEnd(2, 1, 1, "1", "h1", true, 1022, 1030, ok, 2),
      R"({"Event":"org.apache.spark.scheduler.SparkListenerExecutorUnblacklisted","time":1031,)"
      R"("executorId":"2"})",
      R"({"Event":"org.apache.spark.scheduler.SparkListenerExecutorUnexcluded","time":1031,)"
      R"("executorId":"2"})",
      R"({"Event":"org.apache.spark.scheduler.SparkListenerNodeExcluded","time":1032,)"
      R"("hostId":"h1","executorFailures":2})",
      // A heartbeat of executor 2 during stage 0 (the live UI's event; logged by some writers).
      R"({"Event":"SparkListenerExecutorMetricsUpdate","Executor ID":"2","Metrics Updated":[],)"
      R"("Executor Metrics Updated":[{"Stage ID":0,"Stage Attempt ID":0,"Executor Metrics":{)"
      R"("JVMHeapMemory":800,"MajorGCTime":7}}]})",
      R"({"Event":"SparkListenerStageExecutorMetrics","Executor ID":"driver","Stage ID":0,)"
      R"("Stage Attempt ID":0,"Executor Metrics":{"JVMHeapMemory":300,"JVMOffHeapMemory":20}})",
      R"({"Event":"SparkListenerStageExecutorMetrics","Executor ID":"1","Stage ID":0,)"
      R"("Stage Attempt ID":0,"Executor Metrics":{"JVMHeapMemory":700,"JVMOffHeapMemory":5}})",
      R"({"Event":"SparkListenerStageCompleted","Stage Info":)" +
          StageInfo(R"(,"Submission Time":1011,"Completion Time":1033)") + "}",
      R"({"Event":"SparkListenerJobEnd","Job ID":0,"Completion Time":1034,"Job Result":{)"
      R"("Result":"JobSucceeded"}})",
      R"({"Event":"org.apache.spark.scheduler.SparkListenerMiscellaneousProcessAdded",)"
      R"("time":1040,"processId":"yarn-am","info":{"hostPort":"h9:8042","cores":1,)"
      R"("logUrlInfo":{"stdout":"http://h9/stdout"}}})",
      R"({"Event":"SparkListenerApplicationEnd","Timestamp":1050})",
  };
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

json ById(const json& list, const std::string& id) {
  for (const json& e : list) {
    if (e["id"] == id) return e;
  }
  FAIL("no entry " << id);
  return {};
}

TEST_CASE("A heartbeat raises the executor's and the stage's peaks") {
  auto store = Ingest("app-x", ExclusionLog());
  json execs = Get(*store, "applications/app-x/executors");
  CHECK(ById(execs, "2")["peakMemoryMetrics"]["JVMHeapMemory"] == 800);
  CHECK(ById(execs, "2")["peakMemoryMetrics"]["MajorGCTime"] == 7);
  json stage = Get(*store, "applications/app-x/stages/0/0");
  CHECK(stage["peakExecutorMetrics"]["JVMHeapMemory"] == 1000);
  CHECK(stage["peakExecutorMetrics"]["MajorGCTime"] == 7);
}

TEST_CASE("Un-excluded executors are no longer excluded; node exclusion reaches its executors") {
  auto store = Ingest("app-x", ExclusionLog());
  json execs = Get(*store, "applications/app-x/executors");
  CHECK(ById(execs, "2")["isExcluded"] == false);
  CHECK(ById(execs, "2")["isBlacklisted"] == false);
  CHECK(ById(execs, "1")["isExcluded"] == true);
  CHECK(ById(execs, "driver")["isExcluded"] == false);
  // Excluded for stage 0 until the stage completed.
  CHECK(ById(execs, "1")["excludedInStages"] == json::array());
  json stage = Get(*store, "applications/app-x/stages/0/0");
  CHECK(stage["executorSummary"]["1"]["isExcludedForStage"] == true);
  CHECK(stage["executorSummary"]["1"]["isBlacklistedForStage"] == true);
  CHECK(stage["executorSummary"]["2"]["isExcludedForStage"] == false);
}

TEST_CASE("Push-based shuffle read metrics reach the stage and every task") {
  auto store = Ingest("app-x", ExclusionLog());
  json stage = Get(*store, "applications/app-x/stages/0/0");
  // Tasks 0 and 1 report scale 1, task 2 scale 2: each stage sum is 4x the unit.
  CHECK(stage["shuffleCorruptMergedBlockChunks"] == 4);
  CHECK(stage["shuffleMergedFetchFallbackCount"] == 8);
  CHECK(stage["shuffleMergedRemoteBlocksFetched"] == 12);
  CHECK(stage["shuffleMergedLocalBlocksFetched"] == 16);
  CHECK(stage["shuffleMergedRemoteChunksFetched"] == 20);
  CHECK(stage["shuffleMergedLocalChunksFetched"] == 24);
  CHECK(stage["shuffleMergedRemoteBytesRead"] == 28);
  CHECK(stage["shuffleMergedLocalBytesRead"] == 32);
  CHECK(stage["shuffleMergedRemoteReqsDuration"] == 36);
  CHECK(stage["isShufflePushEnabled"] == true);
  CHECK(stage["shuffleMergersCount"] == 3);
  const json push =
      stage["tasks"]["2"]["taskMetrics"]["shuffleReadMetrics"]["shufflePushReadMetrics"];
  CHECK(push == json{{"corruptMergedBlockChunks", 2},
                     {"mergedFetchFallbackCount", 4},
                     {"remoteMergedBlocksFetched", 6},
                     {"localMergedBlocksFetched", 8},
                     {"remoteMergedChunksFetched", 10},
                     {"localMergedChunksFetched", 12},
                     {"remoteMergedBytesRead", 14},
                     {"localMergedBytesRead", 16},
                     {"remoteMergedReqsDuration", 18}});
}

TEST_CASE("Stage executor summaries carry SparkListenerStageExecutorMetrics peaks, driver too") {
  auto store = Ingest("app-x", ExclusionLog());
  json summary = Get(*store, "applications/app-x/stages/0/0")["executorSummary"];
  REQUIRE(summary.contains("driver"));
  CHECK(summary["driver"]["succeededTasks"] == 0);
  CHECK(summary["driver"]["taskTime"] == 0);
  CHECK(summary["driver"]["peakMemoryMetrics"]["JVMHeapMemory"] == 300);
  CHECK(summary["driver"]["peakMemoryMetrics"]["JVMOffHeapMemory"] == 20);
  CHECK(summary["driver"]["peakMemoryMetrics"]["MajorGCTime"] == 0);
  // Executor 1: its tasks peaked at 500 and 1000, the stage event at 700; off-heap 10 vs 5.
  CHECK(summary["1"]["peakMemoryMetrics"]["JVMHeapMemory"] == 1000);
  CHECK(summary["1"]["peakMemoryMetrics"]["JVMOffHeapMemory"] == 10);
  // Executor 2: its task peaked at 500, its heartbeat at 800.
  CHECK(summary["2"]["peakMemoryMetrics"]["JVMHeapMemory"] == 800);
  CHECK(summary["2"]["peakMemoryMetrics"]["MajorGCTime"] == 7);
  CHECK(summary["1"]["succeededTasks"] == 2);
  CHECK(summary["2"]["failedTasks"] == 1);
}

TEST_CASE("withSummaries uses the stage quantiles 0,0.25,0.5,0.75,1 over all stage executors") {
  auto store = Ingest("app-x", ExclusionLog());
  json stage = Get(*store, "applications/app-x/stages/0/0?withSummaries=true");
  const json quantiles = json::array({0.0, 0.25, 0.5, 0.75, 1.0});
  CHECK(stage["taskMetricsDistributions"]["quantiles"] == quantiles);
  const json& execs = stage["executorMetricsDistributions"];
  CHECK(execs["quantiles"] == quantiles);
  // driver 0, executor 2 0, executor 1 2 succeeded tasks: index min(q * 3, 2).
  CHECK(execs["succeededTasks"] == json::array({0.0, 0.0, 0.0, 2.0, 2.0}));
  CHECK(execs["peakMemoryMetrics"]["JVMHeapMemory"] ==
        json::array({300.0, 300.0, 800.0, 1000.0, 1000.0}));
}

TEST_CASE("A stage that ran a speculative task has a speculationSummary; rddIds in log order") {
  auto store = Ingest("app-x", ExclusionLog());
  json stage = Get(*store, "applications/app-x/stages/0/0");
  CHECK(stage["speculationSummary"] == json{{"numTasks", 1},
                                            {"numActiveTasks", 0},
                                            {"numCompletedTasks", 1},
                                            {"numFailedTasks", 0},
                                            {"numKilledTasks", 0}});
  CHECK(stage["rddIds"] == json::array({0, 1}));
  json list = Get(*store, "applications/app-x/stages");
  CHECK_FALSE(list[0].contains("speculationSummary"));
}

TEST_CASE("A failed task's errorMessage is Spark's full text of its end reason") {
  auto store = Ingest("app-x", ExclusionLog());
  json tasks = Get(*store, "applications/app-x/stages/0/0/taskList?status=failed");
  REQUIRE(tasks.size() == 1);
  CHECK(tasks[0]["errorMessage"] ==
        "ExecutorLostFailure (executor 2 exited caused by one of the running tasks) Reason: "
        "Container killed by YARN for exceeding memory limits.");
}

TEST_CASE("storage/rdd lists cached RDDs with partitions, distribution and executor use") {
  auto store = Ingest("app-x", ExclusionLog());
  json rdds = Get(*store, "applications/app-x/storage/rdd");
  REQUIRE(rdds.size() == 1);
  json want = R"({"id":0,"name":"cached","numPartitions":2,"numCachedPartitions":1,
    "storageLevel":"Memory Deserialized 1x Replicated","memoryUsed":100,"diskUsed":0,
    "dataDistribution":[{"address":"h1:7001","memoryUsed":100,"memoryRemaining":900,
      "diskUsed":0,"onHeapMemoryUsed":100,"offHeapMemoryUsed":0,"onHeapMemoryRemaining":700,
      "offHeapMemoryRemaining":200}],
    "partitions":[{"blockName":"rdd_0_0","storageLevel":"Memory Deserialized 1x Replicated",
      "memoryUsed":100,"diskUsed":0,"executors":["1"]}]})"_json;
  CHECK(rdds[0] == want);
  CHECK(Get(*store, "applications/app-x/storage/rdd/0") == want);
  const Status missing = testing::ErrorOf(HistoryApi(*store, "applications/app-x/storage/rdd/1"));
  CHECK(missing.code() == StatusCode::kNotFound);
  CHECK(missing.message() == "no rdd found w/ id 1");
  json execs = Get(*store, "applications/app-x/executors");
  CHECK(ById(execs, "1")["rddBlocks"] == 1);
  CHECK(ById(execs, "1")["memoryUsed"] == 100);
  CHECK(ById(execs, "1")["memoryMetrics"]["usedOnHeapStorageMemory"] == 100);
}

TEST_CASE("allmiscellaneousprocess lists the processes; other endpoints are unsupported") {
  auto store = Ingest("app-x", ExclusionLog());
  json procs = Get(*store, "applications/app-x/allmiscellaneousprocess");
  CHECK(procs == R"([{"id":"yarn-am","hostPort":"h9:8042","isActive":true,"totalCores":1,
    "addTime":"1970-01-01T00:00:01.040GMT","processLogs":{"stdout":"http://h9/stdout"}}])"_json);
  for (const char* path : {"applications/app-x/logs", "applications/app-x/bogus",
                           "applications/app-x/executors/1/threads"}) {
    CAPTURE(path);
    const Status answer = testing::ErrorOf(HistoryApi(*store, path));
    CHECK(answer.code() == StatusCode::kNotFound);
    CHECK(answer.message() ==
          std::string("unsupported endpoint: ") + path + " (docs/spark.md lists the served ones)");
  }
  const Status attempt = testing::ErrorOf(HistoryApi(*store, "applications/app-x/3/jobs"));
  CHECK(attempt.message() == "unknown app app-x, attempt 3");
  const Status unknown = testing::ErrorOf(HistoryApi(*store, "applications/app-y/jobs"));
  CHECK(unknown.message() == "unknown app: app-y");
}

// Inserts `lines` after the line of ExclusionLog() that contains `after`.
std::string WithLines(const std::string& log, const std::string& after, const std::string& lines) {
  const std::size_t at = log.find('\n', log.find(after)) + 1;
  return log.substr(0, at) + lines + log.substr(at);
}

TEST_CASE("ResourceProfileAdded reaches environment; UnschedulableTaskSet events change nothing") {
  const std::string profile =
      R"({"Event":"SparkListenerResourceProfileAdded","Resource Profile Id":1,)"
      R"("Executor Resource Requests":{"cores":{"Resource Name":"cores","Amount":4,)"
      R"("Discovery Script":"","Vendor":""},"gpu":{"Resource Name":"gpu","Amount":1,)"
      R"("Discovery Script":"/opt/gpu.sh","Vendor":"nvidia.com"}},)"
      R"("Task Resource Requests":{"cpus":{"Resource Name":"cpus","Amount":1.0},)"
      R"("gpu":{"Resource Name":"gpu","Amount":0.5}}})"
      "\n";
  const std::string with_profile =
      WithLines(ExclusionLog(), "SparkListenerApplicationStart", profile);
  // The DAG scheduler posts these when exclusion leaves a task set nowhere to run; only the
  // executor allocation manager listens (AppStatusListener ignores them).
  const std::string unschedulable = WithLines(
      with_profile, "SparkListenerExecutorExcluded\"",
      R"({"Event":"SparkListenerUnschedulableTaskSetAdded","stageId":0,"stageAttemptId":0})"
      "\n"
      R"({"Event":"SparkListenerUnschedulableTaskSetRemoved","stageId":0,"stageAttemptId":0})"
      "\n");
  REQUIRE(unschedulable.size() > with_profile.size());
  auto a = Ingest("app-x", with_profile);
  auto b = Ingest("app-x", unschedulable);
  json env = Get(*a, "applications/app-x/environment");
  CHECK(env["resourceProfiles"] == R"([{"id":1,"executorResources":{
    "cores":{"resourceName":"cores","amount":4,"discoveryScript":"","vendor":""},
    "gpu":{"resourceName":"gpu","amount":1,"discoveryScript":"/opt/gpu.sh","vendor":"nvidia.com"}},
    "taskResources":{"cpus":{"resourceName":"cpus","amount":1.0},
    "gpu":{"resourceName":"gpu","amount":0.5}}}])"_json);
  for (const char* path :
       {"applications/app-x/jobs", "applications/app-x/stages?details=true",
        "applications/app-x/allexecutors", "applications/app-x/environment"}) {
    CAPTURE(path);
    CHECK(Get(*a, path) == Get(*b, path));
  }
}

TEST_CASE("The listing shows an application once, running or completed by its latest attempt") {
  const std::string dir = testing::MakeTempDir();
  auto attempt = [](const char* id, long start, bool end) {
    std::string log =
        std::string(R"({"Event":"SparkListenerLogStart","Spark Version":"3.5.0"})") + "\n" +
        R"({"Event":"SparkListenerApplicationStart","App Name":"m","App ID":"app-m",)" +
        "\"Timestamp\":" + std::to_string(start) + ",\"User\":\"u\",\"App Attempt ID\":\"" + id +
        "\"}\n";
    if (end)
      log += "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":" +
             std::to_string(start + 100) + "}\n";
    return log;
  };
  testing::WriteFile(dir + "/app-m_1", attempt("1", 1000, true));
  testing::WriteFile(dir + "/app-m_2.inprogress", attempt("2", 2000, false));
  const auto store = testing::ValueOf(Store::Open(":memory:", {StoreMigrations()}));
  REQUIRE(IngestEventLogs(*store, {dir}).ok());
  json all = Get(*store, "applications");
  REQUIRE(all.size() == 1);
  CHECK(all[0]["attempts"].size() == 2);
  CHECK(Get(*store, "applications?status=running").size() == 1);
  CHECK(Get(*store, "applications?status=completed").size() == 0);
}

TEST_CASE("A task whose metrics blob is corrupt fails the answers that read it, naming the task") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/app-c", testing::SyntheticEventLog("app-c", 1, 3));
  const auto store = testing::ValueOf(Store::Open(":memory:", {StoreMigrations()}));
  REQUIRE(IngestEventLogs(*store, {dir}).ok());
  REQUIRE(store->Exec("UPDATE spark_tasks SET metrics = substr(metrics, 1, 9) WHERE task_id = "
                      "(SELECT MIN(task_id) FROM spark_tasks)")
              .ok());
  const std::string stage = "applications/app-c/stages/0/0";
  const std::string expected =
      "task 0 of stage 0.0: task metrics blob: ends inside metric 7 of 34 "
      "(result_serialization_time_ms) at byte 9";
  CHECK(testing::ErrorOf(HistoryApi(*store, stage + "/taskList")).message() == expected);
  CHECK(testing::ErrorOf(HistoryApi(*store, stage + "/taskSummary")).message() == expected);
  CHECK(testing::ErrorOf(HistoryApi(*store, stage)).message() == expected);
  CHECK(HistoryApi(*store, "applications/app-c/stages").ok());  // no task rows read
  // The stage list with its tasks, and one stage's distributions without its tasks.
  CHECK(testing::ErrorOf(HistoryApi(*store, "applications/app-c/stages?details=true")).message() ==
        expected);
  CHECK(
      testing::ErrorOf(HistoryApi(*store, stage + "?details=false&withSummaries=true")).message() ==
      expected);
}

TEST_CASE("Date and count parameters are parsed strictly; a bad one is an error naming it") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(
      dir + "/app-d",
      std::string(R"({"Event":"SparkListenerLogStart","Spark Version":"3.5.0"})") + "\n" +
          R"({"Event":"SparkListenerApplicationStart","App Name":"d","App ID":"app-d",)"
          R"("Timestamp":1422981760000,"User":"u"})" "\n"
          R"({"Event":"SparkListenerApplicationEnd","Timestamp":1422981761000})" "\n");
  const auto store = testing::ValueOf(Store::Open(":memory:", {StoreMigrations()}));
  REQUIRE(IngestEventLogs(*store, {dir}).ok());
  // 1422981760000 is 2015-02-03T16:42:40.000GMT; every spelling of that instant agrees.
  for (const char* at : {"2015-02-03T16:42:40.000GMT", "2015-02-03T16:42:40.000UTC",
                         "2015-02-03T16:42:40.000Z", "2015-02-03T17:42:40.000GMT+01:00",
                         "2015-02-03T10:42:40.000-0600", "1422981760000"}) {
    INFO(at);
    CHECK(Get(*store, std::string("applications?minDate=") + at).size() == 1);
    CHECK(Get(*store, std::string("applications?maxDate=") + at).size() == 1);
  }
  CHECK(Get(*store, "applications?minDate=2015-02-03T16:42:40.001GMT").size() == 0);
  CHECK(Get(*store, "applications?minDate=2015-02-04").size() == 0);
  CHECK(Get(*store, "applications?maxDate=2015-02-03").size() == 0);
  for (const char* bad :
       {"2015-13-45", "2015-02-30", "2015-02-29", "2015-02-03T16:42:40.000GMTgarbage",
        "2015-02-03T24:00:00.000GMT", "2015-02-03T16:42:40GMT", "2015-2-3", "2015-02-10x",
        "2015-02-03T16:42:40.000PST1", "", "-5", "1e12"}) {
    INFO(bad);
    const Status answer =
        testing::ErrorOf(HistoryApi(*store, std::string("applications?minEndDate=") + bad));
    CHECK(answer.field() == "minEndDate");
    CHECK(answer.message() ==
          std::string("minEndDate: expected a date such as 2015-02-10, "
                      "2015-02-03T16:42:40.000GMT or epoch milliseconds, got \"") +
              bad + "\"");
  }
  CHECK(Get(*store, "applications?limit=0").size() == 0);
  CHECK(Get(*store, "applications?limit=2147483647").size() == 1);
  for (const char* bad : {"-1", "2147483648", "1.5", "ten", "", "99999999999999999999"}) {
    INFO(bad);
    const Status answer =
        testing::ErrorOf(HistoryApi(*store, std::string("applications?limit=") + bad));
    CHECK(answer.field() == "limit");
    CHECK(answer.message() ==
          std::string("limit: expected a whole number 0..2147483647, got \"") + bad + "\"");
  }
}

}  // namespace
}  // namespace perfplan::profiles::spark
