#include "models/runtime_model.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "models/short_number.h"

namespace perfplan::models {
namespace {

// Two log-ratios closer than this are "the same change" when telling classes apart.
constexpr double kLogTolerance = 1e-9;

Status CheckPositive(const std::string& where, const char* field, double v) {
  if (!std::isfinite(v) || v <= 0) {
    return Status::InvalidField(where + field, "must be > 0, got " + FormatShort(v));
  }
  return Status::Ok();
}

Status CheckNonNegative(const std::string& where, const char* field, double v) {
  if (!std::isfinite(v) || v < 0) {
    return Status::InvalidField(where + field, "must be >= 0, got " + FormatShort(v));
  }
  return Status::Ok();
}

Status ValidateRun(const ProfileRun& run, std::size_t index) {
  const std::string where = "runs[" + std::to_string(index) + "].";
  for (auto [field, v] : {std::pair{"dataset_bytes", run.dataset_bytes},
                          {"storage_nodes", run.storage_nodes},
                          {"compute_nodes", run.compute_nodes},
                          {"bandwidth_bytes_per_second", run.bandwidth_bytes_per_second}}) {
    if (Status s = CheckPositive(where, field, v); !s.ok()) return s;
  }
  for (auto [field, v] : {std::pair{"disk_seconds", run.disk_seconds},
                          {"network_seconds", run.network_seconds},
                          {"compute_seconds", run.compute_seconds},
                          {"reduction_object_bytes", run.reduction_object_bytes},
                          {"reduction_seconds", run.reduction_seconds},
                          {"global_reduction_seconds", run.global_reduction_seconds}}) {
    if (Status s = CheckNonNegative(where, field, v); !s.ok()) return s;
  }
  if (run.reduction_seconds + run.global_reduction_seconds > run.compute_seconds) {
    return Status::InvalidArgument(
        where + "compute_seconds: must include reduction_seconds + global_reduction_seconds (" +
        FormatShort(run.reduction_seconds + run.global_reduction_seconds) + "), got " +
        FormatShort(run.compute_seconds));
  }
  return Status::Ok();
}

double Sq(double v) { return v * v; }

// Sum over run pairs (i<j) with positive `measured` of (log measured ratio − log predicted ratio)².
// `predicted_log_ratio(a, b)` gives the class's predicted log ratio, a difference f(b) − f(a) of
// per-run terms. With d_k = log(m_k / m_0) − predicted_log_ratio(r_0, r_k) against the first
// usable run, the sum Σ_{i<j} (d_j − d_i)² equals n · Σ (d_k − mean d)²: one pass over the n usable
// runs instead of one per pair (runs that agree exactly still give exactly 0). Counts the pairs.
template <typename Measured, typename PredictedLogRatio>
double PairwiseLogError(const std::vector<ProfileRun>& runs, Measured measured,
                        PredictedLogRatio predicted_log_ratio, std::int64_t* pairs) {
  std::vector<double> d;
  d.reserve(runs.size());
  const ProfileRun* first = nullptr;
  double first_measured = 0, sum = 0;
  for (const ProfileRun& r : runs) {
    const double m = measured(r);
    if (m <= 0) continue;
    if (!first) {
      first = &r;
      first_measured = m;
    }
    d.push_back(std::log(m / first_measured) - predicted_log_ratio(*first, r));
    sum += d.back();
  }
  const auto n = static_cast<std::int64_t>(d.size());
  *pairs = n * (n - 1) / 2;
  if (n < 2) return 0;
  const double mean = sum / static_cast<double>(n);
  double squares = 0;
  for (double v : d) squares += Sq(v - mean);
  return static_cast<double>(n) * squares;
}

double LogSizeRatio(const ProfileRun& a, const ProfileRun& b) {
  return std::log(b.dataset_bytes / a.dataset_bytes);
}
double LogNodeRatio(const ProfileRun& a, const ProfileRun& b) {
  return std::log(b.compute_nodes / a.compute_nodes);
}

std::size_t NearestRun(const std::vector<ProfileRun>& runs, const Target& t) {
  std::size_t best = 0;
  double best_distance = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const ProfileRun& r = runs[i];
    const double d = std::abs(std::log(t.dataset_bytes / r.dataset_bytes)) +
                     std::abs(std::log(t.storage_nodes / r.storage_nodes)) +
                     std::abs(std::log(t.compute_nodes / r.compute_nodes)) +
                     std::abs(std::log(t.bandwidth_bytes_per_second / r.bandwidth_bytes_per_second));
    if (d < best_distance) {
      best_distance = d;
      best = i;
    }
  }
  return best;
}

double ScaledBreakdown(const ResolvedModel& m, const ProfileRun& ref, const Target& t,
                       Breakdown* out, double* reduction_object_bytes) {
  const double size_ratio = t.dataset_bytes / ref.dataset_bytes;
  const double storage_ratio = ref.storage_nodes / t.storage_nodes;
  const double compute_ratio = ref.compute_nodes / t.compute_nodes;
  const double bandwidth_ratio = ref.bandwidth_bytes_per_second / t.bandwidth_bytes_per_second;

  Breakdown b;
  b.disk_seconds = t.scaling.disk * size_ratio * storage_ratio * ref.disk_seconds;
  b.network_seconds = t.scaling.network * size_ratio *
                      (m.retrieval_scales_with_storage_nodes ? storage_ratio : 1.0) *
                      bandwidth_ratio * ref.network_seconds;
  double r_prime = ref.reduction_object_bytes;
  if (m.variant == ModelVariant::kSimple) {
    b.compute_seconds = t.scaling.compute * size_ratio * compute_ratio * ref.compute_seconds;
  } else {
    const double local =
        ref.compute_seconds - ref.reduction_seconds - ref.global_reduction_seconds;
    b.compute_seconds = t.scaling.compute * size_ratio * compute_ratio * local;
    if (m.reduction_object_class == ReductionObjectClass::kLinear) {
      r_prime *= m.reduction_object_scaling == ReductionObjectScaling::kDataset
                     ? size_ratio
                     : t.compute_nodes / ref.compute_nodes;
    }
    b.reduction_seconds = t.scaling.compute * (m.reduction_communication.seconds_per_byte * r_prime +
                                               m.reduction_communication.fixed_seconds);
    const double global_ratio = m.global_reduction_class == GlobalReductionClass::kLinearConstant
                                    ? t.compute_nodes / ref.compute_nodes
                                    : size_ratio;
    b.global_reduction_seconds = t.scaling.compute * ref.global_reduction_seconds * global_ratio;
  }
  if (reduction_object_bytes) *reduction_object_bytes = r_prime;
  if (out) *out = b;
  return b.TotalSeconds();
}

}  // namespace

