#include "profiles/spark/spark_ingest.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "profiles/spark/spark_ingest_parallel.h"
#include "profiles/spark/spark_store.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/spark_store_fixture.h"
#include "tests/support/store_dump.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles::spark {
namespace {

using testing::Count;
using testing::OpenSparkStore;

// `path` ingested alone into an empty store: reported once, with `reason`, and nothing stored.
void CheckRefusedAlone(const std::string& path, const std::string& reason) {
  auto store = OpenSparkStore(":memory:");
  auto summary = IngestEventLogs(*store, {path});
  REQUIRE(summary.ok());
  CHECK(summary.value().applications.empty());
  REQUIRE(summary.value().skipped.size() == 1);
  CHECK(summary.value().skipped[0].reason == reason);
  CHECK(Count(*store, "SELECT count(*) FROM spark_attempts") == 0);
}

// The three summary tables, as ingest kept them and as WriteSummaries groups them from the
// stored tasks (the rows deleted and written again): the two dumps must be equal.
std::pair<std::string, std::string> KeptAndRegroupedSummaries(Store& store) {
  const char* tables[] = {"spark_stage_summaries", "spark_stage_executor_summaries",
                          "spark_executor_summaries"};
  auto dump = [&] {
    std::string d;
    for (const char* t : tables) d += testing::DumpTables(store, t);
    return d;
  };
  const std::string kept = dump();
  for (const char* t : tables) REQUIRE(store.Exec(std::string("DELETE FROM ") + t).ok());
  auto keys = store.Prepare("SELECT attempt_key FROM spark_attempts ORDER BY attempt_key");
  REQUIRE(keys.ok());
  std::vector<std::int64_t> attempts;
  while (keys.value().Step()) attempts.push_back(keys.value().ColumnInt(0));
  for (const std::int64_t key : attempts) REQUIRE(WriteSummaries(store, key).ok());
  return {kept, dump()};
}

// `path` ingested alone into a fresh store, with the scratch folder, or with none (TMPDIR names
// no folder: ingest keeps everything in memory); no line skipped.
std::unique_ptr<Store> IngestWithScratch(const std::string& path, bool scratch) {
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old ? old : "";
  if (!scratch) ::setenv("TMPDIR", (path + ".no-such-dir").c_str(), 1);
  auto into = OpenSparkStore(":memory:");
  auto summary = IngestEventLogs(*into, {path});
  if (old) {
    ::setenv("TMPDIR", saved.c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }
  REQUIRE(summary.ok());
  CHECK(summary.value().skipped.empty());
  return into;
}

TEST_CASE("Summaries kept at ingest equal the GROUP BYs over the stored tasks") {
  // Every status (success, failed, killed, a task still running at the end), a second stage
  // attempt, a task end repeated (its row is stored once: counted once), a task without
  // metrics, shuffle reads (remote + local), and the driver's executor id.
  const std::string dir = testing::MakeTempDir();
  auto task_end = [](int stage, int attempt, int id, const char* executor, const char* reason,
                     int finish, const char* metrics) {
    return std::string(R"({"Event":"SparkListenerTaskEnd","Stage ID":)") +
           std::to_string(stage) + R"(,"Stage Attempt ID":)" + std::to_string(attempt) +
           R"(,"Task End Reason":{"Reason":")" + reason +
           R"("},"Task Info":{"Task ID":)" + std::to_string(id) + R"(,"Index":)" +
           std::to_string(id) + R"(,"Attempt":0,"Launch Time":1000,"Executor ID":")" + executor +
           R"(","Host":"h","Finish Time":)" + std::to_string(finish) + "}" + metrics + "}\n";
  };
  const char* m1 =
      R"(,"Task Metrics":{"Executor Run Time":7,"JVM GC Time":2,"Input Metrics":{"Bytes Read":100,"Records Read":3},"Shuffle Read Metrics":{"Remote Bytes Read":40,"Local Bytes Read":2,"Total Records Read":5},"Shuffle Write Metrics":{"Shuffle Bytes Written":9,"Shuffle Records Written":1}})";
  const char* m2 =
      R"(,"Task Metrics":{"Executor Run Time":11,"Memory Bytes Spilled":64,"Disk Bytes Spilled":32,"Output Metrics":{"Bytes Written":5,"Records Written":1}})";
  std::string log =
      R"({"Event":"SparkListenerApplicationStart","App Name":"s","App ID":"app-s","Timestamp":900,"User":"u"})"
      "\n"
      R"({"Event":"SparkListenerTaskStart","Stage ID":1,"Stage Attempt ID":0,"Task Info":{"Task ID":9,"Index":9,"Attempt":0,"Launch Time":1500,"Executor ID":"2","Host":"h"}})"
      "\n";
  log += task_end(0, 0, 1, "1", "Success", 1200, m1);
  log += task_end(0, 0, 2, "1", "Success", 1300, m2);
  log += task_end(0, 0, 2, "1", "Success", 1300, m2);  // repeated: stored once
  log += task_end(0, 0, 3, "2", "ExceptionFailure", 1100, m1);
  log += task_end(0, 0, 4, "driver", "TaskKilled", 1400, "");
  log += task_end(0, 1, 5, "2", "Success", 2100, m2);
  log += task_end(1, 0, 6, "1", "Success", 0, m1);  // no finish time: NULL duration
  testing::WriteFile(dir + "/app-s", log);
  auto store = OpenSparkStore(":memory:");
  auto summary = IngestEventLogs(*store, {dir + "/app-s"});
  REQUIRE(summary.ok());
  CHECK(Count(*store, "SELECT count(*) FROM spark_tasks") == 7);
  CHECK(Count(*store, "SELECT tasks FROM spark_stage_summaries WHERE stage_id = 0 AND "
                      "stage_attempt_id = 0") == 4);
  CHECK(Count(*store, "SELECT running_tasks FROM spark_stage_summaries WHERE stage_id = 1") == 1);
  CHECK(Count(*store, "SELECT shuffle_read_bytes FROM spark_stage_executor_summaries WHERE "
                      "stage_id = 0 AND stage_attempt_id = 0 AND executor_id = '1'") == 42);
  CHECK(Count(*store, "SELECT finish_time_ms_max FROM spark_stage_summaries WHERE stage_id = 0 "
                      "AND stage_attempt_id = 0") == 1400);
  const auto [kept, regrouped] = KeptAndRegroupedSummaries(*store);
  CHECK(kept.find(": 0 rows") == std::string::npos);
  CHECK(kept == regrouped);
}

