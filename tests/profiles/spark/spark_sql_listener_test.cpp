// The History Server's sql and sql/N answers (SqlResource over SQLAppStatusListener, Spark 3.5)
// for a log written here in Spark 3.5's format: an adaptive query whose final plan replaces the
// initial one, SQL metrics from task accumulator updates and a driver update, a failed query,
// paging and the details/planDescription switches; SQLMetrics' value texts; the job order of
// Scala 2.12's Map; UnschedulableTaskSet events, which change no answer.
#include "profiles/spark/spark_sql_listener.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "profiles/spark/history_api.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "tests/profiles/spark/history_api_fixture.h"
#include "tests/support/result_checks.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles::spark {
namespace {

using nlohmann::json;

json Metric(const char* name, int id, const char* type) {
  return {{"name", name}, {"accumulatorId", id}, {"metricType", type}};
}
json Plan(const char* name, const char* simple, json children, json metrics) {
  return {{"nodeName", name},
          {"simpleString", simple},
          {"children", std::move(children)},
          {"metadata", json::object()},
          {"metrics", std::move(metrics)}};
}

// The partial aggregation below the exchange, in a WholeStageCodegen (1) cluster.
json PartialSide() {
  json scan = Plan("Scan ExistingRDD", "Scan ExistingRDD[id#0L]", json::array(),
                   {Metric("number of output rows", 28, "sum"), Metric("metadata time", 29, "timing")});
  json project = Plan("Project", "Project [id#0L]", {scan}, json::array());
  json partial = Plan("HashAggregate", "HashAggregate(keys=[], functions=[partial_count(1)])",
                      {project},
                      {Metric("number of output rows", 25, "sum"), Metric("peak memory", 26, "size"),
                       Metric("avg hash probes per key", 27, "average")});
  json codegen = Plan("WholeStageCodegen (1)", "WholeStageCodegen (1)", {partial},
                      {Metric("duration", 24, "timing")});
  return Plan("Exchange", "Exchange SinglePartition, ENSURE_REQUIREMENTS, [plan_id=10]",
              {codegen},
              {Metric("data size", 22, "size"), Metric("shuffle records written", 23, "sum")});
}

json AdaptivePlan(bool final_plan) {
  json exchange = PartialSide();
  json below = final_plan ? Plan("ShuffleQueryStage", "ShuffleQueryStage 0", {exchange},
                                 json::array())
                          : exchange;
  json input = Plan("InputAdapter", "InputAdapter", {below}, json::array());
  json final_agg = Plan("HashAggregate", "HashAggregate(keys=[], functions=[count(1)])", {input},
                        {Metric("number of output rows", 21, "sum")});
  json codegen = Plan("WholeStageCodegen (2)", "WholeStageCodegen (2)", {final_agg},
                      {Metric("duration", 20, "timing")});
  return Plan("AdaptiveSparkPlan",
              final_plan ? "AdaptiveSparkPlan isFinalPlan=true" : "AdaptiveSparkPlan isFinalPlan=false",
              {codegen}, json::array());
}

std::string Accums(const std::vector<std::pair<int, std::string>>& updates) {
  json out = json::array();
  for (const auto& [id, v] : updates) {
    out.push_back({{"ID", id},
                   {"Name", "m" + std::to_string(id)},
                   {"Update", v},
                   {"Value", v},
                   {"Internal", true},  // SQLMetric.toInfo marks SQL metrics internal
                   {"Count Failed Values", true},
                   {"Metadata", "sql"}});
  }
  out.push_back({{"ID", 1},
                 {"Name", "internal.metrics.executorRunTime"},
                 {"Update", 5},
                 {"Value", 5},
                 {"Internal", true},
                 {"Count Failed Values", true}});
  return out.dump();
}

std::string StageInfo(int stage, int tasks, const std::string& extra) {
  return "{\"Stage ID\":" + std::to_string(stage) +
         ",\"Stage Attempt ID\":0,\"Stage Name\":\"count at q.py:1\",\"Number of Tasks\":" +
         std::to_string(tasks) +
         ",\"RDD Info\":[],\"Parent IDs\":[],\"Details\":\"d\"" + extra +
         ",\"Accumulables\":[],\"Resource Profile Id\":0,\"Shuffle Push Enabled\":false,"
         "\"Shuffle Push Mergers Count\":0}";
}

std::string TaskInfo(int id, int index, long launch, long finish, bool failed,
                     const std::string& accums) {
  return "{\"Task ID\":" + std::to_string(id) + ",\"Index\":" + std::to_string(index) +
         ",\"Attempt\":0,\"Partition ID\":" + std::to_string(index) +
         ",\"Launch Time\":" + std::to_string(launch) +
         ",\"Executor ID\":\"driver\",\"Host\":\"localhost\",\"Locality\":\"PROCESS_LOCAL\","
         "\"Speculative\":false,\"Getting Result Time\":0,\"Finish Time\":" +
         std::to_string(finish) + ",\"Failed\":" + (failed ? "true" : "false") +
         ",\"Killed\":false,\"Accumulables\":" + accums + "}";
}

std::string Task(int stage, int id, int index, long launch, long finish, bool failed,
                 const std::vector<std::pair<int, std::string>>& updates) {
  const std::string start = "{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":" +
                            std::to_string(stage) + ",\"Stage Attempt ID\":0,\"Task Info\":" +
                            TaskInfo(id, index, launch, 0, false, "[]") + "}\n";
  const std::string reason =
      failed ? R"({"Reason":"ExceptionFailure","Class Name":"java.lang.RuntimeException",)"
               R"("Description":"boom","Stack Trace":[],"Full Stack Trace":"boom","Accumulator Updates":[]})"
             : R"({"Reason":"Success"})";
  return start + "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":" + std::to_string(stage) +
         ",\"Stage Attempt ID\":0,\"Task Type\":\"ResultTask\",\"Task End Reason\":" + reason +
         ",\"Task Info\":" + TaskInfo(id, index, launch, finish, failed, Accums(updates)) +
         ",\"Task Executor Metrics\":{},\"Task Metrics\":{\"Executor Run Time\":5}}\n";
}

std::string JobStart(int job, const std::string& stage_infos, const std::string& stage_ids,
                     int execution) {
  return "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":" + std::to_string(job) +
         ",\"Submission Time\":" + std::to_string(2000 + 100 * job) + ",\"Stage Infos\":[" +
         stage_infos + "],\"Stage IDs\":[" + stage_ids +
         "],\"Properties\":{\"spark.sql.execution.id\":\"" + std::to_string(execution) +
         "\",\"spark.sql.execution.root.id\":\"" + std::to_string(execution) + "\"}}\n";
}

std::string Stage(const char* event, int stage, int tasks, const std::string& times) {
  return std::string("{\"Event\":\"") + event + "\",\"Stage Info\":" +
         StageInfo(stage, tasks, times) + ",\"Properties\":{}}\n";
}

std::string SqlLog() {
  const std::string ui = "org.apache.spark.sql.execution.ui.";
  std::string log =
      R"({"Event":"SparkListenerLogStart","Spark Version":"3.5.0"})" "\n"
      R"({"Event":"SparkListenerApplicationStart","App Name":"q","App ID":"local-sql",)"
      R"("Timestamp":1000,"User":"u"})" "\n"
      R"({"Event":"SparkListenerBlockManagerAdded","Block Manager ID":{"Executor ID":"driver",)"
      R"("Host":"localhost","Port":7000},"Maximum Memory":1000,"Timestamp":1001,)"
      R"("Maximum Onheap Memory":1000,"Maximum Offheap Memory":0})" "\n";
  log += json({{"Event", ui + "SparkListenerSQLExecutionStart"},
               {"executionId", 0},
               {"rootExecutionId", 0},
               {"description", "count at q.py:1"},
               {"details", "org.apache.spark.sql.Dataset.count(Dataset.scala:3615)"},
               {"physicalPlanDescription", "== Physical Plan ==\nAdaptiveSparkPlan isFinalPlan=false"},
               {"sparkPlanInfo", AdaptivePlan(false)},
               {"time", 1990},
               {"modifiedConfigs", json::object()},
               {"jobTags", json::array()}})
             .dump() +
         "\n";
  log += JobStart(0, StageInfo(0, 2, "") + "," + StageInfo(1, 1, ""), "0,1", 0);
  // Spark posts these for a task set that cannot be scheduled; the History Server ignores them.
  log += R"({"Event":"SparkListenerUnschedulableTaskSetAdded","stageId":0,"stageAttemptId":0})"
         "\n";
  log += R"({"Event":"SparkListenerUnschedulableTaskSetRemoved","stageId":0,"stageAttemptId":0})"
         "\n";
  log += Stage("SparkListenerStageSubmitted", 0, 2, ",\"Submission Time\":2001");
  log += Task(0, 0, 0, 2002, 2010, false,
              {{24, "4"}, {25, "3"}, {26, "262144"}, {27, "15"}, {28, "100"}, {22, "80"}, {23, "3"}});
  log += Task(0, 1, 1, 2002, 2012, false,
              {{24, "6"}, {25, "2"}, {26, "0"}, {27, "25"}, {28, "150"}, {22, "96"}, {23, "2"}});
  log += Stage("SparkListenerStageCompleted", 0, 2,
               ",\"Submission Time\":2001,\"Completion Time\":2013");
  log += json({{"Event", ui + "SparkListenerSQLAdaptiveExecutionUpdate"},
               {"executionId", 0},
               {"physicalPlanDescription", "== Physical Plan ==\nAdaptiveSparkPlan isFinalPlan=true"},
               {"sparkPlanInfo", AdaptivePlan(true)}})
             .dump() +
         "\n";
  log += Stage("SparkListenerStageSubmitted", 1, 1, ",\"Submission Time\":2014");
  log += Task(1, 2, 0, 2015, 2020, false, {{20, "2"}, {21, "1"}});
  log += Stage("SparkListenerStageCompleted", 1, 1,
               ",\"Submission Time\":2014,\"Completion Time\":2021");
  log += R"({"Event":"SparkListenerJobEnd","Job ID":0,"Completion Time":2022,)"
         R"("Job Result":{"Result":"JobSucceeded"}})" "\n";
  log += json({{"Event", ui + "SparkListenerDriverAccumUpdates"},
               {"executionId", 0},
               {"accumUpdates", json::array({json::array({29, 5})})}})
             .dump() +
         "\n";
  log += json({{"Event", ui + "SparkListenerSQLExecutionEnd"}, {"executionId", 0}, {"time", 2030}})
             .dump() +
         "\n";
  // Execution 1: one job whose only task fails.
  log += json({{"Event", ui + "SparkListenerSQLExecutionStart"},
               {"executionId", 1},
               {"description", "collect at q.py:2"},
               {"details", ""},
               {"physicalPlanDescription", "== Physical Plan ==\nScan"},
               {"sparkPlanInfo", Plan("Scan ExistingRDD", "Scan ExistingRDD[id#1L]", json::array(),
                                      {Metric("number of output rows", 40, "sum")})},
               {"time", 2100}})
             .dump() +
         "\n";
  log += JobStart(1, StageInfo(2, 1, ""), "2", 1);
  log += Stage("SparkListenerStageSubmitted", 2, 1, ",\"Submission Time\":2101");
  log += Task(2, 3, 0, 2102, 2110, true, {{40, "7"}});
  log += Stage("SparkListenerStageCompleted", 2, 1,
               ",\"Submission Time\":2101,\"Completion Time\":2111,\"Failure Reason\":\"boom\"");
  log += R"({"Event":"SparkListenerJobEnd","Job ID":1,"Completion Time":2112,)"
         R"("Job Result":{"Result":"JobFailed","Exception":{"Message":"boom"}}})" "\n";
  log += json({{"Event", ui + "SparkListenerSQLExecutionEnd"},
               {"executionId", 1},
               {"time", 2113},
               {"errorMessage", "boom"}})
             .dump() +
         "\n";
  log += R"({"Event":"SparkListenerApplicationEnd","Timestamp":3000})" "\n";
  return log;
}

const std::string kTotal = "total (min, med, max (stageId: taskId))\n";

TEST_CASE("sql/N: the final adaptive plan's graph with metrics from tasks and the driver") {
  auto store = Ingest("local-sql", SqlLog());
  json q = Get(*store, "applications/local-sql/sql/0");
  json expected = {
      {"id", 0},
      {"status", "COMPLETED"},
      {"description", "count at q.py:1"},
      {"planDescription", "== Physical Plan ==\nAdaptiveSparkPlan isFinalPlan=true"},
      {"submissionTime", "1970-01-01T00:00:01.990GMT"},
      {"duration", 40},
      {"runningJobIds", json::array()},
      {"successJobIds", {0}},
      {"failedJobIds", json::array()},
      {"nodes",
       {{{"nodeId", 7},
         {"nodeName", "Scan ExistingRDD"},
         {"wholeStageCodegenId", 1},
         {"metrics", {{{"name", "number of output rows"}, {"value", "250"}},
                      {{"name", "metadata time"}, {"value", "5 ms"}}}}},
        {{"nodeId", 6}, {"nodeName", "Project"}, {"wholeStageCodegenId", 1}, {"metrics", json::array()}},
        {{"nodeId", 5},
         {"nodeName", "HashAggregate"},
         {"wholeStageCodegenId", 1},
         {"metrics",
          {{{"name", "number of output rows"}, {"value", "5"}},
           {{"name", "peak memory"},
            {"value", kTotal + "256.0 KiB (0.0 B, 256.0 KiB, 256.0 KiB (stage 0.0: task 0))"}},
           {{"name", "avg hash probes per key"},
            {"value", "(min, med, max (stageId: taskId)):\n(1.5, 2.5, 2.5 (stage 0.0: task 1))"}}}}},
        {{"nodeId", 4},
         {"nodeName", "WholeStageCodegen (1)"},
         {"metrics",
          {{{"name", "duration"}, {"value", kTotal + "10 ms (4 ms, 6 ms, 6 ms (stage 0.0: task 1))"}}}}},
        {{"nodeId", 3},
         {"nodeName", "Exchange"},
         {"metrics",
          {{{"name", "data size"},
            {"value", kTotal + "176.0 B (80.0 B, 96.0 B, 96.0 B (stage 0.0: task 1))"}},
           {{"name", "shuffle records written"}, {"value", "5"}}}}},
        {{"nodeId", 2},
         {"nodeName", "HashAggregate"},
         {"wholeStageCodegenId", 2},
         {"metrics", {{{"name", "number of output rows"}, {"value", "1"}}}}},
        {{"nodeId", 1},
         {"nodeName", "WholeStageCodegen (2)"},
         {"metrics", {{{"name", "duration"}, {"value", "2 ms"}}}}},
        {{"nodeId", 0}, {"nodeName", "AdaptiveSparkPlan"}, {"metrics", json::array()}}}},
      {"edges",
       {{{"fromId", 2}, {"toId", 0}},
        {{"fromId", 3}, {"toId", 2}},
        {{"fromId", 5}, {"toId", 3}},
        {{"fromId", 6}, {"toId", 5}},
        {{"fromId", 7}, {"toId", 6}}}}};
  CHECK(q == expected);
  // Key order as the History Server writes ExecutionData.
  const std::string text = HistoryApi(*store, "applications/local-sql/sql/0").value();
  CHECK(text.find("\"id\"") < text.find("\"status\""));
  CHECK(text.find("\"failedJobIds\"") < text.find("\"nodes\""));
  CHECK(text.find("\"nodeId\"") < text.find("\"nodeName\""));
}

TEST_CASE("sql lists executions by id; a failed job fails its query; paging and switches") {
  auto store = Ingest("local-sql", SqlLog());
  json all = Get(*store, "applications/local-sql/sql");
  REQUIRE(all.size() == 2);
  CHECK(all[0]["id"] == 0);
  CHECK(all[1]["id"] == 1);
  CHECK(all[1]["status"] == "FAILED");
  CHECK(all[1]["failedJobIds"] == json::array({1}));
  CHECK(all[1]["successJobIds"] == json::array());
  CHECK(all[1]["duration"] == 13);
  // A failed task's updates count too (SQL metrics count failed values).
  CHECK(all[1]["nodes"] == R"([{"nodeId":0,"nodeName":"Scan ExistingRDD",
    "metrics":[{"name":"number of output rows","value":"7"}]}])"_json);

  json page = Get(*store, "applications/local-sql/sql?offset=1&length=1");
  REQUIRE(page.size() == 1);
  CHECK(page[0]["id"] == 1);
  CHECK(Get(*store, "applications/local-sql/sql?offset=2").empty());

  json bare = Get(*store, "applications/local-sql/sql/0?details=false&planDescription=false");
  CHECK(bare["nodes"] == json::array());
  CHECK(bare["edges"] == json::array());
  CHECK(bare["planDescription"] == "");
  CHECK(bare["successJobIds"] == json::array({0}));

  const Status missing = testing::ErrorOf(HistoryApi(*store, "applications/local-sql/sql/9"));
  CHECK(missing.code() == StatusCode::kNotFound);
  CHECK(missing.message() == "unknown query execution id: 9");
  const Status bad = testing::ErrorOf(HistoryApi(*store, "applications/local-sql/sql?length=x"));
  CHECK(bad.message() == "length must be a whole number, not x");
  const Status zero = testing::ErrorOf(HistoryApi(*store, "applications/local-sql/sql?length=0"));
  CHECK(zero.message() == "length must be positive, not 0");
  const Status word = testing::ErrorOf(HistoryApi(*store, "applications/local-sql/sql/abc"));
  CHECK(word.message() ==
        "unsupported endpoint: applications/local-sql/sql/abc (docs/spark.md lists the served "
        "ones)");
}

