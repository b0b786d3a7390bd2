#include "models/runtime_fit.h"

#include "models/runtime_evaluate.h"

#include <doctest/doctest.h>

#include <cmath>

namespace perfplan::models {
namespace {

// Data generated exactly from a model is fitted to rounding; 1e-6 relative leaves room for QR on
// columns spanning ten orders of magnitude.
constexpr double kRecoveryTolerance = 1e-6;

MeasuredRun Run(const std::string& workload, const std::string& type, double s, double n, double c,
                double b, double seconds, bool completed = true) {
  return MeasuredRun{workload, type, s, n, c, b, seconds, completed};
}

// T = θ_d·s/n + θ_n·s/(n·b) + θ_c·s/c + θ_0 + θ_g·c (constant reduction object, linear-constant).
constexpr double kDisk = 1e-8, kNetwork = 0.5, kCompute = 4e-8, kFixed = 3, kGlobal = 0.25;
double TrueSeconds(double s, double n, double c, double b) {
  return kDisk * s / n + kNetwork * s / (n * b) + kCompute * s / c + kFixed + kGlobal * c;
}

std::vector<MeasuredRun> VariedRuns() {
  std::vector<MeasuredRun> runs;
  const double configs[][4] = {{1e9, 1, 2, 1e8}, {2e9, 2, 4, 2e8}, {4e9, 4, 8, 1e8},
                               {1e9, 4, 2, 2e8}, {4e9, 1, 8, 2e8}, {2e9, 1, 16, 1e8},
                               {8e9, 2, 2, 1e8}, {1e9, 2, 8, 4e8}};
  for (const auto& x : configs) {
    runs.push_back(Run("w", "t", x[0], x[1], x[2], x[3], TrueSeconds(x[0], x[1], x[2], x[3])));
  }
  return runs;
}

TEST_CASE("the κ grid of the memory term is the a-priori geometric grid, the default of FitRuntime") {
  const std::vector<double>& grid = MemoryOverheadGrid();
  REQUIRE(grid.size() == 9);
  CHECK(grid.front() == 0.5);
  CHECK(grid.back() == 8);
  for (std::size_t k = 1; k < grid.size(); ++k) {
    CHECK(grid[k] / grid[k - 1] == doctest::Approx(std::sqrt(2.0)).epsilon(1e-12));
  }
  CHECK(FitOptions{}.memory_overhead_factors == grid);
}

TEST_CASE("fit recovers every component and the global-reduction class from exact runs") {
  Result<RuntimeFit> fit = FitRuntime(VariedRuns());
  REQUIRE(fit.ok());
  const RuntimeFit& f = fit.value();
  CHECK(f.disk_coefficient == doctest::Approx(kDisk).epsilon(kRecoveryTolerance));
  CHECK(f.network_coefficient == doctest::Approx(kNetwork).epsilon(kRecoveryTolerance));
  CHECK(f.compute_coefficient == doctest::Approx(kCompute).epsilon(kRecoveryTolerance));
  CHECK(f.fixed_seconds == doctest::Approx(kFixed).epsilon(kRecoveryTolerance));
  CHECK(f.global_reduction_coefficient == doctest::Approx(kGlobal).epsilon(kRecoveryTolerance));
  CHECK(f.reduction_object_class == ReductionObjectClass::kConstant);
  CHECK(f.global_reduction_class == GlobalReductionClass::kLinearConstant);
  CHECK(f.classes_chosen_by_fit);
  CHECK(f.runs_used.size() == 8);
  CHECK(f.weighted_rms < 1e-9);
}

TEST_CASE("fit picks constant-linear when the global reduction grows with the data") {
  std::vector<MeasuredRun> runs;
  for (double s : {1e9, 2e9, 4e9}) {
    for (double c : {2.0, 4.0, 8.0}) {
      runs.push_back(Run("w", "t", s, c, c, 1e8, 1e-8 * s / c + 5 + 2e-9 * s));
    }
  }
  Result<RuntimeFit> fit = FitRuntime(runs);
  REQUIRE(fit.ok());
  CHECK(fit.value().global_reduction_class == GlobalReductionClass::kConstantLinear);
  CHECK(fit.value().global_reduction_coefficient == doctest::Approx(2e-9).epsilon(1e-6));
}

TEST_CASE("the fitted profile predicts through the FREERIDE-G model exactly as the fit does") {
  Result<RuntimeFit> fit = FitRuntime(VariedRuns());
  REQUIRE(fit.ok());
  Result<RuntimeProfile> profile = ToProfile(fit.value());
  REQUIRE(profile.ok());
  Result<ResolvedModel> model = ResolveModel(profile.value());
  REQUIRE(model.ok());
  const RunConfig targets[] = {{3e9, 3, 12, 3e8}, {16e9, 8, 32, 1e8}, {1e9, 1, 1, 1e8}};
  for (const RunConfig& x : targets) {
    CAPTURE(x.compute_nodes);
    const Target t{
        x.dataset_bytes, x.storage_nodes, x.compute_nodes, x.bandwidth_bytes_per_second, {}};
    CHECK(Predict(model.value(), t).runtime_seconds ==
          doctest::Approx(TrueSeconds(x.dataset_bytes, x.storage_nodes, x.compute_nodes,
                                      x.bandwidth_bytes_per_second))
              .epsilon(kRecoveryTolerance));
  }
}

TEST_CASE("a censored run the fit already exceeds changes nothing") {
  std::vector<MeasuredRun> runs;
  for (double c : {4.0, 8.0, 16.0}) runs.push_back(Run("w", "t", 1e9, c, c, 1e8, 50 + 1000 / c));
  Result<RuntimeFit> plain = FitRuntime(runs);
  runs.push_back(Run("w", "t", 1e9, 2, 2, 1e8, 400, false));  // model says 550 > 400
  Result<RuntimeFit> censored = FitRuntime(runs);
  REQUIRE(plain.ok());
  REQUIRE(censored.ok());
  CHECK(censored.value().censored_active == 0);
  const RunConfig two{1e9, 2, 2, 1e8};
  CHECK(PredictFitted(censored.value(), two).TotalSeconds() ==
        doctest::Approx(PredictFitted(plain.value(), two).TotalSeconds()));
  CHECK(PredictFitted(censored.value(), two).TotalSeconds() == doctest::Approx(550));
}

TEST_CASE("a censored run above the fit pulls the prediction up, never used as a value below") {
  std::vector<MeasuredRun> runs;
  for (double c : {4.0, 8.0, 16.0}) runs.push_back(Run("w", "t", 1e9, c, c, 1e8, 50 + 1000 / c));
  runs.push_back(Run("w", "t", 1e9, 2, 2, 1e8, 900, false));  // timeout at 900 s; model says 550
  Result<RuntimeFit> fit = FitRuntime(runs);
  REQUIRE(fit.ok());
  CHECK(fit.value().censored_active == 1);
  CHECK(PredictFitted(fit.value(), {1e9, 2, 2, 1e8}).TotalSeconds() > 600);
  CHECK(fit.value().run_censored[3]);
  CHECK(fit.value().notes.back() ==
        "1 censored run(s) used as lower bounds; 1 bound(s) active in the fit");
}

TEST_CASE("the classes are chosen by the error of refitting without each run, bounds included") {
  // Noisy runs on one type and two timeouts: one the fit exceeds, one it must be pulled up to in
  // some of the left-out fits. The leave-one-out score is solved from normal equations; it must
  // equal refitting the chosen classes on the other runs (FitRuntime, QR) for every run.
  std::vector<MeasuredRun> runs;
  const double noise[] = {1.04, 0.97, 1.02, 0.95, 1.06, 0.99, 1.01};
  const double nodes[] = {2, 3, 4, 6, 8, 12, 16};
  for (int i = 0; i < 7; ++i) {
    const double c = nodes[i];
    runs.push_back(Run("w", "t", 1e9 * (1 + i % 3), c, c, 1e8,
                       (50 + 2000 * (1 + i % 3) / c + 2 * c) * noise[i]));
  }
  runs.push_back(Run("w", "t", 1e9, 1, 1, 1e8, 900, false));   // bound below the fit
  runs.push_back(Run("w", "t", 3e9, 1, 1, 1e8, 9000, false));  // bound above it
  Result<RuntimeFit> fit = FitRuntime(runs);
  REQUIRE(fit.ok());
  FitOptions fixed;
  fixed.reduction_object_class = fit.value().reduction_object_class;
  fixed.reduction_object_scaling = fit.value().reduction_object_scaling;
  fixed.global_reduction_class = fit.value().global_reduction_class;
  double brute = 0;
  int pinned_somewhere = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!runs[i].completed) continue;
    std::vector<MeasuredRun> rest = runs;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
    Result<RuntimeFit> refit = FitRuntime(rest, fixed);
    REQUIRE(refit.ok());
    pinned_somewhere += refit.value().censored_active;
    const double y = runs[i].runtime_seconds;
    const double e = (y - PredictFitted(refit.value(), ConfigOf(runs[i])).TotalSeconds()) / y;
    brute += e * e;
  }
  CHECK(pinned_somewhere > 0);
  CHECK(fit.value().selection_score == doctest::Approx(brute).epsilon(1e-9));
}

