// `perfplan backtest --store`: the Spark applications of one name, replayed in start order.
#include "planner/runtime/store_backtest.h"

#include <doctest/doctest.h>

#include <regex>

#include "planner/output/backtest_export.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

constexpr long long kT0 = 1700000000000;  // the synthetic log's first timestamp, ms
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// Application i of `name`: started i hours after the synthetic log's start, on `executors`
// executors, lasting exactly `seconds`.
std::string App(const std::string& id, const std::string& name, int hour, int executors,
                double seconds) {
  std::string log = testing::OnExecutors(
      testing::SyntheticEventLogWithProperties(id, 1, 8, {{"spark.executor.memory", "2g"}}),
      executors);
  log = std::regex_replace(log, std::regex("\"App Name\":\"synthetic\""),
                           "\"App Name\":\"" + name + "\"");
  // Every timestamp shifted by the start offset; then the end set to start + seconds.
  const long long offset = hour * 3600000LL;
  std::string shifted;
  const std::regex stamp("1700000\\d{6}");
  auto begin = std::sregex_iterator(log.begin(), log.end(), stamp);
  std::size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    shifted += log.substr(last, it->position() - last) +
               std::to_string(std::stoll(it->str()) + offset);
    last = it->position() + it->length();
  }
  shifted += log.substr(last);
  const std::string end = "\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":";
  const std::size_t at = shifted.find(end);
  REQUIRE(at != std::string::npos);
  const std::size_t close = shifted.find('}', at);
  shifted.replace(at + end.size(), close - at - end.size(),
                  std::to_string(kT0 + offset + static_cast<long long>(seconds * 1000)));
  return shifted;
}

double Truth(int executors) { return 60 + 240.0 / executors; }  // serial floor, seconds

struct Fixture {
  std::string store;
};

// Eight applications named "nightly" on 1, 2, 4, 8, 1, 2, 4, 8 executors, written to disk in
// reverse start order; one application named "other".
Fixture MakeStore() {
  const std::string dir = testing::MakeTempDir();
  std::vector<std::string> paths;
  const int executors[] = {1, 2, 4, 8, 1, 2, 4, 8};
  for (int i = 7; i >= 0; --i) {
    const std::string id = "app-" + std::to_string(i);
    testing::WriteFile(dir + "/" + id, App(id, "nightly", i, executors[i], Truth(executors[i])));
    paths.push_back(dir + "/" + id);
  }
  testing::WriteFile(dir + "/app-x", App("app-x", "other", 3, 2, 100));
  paths.push_back(dir + "/app-x");
  Fixture f{dir + "/s.db"};
  auto store = profiles::Store::Open(f.store, {profiles::spark::StoreMigrations()});
  REQUIRE(store.ok());
  auto ingested = profiles::spark::IngestEventLogs(*store.value(), paths);
  REQUIRE(ingested.ok());
  REQUIRE(ingested.value().skipped.empty());
  return f;
}

TEST_CASE("the store's applications of one name are replayed in start order") {
  const Fixture f = MakeStore();
  Result<StoreBacktestAnswer> a = AnswerStoreBacktest({f.store, "nightly", {}});
  REQUIRE(a.ok());
  const BacktestAnswer& bt = a.value().answer;
  CHECK(bt.runs_file == "store:" + f.store);
  CHECK(bt.time_column == "start_time_seconds");
  REQUIRE(bt.backtest.rows.size() == 8);
  const int executors[] = {1, 2, 4, 8, 1, 2, 4, 8};
  for (std::size_t k = 0; k < 8; ++k) {
    CAPTURE(k);
    const models::BacktestRow& r = bt.backtest.rows[k];
    const models::MeasuredRun& run = bt.rows[r.row];
    CHECK(a.value().app_ids[r.row] == "app-" + std::to_string(k));
    CHECK(r.time == doctest::Approx(kT0 / 1000.0 + 3600.0 * static_cast<double>(k)));
    CHECK(run.compute_nodes == executors[k]);
    CHECK(run.vcpus == 1);
    CHECK(run.memory_bytes == 2 * kGiB);
    CHECK(run.dataset_bytes == 8 * 4096);  // 8 tasks reading 4 KiB each
    CHECK(run.runtime_seconds == doctest::Approx(Truth(executors[k])));
    CHECK(r.history_runs == k);
    if (k < 3) {
      CHECK(!r.predicted_seconds);  // warm-up: fewer than 3 earlier runs
      continue;
    }
    REQUIRE(r.predicted_seconds);
    // The history is exactly a serial floor: every form that may be chosen recovers it.
    CHECK(*r.predicted_seconds == doctest::Approx(Truth(executors[k])).epsilon(1e-6));
    REQUIRE(r.interval_low_seconds);
    CHECK(*r.interval_low_seconds <= *r.predicted_seconds);
    CHECK(*r.predicted_seconds <= *r.interval_high_seconds);
  }
  CHECK(bt.backtest.summary.predicted == 5);
  CHECK(bt.backtest.summary.median_ape < 1e-6);
  CHECK(a.value().notes.empty());  // memory set, input read, every application complete
}

TEST_CASE("an unknown application name lists the names in the store") {
  const Fixture f = MakeStore();
  Result<StoreBacktestAnswer> a = AnswerStoreBacktest({f.store, "weekly", {}});
  REQUIRE(!a.ok());
  CHECK(a.status().field() == "app_name");
  CHECK(a.status().message() == "app_name: no completed application named 'weekly' in the store " +
                                    f.store + " (names: 'nightly', 'other')");
}

TEST_CASE("the backtest export has one row per replayed run, labelled by application") {
  const Fixture f = MakeStore();
  Result<StoreBacktestAnswer> a = AnswerStoreBacktest({f.store, "nightly", {}});
  REQUIRE(a.ok());
  const ExportTable t = BacktestTable(a.value().answer, a.value().app_ids);
  CHECK(t.what == "backtest");
  REQUIRE(t.columns.size() == 20);
  CHECK(t.columns[0] == "run");
  CHECK(t.columns[11] == "predicted_seconds");
  REQUIRE(t.rows.size() == 8);
  CHECK(std::get<std::string>(t.rows[0][0]) == "app-0");
  CHECK(std::holds_alternative<std::monostate>(t.rows[0][11]));  // warm-up: no prediction
  CHECK(std::get<double>(t.rows[3][11]) == doctest::Approx(Truth(8)).epsilon(1e-6));
  CHECK(std::holds_alternative<long long>(t.rows[3][15]));  // inside_interval: 1 or 0
  const std::string csv = ToCsv(t);
  CHECK(csv.rfind("run,time,workload,instance_type,compute_nodes,", 0) == 0);
  std::size_t lines = 0;
  for (char c : csv) lines += c == '\n';
  CHECK(lines == 9);  // header + 8 runs
  // Without labels the rows are numbered by their rank in start order.
  const ExportTable numbered = BacktestTable(a.value().answer);
  CHECK(std::get<long long>(numbered.rows[0][0]) == 1);
}

}  // namespace
}  // namespace perfplan::planner