TEST_CASE("A version 3 store migrates: its executions answer sql with jobs from spark_jobs") {
  const std::string path = testing::MakeTempDir() + "/v3.db";
  {
    Migrations v3 = StoreMigrations();
    REQUIRE(v3.steps.size() > 3);
    v3.steps.erase(v3.steps.begin() + 3, v3.steps.end());  // the schema as version 3 left it
    const auto old = testing::ValueOf(Store::Open(path, {v3}));
    Store& s = *old;
    REQUIRE(s.Exec("INSERT INTO spark_attempts(attempt_key, app_id, attempt_id, completed) "
                   "VALUES(1, 'app-old', '', 1)")
                .ok());
    REQUIRE(s.Exec("INSERT INTO spark_jobs(attempt_key, job_id, status, sql_execution_id) VALUES"
                   "(1, 4, 'SUCCEEDED', 0), (1, 3, 'FAILED', 0), (1, 5, 'SUCCEEDED', 1)")
                .ok());
    REQUIRE(s.Exec("INSERT INTO spark_sql_executions VALUES(1, 0, 'q', 'd', 'plan', 100, 150, '')")
                .ok());
  }
  const auto store = testing::ValueOf(Store::Open(path, {StoreMigrations()}));
  json q = Get(*store, "applications/app-old/sql/0");
  CHECK(q["status"] == "FAILED");
  CHECK(q["successJobIds"] == json::array({4}));
  CHECK(q["failedJobIds"] == json::array({3}));
  CHECK(q["duration"] == 50);
  CHECK(q["planDescription"] == "plan");
  CHECK(q["nodes"] == json::array());
}