TEST_CASE("fit errors say how many completed runs are needed") {
  std::vector<MeasuredRun> runs = {Run("lr", "c4.large", 1e9, 4, 4, 1e8, 100),
                                   Run("lr", "c4.large", 1e9, 8, 8, 1e8, 7200, false)};
  CHECK(FitRuntime(runs).status().message() ==
        "fit of lr on c4.large needs at least 3 completed runs, got 1 (1 censored)");
  runs[0].completed = false;
  CHECK(FitRuntime(runs).status().message() ==
        "fit of lr on c4.large: all 2 runs are censored (completed=false); a fit needs at least 3 "
        "completed runs");
  runs[1].runtime_seconds = 0;
  CHECK(FitRuntime(runs).status().message() == "runs[1].runtime_seconds: must be > 0, got 0");
  std::vector<MeasuredRun> mixed = {Run("a", "t", 1e9, 1, 1, 1, 5), Run("b", "t", 1e9, 1, 2, 1, 4),
                                    Run("a", "t", 1e9, 1, 4, 1, 3)};
  CHECK(FitRuntime(mixed).status().message() ==
        "runs[1]: a fit takes runs of one workload on one instance type; got b on t after a on t");
}

// Reference workload "ref" and target "w" on types A and B; everything on B takes twice as long.
std::vector<MeasuredRun> TwoTypeRuns() {
  std::vector<MeasuredRun> rows;
  for (double c : {2.0, 4.0, 8.0, 16.0}) {
    rows.push_back(Run("ref", "A", 1e9, c, c, 1e8, 10 + 1000 / c));
    rows.push_back(Run("ref", "B", 1e9, c, c, 1e8, 2 * (10 + 1000 / c)));
    rows.push_back(Run("w", "A", 2e9, c, c, 1e8, 20 + 500 / c));
    rows.push_back(Run("w", "B", 2e9, c, c, 1e8, 2 * (20 + 500 / c)));
  }
  return rows;
}