std::string_view ToString(ReductionObjectClass v) {
  return v == ReductionObjectClass::kConstant ? "constant" : "linear";
}
std::string_view ToString(ReductionObjectScaling v) {
  return v == ReductionObjectScaling::kDataset ? "dataset" : "compute-nodes";
}
std::string_view ToString(GlobalReductionClass v) {
  return v == GlobalReductionClass::kLinearConstant ? "linear-constant" : "constant-linear";
}
std::string_view ToString(ModelVariant v) {
  switch (v) {
    case ModelVariant::kAuto: return "auto";
    case ModelVariant::kSimple: return "simple";
    case ModelVariant::kReductions: return "reductions";
  }
  return "auto";
}

bool Parse(std::string_view text, ReductionObjectClass* out) {
  for (auto v : {ReductionObjectClass::kConstant, ReductionObjectClass::kLinear}) {
    if (text == ToString(v)) return *out = v, true;
  }
  return false;
}
bool Parse(std::string_view text, ReductionObjectScaling* out) {
  for (auto v : {ReductionObjectScaling::kDataset, ReductionObjectScaling::kComputeNodes}) {
    if (text == ToString(v)) return *out = v, true;
  }
  return false;
}
bool Parse(std::string_view text, GlobalReductionClass* out) {
  for (auto v : {GlobalReductionClass::kLinearConstant, GlobalReductionClass::kConstantLinear}) {
    if (text == ToString(v)) return *out = v, true;
  }
  return false;
}
bool Parse(std::string_view text, ModelVariant* out) {
  for (auto v : {ModelVariant::kAuto, ModelVariant::kSimple, ModelVariant::kReductions}) {
    if (text == ToString(v)) return *out = v, true;
  }
  return false;
}