TEST_CASE("SQLMetrics value texts: sums, sizes, timings, nanosecond timings, averages") {
  CHECK(SqlMetricString("sum", {1000, 234567}, {}) == "235,567");
  CHECK(SqlMetricString("sum", {}, {}) == "0");
  CHECK(SqlMetricString("size", {}, {}) == "0.0 B");
  CHECK(SqlMetricString("size", {-1, 2048}, {}) == "2.0 KiB");
  CHECK(SqlMetricString("timing", {1250}, {}) == "1.3 s");  // Java rounds the tie up
  CHECK(SqlMetricString("nsTiming", {857404}, {}) == "0 ms");
  CHECK(SqlMetricString("nsTiming", {3000000, 5000000}, {5000000, 3, 0, 17}) ==
        kTotal + "8 ms (3 ms, 5 ms, 5 ms (stage 3.0: task 17))");
  CHECK(SqlMetricString("timing", {10, 20}, {}) == kTotal + "30 ms (10 ms, 20 ms, 20 ms (driver))");
  CHECK(SqlMetricString("average", {0, 12}, {}) == "1.2");
  CHECK(SqlMetricString("v2Custom_com.example.Metric", {1}, {}) == "N/A");
  CHECK(SparkBytesString(1500) == "1500.0 B");
  CHECK(SparkBytesString(2047) == "2047.0 B");
  CHECK(SparkBytesString(5LL * 1024 * 1024 + 52429) == "5.1 MiB");
  CHECK(SparkBytesString(3LL << 30) == "3.0 GiB");
  CHECK(SparkDurationString(999) == "999 ms");
  CHECK(SparkDurationString(9500) == "9.5 s");
  CHECK(SparkDurationString(90000) == "1.5 m");
  CHECK(SparkDurationString(5400000) == "1.50 h");
}