TEST_CASE("A task id reused under another stage attempt stores both rows (schema version 7)") {
  // Spark's task ids are unique in an application; the key is (stage, stage attempt, task id),
  // so a repeated task end (same stage attempt) is stored once and a log that reuses an id in
  // another stage keeps both.
  const std::string dir = testing::MakeTempDir();
  auto task_end = [](int stage, int id, int finish) {
    return std::string(R"({"Event":"SparkListenerTaskEnd","Stage ID":)") +
           std::to_string(stage) +
           R"(,"Stage Attempt ID":0,"Task End Reason":{"Reason":"Success"},"Task Info":{"Task ID":)" +
           std::to_string(id) +
           R"(,"Index":0,"Attempt":0,"Launch Time":1000,"Executor ID":"1","Host":"h","Finish Time":)" +
           std::to_string(finish) + R"(},"Task Metrics":{"Executor Run Time":5}})" + "\n";
  };
  testing::WriteFile(
      dir + "/app-r",
      std::string(
          R"({"Event":"SparkListenerApplicationStart","App Name":"r","App ID":"app-r","Timestamp":900,"User":"u"})") +
          "\n" + task_end(0, 1, 1100) + task_end(0, 1, 1100) + task_end(1, 1, 1200) +
          R"({"Event":"SparkListenerApplicationEnd","Timestamp":2000})" + "\n");
  auto store = OpenSparkStore(":memory:");
  REQUIRE(IngestEventLogs(*store, {dir + "/app-r"}).ok());
  CHECK(Count(*store, "SELECT count(*) FROM spark_tasks WHERE task_id = 1") == 2);
  CHECK(Count(*store, "SELECT SUM(tasks) FROM spark_executor_summaries") == 2);
  const auto [kept, regrouped] = KeptAndRegroupedSummaries(*store);
  CHECK(kept == regrouped);
}

TEST_CASE("Rows inserted in batches: a repeated end inside a batch, rows after the last") {
  // Task rows go in 32 per statement: 70 task ends are two full batches and six rows after them,
  // and a task still running at the end comes last. On 40 executors, the stage × executor
  // summaries are one full batch of 32 and eight rows after it. With task 40's end repeated
  // (inside the second batch) the store turns the copy away and the summaries are grouped from
  // the stored rows; without it they are the ones kept at ingest. Read by the writer alone and by
  // two parser threads: the same tables.
  for (const bool repeated : {true, false}) {
    CAPTURE(repeated);
    const std::string dir = testing::MakeTempDir();
    std::string log =
        R"({"Event":"SparkListenerApplicationStart","App Name":"b","App ID":"app-b","Timestamp":900,"User":"u"})"
        "\n"
        R"({"Event":"SparkListenerTaskStart","Stage ID":1,"Stage Attempt ID":0,"Task Info":{"Task ID":99,"Index":0,"Attempt":0,"Launch Time":1500,"Executor ID":"2","Host":"h"}})"
        "\n";
    for (int id = 1; id <= 70; ++id) {
      const std::string end =
          R"({"Event":"SparkListenerTaskEnd","Stage ID":0,"Stage Attempt ID":0,"Task End Reason":{"Reason":"Success"},"Task Info":{"Task ID":)" +
          std::to_string(id) + R"(,"Index":)" + std::to_string(id) +
          R"(,"Attempt":0,"Launch Time":1000,"Executor ID":")" + std::to_string(1 + id % 40) +
          R"(","Host":"h","Finish Time":)" + std::to_string(1000 + 10 * id) +
          R"(},"Task Metrics":{"Executor Run Time":)" + std::to_string(id) + "}}\n";
      log += end;
      if (repeated && id == 40) log += end;  // stored once
    }
    testing::WriteFile(dir + "/app-b", log);
    std::string tables[2];
    for (const int jobs : {1, 2}) {
      CAPTURE(jobs);
      auto store = OpenSparkStore(":memory:");
      REQUIRE(IngestEventLogsParallel(*store, {dir + "/app-b"}, jobs).ok());
      CHECK(Count(*store, "SELECT count(*) FROM spark_tasks") == 71);
      CHECK(Count(*store, "SELECT count(*) FROM spark_stage_executor_summaries") == 41);
      CHECK(Count(*store, "SELECT SUM(tasks) FROM spark_executor_summaries") == 71);
      CHECK(Count(*store, "SELECT SUM(duration_ms) FROM spark_tasks") == 10 * 70 * 71 / 2);
      CHECK(Count(*store, "SELECT running_tasks FROM spark_stage_summaries WHERE stage_id = 1") ==
            1);
      const auto [kept, regrouped] = KeptAndRegroupedSummaries(*store);
      CHECK(kept == regrouped);
      tables[jobs - 1] = testing::DumpTables(*store, "spark_tasks") + kept;
    }
    CHECK(tables[0] == tables[1]);
  }
}

// A log of one application whose only task is `task_end` (a task start, then that line).
std::string OneTaskLog(const std::string& task_end) {
  return R"({"Event":"SparkListenerApplicationStart","App Name":"d","App ID":"app-d","Timestamp":900,"User":"u"})"
         "\n"
         R"({"Event":"SparkListenerTaskStart","Stage ID":3,"Stage Attempt ID":1,"Task Info":{"Task ID":7,"Index":2,"Attempt":0,"Partition ID":2,"Launch Time":1000,"Executor ID":"4","Host":"node4","Locality":"NODE_LOCAL","Speculative":false,"Getting Result Time":0,"Finish Time":0,"Failed":false,"Killed":false,"Accumulables":[]}})"
         "\n" +
         task_end + "\n" + R"({"Event":"SparkListenerApplicationEnd","Timestamp":2000})" + "\n";
}

