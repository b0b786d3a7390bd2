#include "tuning/recommend.h"

#include <doctest/doctest.h>

#include "tests/tuning/tuning_fixtures.h"

namespace perfplan::tuning {
namespace {

Model SyntheticModel() {
  const Dataset d = testing::SyntheticDataset(80);
  HyperParams p;
  p.c = 10;
  Model m = Model::Fit(d, ModelKind::kEpsSvrRbf, p).value();
  m.set_baseline(d.x[0]);
  m.set_cv_mre(0.02);
  return m;
}

TEST_CASE("Recommendation lowers predicted time and prints spark-defaults lines") {
  const Model m = SyntheticModel();
  RecommendOptions s;
  s.samples = 500;
  const Recommendation r = Recommend(m, s).value();
  CHECK(r.predicted < r.baseline_predicted);
  CHECK(r.predicted_gain > 0);
  REQUIRE(r.config.size() == 3);
  CHECK(r.config[0].parameter == "spark.executor.memory");
  // More memory and more cores make the synthetic job faster: the search goes to the top.
  CHECK(r.config[0].value > 12.0 * 1024 * 1024 * 1024);
  CHECK(r.config[1].value >= 7);
  CHECK(r.spark_defaults[0].rfind("spark.executor.memory ", 0) == 0);
  CHECK(r.spark_defaults[1] == "spark.executor.cores " + r.config[1].text);
  const Recommendation again = Recommend(m, s).value();
  CHECK(again.predicted == r.predicted);
}

TEST_CASE("Constraints between parameters are honoured") {
  const Model m = SyntheticModel();
  RecommendOptions s;
  s.samples = 500;
  s.constraints = {"spark.executor.memory * spark.executor.cores <= 16g"};
  const Recommendation r = Recommend(m, s).value();
  CHECK(r.config[0].value * r.config[1].value <= 16.0 * 1024 * 1024 * 1024);
}

TEST_CASE("Bad constraints say where and why") {
  const Model m = SyntheticModel();
  CHECK(Constraint::Parse("spark.executor.memory * x <= 4g", m).status().message() ==
        "constraint \"spark.executor.memory * x <= 4g\" at character 25: unknown parameter "
        "\"x\"; the model's numeric parameters are: spark.executor.memory, spark.executor.cores, "
        "spark.shuffle.compress.ratio");
  CHECK(Constraint::Parse("spark.executor.cores 4", m).status().message() ==
        "constraint \"spark.executor.cores 4\" at character 22: expected *, +, - or a "
        "comparison");
  CHECK(Constraint::Parse("spark.executor.cores", m).status().message() ==
        "constraint \"spark.executor.cores\" at character 1: no comparison; expected one of <=, "
        "<, >=, >");
  RecommendOptions s;
  s.constraints = {"spark.executor.cores > 100"};
  CHECK(Recommend(m, s).status().message() ==
        "no sampled configuration satisfies the constraints (spark.executor.cores > 100); relax "
        "them or raise the sample count");
}

TEST_CASE("BestConf-style names become Spark properties with units") {
  CHECK(SparkDefaultsLine("Size.spark.executor.memory",
                          SparkValueText("Size.spark.executor.memory", 1048576, Unit::kNone,
                                         true)) == "spark.executor.memory 1g");
  CHECK(SparkValueText("Time.spark.locality.wait", 3000, Unit::kNone, true) == "3s");
  CHECK(SparkDefaultsLine("Cores", "32") == "# Cores = 32 (not a Spark property)");
}

}  // namespace
}  // namespace perfplan::tuning

namespace perfplan::tuning {
namespace {

TEST_CASE("The answer does not depend on the number of threads") {
  const Model m = SyntheticModel();
  RecommendOptions s;
  s.samples = 3000;  // several 512-run chunks
  const Recommendation one = Recommend(m, s).value();
  s.threads = 3;
  const Recommendation three = Recommend(m, s).value();
  CHECK(three.predicted == one.predicted);
  CHECK(three.evaluated == one.evaluated);
  for (std::size_t i = 0; i < one.config.size(); ++i) {
    CHECK(three.config[i].value == one.config[i].value);
  }
}

}  // namespace
}  // namespace perfplan::tuning
