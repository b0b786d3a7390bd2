#include "tuning/model.h"

#include <doctest/doctest.h>

#include <fstream>

#include "tests/support/test_support.h"
#include "tests/tuning/tuning_fixtures.h"
#include "tuning/gaussian_process.h"

namespace perfplan::tuning {
namespace {

TEST_CASE("Model kinds round-trip through their names") {
  for (ModelKind k : AllModelKinds()) {
    ModelKind parsed = ModelKind::kMean;
    CAPTURE(ToString(k));
    REQUIRE(Parse(ToString(k), &parsed));
    CHECK(parsed == k);
  }
  ModelKind k = ModelKind::kRidge;
  CHECK_FALSE(Parse("svr", &k));
}

TEST_CASE("Every kind fits the synthetic workload better than the mean, in sample") {
  const Dataset d = testing::SyntheticDataset(60);
  Result<Model> mean = Model::Fit(d, ModelKind::kMean, {});
  REQUIRE(mean.ok());
  std::vector<double> mean_pred;
  for (const auto& x : d.x) mean_pred.push_back(mean.value().Predict(x));
  const double mean_mre = MeanRelativeError(d.y, mean_pred).value();
  for (ModelKind k : AllModelKinds()) {
    if (k == ModelKind::kMean) continue;
    CAPTURE(ToString(k));
    Result<Model> m = Model::Fit(d, k, {});
    REQUIRE_MESSAGE(m.ok(), m.status().message());
    std::vector<double> pred;
    for (const auto& x : d.x) pred.push_back(m.value().Predict(x));
    CHECK(MeanRelativeError(d.y, pred).value() < mean_mre);
  }
}

TEST_CASE("Fitting is deterministic") {
  const Dataset d = testing::SyntheticDataset(40);
  const Model a = Model::Fit(d, ModelKind::kEpsSvrRbf, {}).value();
  const Model b = Model::Fit(d, ModelKind::kEpsSvrRbf, {}).value();
  for (const auto& x : d.x) CHECK(a.Predict(x) == b.Predict(x));
}

TEST_CASE("A saved model predicts bit-identically after loading") {
  const Dataset d = testing::SyntheticDataset(40);
  const std::string dir = perfplan::testing::MakeTempDir();
  for (ModelKind k : AllModelKinds()) {
    CAPTURE(ToString(k));
    Model m = Model::Fit(d, k, {}).value();
    m.set_cv_mre(0.125);
    m.set_baseline(d.x[0]);
    const std::string path = dir + "/m.json";
    REQUIRE(m.Save(path).ok());
    Result<Model> back = Model::Load(path);
    REQUIRE_MESSAGE(back.ok(), back.status().message());
    CHECK(back.value().kind() == k);
    CHECK(back.value().cv_mre() == 0.125);
    CHECK(back.value().baseline() == d.x[0]);
    for (const auto& x : d.x) CHECK(back.value().Predict(x) == m.Predict(x));
  }
}

TEST_CASE("Corrupt, edited and other-version model files are clear errors") {
  const Dataset d = testing::SyntheticDataset(20);
  const std::string dir = perfplan::testing::MakeTempDir();
  const std::string path = dir + "/m.json";
  REQUIRE(Model::Fit(d, ModelKind::kRidge, {}).value().Save(path).ok());
  std::string text = perfplan::testing::ReadFile(path);

  perfplan::testing::WriteFile(dir + "/junk.json", "not json");
  CHECK(Model::Load(dir + "/junk.json").status().message() ==
        dir +
            "/junk.json: not a valid perfplan tuning model (not a JSON document); train it "
            "again with 'perfplan tune train'");

  std::string edited = text;
  const auto pos = edited.find("\"y_mean\": ");
  REQUIRE(pos != std::string::npos);
  edited.insert(pos + 10, "1");
  perfplan::testing::WriteFile(dir + "/edited.json", edited);
  CHECK(Model::Load(dir + "/edited.json").status().message() ==
        dir +
            "/edited.json: not a valid perfplan tuning model (checksum mismatch: edited or "
            "damaged); train it again with 'perfplan tune train'");

  std::string other = text;
  const auto v = other.find("\"format_version\": 1");
  REQUIRE(v != std::string::npos);
  other.replace(v, 19, "\"format_version\": 7");
  perfplan::testing::WriteFile(dir + "/v7.json", other);
  CHECK(Model::Load(dir + "/v7.json").status().message() ==
        dir +
            "/v7.json: model format version 7, this perfplan reads version 1; train the model "
            "again with this perfplan");
  CHECK(Model::Load(dir + "/absent.json").status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("Bad hyper-parameters name the field") {
  const Dataset d = testing::SyntheticDataset(20);
  HyperParams p;
  p.c = -1;
  CHECK(Model::Fit(d, ModelKind::kEpsSvrRbf, p).status().message() ==
        "C: -1; expected a finite value > 0");
  p = {};
  p.nu = 2;
  CHECK(Model::Fit(d, ModelKind::kNuSvrRbf, p).status().message() ==
        "nu: 2; expected a value in (0, 1]");
}

TEST_CASE("MRE is undefined for a zero measurement") {
  CHECK(MeanRelativeError({1, 0}, {1, 1}).status().message() ==
        "measured value 2 is 0: relative error is undefined");
  CHECK(MeanRelativeError({2, 4}, {1, 5}).value() == doctest::Approx(0.375));
}

TEST_CASE("Batch prediction equals one-by-one prediction up to summation order") {
  const Dataset d = testing::SyntheticDataset(40);
  constexpr double kSummationOrder = 1e-9;  // dense products vs libsvm's sparse loop
  for (ModelKind k : AllModelKinds()) {
    CAPTURE(ToString(k));
    const Model m = Model::Fit(d, k, {}).value();
    std::vector<double> batch;
    m.PredictBatch(d.x, &batch);
    REQUIRE(batch.size() == d.x.size());
    for (std::size_t i = 0; i < d.x.size(); ++i) {
      CHECK(batch[i] == doctest::Approx(m.Predict(d.x[i])).epsilon(kSummationOrder));
    }
  }
}

TEST_CASE("The gaussian-process kind is tune next's process, fitted on the training runs only") {
  const Dataset d = testing::SyntheticDataset(60);
  std::vector<std::size_t> train;
  for (std::size_t i = 0; i < d.runs(); i += 2) train.push_back(i);
  const Model m = Model::Fit(d, ModelKind::kGaussianProcess, {}, {}, train).value();
  // The same process by hand: the training runs, their own feature ranges (held-out runs play
  // no part in the scaling or in the choice of length scale and noise).
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  std::vector<Feature> features = d.features;
  for (std::size_t j = 0; j < features.size(); ++j) {
    features[j].min = features[j].max = d.x[train[0]][j];
  }
  for (std::size_t i : train) {
    x.push_back(d.x[i]);
    y.push_back(d.y[i]);
    for (std::size_t j = 0; j < features.size(); ++j) {
      features[j].min = std::min(features[j].min, d.x[i][j]);
      features[j].max = std::max(features[j].max, d.x[i][j]);
    }
  }
  const GaussianProcess gp = GaussianProcess::Fit(features, x, y).value();
  for (std::size_t i = 1; i < d.runs(); i += 2) CHECK(m.Predict(d.x[i]) == gp.PredictMean(d.x[i]));
  CHECK(m.support_vectors() == 0);
  CHECK(m.training_runs() == train.size());
}

TEST_CASE("The gaussian-process kind trains on a seeded subset of kGpMaxRuns runs beyond that") {
  const Dataset d = testing::SyntheticDataset(static_cast<int>(kGpMaxRuns) + 150);
  const Model a = Model::Fit(d, ModelKind::kGaussianProcess, {}).value();
  const Model b = Model::Fit(d, ModelKind::kGaussianProcess, {}).value();
  for (const auto& x : d.x) CHECK(a.Predict(x) == b.Predict(x));  // deterministic
  // Different from the process on the first kGpMaxRuns runs: the subset is drawn, not cut.
  std::vector<std::size_t> first;
  for (std::size_t i = 0; i < kGpMaxRuns; ++i) first.push_back(i);
  const Model c = Model::Fit(d, ModelKind::kGaussianProcess, {}, {}, first).value();
  int differ = 0;
  for (const auto& x : d.x) differ += a.Predict(x) != c.Predict(x);
  CHECK(differ > 0);
  // Saved with its subset and hyper-parameters, it predicts bit-identically after loading.
  const std::string path = perfplan::testing::MakeTempDir() + "/gp.json";
  REQUIRE(a.Save(path).ok());
  const Model back = Model::Load(path).value();
  for (const auto& x : d.x) CHECK(back.Predict(x) == a.Predict(x));
  // In sample it fits the workload far better than the mean's ~30 %.
  std::vector<double> pred;
  a.PredictBatch(d.x, &pred);
  CHECK(MeanRelativeError(d.y, pred).value() < 0.05);
}

}  // namespace
}  // namespace perfplan::tuning