// A store holding `log` alone; `skipped` gets the reasons of the lines skipped.
std::unique_ptr<Store> IngestedLog(const std::string& log, std::vector<std::string>* skipped) {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/app-d", log);
  auto store = OpenSparkStore(":memory:");
  auto summary = IngestEventLogs(*store, {dir + "/app-d"});
  REQUIRE(summary.ok());
  for (const auto& s : summary.value().skipped) skipped->push_back(s.reason);
  return store;
}

// The tables of tasks, stages and executors of `store`.
std::string TaskTables(Store& store) {
  return testing::DumpTables(store, "spark_tasks") + testing::DumpTables(store, "spark_stage") +
         testing::DumpTables(store, "spark_executor");
}

// The tables of tasks, stages and executors after ingesting `log` alone (IngestedLog).
std::string IngestedTaskTables(const std::string& log, std::vector<std::string>* skipped) {
  return TaskTables(*IngestedLog(log, skipped));
}

// Each one-task log of `variants` stores `expected` (IngestedTaskTables) and skips no line.
void CheckSameTaskTables(const std::vector<std::string>& variants, const std::string& expected) {
  for (const std::string& variant : variants) {
    CAPTURE(variant);
    std::vector<std::string> skipped;
    CHECK(IngestedTaskTables(OneTaskLog(variant), &skipped) == expected);
    CHECK(skipped.empty());
  }
}

TEST_CASE("A task end stores the same whether read On-Demand or from its DOM") {
  // Spark's order of fields: read in one forward pass, On-Demand.
  const std::string spark_order =
      R"({"Event":"SparkListenerTaskEnd","Stage ID":3,"Stage Attempt ID":1,"Task Type":"ResultTask","Task End Reason":{"Reason":"Success"},)"
      R"("Task Info":{"Task ID":7,"Index":2,"Attempt":0,"Partition ID":2,"Launch Time":1000,"Executor ID":"4","Host":"node4","Locality":"NODE_LOCAL","Speculative":false,"Getting Result Time":0,"Finish Time":1250,"Failed":false,"Killed":false,"Accumulables":[]},)"
      R"("Task Executor Metrics":{"JVMHeapMemory":5000,"OnHeapExecutionMemory":-1},)"
      R"("Task Metrics":{"Executor Deserialize Time":2,"Executor Run Time":200,"Result Size":1000,"JVM GC Time":3,)"
      R"("Shuffle Read Metrics":{"Remote Blocks Fetched":4,"Remote Bytes Read":4096,"Shuffle Push Read Metrics":{"Merged Remote Blocks Fetched":2}},)"
      R"("Input Metrics":{"Bytes Read":8192,"Records Read":10},"Updated Blocks":[]}})";
  std::vector<std::string> skipped;
  const auto store = IngestedLog(OneTaskLog(spark_order), &skipped);
  CHECK(skipped.empty());
  const std::string expected = TaskTables(*store);
  CHECK(Count(*store,
              "SELECT count(*) FROM spark_tasks WHERE task_id = 7 AND stage_id = 3 AND "
              "stage_attempt_id = 1 AND host = 'node4' AND duration_ms = 250 AND "
              "status = 'SUCCESS'") == 1);
  // The same task written otherwise. Read On-Demand: fields in another order at every level,
  // an unknown field. Read from the DOM: a key with an escape, a key written twice (the first
  // counts), a metric written as a double, both spellings of the push metrics (the first
  // spelling counts).
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string line = spark_order;
    const std::size_t at = line.find(from);
    REQUIRE(at != std::string::npos);
    return line.replace(at, from.size(), to);
  };
  const std::string push = R"("Shuffle Push Read Metrics":{"Merged Remote Blocks Fetched":2})";
  const std::vector<std::string> variants = {
      R"({"Event":"SparkListenerTaskEnd","Task Metrics":{"Updated Blocks":[],"Input Metrics":{"Records Read":10,"Bytes Read":8192},"Shuffle Read Metrics":{"Shuffle Push Read Metrics":{"Merged Remote Blocks Fetched":2},"Remote Bytes Read":4096,"Remote Blocks Fetched":4},"JVM GC Time":3,"Result Size":1000,"Executor Run Time":200,"Executor Deserialize Time":2},)"
      R"("Task Executor Metrics":{"JVMHeapMemory":5000,"OnHeapExecutionMemory":-1},"Task Info":{"Accumulables":[],"Killed":false,"Failed":false,"Finish Time":1250,"Getting Result Time":0,"Speculative":false,"Locality":"NODE_LOCAL","Host":"node4","Executor ID":"4","Launch Time":1000,"Partition ID":2,"Attempt":0,"Index":2,"Task ID":7},)"
      R"("Task End Reason":{"Reason":"Success"},"Task Type":"ResultTask","Stage Attempt ID":1,"Stage ID":3})",
      with(R"("Task Type")",
           R"("Extra":{"a":[1,-2.5e3,{"b":null}],"c":true,"d":"\u00e9"},"Task Type")"),
      with(R"("Host")", R"("Ho\u0073t")"),
      with(R"("Host":"node4")", R"("Host":"node4","Host":"other")"),
      with(R"("Executor Run Time":200)", R"("Executor Run Time":200.0)"),
      with(push, R"("Push Based Shuffle":{"Merged Remote Blocks Fetched":9},)" + push),
  };
  CheckSameTaskTables(variants, expected);
}

