// The sql/N answer for a real Spark 3.0.1 SQL log in ../shared/data, checked against an oracle
// perfplan never saw while being written: spark-rapids-tools' printSQLPlanMetrics expectation
// (ApplicationInfoSuite, 83 rows: SQL id, node id and name, accumulator, metric name, min, median,
// max, total, metric type). The tool builds the same SparkPlanGraph, so each row's node id and
// name must be perfplan's, and its total the total in perfplan's metric text (the tool's min and
// median leave out tasks that never updated a metric, Spark's include them as 0, so only the total
// is compared).
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "profiles/spark/history_api.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_sql_listener.h"
#include "profiles/spark/spark_store.h"
#include "tests/support/test_support.h"

PERFPLAN_REQUIRE_SHARED_DATA();

namespace perfplan::profiles::spark {
namespace {

using nlohmann::json;

std::vector<std::string> CsvFields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

std::string WithCommas(long long v) {
  std::string d = std::to_string(v), out;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i > 0 && (d.size() - i) % 3 == 0) out += ',';
    out += d[i];
  }
  return out;
}

TEST_CASE("rapids_join_eventlog: every printSQLPlanMetrics row has its node and total in sql/0") {
  const std::string base = testing::SharedDataDir() + "/01-spark-eventlogs/spark-rapids-tools/";
  auto store = Store::Open(":memory:", {StoreMigrations()});
  REQUIRE(store.ok());
  auto summary = IngestEventLogs(*store.value(),
                                 {base + "spark-events-profiling/rapids_join_eventlog.zstd"});
  REQUIRE(summary.ok());
  CHECK(summary.value().skipped.empty());
  auto answer = HistoryApi(*store.value(), "applications/local-1622814619968/sql");
  REQUIRE_MESSAGE(answer.ok(), answer.status().message());
  const json list = json::parse(answer.value());
  REQUIRE(list.size() == 1);
  const json& q = list[0];
  CHECK(q["status"] == "COMPLETED");
  CHECK(q["description"] == "count at <console>:28");

  std::ifstream csv(base + "ProfilingExpectations/rapids_join_eventlog_sqlmetrics_expectation.csv");
  REQUIRE(csv.good());
  std::string line;
  std::getline(csv, line);  // header
  int rows = 0, matched = 0;
  while (std::getline(csv, line)) {
    const auto f = CsvFields(line);
    REQUIRE(f.size() == 11);
    ++rows;
    CAPTURE(line);
    REQUIRE(f[0] == "0");
    const long long node_id = std::stoll(f[1]);
    const json* node = nullptr;
    for (const json& n : q["nodes"]) {
      if (n["nodeId"] == node_id) node = &n;
    }
    REQUIRE(node != nullptr);
    CHECK((*node)["nodeName"] == f[2]);
    const json* metric = nullptr;
    for (const json& m : (*node)["metrics"]) {
      if (m["name"] == f[4]) metric = &m;
    }
    REQUIRE(metric != nullptr);
    const std::string value = (*metric)["value"].get<std::string>();
    const long long total = std::stoll(f[8]);
    const std::string type = f[9];
    std::string want;
    if (type == "sum") {
      want = WithCommas(total);
      CHECK(value == want);
    } else {
      want = type == "size"     ? SparkBytesString(total)
             : type == "timing" ? SparkDurationString(total)
                                : SparkDurationString(total / 1000000);
      const std::string prefix = "total (min, med, max (stageId: taskId))\n" + want + " (";
      CHECK((value == want || value.rfind(prefix, 0) == 0));
    }
    if (value == want || value.rfind("total (min, med, max (stageId: taskId))\n" + want + " (", 0) == 0) {
      ++matched;
    }
  }
  CHECK(rows == 83);
  CHECK(matched == rows);
  MESSAGE("printSQLPlanMetrics rows matched: " << matched << " of " << rows);
}

TEST_CASE("Every SQL log in ../shared/data answers sql for each execution it logs") {
  const std::string base = testing::SharedDataDir() + "/01-spark-eventlogs/";
  struct Log {
    const char* path;
    const char* app;
    std::size_t executions;
  };
  const Log logs[] = {
      {"spark-rapids-tools/spark-events-profiling/dataset_eventlog", nullptr, 1},
      {"apache-spark-2019-snapshot/spark-events/application_1506645932520_24630151",
       "application_1506645932520_24630151", 3},
  };
  for (const Log& log : logs) {
    CAPTURE(log.path);
    auto store = Store::Open(":memory:", {StoreMigrations()});
    REQUIRE(store.ok());
    auto summary = IngestEventLogs(*store.value(), {base + log.path});
    REQUIRE(summary.ok());
    std::string app = log.app ? log.app : "";
    if (app.empty()) {
      auto apps = json::parse(HistoryApi(*store.value(), "applications").value());
      REQUIRE(apps.size() == 1);
      app = apps[0]["id"].get<std::string>();
    }
    auto answer = HistoryApi(*store.value(), "applications/" + app + "/sql?length=100");
    REQUIRE_MESSAGE(answer.ok(), answer.status().message());
    const json list = json::parse(answer.value());
    CHECK(list.size() == log.executions);
    for (const json& e : list) {
      CHECK(e["nodes"].size() > 0);
      CHECK(e.contains("planDescription"));
    }
  }
}

}  // namespace
}  // namespace perfplan::profiles::spark
