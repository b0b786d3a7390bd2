#include "models/runtime_calibration.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "models/instance_types.h"
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

TEST_CASE("folds: over 20 groups, 20 folds with the groups dealt round-robin") {
  // 25 distinct node counts 1..25, listed from the largest: fold k holds counts k+1 and k+21.
  std::vector<MeasuredRun> wide;
  for (int m = 25; m >= 1; --m) wide.push_back(Run(m, 100 + m));
  const RuntimeFolds interleaved = MakeRuntimeFolds(wide);
  CHECK(interleaved.scheme == "20-fold, node counts interleaved");
  REQUIRE(interleaved.held_out.size() == 20);
  CHECK(interleaved.held_out[0] == std::vector<std::size_t>{4, 24});  // 21 and 1 nodes
  CHECK(interleaved.held_out[4] == std::vector<std::size_t>{0, 20});  // 25 and 5 nodes
  CHECK(interleaved.held_out[19] == std::vector<std::size_t>{5});     // 20 nodes
  // 2 node counts, 45 completed runs and a bound: the completed runs in order, dealt into 20.
  std::vector<MeasuredRun> few;
  for (int i = 0; i < 46; ++i) few.push_back(Run(i % 2 ? 4 : 8, 100 + i));
  few[10].completed = false;
  const RuntimeFolds dealt = MakeRuntimeFolds(few);
  CHECK(dealt.scheme == "20-fold");
  REQUIRE(dealt.held_out.size() == 20);
  CHECK(dealt.held_out[0] == std::vector<std::size_t>{0, 21, 41});
  CHECK(dealt.held_out[10] == std::vector<std::size_t>{11, 31});  // run 10 is a bound
  std::size_t held = 0;
  for (const auto& fold : dealt.held_out) held += fold.size();
  CHECK(held == 45);
}