TEST_CASE("Task accumulables store the same whether read On-Demand or from their DOM") {
  // A SQL metric (string update), a public accumulator (integer update and value), an internal
  // task metric: read On-Demand. The same with a key escaped, a key written twice, "Internal"
  // as text (false to the DOM reader): read from the DOM, the same tables stored.
  const std::string prefix =
      R"({"Event":"SparkListenerTaskEnd","Stage ID":3,"Stage Attempt ID":1,"Task End Reason":{"Reason":"Success"},"Task Info":{"Task ID":7,"Index":2,"Attempt":0,"Launch Time":1000,"Executor ID":"4","Host":"node4","Finish Time":1250,"Accumulables":[)";
  const std::string suffix = R"(]},"Task Metrics":{"Executor Run Time":200}})";
  const std::string sql =
      R"({"ID":11,"Name":"number of output rows","Update":"42","Value":"42","Internal":true,"Count Failed Values":true,"Metadata":"sql"})";
  const std::string pub = R"({"ID":12,"Name":"my counter","Update":5,"Value":17,"Internal":false})";
  const std::string task_metric =
      R"({"ID":2,"Name":"internal.metrics.executorRunTime","Update":200,"Value":200,"Internal":true})";
  const std::string on_demand = prefix + sql + "," + pub + "," + task_metric + suffix;
  std::vector<std::string> skipped;
  const auto store = IngestedLog(OneTaskLog(on_demand), &skipped);
  CHECK(skipped.empty());
  const std::string expected = TaskTables(*store);
  CHECK(testing::QueryLines(*store, {"SELECT accumulables_json FROM spark_tasks"}) ==
        R"([{"id":12,"name":"my counter","update":"5","value":"17"}])"
        "\n");
  const std::vector<std::string> dom_variants = {
      prefix +
          R"({"ID":11,"N\u0061me":"number of output rows","Update":"42","Value":"42","Internal":true})" +
          "," + pub + "," + task_metric + suffix,
      prefix + sql + "," +
          R"({"ID":12,"Name":"my counter","Name":"other","Update":5,"Value":17,"Internal":false})" +
          "," + task_metric + suffix,
      prefix + sql + "," +
          R"({"ID":12,"Name":"my counter","Update":5,"Value":17,"Internal":"false"})" + "," +
          task_metric + suffix,
  };
  CheckSameTaskTables(dom_variants, expected);
}

TEST_CASE("A task end the On-Demand reader refuses gets the DOM reader's reason") {
  const std::string end_prefix = R"({"Event":"SparkListenerTaskEnd","Stage ID":3,)";
  const std::string info =
      R"("Task Info":{"Task ID":7,"Index":2,"Attempt":0,"Launch Time":1000,"Executor ID":"4","Host":"node4","Finish Time":1250}})";
  const std::vector<std::pair<std::string, std::string>> cases = {
      // Not valid JSON where nothing is read: the whole line is still checked.
      {end_prefix + R"("Task Type":tru,)" + info, "invalid JSON"},
      {end_prefix + R"("Task Type":01,)" + info, "invalid JSON"},
      {end_prefix + R"("Task Type":"\q",)" + info, "invalid JSON"},
      {end_prefix + "\"Task Type\":\"\xff\"," + info, "invalid JSON"},  // not UTF-8
      {end_prefix + R"("Extra":[1,}],)" + info, "invalid JSON"},
      {end_prefix + info + " {}", "invalid JSON"},
      {end_prefix + info + "}", "invalid JSON"},
      // Valid JSON, refused by what it holds.
      {R"({"Event":"SparkListenerTaskEnd","Stage ID":1.5,)" + info,
       "SparkListenerTaskEnd without an integer \"Stage ID\""},
      {end_prefix + R"("Task Info":{"Task ID":"7"}})",
       "SparkListenerTaskEnd with a \"Task ID\" that is not an integer"},
      {end_prefix + R"("Task Info":{"Index":2}})", "SparkListenerTaskEnd without \"Task Info\""},
  };
  for (const auto& [line, reason] : cases) {
    CAPTURE(line);
    std::vector<std::string> skipped;
    IngestedTaskTables(OneTaskLog(line), &skipped);
    REQUIRE(skipped.size() == 1);
    CHECK(skipped[0] == reason);
  }
}

TEST_CASE("Events of a stage after it completed still count once its entries were put aside") {
  // Ingest puts a completed stage's entries per executor (summaries, peaks) in a scratch file
  // once no task of it runs, and takes them back for a later event. Stage 0 completes while a
  // speculative copy runs; the copy's end (killed) leaves no task running; then a task end that
  // never started, its executor metrics, and the stage's executor metrics arrive after. The
  // store equals the one ingested with no scratch folder (everything kept in memory).
  const std::string dir = testing::MakeTempDir();
  auto start = [](int id, const char* executor, bool speculative) {
    return std::string(R"({"Event":"SparkListenerTaskStart","Stage ID":0,"Stage Attempt ID":0,"Task Info":{"Task ID":)") +
           std::to_string(id) + R"(,"Index":)" + std::to_string(id % 2) +
           R"(,"Attempt":0,"Launch Time":1000,"Executor ID":")" + executor +
           R"(","Host":"h","Speculative":)" + (speculative ? "true" : "false") + "}}\n";
  };
  auto end = [](int id, const char* executor, const char* reason, int finish, int heap) {
    return std::string(R"({"Event":"SparkListenerTaskEnd","Stage ID":0,"Stage Attempt ID":0,"Task End Reason":{"Reason":")") +
           reason + R"("},"Task Info":{"Task ID":)" + std::to_string(id) + R"(,"Index":)" +
           std::to_string(id % 2) + R"(,"Attempt":0,"Launch Time":1000,"Executor ID":")" +
           executor + R"(","Host":"h","Finish Time":)" + std::to_string(finish) +
           R"(},"Task Executor Metrics":{"JVMHeapMemory":)" + std::to_string(heap) +
           R"(},"Task Metrics":{"Executor Run Time":5,"Input Metrics":{"Bytes Read":10,"Records Read":1}}})"
           "\n";
  };
  const std::string stage0 =
      R"({"Stage ID":0,"Stage Attempt ID":0,"Stage Name":"s0","Number of Tasks":2,"Submission Time":1000)";
  std::string log =
      R"({"Event":"SparkListenerApplicationStart","App Name":"l","App ID":"app-l","Timestamp":900,"User":"u"})"
      "\n"
      R"({"Event":"SparkListenerJobStart","Job ID":0,"Submission Time":1000,"Stage Infos":[)" +
      stage0 + R"(}],"Stage IDs":[0]})" + "\n" + R"({"Event":"SparkListenerStageSubmitted","Stage Info":)" +
      stage0 + "}}\n";
  log += start(1, "1", false) + start(2, "2", false) + start(3, "2", true);
  log += end(1, "1", "Success", 1200, 100) + end(2, "2", "Success", 1300, 200);
  log += R"({"Event":"SparkListenerStageCompleted","Stage Info":)" + stage0 +
         R"(,"Completion Time":1300}})" "\n";
  log += end(3, "2", "TaskKilled", 1400, 300);   // the last task running: the stage is done
  log += end(4, "1", "Success", 1500, 400);      // never started, after the stage was done
  for (const char* event : {
           R"({"Event":"SparkListenerStageExecutorMetrics","Executor ID":"3","Stage ID":0,"Stage Attempt ID":0,"Executor Metrics":{"JVMHeapMemory":500}})",
           R"({"Event":"SparkListenerJobEnd","Job ID":0,"Completion Time":1600,"Job Result":{"Result":"JobSucceeded"}})",
           R"({"Event":"SparkListenerApplicationEnd","Timestamp":1700})"}) {
    log += std::string(event) + "\n";
  }
  testing::WriteFile(dir + "/app-l", log);
  auto store = IngestWithScratch(dir + "/app-l", true);
  CHECK(Count(*store, "SELECT tasks FROM spark_stage_executor_summaries WHERE stage_id = 0 AND "
                      "executor_id = '1'") == 2);
  CHECK(Count(*store, "SELECT killed_tasks FROM spark_stage_executor_summaries WHERE "
                      "stage_id = 0 AND executor_id = '2'") == 1);
  CHECK(Count(*store, "SELECT input_bytes FROM spark_stage_executor_summaries WHERE "
                      "stage_id = 0 AND executor_id = '1'") == 20);
  auto peaks = store->Prepare("SELECT executor_peaks_json FROM spark_stages WHERE stage_id = 0");
  REQUIRE(peaks.ok());
  REQUIRE(peaks.value().Step());
  CHECK(peaks.value().ColumnText(0) ==
        R"({"1":{"JVMHeapMemory":400},"2":{"JVMHeapMemory":300},"3":{"JVMHeapMemory":500}})");

  auto in_memory = IngestWithScratch(dir + "/app-l", false);
  CHECK(testing::DumpTables(*store, "spark_") == testing::DumpTables(*in_memory, "spark_"));
  const auto [kept, regrouped] = KeptAndRegroupedSummaries(*store);
  CHECK(kept == regrouped);
}