TEST_CASE("heterogeneity factors from a reference workload carry a profile to another type") {
  const std::vector<MeasuredRun> rows = TwoTypeRuns();
  std::vector<MeasuredRun> ref_a, ref_b;
  for (const MeasuredRun& r : rows) {
    if (r.workload == "ref") (r.instance_type == "A" ? ref_a : ref_b).push_back(r);
  }
  Result<HeterogeneityFactors> h =
      LearnHeterogeneity({FitRuntime(ref_a).value()}, {FitRuntime(ref_b).value()});
  REQUIRE(h.ok());
  CHECK(h.value().factors.disk == doctest::Approx(2));
  CHECK(h.value().factors.compute == doctest::Approx(2));
  CHECK(h.value().references == std::vector<std::string>{"ref"});

  // Train w on A only, with three runs; predict w on B through the factors.
  std::vector<bool> train;
  for (const MeasuredRun& r : rows) {
    train.push_back(r.workload == "w" && r.instance_type == "A" && r.compute_nodes <= 8);
  }
  EvaluateOptions options;
  options.heterogeneity = HeterogeneityMode::kReferences;
  Result<Evaluation> ev = EvaluateWorkload(rows, train, "w", options);
  REQUIRE(ev.ok());
  CHECK(ev.value().rows.size() == 5);  // A at 16 nodes, B at 2, 4, 8, 16
  for (const EvaluatedRow& r : ev.value().rows) {
    CAPTURE(r.run.instance_type);
    CAPTURE(r.run.compute_nodes);
    REQUIRE(r.ape);
    CHECK(*r.ape < 1e-6);
    CHECK(r.method == (r.run.instance_type == "A" ? "same-type fit" : "heterogeneity from A"));
    // Ernest is one model per instance type: nothing trained on B, so no Ernest prediction there.
    CHECK(r.ernest_seconds.has_value() == (r.run.instance_type == "A"));
  }
  CHECK(ev.value().perfplan.predicted == 5);
  CHECK(ev.value().ernest.predicted == 1);
}