Result<ClassInference> InferClasses(const std::vector<ProfileRun>& runs) {
  if (runs.size() < 2) {
    return Status::InvalidArgument("class inference needs at least 2 profile runs, got " +
                                   std::to_string(runs.size()));
  }
  bool varies = false;
  for (std::size_t i = 1; i < runs.size(); ++i) {
    if (std::abs(LogSizeRatio(runs[0], runs[i])) > kLogTolerance ||
        std::abs(LogNodeRatio(runs[0], runs[i])) > kLogTolerance) {
      varies = true;
    }
  }
  if (!varies) {
    return Status::InvalidArgument(
        "class inference needs profile runs that differ in dataset_bytes or compute_nodes; all " +
        std::to_string(runs.size()) + " runs have the same");
  }

  ClassInference out;
  std::int64_t pairs = 0;
  auto object_bytes = [](const ProfileRun& r) { return r.reduction_object_bytes; };
  const double e_const =
      PairwiseLogError(runs, object_bytes, [](auto&, auto&) { return 0.0; }, &pairs);
  const double e_data = PairwiseLogError(runs, object_bytes, LogSizeRatio, &pairs);
  const double e_nodes = PairwiseLogError(runs, object_bytes, LogNodeRatio, &pairs);
  if (pairs == 0) {
    out.reduction_object_evidence = "no two runs measured a reduction object; assumed constant";
  } else if (e_const <= e_data + kLogTolerance && e_const <= e_nodes + kLogTolerance) {
    out.reduction_object_evidence = "reduction object size stays constant across runs (log error " +
                                    FormatShort(e_const) + " vs " +
                                    FormatShort(std::min(e_data, e_nodes)) + " for linear)";
  } else {
    out.reduction_object_class = ReductionObjectClass::kLinear;
    out.reduction_object_scaling = e_data <= e_nodes ? ReductionObjectScaling::kDataset
                                                     : ReductionObjectScaling::kComputeNodes;
    out.reduction_object_evidence = std::string("reduction object size grows with ") +
                                    (e_data <= e_nodes ? "dataset size" : "compute nodes") +
                                    " (log error " + FormatShort(std::min(e_data, e_nodes)) +
                                    " vs " + FormatShort(e_const) + " constant)";
  }

  auto global = [](const ProfileRun& r) { return r.global_reduction_seconds; };
  const double e_lc = PairwiseLogError(runs, global, LogNodeRatio, &pairs);
  const double e_cl = PairwiseLogError(runs, global, LogSizeRatio, &pairs);
  if (pairs == 0) {
    out.global_reduction_evidence =
        "no two runs measured a global reduction; assumed linear-constant";
  } else if (std::abs(e_lc - e_cl) <= kLogTolerance) {
    return Status::InvalidArgument(
        "global_reduction_class cannot be inferred: the runs change dataset_bytes and "
        "compute_nodes in the same proportion; add a run that changes only one of them");
  } else {
    out.global_reduction_class = e_lc < e_cl ? GlobalReductionClass::kLinearConstant
                                             : GlobalReductionClass::kConstantLinear;
    out.global_reduction_evidence = std::string("global reduction time follows ") +
                                    (e_lc < e_cl ? "compute nodes" : "dataset size") +
                                    " (log error " + FormatShort(std::min(e_lc, e_cl)) + " vs " +
                                    FormatShort(std::max(e_lc, e_cl)) + ")";
  }
  return out;
}

Result<ReductionCommunication> FitReductionCommunication(const std::vector<ProfileRun>& runs) {
  if (runs.empty()) return Status::InvalidArgument("fitting A_ro and B_ro needs at least 1 run");
  const double n = static_cast<double>(runs.size());
  double sr = 0, st = 0, srr = 0, srt = 0;
  for (const ProfileRun& r : runs) {
    sr += r.reduction_object_bytes;
    st += r.reduction_seconds;
    srr += r.reduction_object_bytes * r.reduction_object_bytes;
    srt += r.reduction_object_bytes * r.reduction_seconds;
  }
  const double mean_r = sr / n, mean_t = st / n;
  const double var_r = srr / n - mean_r * mean_r;
  ReductionCommunication fit;
  if (var_r > 1e-12 * std::max(1.0, mean_r * mean_r)) {
    fit.seconds_per_byte = (srt / n - mean_r * mean_t) / var_r;
    fit.fixed_seconds = mean_t - fit.seconds_per_byte * mean_r;
    if (fit.seconds_per_byte < 0) {
      fit = {0, mean_t};
    } else if (fit.fixed_seconds < 0) {
      fit = {srt / srr, 0};
    }
  } else if (mean_r > 0) {
    fit = {mean_t / mean_r, 0};
  } else {
    fit = {0, mean_t};
  }
  return fit;
}

