// The store as a run table: Spark properties as parameter text, metrics from the event log.
#include "profiles/spark/spark_run_table.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "tests/support/result_checks.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/spark_store_fixture.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles::spark {
namespace {

using testing::OpenSparkStore;

int Column(const models::RunTable& t, const std::string& name) {
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    if (t.columns[c].name == name) return static_cast<int>(c);
  }
  return -1;
}

// Three applications with different executor memory and cores; one also sets a property the
// others lack; spark.master is the same everywhere.
std::string WriteLogs() {
  const std::string dir = testing::MakeTempDir();
  const struct {
    const char* id;
    const char* memory;
    const char* cores;
    int tasks;
  } apps[] = {{"app-a", "4g", "2", 3}, {"app-b", "512m", "4", 5}, {"app-c", "2g", "1", 4}};
  for (const auto& a : apps) {
    std::vector<std::pair<std::string, std::string>> props = {{"spark.app.id", a.id},
                                                              {"spark.master", "yarn"},
                                                              {"spark.executor.memory", a.memory},
                                                              {"spark.executor.cores", a.cores}};
    if (std::string(a.id) == "app-b") props.emplace_back("spark.locality.wait", "200ms");
    testing::WriteFile(dir + "/" + a.id,
                       testing::SyntheticEventLogWithProperties(a.id, 2, a.tasks, props));
  }
  return dir;
}

TEST_CASE("Each application becomes a row with its varying Spark properties as text") {
  auto store = OpenSparkStore(":memory:");
  REQUIRE(IngestEventLogs(*store, {WriteLogs()}).ok());
  const auto t = testing::ValueOf(ReadStoreRunTable(*store, {}));
  const models::RunTable& table = t.table;
  CHECK(table.source == "store::memory:");
  REQUIRE(table.rows.size() == 3);
  // Parameters first (in the store's property order: the ingest keeps them sorted by name), then
  // every metric column.
  REQUIRE(table.columns.size() == 2 + MetricColumns().size());
  CHECK(table.columns[0].name == "spark.executor.cores");
  CHECK(table.columns[1].name == "spark.executor.memory");
  CHECK(Column(table, "spark.master") == -1);
  CHECK(Column(table, "spark.app.id") == -1);
  CHECK(Column(table, "spark.locality.wait") == -1);
  // All three start at the same time stamp, so the order is by application id.
  std::vector<std::string> memory;
  for (const auto& r : table.rows) memory.push_back(r.cells[1]);
  std::sort(memory.begin(), memory.end());
  CHECK(memory == std::vector<std::string>{"2g", "4g", "512m"});
  CHECK(t.notes[1] ==
        "store: properties with the same value in every application are not parameters: "
        "spark.master");
  CHECK(t.notes[2] ==
        "store: properties missing in some applications are not parameters (Spark's default is "
        "not logged): spark.locality.wait");
  CHECK(t.notes[3] == "store: identity properties are not parameters: spark.app.id");
}

TEST_CASE("Metric columns sum the task metrics of the application") {
  auto store = OpenSparkStore(":memory:");
  REQUIRE(IngestEventLogs(*store, {WriteLogs()}).ok());
  const auto t = testing::ValueOf(ReadStoreRunTable(*store, {{"app-b"}, ""}));
  const models::RunTable& table = t.table;
  REQUIRE(table.rows.size() == 1);
  const auto cell = [&](const std::string& name) {
    return std::stod(table.rows[0].cells[Column(table, name)]);
  };
  // app-b: 2 stages × 5 tasks; run time 90 + 10·k ms, 1 ms GC each, no shuffle.
  CHECK(cell("executor_run_time_seconds") == doctest::Approx(2 * (5 * 90 + 10 * 10) / 1000.0));
  CHECK(cell("gc_time_seconds") == doctest::Approx(0.010));
  CHECK(cell("shuffle_read_bytes") == 0);
  CHECK(cell("shuffle_write_bytes") == 0);
  const auto beta = testing::ValueOf(ComputeEfficiencyVector(*store, "app-b"));
  CHECK(cell("total_time_seconds") == beta.total_seconds);
  CHECK(cell("beta_gc_share") == beta.gc_share);
  // With one application nothing varies, so no property is a parameter.
  CHECK(Column(table, "spark.executor.memory") == -1);
}

TEST_CASE("An empty store, an unknown application or an unmatched name are errors") {
  auto store = OpenSparkStore(":memory:");
  const Status empty = testing::ErrorOf(ReadStoreRunTable(*store, {}));
  CHECK(empty.message() ==
        "no applications in the store :memory:; ingest event logs into it first (perfplan "
        "ingest spark)");
  REQUIRE(IngestEventLogs(*store, {WriteLogs()}).ok());
  const Status unknown = testing::ErrorOf(ReadStoreRunTable(*store, {{"app-a", "app-z"}, ""}));
  CHECK(unknown.message() == "app_ids: application app-z not in the store :memory:");
  const Status unmatched = testing::ErrorOf(ReadStoreRunTable(*store, {{}, "wordcount"}));
  CHECK(unmatched.message() ==
        "name_contains: no application in the store :memory: matches \"wordcount\"");
  const auto named = testing::ValueOf(ReadStoreRunTable(*store, {{}, "synth"}));
  CHECK(named.table.rows.size() == 3);
}

}  // namespace
}  // namespace perfplan::profiles::spark