TEST_CASE("Events of finished stages and jobs still count once they were put aside whole") {
  // Ingest puts a stage attempt that completed and runs no task, and a job that ended, in a
  // scratch file, and takes them back for a later event; the last 16 taken back stay in memory,
  // the older ones go back. Stages 0..19 run one task each in jobs 0..19, all finished; then job
  // 20 names all of them (each taken back, the first ones put aside again), and one event of
  // each kind that changes a finished stage or job arrives. Every figure is the one keeping
  // them in memory gives: the store equals the one ingested with no scratch folder, rows in the
  // same order.
  const std::string dir = testing::MakeTempDir();
  // Long details: the records of the first stages are in the scratch file itself when they are
  // read back, not still in its write buffer.
  auto info = [](int stage, const std::string& more = "") {
    return R"({"Stage ID":)" + std::to_string(stage) + R"(,"Stage Attempt ID":0,"Stage Name":"s)" +
           std::to_string(stage) + R"(","Number of Tasks":1,"Submission Time":1000,"Details":")" +
           std::string(8000, 'd') + "\"" + more + "}";
  };
  auto task = [](bool end, int stage, int id, const char* executor, const char* reason) {
    std::string t = std::string(R"({"Event":"SparkListenerTask)") + (end ? "End" : "Start") +
                    R"(","Stage ID":)" + std::to_string(stage) + R"(,"Stage Attempt ID":0,)";
    if (end) t += R"("Task End Reason":{"Reason":")" + std::string(reason) + R"("},)";
    t += R"("Task Info":{"Task ID":)" + std::to_string(id) + R"(,"Index":)" +
         std::to_string(id % 10) + R"(,"Attempt":0,"Launch Time":1000,"Executor ID":")" +
         executor + R"(","Host":"h","Finish Time":)" + (end ? "1100" : "0") + "}";
    if (end) t += R"(,"Task Metrics":{"Executor Run Time":5,"Input Metrics":{"Bytes Read":10,"Records Read":1}})";
    return t + "}\n";
  };
  auto job_end = [](int job, const char* result) {
    return R"({"Event":"SparkListenerJobEnd","Job ID":)" + std::to_string(job) +
           R"(,"Completion Time":1200,"Job Result":{"Result":")" + result + "\"}}\n";
  };
  std::string log =
      R"({"Event":"SparkListenerApplicationStart","App Name":"w","App ID":"app-w","Timestamp":900,"User":"u"})"
      "\n";
  std::string all_infos, all_ids;
  for (int s = 0; s < 20; ++s) {
    log += R"({"Event":"SparkListenerJobStart","Job ID":)" + std::to_string(s) +
           R"(,"Submission Time":1000,"Stage Infos":[)" + info(s) + R"(],"Stage IDs":[)" +
           std::to_string(s) + "]}\n";
    log += R"({"Event":"SparkListenerStageSubmitted","Stage Info":)" + info(s) + "}\n";
    log += task(false, s, s * 10, "1", "") + task(true, s, s * 10, "1", "Success");
    log += R"({"Event":"SparkListenerStageCompleted","Stage Info":)" +
           info(s, R"(,"Completion Time":1100)") + "}\n";
    log += job_end(s, "JobSucceeded");
    all_infos += info(s, R"(,"Completion Time":1100)") + ",";
    all_ids += std::to_string(s) + ",";
  }
  // Job 20 names every stage finished: each is taken back to list the job.
  log += R"({"Event":"SparkListenerJobStart","Job ID":20,"Submission Time":2000,"Stage Infos":[)" +
         all_infos + info(20) + R"(],"Stage IDs":[)" + all_ids + "20]}\n";
  log += task(true, 0, 1, "2", "Success");    // stage 0 (put aside again since) and job 0
  log += task(true, 1, 11, "2", "TaskKilled");  // a killed task, never started
  log += task(false, 6, 61, "3", "");           // starts after the stage completed, never ends
  for (const char* event : {
           R"({"Event":"SparkListenerExecutorMetricsUpdate","Executor ID":"1","Metrics Updated":[],"Executor Metrics Updated":[{"Stage ID":2,"Stage Attempt ID":0,"Executor Metrics":{"JVMHeapMemory":900}}]})",
           R"({"Event":"SparkListenerStageExecutorMetrics","Executor ID":"3","Stage ID":3,"Stage Attempt ID":0,"Executor Metrics":{"JVMHeapMemory":800}})",
           R"({"Event":"SparkListenerExecutorExcludedForStage","time":1300,"executorId":"4","taskFailures":2,"stageId":4,"stageAttemptId":0})",
           R"({"Event":"SparkListenerStageSubmitted","Stage Info":{"Stage ID":5,"Stage Attempt ID":0,"Stage Name":"s5","Number of Tasks":1,"Submission Time":3000}})",
           R"({"Event":"SparkListenerStageCompleted","Stage Info":{"Stage ID":8,"Stage Attempt ID":0,"Stage Name":"s8","Number of Tasks":1,"Submission Time":1000,"Completion Time":3100,"Failure Reason":"lost"}})",
           R"({"Event":"SparkListenerJobStart","Job ID":9,"Submission Time":3500,"Stage Infos":[],"Stage IDs":[9]})"}) {
    log += std::string(event) + "\n";
  }
  log += job_end(7, "JobFailed") + job_end(20, "JobSucceeded");
  log += R"({"Event":"SparkListenerApplicationEnd","Timestamp":4000})" "\n";
  testing::WriteFile(dir + "/app-w", log);
  auto store = IngestWithScratch(dir + "/app-w", true);
  auto text = [&](const std::string& sql) { return testing::QueryLines(*store, {sql}); };
  CHECK(text("SELECT job_ids_json FROM spark_stages WHERE stage_id IN (0, 19, 20) ORDER BY "
             "stage_id") == "[0,20]\n[19,20]\n[20]\n");
  CHECK(Count(*store, "SELECT count(*) FROM spark_stages WHERE length(details) = 8000 AND "
                      "stage_id NOT IN (5, 8)") == 19);  // 5 and 8: given again, no details
  CHECK(Count(*store, "SELECT num_complete_tasks FROM spark_stages WHERE stage_id = 0") == 2);
  CHECK(Count(*store, "SELECT num_completed_indices FROM spark_stages WHERE stage_id = 0") == 2);
  CHECK(Count(*store, "SELECT num_completed_tasks FROM spark_jobs WHERE job_id = 0") == 2);
  CHECK(Count(*store, "SELECT num_completed_tasks FROM spark_jobs WHERE job_id = 20") == 1);
  CHECK(Count(*store, "SELECT tasks FROM spark_stage_summaries WHERE stage_id = 0") == 2);
  CHECK(Count(*store, "SELECT tasks FROM spark_stage_executor_summaries WHERE stage_id = 0 AND "
                      "executor_id = '2'") == 1);
  CHECK(text("SELECT killed_tasks_summary_json FROM spark_stages WHERE stage_id = 1") ==
        "{\"unknown reason\":1}\n");
  CHECK(Count(*store, "SELECT num_killed_tasks FROM spark_jobs WHERE job_id = 1") == 1);
  CHECK(text("SELECT peak_executor_metrics_json || executor_peaks_json FROM spark_stages WHERE "
             "stage_id = 2") ==
        R"({"JVMHeapMemory":900}{"1":{"JVMHeapMemory":900}})" "\n");
  CHECK(text("SELECT executor_peaks_json FROM spark_stages WHERE stage_id = 3") ==
        R"({"1":{},"3":{"JVMHeapMemory":800}})" "\n");
  CHECK(text("SELECT excluded_executors_json FROM spark_stages WHERE stage_id = 4") ==
        "[\"4\"]\n");
  CHECK(text("SELECT status || ' ' || submission_time_ms || ' ' || job_ids_json FROM "
             "spark_stages WHERE stage_id = 5") == "ACTIVE 3000 [20]\n");
  CHECK(Count(*store, "SELECT num_active_tasks FROM spark_stages WHERE stage_id = 6") == 1);
  CHECK(Count(*store, "SELECT running_tasks FROM spark_stage_summaries WHERE stage_id = 6") == 1);
  CHECK(text("SELECT status FROM spark_stages WHERE stage_id = 8") == "FAILED\n");
  CHECK(text("SELECT num_failed_stages || ' ' || num_active_stages FROM spark_jobs WHERE "
             "job_id IN (8, 20) ORDER BY job_id") == "1 0\n1 0\n");
  CHECK(text("SELECT status FROM spark_jobs WHERE job_id = 7") == "FAILED\n");
  CHECK(text("SELECT status || ' ' || submission_time_ms || ' ' || stage_ids_json FROM "
             "spark_jobs WHERE job_id = 9") == "SUCCEEDED 3500 [9,9]\n");

  auto in_memory = IngestWithScratch(dir + "/app-w", false);
  CHECK(testing::DumpTables(*store, "spark_") == testing::DumpTables(*in_memory, "spark_"));
  const std::vector<std::string> order = {
      "SELECT stage_id || '.' || stage_attempt_id FROM spark_stages ORDER BY rowid",
      "SELECT job_id FROM spark_jobs ORDER BY rowid"};
  CHECK(testing::QueryLines(*store, order) == testing::QueryLines(*in_memory, order));
  const auto [kept, regrouped] = KeptAndRegroupedSummaries(*store);
  CHECK(kept == regrouped);
}