TEST_CASE("fit options name the bad setting") {
  FitOptions options;
  options.memory_overhead_factors = {2, -1};
  CHECK(options.Validate().message() ==
        "memory_overhead_factors: every factor must be > 0, got -1");
  options = FitOptions{};
  options.min_completed_runs = 0;
  CHECK(options.Validate().message() == "min_completed_runs: must be >= 1, got 0");
  EvaluateOptions evaluate;
  evaluate.interval_level = 1;
  CHECK(evaluate.Validate().message() == "interval_level: must be in (0, 1), got 1");
}

TEST_CASE("heterogeneity needs a reference workload on both types") {
  Result<HeterogeneityFactors> h = LearnHeterogeneity({}, {});
  CHECK(h.status().message() ==
        "no reference workload was fitted on both instance types; heterogeneity factors need at "
        "least one");
}

TEST_CASE("evaluate reports APE per row, median, P90 and the baselines on the same rows") {
  // Amdahl-shaped truth with a 10% bump on the last row: every model fits the training rows.
  std::vector<MeasuredRun> rows;
  std::vector<bool> train;
  for (double c : {2.0, 4.0, 8.0, 16.0, 32.0}) {
    rows.push_back(Run("w", "t", 1e9, c, c, 1e8, (100 + 1000 / c) * (c == 32 ? 1.1 : 1.0)));
    train.push_back(c <= 8);
  }
  rows.push_back(Run("w", "t", 1e9, 1, 1, 1e8, 5000, false));  // a timeout: lower bound
  train.push_back(false);
  EvaluateOptions options;
  Result<Evaluation> ev = EvaluateWorkload(rows, train, "w", options);
  REQUIRE(ev.ok());
  const Evaluation& e = ev.value();
  REQUIRE(e.rows.size() == 3);
  CHECK(*e.rows[0].ape == doctest::Approx(0).epsilon(1e-9));
  // 32 nodes: truth 1.1·131.25, prediction 131.25 → APE 1 − 1/1.1.
  CHECK(*e.rows[1].ape == doctest::Approx(1 - 1 / 1.1).epsilon(1e-6));
  CHECK(*e.rows[1].amdahl_ape == doctest::Approx(1 - 1 / 1.1).epsilon(1e-6));
  CHECK(e.perfplan.predicted == 2);
  CHECK(e.perfplan.median_ape == doctest::Approx((1 - 1 / 1.1) / 2).epsilon(1e-6));
  CHECK(e.perfplan.p90_ape == doctest::Approx(1 - 1 / 1.1).epsilon(1e-6));
  CHECK(e.censored_rows == 1);
  CHECK(!e.rows[2].ape);
  CHECK(*e.rows[2].respects_bound == false);  // 1100 s predicted under a 5000 s bound
  CHECK(e.rows[0].interval_low_seconds.has_value());
  // Selection by predicted node-seconds (100·c + 1000) picks 1 node, which timed out at 5000 s;
  // the best measured is 2 nodes at 600 s = 1200 node-s.
  REQUIRE(e.selection.available);
  CHECK(e.selection.picked_row == 5);
  CHECK(!e.selection.picked_completed);
  CHECK(e.selection.best_row == 0);
  CHECK(e.selection.best_measured_node_seconds == doctest::Approx(1200));
  CHECK(e.selection.gap == doctest::Approx(5000.0 / 1200 - 1));
}