TEST_CASE("More than four jobs come in the order of Scala 2.12's HashMap") {
  // Scala 2.12 prints (1 to 10).map(i => i -> i).toMap as
  // Map(5 -> 5, 10 -> 10, 1 -> 1, 6 -> 6, 9 -> 9, 2 -> 2, 7 -> 7, 3 -> 3, 8 -> 8, 4 -> 4), and
  // keeps insertion order up to four entries (Map1 … Map4).
  SqlListener sql;
  std::string problem;
  REQUIRE(sql.OnSqlEvent("org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart",
                         {{"executionId", 0}, {"description", "d"}, {"time", 1}}, &problem));
  CHECK(problem.empty());
  for (int job : {3, 1, 2, 4}) {
    sql.OnJobStart({{"Job ID", job}, {"Stage IDs", json::array()},
                    {"Properties", {{"spark.sql.execution.id", "0"}}}});
  }
  CHECK(sql.Finish()[0].jobs_json ==
        R"([[3,"RUNNING"],[1,"RUNNING"],[2,"RUNNING"],[4,"RUNNING"]])");
  for (int job : {10, 9, 8, 7, 6, 5}) {
    sql.OnJobStart({{"Job ID", job}, {"Stage IDs", json::array()},
                    {"Properties", {{"spark.sql.execution.id", "0"}}}});
  }
  sql.OnJobEnd(6, true);
  json order = json::parse(sql.Finish()[0].jobs_json);
  std::vector<int> ids;
  for (const json& j : order) ids.push_back(j[0].get<int>());
  CHECK(ids == std::vector<int>{5, 10, 1, 6, 9, 2, 7, 3, 8, 4});
  CHECK(order[3] == json::array({6, "SUCCEEDED"}));
}

