// Specification of models/runtime_model.h: every formula of DESIGN §3.1 against values computed by
// hand in the comments.
#include "models/runtime_model.h"

#include <doctest/doctest.h>

namespace perfplan::models {
namespace {

// Hand-computed values are exact decimals; 1e-9 absorbs floating-point rounding only.
constexpr double kExact = 1e-9;

ProfileRun SimpleRun() {
  ProfileRun r;
  r.dataset_bytes = 1e9;
  r.storage_nodes = 2;
  r.compute_nodes = 4;
  r.bandwidth_bytes_per_second = 1e7;
  r.disk_seconds = 10;
  r.network_seconds = 20;
  r.compute_seconds = 40;
  return r;
}

ProfileRun ReductionRun() {
  ProfileRun r = SimpleRun();
  r.reduction_object_bytes = 1000;
  r.reduction_seconds = 2;
  r.global_reduction_seconds = 3;
  return r;
}

Target MakeTarget(double s, double n, double c, double b) {
  Target t;
  t.dataset_bytes = s;
  t.storage_nodes = n;
  t.compute_nodes = c;
  t.bandwidth_bytes_per_second = b;
  return t;
}

ResolvedModel MustResolve(const RuntimeProfile& p, ResolveOptions options = {}) {
  Result<ResolvedModel> m = ResolveModel(p, options);
  REQUIRE_MESSAGE(m.ok(), m.status().message());
  return m.value();
}

RuntimeProfile ReductionProfile(ReductionObjectClass object, GlobalReductionClass global) {
  RuntimeProfile p;
  p.application = "test";
  p.runs = {ReductionRun()};
  p.reduction_object_class = object;
  p.global_reduction_class = global;
  p.reduction_communication = ReductionCommunication{0.001, 1};  // T_ro = 0.001·1000 + 1 = 2
  return p;
}

TEST_CASE("simple model scales each component by its ratios") {
  RuntimeProfile p;
  p.runs = {SimpleRun()};
  const ResolvedModel m = MustResolve(p);
  CHECK(m.variant == ModelVariant::kSimple);
  // s_x/s = 2, n/n_x = 1/2, c/c_x = 1/2, b/b_x = 1/2.
  const Prediction pred = Predict(m, MakeTarget(2e9, 4, 8, 2e7));
  CHECK(pred.breakdown.disk_seconds == doctest::Approx(2 * 0.5 * 10).epsilon(kExact));
  CHECK(pred.breakdown.network_seconds == doctest::Approx(2 * 0.5 * 0.5 * 20).epsilon(kExact));
  CHECK(pred.breakdown.compute_seconds == doctest::Approx(2 * 0.5 * 40).epsilon(kExact));
  CHECK(pred.breakdown.reduction_seconds == 0);
  CHECK(pred.breakdown.global_reduction_seconds == 0);
  CHECK(pred.runtime_seconds == doctest::Approx(60).epsilon(kExact));
  CHECK(pred.warnings.empty());
}

TEST_CASE("network time keeps n/n_x only when retrieval throughput grows with storage nodes") {
  RuntimeProfile p;
  p.runs = {SimpleRun()};
  p.retrieval_scales_with_storage_nodes = false;
  const Prediction pred = Predict(MustResolve(p), MakeTarget(2e9, 4, 8, 2e7));
  CHECK(pred.breakdown.disk_seconds == doctest::Approx(10).epsilon(kExact));  // still scales
  CHECK(pred.breakdown.network_seconds == doctest::Approx(2 * 1 * 0.5 * 20).epsilon(kExact));
  CHECK(pred.runtime_seconds == doctest::Approx(70).epsilon(kExact));
}

TEST_CASE("reduction model separates local compute, reduction and global reduction") {
  // s_x/s = 3, c/c_x = 1/2: local = 3·0.5·(40 − 2 − 3) = 52.5.
  const Target t = MakeTarget(3e9, 2, 8, 1e7);
  struct Case {
    ReductionObjectClass object;
    ReductionObjectScaling scaling;
    GlobalReductionClass global;
    double reduction_seconds;
    double global_seconds;
  };
  const Case cases[] = {
      // constant r: T_ro' = 0.001·1000 + 1 = 2.
      {ReductionObjectClass::kConstant, ReductionObjectScaling::kDataset,
       GlobalReductionClass::kLinearConstant, 2, 3 * 8.0 / 4},
      // linear in data: r' = 1000·3 → T_ro' = 4. constant-linear: T_g' = 3·3.
      {ReductionObjectClass::kLinear, ReductionObjectScaling::kDataset,
       GlobalReductionClass::kConstantLinear, 4, 9},
      // linear in compute nodes: r' = 1000·8/4 → T_ro' = 3.
      {ReductionObjectClass::kLinear, ReductionObjectScaling::kComputeNodes,
       GlobalReductionClass::kLinearConstant, 3, 6},
  };
  for (const Case& c : cases) {
    CAPTURE(ToString(c.object));
    CAPTURE(ToString(c.scaling));
    CAPTURE(ToString(c.global));
    RuntimeProfile p = ReductionProfile(c.object, c.global);
    p.reduction_object_scaling = c.scaling;
    const ResolvedModel m = MustResolve(p);
    CHECK(m.variant == ModelVariant::kReductions);
    const Prediction pred = Predict(m, t);
    CHECK(pred.breakdown.disk_seconds == doctest::Approx(3 * 1 * 10).epsilon(kExact));
    CHECK(pred.breakdown.network_seconds == doctest::Approx(3 * 1 * 1 * 20).epsilon(kExact));
    CHECK(pred.breakdown.compute_seconds == doctest::Approx(52.5).epsilon(kExact));
    CHECK(pred.breakdown.reduction_seconds == doctest::Approx(c.reduction_seconds).epsilon(kExact));
    CHECK(pred.breakdown.global_reduction_seconds ==
          doctest::Approx(c.global_seconds).epsilon(kExact));
    CHECK(pred.runtime_seconds == doctest::Approx(pred.breakdown.TotalSeconds()).epsilon(kExact));
  }
}

TEST_CASE("forcing the simple model scales the whole measured compute time") {
  RuntimeProfile p =
      ReductionProfile(ReductionObjectClass::kConstant, GlobalReductionClass::kLinearConstant);
  ResolveOptions options;
  options.variant = ModelVariant::kSimple;
  const Prediction pred = Predict(MustResolve(p, options), MakeTarget(3e9, 2, 8, 1e7));
  CHECK(pred.breakdown.compute_seconds == doctest::Approx(3 * 0.5 * 40).epsilon(kExact));
  REQUIRE(pred.warnings.size() == 1);
  CHECK(pred.warnings[0] ==
        "simple model scales the measured reduction time with the data; it may be off when the "
        "reduction does not parallelize");
}

TEST_CASE("predicting the profiled configuration reproduces the profile run") {
  RuntimeProfile p =
      ReductionProfile(ReductionObjectClass::kConstant, GlobalReductionClass::kLinearConstant);
  const Prediction pred = Predict(MustResolve(p), MakeTarget(1e9, 2, 4, 1e7));
  CHECK(pred.runtime_seconds == doctest::Approx(10 + 20 + 40).epsilon(kExact));
}

TEST_CASE("heterogeneity factors multiply disk, network and compute components") {
  RuntimeProfile p =
      ReductionProfile(ReductionObjectClass::kConstant, GlobalReductionClass::kLinearConstant);
  Target t = MakeTarget(1e9, 2, 4, 1e7);
  t.scaling = {2, 0.5, 1.5};
  const Prediction pred = Predict(MustResolve(p), t);
  CHECK(pred.breakdown.disk_seconds == doctest::Approx(20).epsilon(kExact));
  CHECK(pred.breakdown.network_seconds == doctest::Approx(10).epsilon(kExact));
  CHECK(pred.breakdown.compute_seconds == doctest::Approx(1.5 * 35).epsilon(kExact));
  CHECK(pred.breakdown.reduction_seconds == doctest::Approx(1.5 * 2).epsilon(kExact));
  CHECK(pred.breakdown.global_reduction_seconds == doctest::Approx(1.5 * 3).epsilon(kExact));
}

TEST_CASE("scaling factors are the mean per-component time ratios over common applications") {
  const std::vector<ReferenceMeasurement> a = {
      {"k1", 10, 20, 30}, {"k2", 5, 10, 10}, {"only-on-a", 1, 1, 1}};
  const std::vector<ReferenceMeasurement> b = {{"k2", 5, 10, 20}, {"k1", 20, 10, 45}};
  Result<ScalingFactors> f = ComputeScalingFactors(a, b);
  REQUIRE(f.ok());
  CHECK(f.value().disk == doctest::Approx((2.0 + 1.0) / 2).epsilon(kExact));
  CHECK(f.value().network == doctest::Approx((0.5 + 1.0) / 2).epsilon(kExact));
  CHECK(f.value().compute == doctest::Approx((1.5 + 2.0) / 2).epsilon(kExact));

  Result<ScalingFactors> none = ComputeScalingFactors(a, {{"other", 1, 1, 1}});
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().message() ==
        "no reference application was measured on both clusters; scaling factors need at least "
        "one");
}

TEST_CASE("A_ro and B_ro are fitted by least squares over the runs") {
  ProfileRun r1 = ReductionRun(), r2 = ReductionRun();
  r2.reduction_object_bytes = 3000;
  r2.reduction_seconds = 4;  // 0.001·3000 + 1
  Result<ReductionCommunication> fit = FitReductionCommunication({r1, r2});
  REQUIRE(fit.ok());
  CHECK(fit.value().seconds_per_byte == doctest::Approx(0.001).epsilon(kExact));
  CHECK(fit.value().fixed_seconds == doctest::Approx(1).epsilon(kExact));

  // One run: all of T_ro is attributed to the object size.
  Result<ReductionCommunication> one = FitReductionCommunication({r1});
  CHECK(one.value().seconds_per_byte == doctest::Approx(2.0 / 1000).epsilon(kExact));
  CHECK(one.value().fixed_seconds == 0);
}

// Runs of an application whose classes are known, measured at three configurations.
std::vector<ProfileRun> ClassRuns(bool object_grows_with_data, bool global_grows_with_nodes) {
  std::vector<ProfileRun> runs;
  for (auto [s, c] : {std::pair{1e9, 4.0}, {2e9, 4.0}, {1e9, 8.0}}) {
    ProfileRun r = ReductionRun();
    r.dataset_bytes = s;
    r.compute_nodes = c;
    r.reduction_object_bytes = object_grows_with_data ? 1000 * s / 1e9 : 1000;
    r.global_reduction_seconds = global_grows_with_nodes ? 3 * c / 4 : 3 * s / 1e9;
    r.compute_seconds = 40 * (s / 1e9) * (4 / c) + 10;
    runs.push_back(r);
  }
  return runs;
}

TEST_CASE("classes are inferred from runs that vary data size and nodes separately") {
  for (bool object_linear : {false, true}) {
    for (bool global_nodes : {false, true}) {
      CAPTURE(object_linear);
      CAPTURE(global_nodes);
      Result<ClassInference> inf = InferClasses(ClassRuns(object_linear, global_nodes));
      REQUIRE(inf.ok());
      CHECK(inf.value().reduction_object_class ==
            (object_linear ? ReductionObjectClass::kLinear : ReductionObjectClass::kConstant));
      if (object_linear) {
        CHECK(inf.value().reduction_object_scaling == ReductionObjectScaling::kDataset);
      }
      CHECK(inf.value().global_reduction_class == (global_nodes
                                                       ? GlobalReductionClass::kLinearConstant
                                                       : GlobalReductionClass::kConstantLinear));
    }
  }
}

TEST_CASE("a resolved profile records inferred classes and fitted coefficients") {
  RuntimeProfile p;
  p.runs = ClassRuns(true, false);
  const ResolvedModel m = MustResolve(p);
  CHECK(m.reduction_object_class == ReductionObjectClass::kLinear);
  CHECK(m.reduction_object_class_inferred);
  CHECK(m.global_reduction_class == GlobalReductionClass::kConstantLinear);
  CHECK(m.global_reduction_class_inferred);
  CHECK(m.reduction_communication_fitted);
  REQUIRE(m.notes.size() == 3);
  CHECK(m.notes[0] ==
        "reduction_object_class inferred: reduction object size grows with dataset size (log "
        "error 0 vs 0.960906 constant)");
}

TEST_CASE("class inference explains what runs are missing") {
  RuntimeProfile p;
  p.runs = {ReductionRun()};
  Result<ResolvedModel> one = ResolveModel(p);
  REQUIRE_FALSE(one.ok());
  CHECK(one.status().message() ==
        "reduction_object_class: not given, and class inference needs at least 2 profile runs, "
        "got 1; state the class in the profile or add profile runs");

  p.runs = {ReductionRun(), ReductionRun()};
  Result<ResolvedModel> same = ResolveModel(p);
  REQUIRE_FALSE(same.ok());
  CHECK(same.status().message() ==
        "reduction_object_class: not given, and class inference needs profile runs that differ "
        "in dataset_bytes or compute_nodes; all 2 runs have the same; state the class in the "
        "profile or add profile runs");

  // Data and nodes doubled together: the two global-reduction classes predict the same.
  ProfileRun doubled = ReductionRun();
  doubled.dataset_bytes *= 2;
  doubled.compute_nodes *= 2;
  doubled.global_reduction_seconds *= 2;
  p.runs = {ReductionRun(), doubled};
  p.reduction_object_class = ReductionObjectClass::kConstant;
  Result<ResolvedModel> tied = ResolveModel(p);
  REQUIRE_FALSE(tied.ok());
  CHECK(tied.status().message() ==
        "global_reduction_class: not given, and global_reduction_class cannot be inferred: the "
        "runs change dataset_bytes and compute_nodes in the same proportion; add a run that "
        "changes only one of them; state the class in the profile or add profile runs");
}

TEST_CASE("invalid runs are rejected with the run and field") {
  struct Case {
    void (*mutate)(ProfileRun&);
    const char* message;
  };
  const Case cases[] = {
      {[](ProfileRun& r) { r.compute_nodes = -2; }, "runs[0].compute_nodes: must be > 0, got -2"},
      {[](ProfileRun& r) { r.dataset_bytes = 0; }, "runs[0].dataset_bytes: must be > 0, got 0"},
      {[](ProfileRun& r) { r.bandwidth_bytes_per_second = 0; },
       "runs[0].bandwidth_bytes_per_second: must be > 0, got 0"},
      {[](ProfileRun& r) { r.disk_seconds = -1; }, "runs[0].disk_seconds: must be >= 0, got -1"},
      {[](ProfileRun& r) { r.compute_seconds = 4; },
       "runs[0].compute_seconds: must include reduction_seconds + global_reduction_seconds (5), "
       "got 4"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.message);
    RuntimeProfile p =
        ReductionProfile(ReductionObjectClass::kConstant, GlobalReductionClass::kLinearConstant);
    c.mutate(p.runs[0]);
    Result<ResolvedModel> m = ResolveModel(p);
    REQUIRE_FALSE(m.ok());
    CHECK(m.status().message() == c.message);
  }
}

TEST_CASE("targets must be positive and finite") {
  Target t = MakeTarget(1e9, 2, 0, 1e7);
  CHECK(ValidateTarget(t).message() == "compute_nodes: must be > 0, got 0");
  t = MakeTarget(1e9, 2, 4, 1e7);
  t.scaling.compute = -1;
  CHECK(ValidateTarget(t).message() == "scaling.compute: must be > 0, got -1");
  CHECK(ValidateTarget(MakeTarget(1e9, 2, 4, 1e7)).ok());
}

TEST_CASE("predictions far beyond the profiled run carry extrapolation warnings") {
  RuntimeProfile p;
  p.runs = {SimpleRun()};
  const Prediction pred = Predict(MustResolve(p), MakeTarget(1e10, 2, 64, 1e7));
  REQUIRE(pred.warnings.size() == 2);
  CHECK(pred.warnings[0] ==
        "dataset_bytes is 10x the profiled run's (1e+10 vs 1e+09), beyond the 8x the model is "
        "validated for");
  CHECK(pred.warnings[1] ==
        "compute_nodes is 16x the profiled run's (64 vs 4), beyond the 8x the model is validated "
        "for");
}

TEST_CASE("the run nearest to the target is the one scaled") {
  RuntimeProfile p;
  ProfileRun big = SimpleRun();
  big.dataset_bytes = 8e9;
  big.disk_seconds = 100;
  p.runs = {SimpleRun(), big};
  const ResolvedModel m = MustResolve(p);
  CHECK(Predict(m, MakeTarget(1.5e9, 2, 4, 1e7)).reference_run == 0);
  const Prediction near_big = Predict(m, MakeTarget(6e9, 2, 4, 1e7));
  CHECK(near_big.reference_run == 1);
  CHECK(near_big.breakdown.disk_seconds == doctest::Approx(100 * 6.0 / 8).epsilon(kExact));
}

TEST_CASE("prediction error is relative to the exact time") {
  CHECK(PredictionError(100, 90) == doctest::Approx(0.1).epsilon(kExact));
  CHECK(PredictionError(100, 115) == doctest::Approx(0.15).epsilon(kExact));
}

TEST_CASE("enum names round-trip") {
  for (auto v : {GlobalReductionClass::kLinearConstant, GlobalReductionClass::kConstantLinear}) {
    GlobalReductionClass parsed{};
    REQUIRE(Parse(ToString(v), &parsed));
    CHECK(parsed == v);
  }
  ReductionObjectClass c = ReductionObjectClass::kLinear;
  CHECK_FALSE(Parse("Linear", &c));
  CHECK(c == ReductionObjectClass::kLinear);
}

}  // namespace
}  // namespace perfplan::models