TEST_CASE("each calibration run's difficulty is its widening against its own fold") {
  const std::vector<MeasuredRun> runs = ThreeNodeCounts();
  Result<ModelChoice> choice = SerialFloor(runs);
  REQUIRE(choice.ok());
  const std::vector<double> sigma = CalibrationDifficulty(choice.value(), runs);
  REQUIRE(sigma.size() == 3);
  // 4 nodes from {6, 8}: √(1 + log(6/4) / log 2) (the span log(8/6) is below log 2);
  // 6 nodes from {4, 8}: inside, 1; 8 nodes from {4, 6}: √(1 + log(8/6) / log 2).
  CHECK(sigma[0] == doctest::Approx(std::sqrt(1 + std::log(1.5) / std::log(2.0))));
  CHECK(sigma[1] == 1);
  CHECK(sigma[2] == doctest::Approx(std::sqrt(1 + std::log(8.0 / 6.0) / std::log(2.0))));
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
  CHECK(widening == doctest::Approx(std::sqrt(1 + std::log(2.0) / std::log(2.0))));
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

// A second type: twice the vCPUs, four times the memory, 1.5 times the bandwidth of type a.
MeasuredRun OnTypeB(double nodes, double seconds) {
  MeasuredRun r{"w", "b", 1e10, nodes, nodes, 1.5e8, seconds};
  r.vcpus = 4;
  r.memory_bytes = 32e9;
  return r;
}

TEST_CASE("runs of one type cannot tell the vCPU, memory and network scalings apart") {
  const std::vector<MeasuredRun> runs = ThreeNodeCounts();
  ChoiceOptions options;
  options.candidates = {RuntimeForm::kSerialFloor};
  Result<ModelChoice> choice = ChooseRuntimeForm(runs, {"a", "b"}, options);
  REQUIRE(choice.ok());
  const std::vector<ScalingAlternative> alternatives =
      UnidentifiedScalings(choice.value(), runs, {"a", "b"}, options);
  REQUIRE(alternatives.size() == 2);
  CHECK(alternatives[0].scaling == HardwareScaling::kMemory);
  CHECK(alternatives[1].scaling == HardwareScaling::kNetwork);
  const FormModel& vcpus = choice.value().model;
  const MeasuredRun target = OnTypeB(8, 0);
  // v on type b: 4/2 vCPUs, 32e9/8e9 memory, 1.5e8/1e8 bandwidth.
  const double ratio[] = {4, 1.5};
  for (std::size_t k = 0; k < alternatives.size(); ++k) {
    CAPTURE(k);
    const ModelChoice& alt = alternatives[k].choice;
    // The same fit on the training rows: coefficients, held-out residuals and difficulties.
    CHECK(alt.model.theta[0] == doctest::Approx(vcpus.theta[0]));
    CHECK(alt.model.theta[1] == doctest::Approx(vcpus.theta[1]));
    REQUIRE(alt.calibration_radius_log.size() == choice.value().calibration_radius_log.size());
    for (std::size_t j = 0; j < alt.calibration_radius_log.size(); ++j) {
      CHECK(alt.calibration_radius_log[j] ==
            doctest::Approx(choice.value().calibration_radius_log[j]));
    }
    CHECK(alternatives[k].difficulty == CalibrationDifficulty(choice.value(), runs));
    CHECK(*PredictForm(alt.model, runs[1]) == doctest::Approx(*PredictForm(vcpus, runs[1])));
    // Another type: θ0 + θ1·s/(m·v) with that figure's ratio.
    CHECK(*PredictForm(alt.model, target) ==
          doctest::Approx(vcpus.theta[0] + vcpus.theta[1] * 1e10 / (8 * ratio[k])));
  }
  CHECK(*PredictForm(vcpus, target) ==
        doctest::Approx(vcpus.theta[0] + vcpus.theta[1] * 1e10 / (8 * 2)));
}

TEST_CASE("several training types, another scaling or a form that is not pooled: no alternatives") {
  std::vector<MeasuredRun> runs = ThreeNodeCounts();
  ChoiceOptions options;
  options.candidates = {RuntimeForm::kSerialFloor};
  Result<ModelChoice> one = ChooseRuntimeForm(runs, {"a", "b"}, options);
  REQUIRE(one.ok());
  ModelChoice ernest = one.value();
  ernest.chosen = RuntimeForm::kErnest;
  CHECK(UnidentifiedScalings(ernest, runs, {"a", "b"}, options).empty());
  ChoiceOptions memory = options;
  memory.scaling = HardwareScaling::kMemory;
  CHECK(UnidentifiedScalings(one.value(), runs, {"a", "b"}, memory).empty());
  runs.push_back(OnTypeB(4, 80));
  Result<ModelChoice> two = ChooseRuntimeForm(runs, {"a", "b"}, options);
  REQUIRE(two.ok());
  CHECK(UnidentifiedScalings(two.value(), runs, {"a", "b"}, options).empty());
}

TEST_CASE("evaluate: a transfer row's interval spans the three scalings, without the +1") {
  // Exact serial-floor runs on type a, T = 100 + 4e-7 · s/m (zero held-out residuals), so each
  // interval is exactly the span of the three scalings' predictions.
  std::vector<MeasuredRun> rows = {Run(4, 1100), Run(6, 100 + 4000.0 / 6), Run(8, 600),
                                   OnTypeB(8, 300), OnTypeB(16, 200)};
  const std::vector<bool> train = {true, true, true, false, false};
  EvaluateOptions options;
  options.candidates = {RuntimeForm::kSerialFloor};
  Result<Evaluation> ev = EvaluateWorkload(rows, train, "w", options);
  REQUIRE(ev.ok());
  REQUIRE(ev.value().rows.size() == 2);
  // At 8 nodes of b: vCPUs 100 + 500/2, memory 100 + 500/4, bandwidth 100 + 500/1.5.
  const EvaluatedRow& at8 = ev.value().rows[0];
  CHECK(at8.transfer);
  CHECK(*at8.predicted_seconds == doctest::Approx(350));
  CHECK(at8.interval_widening == doctest::Approx(1));  // inside 4..8: no widening, no +1
  CHECK(*at8.interval_low_seconds == doctest::Approx(225));
  CHECK(*at8.interval_high_seconds == doctest::Approx(100 + 500 / 1.5));
  CHECK(at8.scaling_spread == doctest::Approx((100 + 500 / 1.5) / 225));
  CHECK(*at8.inside_interval);
  // 16 nodes: beyond the trained 4..8 by log 2 over a span of log 2: widening √2 (√2 + 1 with
  // the transfer's +1).
  const EvaluatedRow& at16 = ev.value().rows[1];
  CHECK(at16.interval_widening == doctest::Approx(std::sqrt(2.0)));
  CHECK(*at16.interval_low_seconds == doctest::Approx(100 + 250 / 4.0));
  CHECK(*at16.interval_high_seconds == doctest::Approx(100 + 250 / 1.5));
  CHECK(ev.value().scaling_rows == 2);
  // 9 points, but 3 calibration errors: short of the 9 a 90% interval needs, and said so.
  CHECK(ev.value().intervals_short_of_points == 2);
  CHECK(ev.value().max_scaling_spread == doctest::Approx((100 + 500 / 1.5) / 225));
  const std::vector<std::string>& notes = ev.value().notes;
  CAPTURE(notes.size());
  bool found = false;
  for (const std::string& n : notes) {
    found |= n ==
             "2 interval(s) on types reached by transfer span serial-floor with its hardware ratio "
             "from vCPUs, memory, network bandwidth: the training runs, all of a, cannot tell them "
             "apart; their predictions differ by up to 1.93x (median 1.78x), the point prediction "
             "is the vCPU one";
  }
  CHECK(found);
}

TEST_CASE("evaluate: an interval contains the predictions of forms that pass through the runs") {
  // T = 10 + 4e-9 · s/m + 5 · log m at 2, 4 and 8 nodes: log-nodes passes through the three runs
  // (10, 40 s at m = 1, 5) and so does communication: solving a + b/m + c·m through them gives
  // a = 16.9315, b = 30.7580, c = 0.577623 (every coefficient ≥ 0, so NNLS finds it). Neither is
  // eligible beside serial-floor (3 coefficients on 3 configurations), which is chosen; at 32
  // nodes they predict 10 + 40/32 + 5·log 32 = 28.5787 s and 16.9315 + 30.7580/32 + 0.577623·32 =
  // 36.3766 s, above serial-floor's CV+ bound (about 27 s), so the interval reaches 36.3766 s.
  auto truth = [](double m) { return 10 + 40 / m + 5 * std::log(m); };
  std::vector<MeasuredRun> rows = {Run(2, truth(2)), Run(4, truth(4)), Run(8, truth(8)),
                                   Run(32, 30)};
  EvaluateOptions options;
  options.candidates = {RuntimeForm::kSerialFloor, RuntimeForm::kLogNodes,
                        RuntimeForm::kCommunication};
  Result<Evaluation> ev = EvaluateWorkload(rows, {true, true, true, false}, "w", options);
  REQUIRE(ev.ok());
  REQUIRE(ev.value().choice);
  CHECK(ev.value().choice->chosen == RuntimeForm::kSerialFloor);
  REQUIRE(ev.value().rows.size() == 1);
  const EvaluatedRow& at32 = ev.value().rows[0];
  CHECK(*at32.interval_high_seconds == doctest::Approx(36.3765852953));
  CHECK(*at32.interval_low_seconds <= *at32.predicted_seconds);
  CHECK(*at32.predicted_seconds < 28.5787);
  CHECK(*at32.inside_interval);  // 30 s: above serial-floor's own bound
  bool found = false;
  for (const std::string& n : ev.value().notes) {
    found |= n ==
             "1 interval(s) widened to contain the predictions of log-nodes, communication, which "
             "pass through the training runs exactly: the runs cannot reject them, though "
             "cross-validation cannot judge them";
  }
  CHECK(found);
  // A fourth node count over-determines both: they are eligible, and nothing is widened for them.
  rows.insert(rows.begin() + 3, Run(16, truth(16)));
  ev = EvaluateWorkload(rows, {true, true, true, true, false}, "w", options);
  REQUIRE(ev.ok());
  CHECK(ev.value().choice->exact_forms.empty());
}

TEST_CASE("a reference's runtime between its measured node counts is log-linear in log nodes") {
  auto on = [](const char* type, double nodes, double seconds, bool completed = true) {
    MeasuredRun r{"r", type, 1e10, nodes, nodes, 1e8, seconds};
    r.completed = completed;
    return r;
  };
  const std::vector<MeasuredRun> ref = {on("a", 4, 400), on("a", 16, 100), on("a", 32, 7200, false),
                                        on("b", 8, 300), on("b", 8, 75)};
  CHECK(*ReferenceRuntime(ref, "a", 8) == doctest::Approx(200));  // halfway in log: √(400·100)
  CHECK(*ReferenceRuntime(ref, "a", 16) == doctest::Approx(100));
  CHECK(*ReferenceRuntime(ref, "a", 2) == doctest::Approx(400));   // held below 4
  CHECK(*ReferenceRuntime(ref, "a", 48) == doctest::Approx(100));  // the timeout is not a point
  CHECK(*ReferenceRuntime(ref, "b", 4) == doctest::Approx(150));   // geometric mean at 8 nodes
  CHECK_FALSE(ReferenceRuntime(ref, "c", 8).has_value());
}

TEST_CASE("evaluate: a transfer row's span also holds the base type scaled as a reference changes") {
  // The exact serial-floor runs of the test above (600 s at 8 nodes of a), and a reference
  // workload three times slower on b than on a at 8 nodes: "w changes as r does" says 1,800 s.
  MeasuredRun r_a = Run(8, 100), r_b = OnTypeB(8, 300);
  r_a.workload = r_b.workload = "r";
  std::vector<MeasuredRun> rows = {Run(4, 1100), Run(6, 100 + 4000.0 / 6), Run(8, 600),
                                   OnTypeB(8, 300), r_a, r_b};
  const std::vector<bool> train = {true, true, true, false, false, false};
  EvaluateOptions options;
  options.candidates = {RuntimeForm::kSerialFloor};
  Result<Evaluation> ev = EvaluateWorkload(rows, train, "w", options);
  REQUIRE(ev.ok());
  REQUIRE(ev.value().rows.size() == 1);
  const EvaluatedRow& at8 = ev.value().rows[0];
  CHECK(*at8.predicted_seconds == doctest::Approx(350));  // the point is still the vCPU one
  CHECK(*at8.interval_low_seconds == doctest::Approx(225));
  CHECK(*at8.interval_high_seconds == doctest::Approx(1800));
  CHECK(at8.scaling_spread == doctest::Approx(1800.0 / 225));
  CHECK(ev.value().scaling_references == std::vector<std::string>{"r"});
  const std::vector<std::string>& notes = ev.value().notes;
  CHECK(std::find(notes.begin(), notes.end(),
                  "1 interval(s) on types reached by transfer span serial-floor with its hardware "
                  "ratio from vCPUs, memory, network bandwidth and as reference workload(s) r "
                  "change between the types: the training runs, all of a, cannot tell them apart; "
                  "their predictions differ by up to 8x (median 8x), the point prediction is the "
                  "vCPU one") != notes.end());
  // Step 7's rule alone, for comparison: the three scalings only.
  options.span_reference_workloads = false;
  Result<Evaluation> without = EvaluateWorkload(rows, train, "w", options);
  REQUIRE(without.ok());
  CHECK(*without.value().rows[0].interval_high_seconds == doctest::Approx(100 + 500 / 1.5));
  CHECK(without.value().scaling_references.empty());
}

// Seeded designs of setting (b) with a known truth: Scout's nine instance types at 4–16 nodes,
// T = θ0 + W/(m·h) with 10% log-normal noise, h the type's vCPUs, memory or bandwidth (relative to
// c4.large, times its 2 vCPUs); 3 runs of one type train, every other type is a transfer.
struct TransferCoverage {
  int inside_spanned[3] = {0, 0, 0}, inside_vcpus[3] = {0, 0, 0}, rows[3] = {0, 0, 0};
};
TransferCoverage SimulateOneTypeDesigns(int designs) {
  const char* types[] = {"c4.large",   "c4.xlarge", "c4.2xlarge", "m4.large",  "m4.xlarge",
                         "m4.2xlarge", "r4.large",  "r4.xlarge",  "r4.2xlarge"};
  const InstanceType base_hw = *FindInstanceType("c4.large");
  Rng rng(20261203);
  TransferCoverage out;
  for (int d = 0; d < designs; ++d) {
    const int truth = (d / 9) % 3;  // 0 vCPUs, 1 memory, 2 bandwidth
    const std::string base = types[d % 9];
    const double theta0 = 60 + 140 * rng.Uniform();
    const double work = 8 * theta0 * (1 + 4 * rng.Uniform());  // parallel share at 4 × c4.large
    std::vector<MeasuredRun> rows;
    std::vector<bool> train;
    for (const char* t : types) {
      const InstanceType hw = *FindInstanceType(t);
      const double h = truth == 0 ? hw.vcpus
                       : truth == 1
                           ? 2 * hw.memory_bytes / base_hw.memory_bytes
                           : 2 * hw.network_bytes_per_second / base_hw.network_bytes_per_second;
      for (double m : {4.0, 6.0, 8.0, 12.0, 16.0}) {
        const double u1 = rng.Uniform(), u2 = rng.Uniform();
        const double noise = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
        MeasuredRun r{"w",
                      t,
                      1e10,
                      m,
                      m,
                      hw.network_bytes_per_second,
                      (theta0 + work / (m * h)) * std::exp(0.1 * noise)};
        r.vcpus = hw.vcpus;
        r.memory_bytes = hw.memory_bytes;
        rows.push_back(r);
        train.push_back(t == base && m <= 8);
      }
    }
    for (bool span : {true, false}) {
      EvaluateOptions options;
      options.span_unidentified_scalings = span;
      Result<Evaluation> ev = EvaluateWorkload(rows, train, "w", options);
      REQUIRE(ev.ok());
      for (const EvaluatedRow& r : ev.value().rows) {
        if (!r.transfer || !r.inside_interval) continue;
        (span ? out.inside_spanned : out.inside_vcpus)[truth] += *r.inside_interval ? 1 : 0;
        out.rows[truth] += span ? 1 : 0;
      }
    }
  }
  return out;
}

// Measured with this seed: spanned 86.5% / 88.7% / 86.5% for vCPU / memory / bandwidth truths;
// vCPUs only (with the transfer's +1) 84.3% / 75.5% / 74.6%. Three calibration runs cannot give
// exactly 90%; the span is what keeps the memory and bandwidth truths from falling short.
TEST_CASE(
    "one training type: spanned intervals cover transfers whatever figure the truth "
    "scales with; vCPU-only intervals miss when it is not vCPUs") {
  const TransferCoverage c = SimulateOneTypeDesigns(270);
  for (int truth = 0; truth < 3; ++truth) {
    CAPTURE(truth);
    const double spanned = static_cast<double>(c.inside_spanned[truth]) / c.rows[truth];
    const double vcpus = static_cast<double>(c.inside_vcpus[truth]) / c.rows[truth];
    CAPTURE(spanned);
    CAPTURE(vcpus);
    CHECK(spanned >= 0.80);
    CHECK(spanned <= 0.97);
    if (truth > 0) {
      CHECK(vcpus < 0.80);
      CHECK(spanned - vcpus >= 0.10);
    }
  }
}

// Seeded designs of setting (b) where the type effect is one no hardware scaling of the base curve
// gives: T = θ0 + W/(m·vCPUs) + P·max(0, D/(m·memory) − 1), a cost while the cluster's memory
// does not hold D bytes (a cached working set), with 10% log-normal noise; a reference workload in
// the same rows shares the mechanism with its own θ0, W, P and D (within a factor 1.5 of the
// workload's). 3 runs at 4–8 nodes of one type train; every other type is a transfer.
struct ReferenceCoverage {
  int inside_with = 0, inside_without = 0, rows = 0;
};
ReferenceCoverage SimulateCliffDesigns(int designs) {
  const char* types[] = {"c4.large",   "c4.xlarge", "c4.2xlarge", "m4.large",  "m4.xlarge",
                         "m4.2xlarge", "r4.large",  "r4.xlarge",  "r4.2xlarge"};
  constexpr double kGiB = 1073741824.0;
  Rng rng(20261209);
  ReferenceCoverage out;
  for (int d = 0; d < designs; ++d) {
    const std::string base = types[d % 9];
    std::vector<MeasuredRun> rows;
    std::vector<bool> train;
    const double bytes = (20 + 60 * rng.Uniform()) * kGiB;
    for (const char* workload : {"w", "r"}) {
      const bool own = std::string(workload) == "w";
      const double theta0 = 60 + 140 * rng.Uniform();
      const double work = 8 * theta0 * (1 + 4 * rng.Uniform());
      const double penalty = theta0 * (0.5 + 2 * rng.Uniform());
      const double held = own ? bytes : bytes * std::exp(std::log(1.5) * (2 * rng.Uniform() - 1));
      for (const char* t : types) {
        const InstanceType hw = *FindInstanceType(t);
        for (double m : {4.0, 6.0, 8.0, 12.0, 16.0}) {
          const double u1 = rng.Uniform(), u2 = rng.Uniform();
          const double noise = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
          const double cliff = penalty * std::max(0.0, held / (m * hw.memory_bytes) - 1);
          MeasuredRun r{workload,
                        t,
                        1e10,
                        m,
                        m,
                        hw.network_bytes_per_second,
                        (theta0 + work / (m * hw.vcpus) + cliff) * std::exp(0.1 * noise)};
          r.vcpus = hw.vcpus;
          r.memory_bytes = hw.memory_bytes;
          rows.push_back(r);
          train.push_back(own && t == base && m <= 8);
        }
      }
    }
    for (bool with : {true, false}) {
      EvaluateOptions options;
      options.span_reference_workloads = with;
      Result<Evaluation> ev = EvaluateWorkload(rows, train, "w", options);
      REQUIRE(ev.ok());
      for (const EvaluatedRow& r : ev.value().rows) {
        if (!r.transfer || !r.inside_interval) continue;
        (with ? out.inside_with : out.inside_without) += *r.inside_interval ? 1 : 0;
        out.rows += with ? 1 : 0;
      }
    }
  }
  return out;
}

TEST_CASE(
    "one training type: a reference that shares the workload's type effect raises transfer "
    "coverage towards the nominal 90% without over-covering") {
  // Measured (session 10): 91.7% with the references, 86.1% with the three hardware scalings
  // alone. The session-9 guess that the scalings alone fall well short (a gain of 10 points) was
  // wrong on these designs; the bounds below were set after that measurement (docs/accuracy.md,
  // step 8) and fail if the references are not used (equal coverage) or over-widen (> 97%).
  const ReferenceCoverage c = SimulateCliffDesigns(54);
  const double with = static_cast<double>(c.inside_with) / c.rows;
  const double without = static_cast<double>(c.inside_without) / c.rows;
  CAPTURE(with);
  CAPTURE(without);
  CHECK(with >= 0.85);
  CHECK(with <= 0.97);
  CHECK(with > without);
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