TEST_CASE("selection raises a censored training run to its bound and breaks model ties by the "
          "fastest measured training run") {
  // Two types with the same vCPUs (a pooled form cannot tell them apart), serial-floor truth on
  // "a", 20% slower on "b"; "a" at 1 node timed out at 5000 s and is trained on as a bound.
  std::vector<MeasuredRun> rows;
  std::vector<bool> train;
  for (const char* type : {"b", "a"}) {
    for (double c : {2.0, 4.0, 8.0, 16.0}) {
      MeasuredRun r = Run("w", type, 1e9, c, c, 1e8,
                          (100 + 1000 / c) * (std::string(type) == "b" ? 1.2 : 1.0));
      r.vcpus = 2;
      r.memory_bytes = 8e9;
      rows.push_back(r);
      train.push_back(c <= 4);
    }
  }
  MeasuredRun timeout = Run("w", "a", 1e9, 1, 1, 1e8, 5000, false);
  timeout.vcpus = 2;
  timeout.memory_bytes = 8e9;
  rows.push_back(timeout);
  train.push_back(true);
  EvaluateOptions options;
  options.candidates = {RuntimeForm::kSerialFloor};
  Result<Evaluation> ev = EvaluateWorkload(rows, train, "w", options);
  REQUIRE(ev.ok());
  const SelectionCheck& s = ev.value().selection;
  REQUIRE(s.available);
  // Not the timed-out 1-node run (its prediction is raised to 5000 s), and of the tied 2-node
  // runs the one measured faster: row 4 ("a", 600 s) rather than row 0 ("b", 720 s).
  CHECK(s.picked_row == 4);
  CHECK(s.picked_completed);
  CHECK(s.best_row == 4);
  CHECK(s.gap == 0);
}

TEST_CASE("evaluate says when the train filter selects nothing of the workload") {
  std::vector<MeasuredRun> rows = {Run("w", "t", 1e9, 1, 1, 1, 5)};
  const Status none = EvaluateWorkload(rows, {false}, "w").status();
  CHECK(none.message() == "train: selects no row of workload w");
  CHECK(none.field() == "train");
  CHECK(EvaluateWorkload(rows, {true}, "x").status().message() ==
        "evaluate: no row has workload x");
}

TEST_CASE("Summarize takes the median and the nearest-rank 90th percentile") {
  const ErrorSummary s = Summarize({0.5, 0.1, 0.3, 0.2, 0.4, 0.6, 0.7, 0.8, 0.9, 1.0});
  CHECK(s.median_ape == doctest::Approx(0.55));
  CHECK(s.p90_ape == doctest::Approx(0.9));
  CHECK(s.predicted == 10);
}

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

MeasuredRun HwRun(const std::string& type, double vcpus, double memory_gib, double c,
                  double seconds, bool completed = true) {
  MeasuredRun r{"w", type, 1e10, c, c, 1e8, seconds, completed};
  r.vcpus = vcpus;
  r.memory_bytes = memory_gib * kGiB;
  return r;
}

// Truth: T = 50 + 2e-7·s/(c·v/2) on every type: CPU-bound parallel work, v relative to 2 vCPUs.
double CpuBound(double c, double v) { return 50 + 2e-7 * 1e10 / (c * v / 2); }

TEST_CASE("a memory term that is 0 on every run is a fit without one, chosen or fixed") {
  // 64 GiB nodes hold κ·s/c for every κ of the grid at 4+ nodes: no κ gives a memory term.
  std::vector<MeasuredRun> runs;
  for (double c : {4.0, 6.0, 8.0, 16.0}) runs.push_back(HwRun("t", 2, 64, c, CpuBound(c, 2)));
  FitOptions chosen;
  chosen.hardware_aware = true;
  Result<RuntimeFit> fit = FitRuntime(runs, chosen);
  REQUIRE(fit.ok());
  CHECK(fit.value().memory_overhead_factor == 0);
  FitOptions fixed = chosen;
  fixed.memory_overhead_factor = 2;
  Result<RuntimeFit> with_fixed = FitRuntime(runs, fixed);
  REQUIRE(with_fixed.ok());
  CHECK(with_fixed.value().memory_overhead_factor == 2);
  CHECK(with_fixed.value().memory_coefficient == 0);
  CHECK(PredictFitted(with_fixed.value(), ConfigOf(runs[0])).TotalSeconds() ==
        doctest::Approx(CpuBound(4, 2)));
}