Result<ResolvedModel> ResolveModel(const RuntimeProfile& profile, const ResolveOptions& options) {
  if (profile.runs.empty()) {
    return Status::InvalidField("runs", "a profile needs at least 1 run, got 0");
  }
  for (std::size_t i = 0; i < profile.runs.size(); ++i) {
    if (Status s = ValidateRun(profile.runs[i], i); !s.ok()) return s;
  }
  if (!std::isfinite(options.extrapolation_warning_ratio) ||
      options.extrapolation_warning_ratio <= 1) {
    return Status::InvalidField(
        "extrapolation_warning_ratio",
        "must be > 1, got " + FormatShort(options.extrapolation_warning_ratio));
  }
  if (profile.reduction_communication) {
    const ReductionCommunication& rc = *profile.reduction_communication;
    if (Status s = CheckNonNegative("reduction_communication.", "seconds_per_byte",
                                    rc.seconds_per_byte);
        !s.ok()) {
      return s;
    }
    if (Status s =
            CheckNonNegative("reduction_communication.", "fixed_seconds", rc.fixed_seconds);
        !s.ok()) {
      return s;
    }
  }

  ResolvedModel m;
  m.application = profile.application;
  m.runs = profile.runs;
  m.reduction_object_scaling = profile.reduction_object_scaling;
  m.retrieval_scales_with_storage_nodes = profile.retrieval_scales_with_storage_nodes;
  m.extrapolation_warning_ratio = options.extrapolation_warning_ratio;

  bool measured_reduction_object = false, measured_global = false;
  for (const ProfileRun& r : profile.runs) {
    measured_reduction_object |= r.reduction_seconds > 0;
    measured_global |= r.global_reduction_seconds > 0;
  }
  const bool measured_reductions = measured_reduction_object || measured_global;
  m.variant = options.variant == ModelVariant::kAuto
                  ? (measured_reductions ? ModelVariant::kReductions : ModelVariant::kSimple)
                  : options.variant;
  if (m.variant == ModelVariant::kSimple) {
    m.notes.push_back("simple model: reduction terms are part of the scaled compute time");
    return m;
  }

  const bool need_object_class = !profile.reduction_object_class && measured_reduction_object;
  const bool need_global_class = !profile.global_reduction_class && measured_global;
  std::optional<ClassInference> inferred;
  if (need_object_class || need_global_class) {
    Result<ClassInference> inference = InferClasses(profile.runs);
    if (!inference.ok()) {
      const char* field = need_object_class ? "reduction_object_class" : "global_reduction_class";
      return Status::InvalidArgument(std::string(field) + ": not given, and " +
                                     inference.status().message() +
                                     "; state the class in the profile or add profile runs");
    }
    inferred = inference.value();
  }
  if (profile.reduction_object_class) {
    m.reduction_object_class = *profile.reduction_object_class;
  } else if (need_object_class) {
    m.reduction_object_class = inferred->reduction_object_class;
    m.reduction_object_scaling = inferred->reduction_object_scaling;
    m.reduction_object_class_inferred = true;
    m.notes.push_back("reduction_object_class inferred: " + inferred->reduction_object_evidence);
  } else {
    m.notes.push_back("reduction_object_class: no reduction time measured; constant assumed");
  }
  if (profile.global_reduction_class) {
    m.global_reduction_class = *profile.global_reduction_class;
  } else if (need_global_class) {
    m.global_reduction_class = inferred->global_reduction_class;
    m.global_reduction_class_inferred = true;
    m.notes.push_back("global_reduction_class inferred: " + inferred->global_reduction_evidence);
  } else {
    m.notes.push_back(
        "global_reduction_class: no global reduction time measured; linear-constant assumed");
  }

  if (profile.reduction_communication) {
    m.reduction_communication = *profile.reduction_communication;
  } else {
    m.reduction_communication = FitReductionCommunication(profile.runs).value();
    m.reduction_communication_fitted = true;
    m.notes.push_back("A_ro = " + FormatShort(m.reduction_communication.seconds_per_byte) +
                      " s/byte and B_ro = " + FormatShort(m.reduction_communication.fixed_seconds) +
                      " s fitted from " + std::to_string(profile.runs.size()) + " run(s)");
  }
  return m;
}

