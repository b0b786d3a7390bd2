#include "tuning/failure.h"

#include <doctest/doctest.h>

#include "tests/support/test_support.h"
#include "tests/tuning/tuning_fixtures.h"
#include "tuning/model.h"

namespace perfplan::tuning {
namespace {

// Runs fail when the map container is too small for the sort buffer (io.sort.mb > 0.7 x
// map.memory.mb, a real MapReduce failure mode), otherwise time falls with memory.
Dataset WithFailures(int n) {
  std::vector<std::vector<std::string>> rows;
  for (int i = 0; i < n; ++i) {
    const double u1 = std::fmod(0.5 + i * 0.6180339887, 1.0);
    const double u2 = std::fmod(0.5 + i * 0.7548776662, 1.0);
    const int mem = 512 + static_cast<int>(u1 * 3584);
    const int sort = 64 + static_cast<int>(u2 * 1984);
    const bool fails = sort > 0.7 * mem;
    const double time = fails ? -1 : 100 + 200000.0 / mem + 0.01 * sort;
    rows.push_back({std::to_string(mem), std::to_string(sort), std::to_string(time)});
  }
  DatasetOptions s;
  s.target = "time";
  s.failed_markers = {-1};
  return BuildDataset(testing::Table({"mapreduce.map.memory.mb", "mapreduce.task.io.sort.mb",
                                      "time"},
                                     rows),
                      s)
      .value();
}

TEST_CASE("The data set keeps the failed runs' configurations for the failure model") {
  const Dataset d = WithFailures(80);
  CHECK(d.failed_x.size() + d.x.size() == 80);
  CHECK(d.failed_x.size() == d.failed_lines.size());
  CHECK(d.failed_x.size() > 10);
  for (const auto& x : d.failed_x) CHECK(x[1] > 0.7 * x[0]);
}

TEST_CASE("A logistic model learns the failure region and beats the majority class held out") {
  const Dataset d = WithFailures(120);
  const FailureModel m = FitFailureModel(d).value();
  CHECK(m.failed_runs == d.failed_x.size());
  CHECK(m.succeeded_runs == d.x.size());
  CHECK(m.cv_accuracy > 0.9);
  CHECK(m.cv_accuracy > m.majority_accuracy);
  CHECK(m.Probability({4000, 100}) < 0.05);  // lots of memory, small buffer: fine
  CHECK(m.Probability({600, 2000}) > 0.95);  // buffer larger than the container: fails
}

TEST_CASE("A saved model keeps its failure model, bit-identically") {
  const Dataset d = WithFailures(120);
  Model m = Model::Fit(d, ModelKind::kRidge, {}).value();
  CHECK(m.failure() == nullptr);
  m.set_failure(FitFailureModel(d).value());
  const std::string dir = perfplan::testing::MakeTempDir();
  REQUIRE(m.Save(dir + "/m.json").ok());
  const Model back = Model::Load(dir + "/m.json").value();
  REQUIRE(back.failure() != nullptr);
  CHECK(back.failure()->failed_runs == m.failure()->failed_runs);
  CHECK(back.failure()->cv_accuracy == m.failure()->cv_accuracy);
  for (const auto& x : {std::vector<double>{4000, 100}, std::vector<double>{600, 2000},
                        std::vector<double>{1500, 1000}}) {
    CHECK(back.failure()->Probability(x) == m.failure()->Probability(x));
  }
  // Without one, the file has none and the loaded model neither.
  REQUIRE(Model::Fit(d, ModelKind::kRidge, {}).value().Save(dir + "/plain.json").ok());
  CHECK(perfplan::testing::ReadFile(dir + "/plain.json").find("\"failure\"") ==
        std::string::npos);
  CHECK(Model::Load(dir + "/plain.json").value().failure() == nullptr);
}

TEST_CASE("Without failed runs there is nothing to learn") {
  const Dataset d = testing::SyntheticDataset(20);
  CHECK(FitFailureModel(d).status().message() ==
        "synthetic.csv: no failed runs; a failure model needs runs marked as failed");
  CHECK(FitFailureModel(WithFailures(40), 0).status().message() ==
        "failure_lambda: must be > 0");
}

}  // namespace
}  // namespace perfplan::tuning