TEST_CASE("a hardware-aware fit on one type predicts another type through its vCPUs") {
  std::vector<MeasuredRun> rows;
  std::vector<bool> train;
  for (double c : {4.0, 6.0, 8.0, 16.0}) {
    rows.push_back(HwRun("small", 2, 64, c, CpuBound(c, 2)));
    train.push_back(c <= 8);
    rows.push_back(HwRun("big", 8, 64, c, CpuBound(c, 8)));
    train.push_back(false);
  }
  EvaluateOptions options;
  options.intervals = false;
  options.candidates = {RuntimeForm::kFreerideG};  // serial-floor fits this truth as well
  Result<Evaluation> ev = EvaluateWorkload(rows, train, "w", options);
  REQUIRE(ev.ok());
  CHECK(ev.value().heterogeneity == HeterogeneityMode::kHardware);
  REQUIRE(ev.value().rows.size() == 5);
  for (const EvaluatedRow& r : ev.value().rows) {
    CAPTURE(r.run.instance_type);
    CAPTURE(r.run.compute_nodes);
    CHECK(r.method == "hardware-aware freeride-g");
    CHECK(*r.ape < kRecoveryTolerance);
  }
}

TEST_CASE("a hardware-aware fit over several types finds the memory-pressure term") {
  // Truth with κ = 2: nodes whose memory holds less than 2·s/c work on the overflow at 1e-7 s/B.
  auto truth = [](double c, double v, double memory_gib) {
    return 30 + 1e-7 * 1e10 / (c * v / 2) +
           1e-7 * std::max(0.0, 2 * 1e10 / c - memory_gib * kGiB) / (v / 2);
  };
  const struct {
    const char* name;
    double vcpus, memory_gib;
  } types[] = {{"lowmem", 2, 1}, {"midmem", 2, 2}, {"bigmem", 4, 8}};
  std::vector<MeasuredRun> rows;
  std::vector<bool> train;
  for (const auto& t : types) {
    for (double c : {4.0, 6.0, 8.0, 12.0, 24.0}) {
      rows.push_back(HwRun(t.name, t.vcpus, t.memory_gib, c, truth(c, t.vcpus, t.memory_gib)));
      train.push_back(c <= 8);
    }
  }
  EvaluateOptions options;
  options.intervals = false;
  Result<Evaluation> ev = EvaluateWorkload(rows, train, "w", options);
  REQUIRE(ev.ok());
  REQUIRE(ev.value().fits.size() == 1);
  CHECK(ev.value().fits[0].memory_overhead_factor == 2);
  CHECK(ev.value().fits[0].memory_coefficient == doctest::Approx(1e-7).epsilon(1e-6));
  CHECK(ev.value().perfplan.predicted == 6);
  CHECK(ev.value().perfplan.p90_ape < kRecoveryTolerance);
  // Such a fit has no FREERIDE-G profile form.
  CHECK(ToProfile(ev.value().fits[0]).status().message() ==
        "a fit over several instance types (3) has no single-profile form; fit one instance type");
}

TEST_CASE("evaluate falls back to reference factors when a type has no hardware figures") {
  std::vector<MeasuredRun> rows = {HwRun("a", 2, 4, 2, 100), HwRun("a", 2, 4, 4, 60),
                                   HwRun("a", 2, 4, 8, 40), HwRun("a", 2, 4, 16, 30)};
  rows[3].vcpus = 0;
  Result<Evaluation> ev = EvaluateWorkload(rows, {true, true, true, false}, "w");
  REQUIRE(ev.ok());
  CHECK(ev.value().heterogeneity == HeterogeneityMode::kReferences);
  CHECK(ev.value().notes[0] ==
        "instance type a has no vCPU/memory figures; using reference-workload factors");
}

}  // namespace
}  // namespace perfplan::models
