// Checks perfplan's job and stage aggregates against spark-rapids-tools' expected CSVs for the
// RAPIDS join log (data README §1.3): same columns, same rows, same values.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "tests/support/test_support.h"

PERFPLAN_REQUIRE_SHARED_DATA();

namespace perfplan::profiles::spark {
namespace {

// durationAvg is printed with one decimal by the profiler; every other column is an integer.
constexpr double kPrintedRounding = 0.05 + 1e-9;

std::vector<std::vector<std::string>> ReadCsv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(testing::ReadFile(path));
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

void Compare(const std::vector<MetricAggregates>& got, const std::string& csv) {
  auto rows = ReadCsv(csv);
  REQUIRE(rows.size() == got.size() + 1);
  const auto& header = rows[0];
  REQUIRE(header.size() == got[0].values.size() + 1);
  CHECK(header[0] == "id");
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const MetricAggregates& a = got[r - 1];
    CHECK(std::to_string(a.id) == rows[r][0]);
    for (std::size_t c = 1; c < header.size(); ++c) {
      CAPTURE(csv);
      CAPTURE(r);
      CAPTURE(header[c]);
      CHECK(a.values[c - 1].first == header[c]);
      const double want = std::stod(rows[r][c]);
      CAPTURE(want);
      CHECK(std::abs(a.values[c - 1].second - want) <= kPrintedRounding);
    }
  }
}

TEST_CASE("Job and stage aggregates equal spark-rapids-tools' expected CSVs") {
  const std::string dir = testing::SharedDataDir() + "/01-spark-eventlogs/spark-rapids-tools";
  auto store = Store::Open(":memory:", {StoreMigrations()});
  REQUIRE(store.ok());
  auto s =
      IngestEventLogs(*store.value(), {dir + "/spark-events-profiling/rapids_join_eventlog.zstd"});
  REQUIRE(s.ok());
  REQUIRE(s.value().applications.size() == 1);
  const std::string app = s.value().applications[0].app_id;
  auto stages = StageAggregates(*store.value(), app);
  REQUIRE(stages.ok());
  Compare(stages.value(),
          dir + "/ProfilingExpectations/rapids_join_eventlog_stagemetricsagg_expectation.csv");
  auto jobs = JobAggregates(*store.value(), app);
  REQUIRE(jobs.ok());
  Compare(jobs.value(),
          dir + "/ProfilingExpectations/rapids_join_eventlog_jobmetricsagg_expectation.csv");
}

}  // namespace
}  // namespace perfplan::profiles::spark