TEST_CASE("A synthetic log lands as one application with its stages and task durations") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/app-1", testing::SyntheticEventLog("app-1", 2, 5));
  auto store = OpenSparkStore(":memory:");
  auto summary = IngestEventLogs(*store, {dir + "/app-1"});
  REQUIRE(summary.ok());
  REQUIRE(summary.value().applications.size() == 1);
  CHECK(summary.value().applications[0].app_id == "app-1");
  CHECK(summary.value().applications[0].completed);
  CHECK(summary.value().events == 2 + 1 + 2 * (2 + 2 * 5) + 1 + 1);
  CHECK(summary.value().skipped.empty());
  auto durations = TaskDurationsByStage(*store, "app-1");
  REQUIRE(durations.ok());
  REQUIRE(durations.value().size() == 2);
  CHECK(durations.value()[1].stage_id == 1);
  CHECK(durations.value()[1].task_duration_seconds ==
        std::vector<double>{0.1, 0.11, 0.12, 0.13, 0.14});
}

TEST_CASE("The efficiency vector divides the metric sums by the summed task time") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/app-b", testing::SyntheticEventLog("app-b", 1, 4));
  auto store = OpenSparkStore(":memory:");
  REQUIRE(IngestEventLogs(*store, {dir + "/app-b"}).ok());
  auto beta = ComputeEfficiencyVector(*store, "app-b");
  REQUIRE(beta.ok());
  // Tasks last 100, 110, 120, 130 ms with 1 ms GC each and no CPU time or shuffle recorded.
  CHECK(beta.value().task_seconds == doctest::Approx(0.46));
  CHECK(beta.value().gc_share == doctest::Approx(0.004 / 0.46));
  CHECK(beta.value().compute_share == 0);
  CHECK(beta.value().shuffle_bytes == 0);
  CHECK(beta.value().total_seconds > 0.13);
}

