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

TEST_CASE("The reported prediction is the model's at the winner, with its CV band") {
  const Model m = SyntheticModel();
  RecommendOptions s;
  s.samples = 500;
  const Recommendation r = Recommend(m, s).value();
  std::vector<double> x;
  for (const RecommendedValue& v : r.config) x.push_back(v.value);
  CHECK(r.predicted == m.Predict(x));  // never the clip to the measured range
  CHECK(r.interval_low == r.predicted * (1 - 0.02));
  CHECK(r.interval_high == r.predicted * (1 + 0.02));
  CHECK(r.beyond_measured == (r.predicted < m.target_min()));
  bool warned = false;
  for (const std::string& w : r.warnings) {
    warned |= w.find("better than the best measured time_seconds") != std::string::npos;
  }
  CHECK(warned == r.beyond_measured);
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

// A BestConf-style Hadoop set: LHS-sampled (fractional) integer knobs with the file glued to the
// name, and runs that fail (-1) when many reducers meet many vcores (a linear boundary).
Dataset HadoopRuns() {
  std::vector<std::vector<std::string>> rows;
  for (int i = 0; i < 120; ++i) {
    const double u1 = std::fmod(0.5 + i * 0.6180339887, 1.0);
    const double u2 = std::fmod(0.5 + i * 0.7548776662, 1.0);
    const double u3 = std::fmod(0.5 + i * 0.5698402910, 1.0);
    const double reduces = 1 + 49 * u1;
    const double vcores = 1 + 31 * u2;
    const double percent = 0.1 + 0.8 * u3;
    const bool fails = reduces / 50 + vcores / 32 > 1.4;
    const double time = fails ? -1 : 400 - 3 * reduces - 4 * vcores + 50 * percent;
    rows.push_back({std::to_string(reduces), std::to_string(vcores), std::to_string(percent),
                    std::to_string(time)});
  }
  DatasetOptions s;
  s.target = "performance";
  s.failed_markers = {-1};
  return BuildDataset(testing::Table({"mapredmapreduce.job.reduces",
                                      "yarnyarn.nodemanager.resource.cpu-vcores",
                                      "mapredmapreduce.reduce.shuffle.input.buffer.percent",
                                      "performance"},
                                     rows),
                      s)
      .value();
}

TEST_CASE("Hadoop recommendations are integral where the property is, as site XML") {
  const Dataset d = HadoopRuns();
  Model m = Model::Fit(d, ModelKind::kRidge, HyperParams{}).value();
  m.set_baseline(d.x[0]);
  RecommendOptions s;
  s.samples = 400;
  const Recommendation r = Recommend(m, s).value();
  REQUIRE(r.config.size() == 3);
  CHECK(r.config[0].property == "mapreduce.job.reduces");
  CHECK(r.config[0].file == ConfFile::kMapredSite);
  CHECK(r.config[0].type == PropertyType::kInteger);
  CHECK(r.config[0].value == std::round(r.config[0].value));
  CHECK(r.config[1].value == std::round(r.config[1].value));
  CHECK(r.config[2].type == PropertyType::kNumber);
  CHECK(r.spark_defaults.empty());
  CHECK(r.mapred_site_xml.find("<name>mapreduce.job.reduces</name>\n    <value>" +
                               r.config[0].text + "</value>") != std::string::npos);
  CHECK(r.mapred_site_xml.find("mapreduce.reduce.shuffle.input.buffer.percent") !=
        std::string::npos);
  CHECK(r.yarn_site_xml.find("<name>yarn.nodemanager.resource.cpu-vcores</name>") !=
        std::string::npos);
  CHECK(r.mapred_site_xml.find("cpu-vcores") == std::string::npos);
}

TEST_CASE("Failure-aware search stays out of the region where runs failed, and says so") {
  const Dataset d = HadoopRuns();
  REQUIRE(d.failed_x.size() > 5);
  Model m = Model::Fit(d, ModelKind::kRidge, HyperParams{}).value();
  m.set_baseline(d.x[0]);
  const FailureModel failure = FitFailureModel(d).value();
  RecommendOptions s;
  s.samples = 400;
  // Unaware, the search goes towards many reducers and vcores, where runs failed (it stops at
  // the first configuration whose clipped prediction reaches the best measured run).
  const Recommendation blind = Recommend(m, s).value();
  CHECK(!blind.failure_aware);
  CHECK(failure.Probability({blind.config[0].value, blind.config[1].value,
                             blind.config[2].value}) > 0.2);
  s.failure = &failure;
  s.max_failure_probability = 0.2;
  const Recommendation r = Recommend(m, s).value();
  CHECK(r.failure_aware);
  CHECK(r.failure_probability <= 0.2);
  CHECK(r.failure_rejected > 0);
  CHECK(r.failed_runs == d.failed_x.size());
  CHECK(r.config[0].value / 50 + r.config[1].value / 32 <= 1.4);
  CHECK(failure.BrokenBound({r.config[0].value, r.config[1].value, r.config[2].value}) == nullptr);
  CHECK(r.failure_bounds == failure.bounds.size());
  s.max_failure_probability = 1.5;
  CHECK(Recommend(m, s).status().message() == "max_failure_probability: 1.5; expected 0 to 1");
}

// A failure model whose logistic part never objects (P = 0 everywhere), with one bound:
// executor memory x cores at most 64 GiB (or none, as in a file written before session 9).
FailureModel BoundOnly(bool bounds_known) {
  FailureModel f;
  f.terms = {{0, false, 0}};
  f.mean = {0};
  f.scale = {1};
  f.units = {{{0.0}, -800.0}};
  f.failed_runs = 1;
  f.bounds_known = bounds_known;
  if (bounds_known) f.bounds = {{0, 1, true, true, 64.0 * 1024 * 1024 * 1024}};
  return f;
}

// The synthetic model's recommendation from `samples` candidates, aware of `failure`.
Recommendation RecommendAware(const FailureModel& failure, std::size_t samples) {
  RecommendOptions s;
  s.samples = samples;
  s.failure = &failure;
  return Recommend(SyntheticModel(), s).value();
}

TEST_CASE(
    "Recommendations stay inside the bounds of the successful runs and name those they meet") {
  const Recommendation r = RecommendAware(BoundOnly(true), 500);
  // More memory and more cores are faster: unbounded the search goes to 16 GiB x 8 cores; here
  // it goes up to the bound, not past it.
  CHECK(r.config[0].value * r.config[1].value <= 64.0 * 1024 * 1024 * 1024);
  CHECK(r.failure_rejected == 0);
  CHECK(r.bound_rejected > 0);
  CHECK(r.failure_bounds == 1);
  REQUIRE(r.binding_bounds.size() == 1);
  CHECK(r.binding_bounds[0] ==
        "spark.executor.memory * spark.executor.cores <= 68719476736 (the successful runs' "
        "largest)");
  for (const std::string& w : r.warnings) CHECK(w.find("no bounds") == std::string::npos);
}

TEST_CASE("A failure model from a file without bounds says the answer is not bounded") {
  const Recommendation r = RecommendAware(BoundOnly(false), 200);
  CHECK(r.bound_rejected == 0);
  CHECK(r.binding_bounds.empty());
  bool warned = false;
  for (const std::string& w : r.warnings) {
    warned |= w ==
              "the model file has no bounds of the successful runs (written before session "
              "9): only the logistic model keeps this answer out of the failed region; "
              "retrain to bound it";
  }
  CHECK(warned);
}

}  // namespace
}  // namespace perfplan::tuning