Status ValidateTarget(const Target& t) {
  for (auto [field, v] : {std::pair{"dataset_bytes", t.dataset_bytes},
                          {"storage_nodes", t.storage_nodes},
                          {"compute_nodes", t.compute_nodes},
                          {"bandwidth_bytes_per_second", t.bandwidth_bytes_per_second},
                          {"scaling.disk", t.scaling.disk},
                          {"scaling.network", t.scaling.network},
                          {"scaling.compute", t.scaling.compute}}) {
    if (Status s = CheckPositive("", field, v); !s.ok()) return s;
  }
  return Status::Ok();
}

double PredictRuntimeSeconds(const ResolvedModel& model, const Target& target,
                             Breakdown* breakdown) {
  const ProfileRun& ref = model.runs[NearestRun(model.runs, target)];
  return ScaledBreakdown(model, ref, target, breakdown, nullptr);
}

Prediction Predict(const ResolvedModel& model, const Target& target) {
  Prediction p;
  p.reference_run = NearestRun(model.runs, target);
  const ProfileRun& ref = model.runs[p.reference_run];
  p.runtime_seconds = ScaledBreakdown(model, ref, target, &p.breakdown, &p.reduction_object_bytes);

  const double limit = model.extrapolation_warning_ratio;
  auto warn_ratio = [&](const char* what, double target_value, double profiled_value) {
    const double ratio = target_value / profiled_value;
    if (ratio > limit || ratio < 1 / limit) {
      p.warnings.push_back(std::string(what) + " is " + FormatShort(ratio) +
                           "x the profiled run's (" + FormatShort(target_value) + " vs " +
                           FormatShort(profiled_value) + "), beyond the " + FormatShort(limit) +
                           "x the model is validated for");
    }
  };
  warn_ratio("dataset_bytes", target.dataset_bytes, ref.dataset_bytes);
  warn_ratio("compute_nodes", target.compute_nodes, ref.compute_nodes);
  warn_ratio("storage_nodes", target.storage_nodes, ref.storage_nodes);
  if (model.variant == ModelVariant::kSimple) {
    for (const ProfileRun& r : model.runs) {
      if (r.reduction_seconds > 0 || r.global_reduction_seconds > 0) {
        p.warnings.push_back(
            "simple model scales the measured reduction time with the data; it may be off when "
            "the reduction does not parallelize");
        break;
      }
    }
  }
  return p;
}

Result<ScalingFactors> ComputeScalingFactors(const std::vector<ReferenceMeasurement>& on_a,
                                             const std::vector<ReferenceMeasurement>& on_b) {
  double sum[3] = {0, 0, 0};
  int count[3] = {0, 0, 0};
  int common = 0;
  for (const ReferenceMeasurement& a : on_a) {
    for (const ReferenceMeasurement& b : on_b) {
      if (a.application != b.application) continue;
      ++common;
      const double pa[3] = {a.disk_seconds, a.network_seconds, a.compute_seconds};
      const double pb[3] = {b.disk_seconds, b.network_seconds, b.compute_seconds};
      for (int k = 0; k < 3; ++k) {
        if (pa[k] > 0 && std::isfinite(pa[k]) && pb[k] >= 0 && std::isfinite(pb[k])) {
          sum[k] += pb[k] / pa[k];
          ++count[k];
        }
      }
      break;
    }
  }
  if (common == 0) {
    return Status::InvalidArgument(
        "no reference application was measured on both clusters; scaling factors need at least "
        "one");
  }
  static const char* kNames[3] = {"disk", "network", "compute"};
  for (int k = 0; k < 3; ++k) {
    if (count[k] == 0) {
      return Status::InvalidArgument(std::string("no reference application has a positive ") +
                                     kNames[k] + "_seconds on the profiled cluster");
    }
  }
  return ScalingFactors{sum[0] / count[0], sum[1] / count[1], sum[2] / count[2]};
}

double PredictionError(double exact_seconds, double predicted_seconds) {
  return std::abs(exact_seconds - predicted_seconds) / exact_seconds;
}

}  // namespace perfplan::models
