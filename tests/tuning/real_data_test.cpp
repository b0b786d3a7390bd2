// The config -> performance data sets of ../shared/data: the model chosen by cross-validation
// must beat the mean predictor on each.
#include <doctest/doctest.h>

#include "profiles/tuning/run_table_reader.h"
#include "tests/support/test_support.h"
#include "tuning/gaussian_process.h"
#include "tuning/model_selection.h"

PERFPLAN_REQUIRE_SHARED_DATA();

namespace perfplan::tuning {
namespace {

Dataset Load(const std::string& relative, const std::string& target) {
  const std::string path = perfplan::testing::SharedDataDir() + "/" + relative;
  auto table = profiles::ReadRunTable(path);
  REQUIRE_MESSAGE(table.ok(), profiles::FormatProblem(table.problems.front()));
  DatasetOptions s;
  s.target = target;
  Result<Dataset> ds = BuildDataset(table.value, s);
  REQUIRE_MESSAGE(ds.ok(), ds.status().message());
  return ds.value();
}

TEST_CASE("BestConf PageRank: 101 runs x 30 Spark parameters; the chosen model beats the mean") {
  const Dataset d =
      Load("04-workload-runtime-traces/bestconf/spark_pagerank00.arff", "performance");
  CHECK(d.runs() == 101);
  CHECK(d.features.size() == 30);
  CHECK(d.x[0][1] == 1048576.0);  // Size.spark.driver.memory of the default-config row, in KiB
  SearchOptions s;
  s.budget_seconds = 600;
  const Selection sel = SelectModel(d, s).value();
  CAPTURE(ToString(sel.chosen));
  CHECK_FALSE(sel.budget_exhausted);
  CHECK(sel.chosen != ModelKind::kMean);
  CHECK(sel.chosen_mre < sel.mean_mre);
}

TEST_CASE("BestConf PageRank replayed: GP + expected improvement nears the best in fewer runs") {
  DatasetOptions o;
  o.target = "performance";
  o.failed_markers = {-1};
  auto table = profiles::ReadRunTable(perfplan::testing::SharedDataDir() +
                                      "/04-workload-runtime-traces/bestconf/spark_pagerank00.arff");
  REQUIRE(table.ok());
  const Dataset d = BuildDataset(table.value, o).value();
  double gp = 0, random = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    gp += static_cast<double>(ReplayRunsToNearBest(d, false, seed, 3, 0.1));
    random += static_cast<double>(ReplayRunsToNearBest(d, true, seed, 3, 0.1));
  }
  MESSAGE("BestConf PageRank, runs to within 10% of the best of " << d.runs()
                                                                   << " (mean of 20 seeds): GP+EI "
                                                                   << gp / 20 << ", random "
                                                                   << random / 20);
  CHECK(gp < random);
}

TEST_CASE("Ernest RCV1: 7 runs; the chosen model beats the mean") {
  const Dataset d = Load("04-workload-runtime-traces/ernest/rcv1-parsed.csv", "Time (s)");
  CHECK(d.runs() == 7);
  REQUIRE(d.features.size() == 2);
  CHECK(d.features[0].name == "Cores");
  CHECK(d.features[1].name == "Input Fraction");
  SearchOptions s;
  s.cv.folds = 7;  // leave-one-out: 7 runs are too few to hold out more
  s.budget_seconds = 600;
  const Selection sel = SelectModel(d, s).value();
  CAPTURE(ToString(sel.chosen));
  CHECK(sel.chosen != ModelKind::kMean);
  CHECK(sel.chosen_mre < sel.mean_mre);
}

TEST_CASE("The one-row BestConf fixture is read but is too small to model") {
  const std::string path = perfplan::testing::SharedDataDir() +
                           "/04-workload-runtime-traces/bestconf/"
                           "spark_kmeans-trainingBestConf_RRS_0_0_262.0.arff";
  auto table = profiles::ReadRunTable(path);
  REQUIRE(table.ok());
  CHECK(table.value.rows.size() == 1);
  DatasetOptions s;
  s.target = "performance";
  CHECK(BuildDataset(table.value, s).status().message() ==
        path + ": 1 run(s); a model needs at least 2");
}

}  // namespace
}  // namespace perfplan::tuning