TEST_CASE("An unknown application is NotFound with its id") {
  auto store = OpenSparkStore(":memory:");
  auto durations = TaskDurationsByStage(*store, "nope", "2");
  REQUIRE_FALSE(durations.ok());
  CHECK(durations.status().code() == StatusCode::kNotFound);
  CHECK(durations.status().message() == "no Spark application nope/2 in the store");
}

TEST_CASE("Ingesting the same log twice adds nothing") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/app-1.zstd",
                     testing::EncodeZstdFrames(testing::SyntheticEventLog("app-1", 2, 5)));
  // A copy under another name holds the same application attempt: it replaces, never adds.
  testing::WriteFile(dir + "/copy-of-app-1", testing::SyntheticEventLog("app-1", 2, 5));
  auto store = OpenSparkStore(dir + "/s.db");
  REQUIRE(IngestEventLogs(*store, {dir}).ok());
  const std::int64_t tasks = Count(*store, "SELECT count(*) FROM spark_tasks");
  CHECK(tasks == 10);
  auto again = IngestEventLogs(*store, {dir});
  REQUIRE(again.ok());
  REQUIRE(again.value().applications.size() == 2);
  for (const auto& a : again.value().applications) {
    CHECK(a.unchanged);
    CHECK(a.app_id == "app-1");
  }
  CHECK(Count(*store, "SELECT count(*) FROM spark_tasks") == tasks);
  CHECK(Count(*store, "SELECT count(*) FROM spark_attempts") == 1);
  CHECK(Count(*store, "SELECT count(*) FROM spark_stages") == 2);
}

TEST_CASE("A grown .inprogress log replaces the application's earlier state") {
  const std::string dir = testing::MakeTempDir();
  const std::string full = testing::SyntheticEventLog("app-2", 3, 4);
  // Cut just before the first task of stage 1 ends: that task is still running.
  const std::string partial =
      full.substr(0, full.find("{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,"));
  const std::string path = dir + "/app-2.inprogress";
  testing::WriteFile(path, partial.substr(0, partial.rfind('\n') + 1));
  auto store = OpenSparkStore(":memory:");
  auto first = IngestEventLogs(*store, {path});
  REQUIRE(first.ok());
  REQUIRE(first.value().applications.size() == 1);
  CHECK_FALSE(first.value().applications[0].completed);
  const std::int64_t early = Count(*store, "SELECT count(*) FROM spark_tasks");
  CHECK(early > 0);
  CHECK(Count(*store, "SELECT count(*) FROM spark_tasks WHERE status = 'RUNNING'") >= 1);
  testing::WriteFile(path, full);
  auto second = IngestEventLogs(*store, {path});
  REQUIRE(second.ok());
  CHECK(second.value().applications[0].completed);
  CHECK(Count(*store, "SELECT count(*) FROM spark_tasks") == 12);
  CHECK(Count(*store, "SELECT count(*) FROM spark_tasks WHERE status = 'RUNNING'") == 0);
  CHECK(Count(*store, "SELECT count(*) FROM spark_attempts") == 1);
  CHECK(Count(*store, "SELECT completed FROM spark_attempts") == 1);
}

TEST_CASE("Bad lines are reported with file, line and reason; the rest is ingested") {
  const std::string dir = testing::MakeTempDir();
  std::string log = testing::SyntheticEventLog("app-3", 1, 3);
  std::size_t third = log.find('\n', log.find('\n') + 1) + 1;
  log.insert(third, "garbage \x01\x02 bytes\n{\"Event\":\"SparkListenerTaskEnd\"}\n{\"a\":1}\n");
  log += "{\"Event\":\"SparkListenerApplicationEnd\",\"Times";  // truncated last line
  const std::string path = dir + "/app-3";
  testing::WriteFile(path, log);
  auto store = OpenSparkStore(":memory:");
  auto summary = IngestEventLogs(*store, {path});
  REQUIRE(summary.ok());
  const auto& skipped = summary.value().skipped;
  REQUIRE(skipped.size() == 4);
  CHECK(skipped[0].file == path);
  CHECK(skipped[0].line == 3);
  CHECK(skipped[0].reason == "invalid JSON");
  CHECK(skipped[1].line == 4);
  CHECK(skipped[1].reason == "SparkListenerTaskEnd without \"Task Info\"");
  CHECK(skipped[2].line == 5);
  CHECK(skipped[2].reason == "no \"Event\" field");
  CHECK(skipped[3].reason == "truncated last line (no line end, not valid JSON)");
  CHECK(Count(*store, "SELECT count(*) FROM spark_tasks") == 3);
  CHECK(Count(*store, "SELECT skipped_lines FROM spark_attempts") == 4);
}

TEST_CASE("A file that is not an event log is reported once and leaves the store untouched") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/notes", "a\nb\nc\nd\ne\nf\ng\n");
  CheckRefusedAlone(dir + "/notes", "not a Spark event log: no Spark event in the first lines");
}