TEST_CASE("Task indices that never report count as 0, even for a huge task count") {
  SqlListener sql;
  std::string problem;
  const char* start = "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart";
  json plan = Plan("Exchange", "Exchange", json::array(), {Metric("data size", 1, "size")});
  REQUIRE(sql.OnSqlEvent(start, {{"executionId", 0}, {"sparkPlanInfo", plan}, {"time", 1}},
                         &problem));
  sql.OnJobStart({{"Job ID", 0},
                  {"Stage Infos", {{{"Stage ID", 0}, {"Number of Tasks", 1000000000000LL}}}},
                  {"Stage IDs", {0}},
                  {"Properties", {{"spark.sql.execution.id", "0"}}}});
  sql.OnTaskStart(0, 0, 7, 3);
  sql.OnTaskEnd(0, 0, 7, 3, true, {{1, 2048}});
  sql.OnTaskEnd(0, 0, 8, 3, true, {{1, 4096}});  // index 3 already succeeded: ignored
  sql.OnJobEnd(0, true);
  REQUIRE(sql.OnSqlEvent("org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd",
                         {{"executionId", 0}, {"time", 9}}, &problem));
  json nodes = json::parse(sql.Finish()[0].nodes_json);
  CHECK(nodes[0]["metrics"][0]["value"] ==
        kTotal + "2.0 KiB (0.0 B, 0.0 B, 2.0 KiB (stage 0.0: task 7))");
}

TEST_CASE("A SQL event without an execution id is reported, not folded") {
  SqlListener sql;
  std::string problem;
  CHECK(sql.OnSqlEvent("org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates",
                       {{"accumUpdates", json::array()}}, &problem));
  CHECK(problem == "SparkListenerDriverAccumUpdates without an integer \"executionId\"");
  CHECK_FALSE(sql.OnSqlEvent("SparkListenerJobStart", json::object(), &problem));
}

}  // namespace
}  // namespace perfplan::profiles::spark
