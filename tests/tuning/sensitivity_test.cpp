#include "tuning/sensitivity.h"

#include <doctest/doctest.h>

#include "tests/tuning/tuning_fixtures.h"

namespace perfplan::tuning {
namespace {

// Unregularised least squares on a table whose target column is "time", with the first run as
// the baseline.
Model LeastSquares(const models::RunTable& t) {
  DatasetOptions s;
  s.target = "time";
  const Dataset d = BuildDataset(t, s).value();
  HyperParams p;
  p.lambda = 0;
  Model m = Model::Fit(d, ModelKind::kRidge, p).value();
  m.set_baseline(d.x[0]);
  return m;
}

// A linear workload: time = 100 + 5·a − 2·b (b barely matters over its range).
Model LinearModel() {
  auto t = testing::Table({"a", "b", "time"}, {});
  for (int i = 0; i < 20; ++i) {
    const double a = i % 5, b = (i * 7) % 11;
    t.rows.push_back(
        {i + 2, {std::to_string(a), std::to_string(b), std::to_string(100 + 5 * a - 0.2 * b)}});
  }
  return LeastSquares(t);
}

TEST_CASE("Sensitivities of a linear model are its slopes, ranked by range-scaled effect") {
  const Model m = LinearModel();
  const Sensitivity s = ComputeSensitivity(m, {}).value();
  REQUIRE(s.parameters.size() == 2);
  constexpr double kSolverTolerance = 1e-6;  // ridge with a 1e-10 floor on λ
  CHECK(s.parameters[0].name == "a");
  CHECK(s.parameters[0].eta == doctest::Approx(5).epsilon(kSolverTolerance));
  CHECK(s.parameters[0].direction == "decrease");
  CHECK(s.parameters[0].rank == 1);
  CHECK(s.parameters[1].name == "b");
  CHECK(s.parameters[1].eta == doctest::Approx(-0.2).epsilon(kSolverTolerance));
  CHECK(s.parameters[1].direction == "increase");
  CHECK(s.parameters[1].rank == 2);
  CHECK(s.parameters[0].scaled == doctest::Approx(20).epsilon(kSolverTolerance));
}

TEST_CASE("Maximizing flips the direction") {
  SensitivityOptions st;
  st.goal = Goal::kMaximize;
  const Sensitivity s = ComputeSensitivity(LinearModel(), st).value();
  CHECK(s.parameters[0].direction == "increase");
}

TEST_CASE("Configurations are resolved by parameter name; unknown names are errors") {
  const Model m = LinearModel();
  const auto x = ResolveConfiguration(m, {{"b", "3"}}).value();
  CHECK(x[1] == 3.0);
  CHECK(ResolveConfiguration(m, {{"c", "3"}}).status().message() ==
        "unknown parameter \"c\"; the model's parameters are: a, b");
  CHECK(ResolveConfiguration(m, {{"a", "x"}}).status().message() ==
        "a: \"x\" is not a number; expected a number, true/false, a size (4g, 512m, 64k) or a "
        "duration (200ms, 30s, 5min, 1h)");
}

TEST_CASE("A category's sensitivity is the effect of switching to it: choose or avoid") {
  auto t = testing::Table({"codec", "a", "time"}, {});
  for (int i = 0; i < 24; ++i) {
    const char* codec = i % 3 == 0 ? "lz4" : i % 3 == 1 ? "snappy" : "zstd";
    const double penalty = i % 3 == 1 ? 30 : i % 3 == 2 ? -10 : 0;
    t.rows.push_back(
        {i + 2, {codec, std::to_string(i % 5), std::to_string(100 + penalty + i % 5)}});
  }
  const Model m = LeastSquares(t);  // the baseline is lz4
  const Sensitivity s = ComputeSensitivity(m, {}).value();
  for (const auto& ps : s.parameters) {
    CAPTURE(ps.name);
    if (ps.name == "codec=snappy") CHECK(ps.direction == "avoid");
    if (ps.name == "codec=zstd") CHECK(ps.direction == "choose");
    if (ps.name == "codec=lz4") CHECK(ps.direction == "none");
  }
}

}  // namespace
}  // namespace perfplan::tuning
