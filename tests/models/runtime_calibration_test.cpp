#include "models/runtime_calibration.h"

#include <doctest/doctest.h>

#include <cmath>

#include "models/random.h"
#include "models/runtime_evaluate.h"

namespace perfplan::models {
namespace {

MeasuredRun Run(double nodes, double seconds) {
  MeasuredRun r{"w", "a", 1e10, nodes, nodes, 1e8, seconds};
  r.vcpus = 2;
  r.memory_bytes = 8e9;
  return r;
}

// Amdahl-shaped runs at 4, 6 and 8 nodes, off the curve so every held-out residual is non-zero.
std::vector<MeasuredRun> ThreeNodeCounts() { return {Run(4, 140), Run(6, 118), Run(8, 101)}; }

Result<ModelChoice> SerialFloor(const std::vector<MeasuredRun>& runs) {
  ChoiceOptions options;
  options.candidates = {RuntimeForm::kSerialFloor};
  return ChooseRuntimeForm(runs, {"a"}, options);
}

TEST_CASE("folds: one per distinct completed node count from 3 on, otherwise one per run") {
  std::vector<MeasuredRun> runs = ThreeNodeCounts();
  runs.push_back(Run(6, 120));
  runs.push_back(Run(2, 7200));
  runs.back().completed = false;  // a bound: in no fold's held-out set
  const RuntimeFolds folds = MakeRuntimeFolds(runs);
  CHECK(folds.scheme == "leave-one-node-count-out");
  CHECK(folds.held_out == std::vector<std::vector<std::size_t>>{{0}, {1, 3}, {2}});
  const RuntimeFolds few = MakeRuntimeFolds({Run(4, 140), Run(4, 141), Run(8, 101)});
  CHECK(few.scheme == "leave-one-out");
  CHECK(few.held_out == std::vector<std::vector<std::size_t>>{{0}, {1}, {2}});
}

TEST_CASE("each calibration run's difficulty is its widening against its own fold") {
  const std::vector<MeasuredRun> runs = ThreeNodeCounts();
  Result<ModelChoice> choice = SerialFloor(runs);
  REQUIRE(choice.ok());
  const std::vector<double> sigma = CalibrationDifficulty(choice.value(), runs);
  REQUIRE(sigma.size() == 3);
  // 4 nodes from {6, 8}: 1 + log(6/4) / log 2 (the span log(8/6) is below log 2);
  // 6 nodes from {4, 8}: inside, 1; 8 nodes from {4, 6}: 1 + log(8/6) / log 2.
  CHECK(sigma[0] == doctest::Approx(1 + std::log(1.5) / std::log(2.0)));
  CHECK(sigma[1] == 1);
  CHECK(sigma[2] == doctest::Approx(1 + std::log(8.0 / 6.0) / std::log(2.0)));
}

TEST_CASE("normalised points divide each radius by its difficulty and multiply by the target's") {
  const std::vector<MeasuredRun> runs = ThreeNodeCounts();
  Result<ModelChoice> choice = SerialFloor(runs);
  REQUIRE(choice.ok());
  const std::vector<double> sigma = CalibrationDifficulty(choice.value(), runs);
  const MeasuredRun target = Run(16, 0);
  bool transfer = true;
  const double widening = WideningFactor(runs, target, &transfer);
  CHECK(!transfer);
  CHECK(widening == doctest::Approx(1 + std::log(2.0) / std::log(2.0)));
  const double predicted = *PredictForm(choice.value().model, target);
  const std::vector<ConformalPoint> plain = CalibrationPoints(choice.value(), target, predicted);
  const std::vector<ConformalPoint> points =
      NormalisedCalibrationPoints(choice.value(), sigma, target, predicted, widening);
  REQUIRE(points.size() == plain.size());
  for (std::size_t j = 0; j < points.size(); ++j) {
    CAPTURE(j);
    CHECK(plain[j].radius_log > 0);
    CHECK(points[j].centre_log == plain[j].centre_log);
    CHECK(points[j].radius_log == doctest::Approx(plain[j].radius_log * widening / sigma[j]));
  }
}

TEST_CASE("difficulties of runs the choice was not made on are all 1") {
  const std::vector<MeasuredRun> runs = ThreeNodeCounts();
  Result<ModelChoice> choice = SerialFloor(runs);
  REQUIRE(choice.ok());
  std::vector<MeasuredRun> other = runs;
  other.push_back(Run(12, 90));
  CHECK(CalibrationDifficulty(choice.value(), other) == std::vector<double>(3, 1.0));
  // A missing difficulty counts as 1: the plain radius times the target's widening.
  const MeasuredRun target = Run(16, 0);
  const std::vector<ConformalPoint> points =
      NormalisedCalibrationPoints(choice.value(), {}, target, 50, 2);
  const std::vector<ConformalPoint> plain = CalibrationPoints(choice.value(), target, 50);
  for (std::size_t j = 0; j < points.size(); ++j) {
    CHECK(points[j].radius_log == doctest::Approx(2 * plain[j].radius_log));
  }
}

// Errors that grow with the difficulty σ (log error σ·ε, ε ~ N(0, 0.1)), calibration runs
// extrapolated by σ_i in [1, 2], targets by σ(x) in [1, 4]: the normalised scores |ε_i| are
// exchangeable with the target's, so 1,000 seeded designs of 19 calibration runs cover 85–95% at
// the nominal 90%. Multiplying the raw radii σ_i·|ε_i| by σ(x) (the rule before) counts σ_i twice
// and covers more than 95%.
TEST_CASE(
    "normalised radii cover 85-95% where errors grow with the widening; raw radii over-cover") {
  Rng rng(20261202);
  FormModel constant;  // predicts 100 s on type a
  constant.single_type = "a";
  constant.theta = {100, 0, 0, 0, 0};
  ModelChoice choice;
  choice.fold_models = {constant};
  constexpr int kDesigns = 1000;
  constexpr std::size_t kCalibration = 19;
  auto normal = [&rng] {
    const double u1 = rng.Uniform(), u2 = rng.Uniform();
    return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
  };
  int normalised_inside = 0, raw_inside = 0;
  for (int d = 0; d < kDesigns; ++d) {
    std::vector<double> sigma;
    choice.calibration_fold.assign(kCalibration, 0);
    choice.calibration_radius_log.clear();
    for (std::size_t i = 0; i < kCalibration; ++i) {
      sigma.push_back(1 + rng.Uniform());
      choice.calibration_radius_log.push_back(std::abs(sigma.back() * 0.1 * normal()));
    }
    const double target_sigma = 1 + 3 * rng.Uniform();
    const double measured = 100 * std::exp(target_sigma * 0.1 * normal());
    const MeasuredRun target = Run(4, measured);
    const ConformalInterval normalised = CvPlusInterval(
        NormalisedCalibrationPoints(choice, sigma, target, 100, target_sigma), 100, 0.9);
    const ConformalInterval raw =
        CvPlusInterval(CalibrationPoints(choice, target, 100), 100, 0.9, target_sigma);
    REQUIRE(!normalised.short_of_points);
    normalised_inside += measured >= normalised.low_seconds && measured <= normalised.high_seconds;
    raw_inside += measured >= raw.low_seconds && measured <= raw.high_seconds;
  }
  const double coverage = static_cast<double>(normalised_inside) / kDesigns;
  const double raw_coverage = static_cast<double>(raw_inside) / kDesigns;
  CAPTURE(coverage);
  CAPTURE(raw_coverage);
  CHECK(coverage >= 0.85);
  CHECK(coverage <= 0.95);
  CHECK(raw_coverage > 0.95);
}

}  // namespace
}  // namespace perfplan::models