TEST_CASE("Events out of order or missing their context still ingest what they can") {
  const std::string dir = testing::MakeTempDir();
  // A task that ends without a start, in a stage and job never announced; a job end for an
  // unknown job; a stage completion before its submission; fields of the wrong type.
  const std::string log =
      R"({"Event":"SparkListenerApplicationStart","App Name":"o","App ID":"app-o","Timestamp":1000,"User":"u"})"
      "\n"
      R"({"Event":"SparkListenerTaskEnd","Stage ID":7,"Stage Attempt ID":0,"Task End Reason":{"Reason":"Success"},"Task Info":{"Task ID":1,"Index":0,"Attempt":0,"Launch Time":1100,"Executor ID":"1","Host":"h","Finish Time":1300}})"
      "\n"
      R"({"Event":"SparkListenerJobEnd","Job ID":99,"Job Result":{"Result":"JobSucceeded"}})"
      "\n"
      R"({"Event":"SparkListenerStageCompleted","Stage Info":{"Stage ID":7,"Stage Attempt ID":0,"Stage Name":"s","Number of Tasks":"many"}})"
      "\n"
      R"({"Event":"SparkListenerTaskStart","Stage ID":"seven","Task Info":{"Task ID":"two"}})"
      "\n"
      R"({"Event":"SparkListenerApplicationEnd","Timestamp":2000})"
      "\n";
  testing::WriteFile(dir + "/app-o", log);
  auto store = OpenSparkStore(":memory:");
  auto summary = IngestEventLogs(*store, {dir + "/app-o"});
  REQUIRE(summary.ok());
  REQUIRE(summary.value().skipped.size() == 2);
  CHECK(summary.value().skipped[0].line == 3);
  CHECK(summary.value().skipped[0].reason == "SparkListenerJobEnd for a job that never started");
  CHECK(summary.value().skipped[1].line == 5);
  CHECK(summary.value().skipped[1].reason ==
        "SparkListenerTaskStart with a \"Task ID\" that is not an integer");
  CHECK(Count(*store, "SELECT count(*) FROM spark_tasks WHERE stage_id = 7") == 1);
  CHECK(Count(*store, "SELECT completed FROM spark_attempts") == 1);
  auto durations = TaskDurationsByStage(*store, "app-o");
  REQUIRE(durations.ok());
  REQUIRE(durations.value().size() == 1);
  CHECK(durations.value()[0].task_duration_seconds == std::vector<double>{0.2});
}

TEST_CASE("A stale .inprogress copy does not replace the complete log unless replace is set") {
  const std::string dir = testing::MakeTempDir();
  const std::string complete = testing::SyntheticEventLog("app-s", 2, 5);
  testing::WriteFile(dir + "/app-s", complete);
  // The first half of the same log, as a copy taken while the application still ran.
  std::string half = complete.substr(0, complete.size() / 2);
  half.resize(half.rfind('\n') + 1);
  std::filesystem::create_directories(dir + "/stale");
  testing::WriteFile(dir + "/stale/app-s.inprogress", half);
  auto store = OpenSparkStore(":memory:");
  REQUIRE(IngestEventLogs(*store, {dir + "/app-s"}).ok());
  const std::int64_t tasks = Count(*store, "SELECT count(*) FROM spark_tasks");
  auto stale = IngestEventLogs(*store, {dir + "/stale"});
  REQUIRE(stale.ok());
  CHECK(stale.value().applications.empty());
  REQUIRE(stale.value().skipped.size() == 1);
  CHECK(stale.value().skipped[0].file == dir + "/stale/app-s.inprogress");
  CHECK(stale.value().skipped[0].reason ==
        "not replacing application app-s stored from " + dir +
            "/app-s: it is incomplete and the stored copy is complete (the replace option forces it)");
  CHECK(Count(*store, "SELECT count(*) FROM spark_tasks") == tasks);
  CHECK(Count(*store, "SELECT completed FROM spark_attempts WHERE app_id = 'app-s'") == 1);
  IngestLimits replace;
  replace.replace = true;
  auto forced = IngestEventLogs(*store, {dir + "/stale"}, {}, replace);
  REQUIRE(forced.ok());
  CHECK(forced.value().skipped.empty());
  CHECK(Count(*store, "SELECT completed FROM spark_attempts WHERE app_id = 'app-s'") == 0);
  CHECK(Count(*store, "SELECT count(*) FROM spark_tasks") < tasks);
}

TEST_CASE("A shorter complete copy of a stored attempt is refused with both event counts") {
  const std::string dir = testing::MakeTempDir();
  const std::string log = testing::SyntheticEventLog("app-t", 2, 5);
  std::filesystem::create_directories(dir + "/a");
  std::filesystem::create_directories(dir + "/b");
  testing::WriteFile(dir + "/a/app-t", log);
  // The same application with its second stage's task events cut out but still ending.
  std::string shorter;
  std::size_t at = 0, kept = 0, total = 0;
  while (at < log.size()) {
    std::size_t nl = log.find('\n', at);
    std::string line = log.substr(at, nl - at + 1);
    at = nl + 1;
    ++total;
    if (line.find("\"Stage ID\":1,") != std::string::npos &&
        line.find("SparkListenerTask") != std::string::npos) {
      continue;
    }
    shorter += line;
    ++kept;
  }
  REQUIRE(kept < total);
  testing::WriteFile(dir + "/b/app-t", shorter);
  auto store = OpenSparkStore(":memory:");
  REQUIRE(IngestEventLogs(*store, {dir + "/a"}).ok());
  auto again = IngestEventLogs(*store, {dir + "/b"});
  REQUIRE(again.ok());
  REQUIRE(again.value().skipped.size() == 1);
  CHECK(again.value().skipped[0].reason == "not replacing application app-t stored from " + dir +
                                               "/a/app-t: it has " + std::to_string(kept) +
                                               " events, the stored copy " + std::to_string(total) +
                                               " (the replace option forces it)");
}

TEST_CASE("A zstd log cut before its first block ends is reported as a truncated frame") {
  const std::string dir = testing::MakeTempDir();
  // One frame of 128 KiB blocks: the first 1,000 bytes hold no complete block, so no event
  // decodes; the report names the codec problem, not "not a Spark event log".
  const std::string z =
      testing::EncodeZstdFrames(testing::SyntheticEventLog("app-z", 4, 200), 1 << 20);
  REQUIRE(z.size() > 1000);
  testing::WriteFile(dir + "/app-z.zstd", z.substr(0, 1000));
  CheckRefusedAlone(
      dir + "/app-z.zstd",
      "corrupt zstd stream: truncated zstd frame at byte 1,000 (the end of the file)");
}

}  // namespace
}  // namespace perfplan::profiles::spark
