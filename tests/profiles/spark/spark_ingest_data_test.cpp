// Ingests the real event logs of ../shared/data (data README §1.1): every codec and layout there,
// with the counts the README states.
#include <doctest/doctest.h>

#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_ingest_parallel.h"
#include "profiles/spark/spark_store.h"
#include "tests/support/spark_store_fixture.h"
#include "tests/support/store_dump.h"
#include "tests/support/test_support.h"

PERFPLAN_REQUIRE_SHARED_DATA();

namespace perfplan::profiles::spark {
namespace {

using testing::Count;

std::string Logs() { return testing::SharedDataDir() + "/01-spark-eventlogs"; }

std::unique_ptr<Store> Ingest(const std::string& path, IngestSummary* summary) {
  auto store = Store::Open(":memory:", {StoreMigrations()});
  REQUIRE(store.ok());
  auto s = IngestEventLogs(*store.value(), {path});
  REQUIRE(s.ok());
  *summary = s.value();
  return std::move(store.value());
}

TEST_CASE("The rolling zstd log reads its two parts in order as one completed application") {
  IngestSummary s;
  auto store = Ingest(
      Logs() + "/spark-rapids-tools/spark-events-qualification/eventlog_v2_local-1623876083964",
      &s);
  REQUIRE(s.applications.size() == 1);
  CHECK(s.applications[0].app_id == "local-1623876083964");
  CHECK(s.applications[0].completed);
  CHECK(s.events == 5370 + 251);
  CHECK(s.skipped.empty());
  CHECK(Count(*store, "SELECT count(*) FROM spark_tasks WHERE status = 'SUCCESS'") == 2672 + 129);
}

TEST_CASE("The gzip Databricks log is the first rolling part: incomplete, with running tasks") {
  IngestSummary s;
  auto store = Ingest(Logs() +
                          "/spark-rapids-tools/spark-events-qualification/db_sim_eventlog/"
                          "eventlog-2021-06-15--15-00.gz",
                      &s);
  REQUIRE(s.applications.size() == 1);
  CHECK_FALSE(s.applications[0].completed);
  CHECK(s.events == 5370);
  CHECK(Count(*store, "SELECT count(*) FROM spark_tasks WHERE status = 'SUCCESS'") == 2672);
  CHECK(Count(*store, "SELECT count(*) FROM spark_tasks WHERE status = 'RUNNING'") > 0);
}

TEST_CASE("The zstd RAPIDS join log holds 213 tasks and its SQL execution") {
  IngestSummary s;
  auto store =
      Ingest(Logs() + "/spark-rapids-tools/spark-events-profiling/rapids_join_eventlog.zstd", &s);
  CHECK(s.events == 444);
  CHECK(s.skipped.empty());
  CHECK(Count(*store, "SELECT count(*) FROM spark_tasks") == 213);
  CHECK(Count(*store, "SELECT count(*) FROM spark_sql_executions") >= 1);
}

TEST_CASE("Two attempts in differently named files merge under one application id") {
  IngestSummary s;
  auto store = Ingest(Logs() + "/apache-spark/spark-events", &s);
  CHECK(s.skipped.empty());
  CHECK(Count(*store, "SELECT count(*) FROM spark_attempts WHERE app_id = 'local-1426533911241'") ==
        2);
  auto one = TaskDurationsByStage(*store, "local-1426533911241", "1");
  REQUIRE(one.ok());
  REQUIRE(one.value().size() == 1);
  CHECK(one.value()[0].task_duration_seconds.size() == 8);
}

TEST_CASE("An incomplete last attempt is stored as running, the first as completed") {
  IngestSummary s;
  auto store = Ingest(Logs() + "/apache-spark/spark-events-broken/last-attempt-incomplete", &s);
  REQUIRE(s.applications.size() == 2);
  CHECK(Count(*store, "SELECT completed FROM spark_attempts WHERE attempt_id = '1'") == 1);
  CHECK(Count(*store, "SELECT completed FROM spark_attempts WHERE attempt_id = '2'") == 0);
}

TEST_CASE("Every real log in the data folder ingests without a skipped line") {
  IngestSummary s;
  auto store = Ingest(Logs(), &s);
  // The one exception is by design: the gzip copy of local-1623876083964 stops before its
  // ApplicationEnd, and the folder also holds complete logs of that application id (the edited
  // cluster_information copies, read first in name order), so it does not replace them.
  const std::string stale = Logs() +
                            "/spark-rapids-tools/spark-events-qualification/db_sim_eventlog/"
                            "eventlog-2021-06-15--15-00.gz";
  for (const auto& k : s.skipped) {
    CAPTURE(k.file);
    CAPTURE(k.reason);
    if (k.file == stale && k.line == 0 &&
        k.reason.rfind("not replacing application local-1623876083964 stored from ", 0) == 0 &&
        k.reason.ends_with(": it is incomplete and the stored copy is complete (the replace "
                           "option forces it)")) {
      continue;
    }
    CHECK(k.line == -1);  // fails, naming the line, for any other skipped line
  }
  CHECK(s.applications.size() >= 24);
}

TEST_CASE("Every real log's summaries kept at ingest equal the GROUP BYs over its stored tasks") {
  IngestSummary s;
  auto store = Ingest(Logs(), &s);
  const char* tables[] = {"spark_stage_summaries", "spark_stage_executor_summaries",
                          "spark_executor_summaries"};
  auto dump = [&] {
    std::string d;
    for (const char* t : tables) d += testing::DumpTables(*store, t);
    return d;
  };
  const std::string kept = dump();
  CHECK(kept.find(": 0 rows") == std::string::npos);
  for (const char* t : tables) REQUIRE(store->Exec(std::string("DELETE FROM ") + t).ok());
  auto keys = store->Prepare("SELECT attempt_key FROM spark_attempts ORDER BY attempt_key");
  REQUIRE(keys.ok());
  std::vector<std::int64_t> attempts;
  while (keys.value().Step()) attempts.push_back(keys.value().ColumnInt(0));
  CHECK(attempts.size() >= 24);
  for (const std::int64_t key : attempts) REQUIRE(WriteSummaries(*store, key).ok());
  CHECK(dump() == kept);
}

TEST_CASE("Every real log of the data folder, on three parser threads, gives the store of one") {
  std::vector<std::string> described;
  std::vector<std::string> dumps;
  for (int jobs : {1, 3}) {
    auto store = Store::Open(":memory:", {StoreMigrations()});
    REQUIRE(store.ok());
    auto s = IngestEventLogsParallel(*store.value(), {Logs()}, jobs);
    REQUIRE(s.ok());
    std::string d = std::to_string(s.value().events) + " events, " +
                    std::to_string(s.value().skipped_total) + " skipped\n";
    for (const auto& a : s.value().applications) d += a.app_id + " " + a.source + "\n";
    for (const auto& k : s.value().skipped) d += k.file + ":" + std::to_string(k.line) + "\n";
    described.push_back(d);
    dumps.push_back(testing::DumpTables(*store.value(), "spark_"));
    CHECK(s.value().applications.size() > 20);
  }
  CHECK(described[1] == described[0]);
  CHECK(dumps[1] == dumps[0]);
}

}  // namespace
}  // namespace perfplan::profiles::spark
