#include "models/runtime_fit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "models/nnls.h"
#include "models/random.h"

namespace perfplan::models {
namespace {

// Two fits whose weighted residuals differ by less than this fraction are "as good"; the simpler
// class then wins (so collinear data does not pick a class by rounding noise).
constexpr double kClassTieFraction = 1e-6;
// Runs with fewer completed rows than this use in-sample residuals for the bootstrap; from this
// many on, leave-one-out residuals (prediction errors, not the in-sample fit, which is exact when
// runs ≈ parameters).
constexpr std::size_t kMinRunsForLooResiduals = 3;

std::string Num(double v) {
  std::ostringstream os;
  os.precision(6);
  os << v;
  return os.str();
}

struct ClassChoice {
  ReductionObjectClass object = ReductionObjectClass::kConstant;
  ReductionObjectScaling scaling = ReductionObjectScaling::kDataset;
  GlobalReductionClass global = GlobalReductionClass::kLinearConstant;
  double kappa = 0;  // memory overhead factor; 0 = no memory term
};

// What the basis needs besides the classes.
struct BasisSpec {
  ClassChoice cls;
  bool retrieval_scales = true;
  bool hardware_aware = false;
  double reference_vcpus = 1;
};

// Basis columns in a fixed order: compute, disk, network, fixed, reduction object, global, memory.
// Compute comes first: when the data cannot tell compute, disk and network apart (they all fall
// as 1/nodes on one instance type), NNLS gives the shared term to the first of them, so the
// parallel work is read as CPU work and scales with vCPUs on other hardware (docs/fit.md).
constexpr std::size_t kColumns = 7;

void Basis(const BasisSpec& spec, const RunConfig& x, double out[kColumns]) {
  const double s = x.dataset_bytes, n = x.storage_nodes, c = x.compute_nodes;
  const double b = x.bandwidth_bytes_per_second;
  const double v = spec.hardware_aware && x.vcpus > 0 ? x.vcpus / spec.reference_vcpus : 1.0;
  out[0] = s / (c * v);
  out[1] = s / n;
  out[2] = spec.retrieval_scales ? s / (n * b) : s / b;
  out[3] = 1;
  out[4] = spec.cls.object == ReductionObjectClass::kConstant
               ? 0
               : (spec.cls.scaling == ReductionObjectScaling::kDataset ? s : c);
  out[5] = spec.cls.global == GlobalReductionClass::kLinearConstant ? c : s;
  out[6] = spec.cls.kappa > 0 && x.memory_bytes > 0
               ? std::max(0.0, spec.cls.kappa * s / c - x.memory_bytes) / v
               : 0;
}

Status ValidateRuns(const std::vector<MeasuredRun>& runs) {
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const MeasuredRun& r = runs[i];
    const std::string where = "runs[" + std::to_string(i) + "].";
    for (auto [field, v] : {std::pair{"dataset_bytes", r.dataset_bytes},
                            {"storage_nodes", r.storage_nodes},
                            {"compute_nodes", r.compute_nodes},
                            {"bandwidth_bytes_per_second", r.bandwidth_bytes_per_second},
                            {"runtime_seconds", r.runtime_seconds}}) {
      if (!std::isfinite(v) || v <= 0) {
        return Status::InvalidField(where + field, "must be > 0, got " + Num(v));
      }
    }
  }
  return Status::Ok();
}

struct CoreFit {
  double theta[kColumns] = {0, 0, 0, 0, 0, 0, 0};
  std::vector<bool> censored_active;
  double score = 0;  // weighted SSE over completed + hinge violations of censored rows
};

double Dot(const double* a, const double* b) {
  double s = 0;
  for (std::size_t k = 0; k < kColumns; ++k) s += a[k] * b[k];
  return s;
}

// Weighted NNLS with the censoring hinge, for one class choice. `skip` (if < runs.size()) is left
// out (leave-one-out).
Result<CoreFit> FitCore(const std::vector<MeasuredRun>& runs, const std::vector<double>& y,
                        const BasisSpec& spec, const FitOptions& options,
                        std::size_t skip = static_cast<std::size_t>(-1)) {
  const std::size_t m = runs.size();
  std::vector<std::array<double, kColumns>> basis(m);
  for (std::size_t i = 0; i < m; ++i) Basis(spec, ConfigOf(runs[i]), basis[i].data());
  CoreFit fit;
  fit.censored_active.assign(m, false);
  for (int iteration = 0;; ++iteration) {
    DenseMatrix a;
    a.cols = kColumns;
    std::vector<double> rhs;
    for (std::size_t i = 0; i < m; ++i) {
      if (i == skip || (!runs[i].completed && !fit.censored_active[i])) continue;
      const double w = 1.0 / y[i];
      for (std::size_t k = 0; k < kColumns; ++k) a.values.push_back(basis[i][k] * w);
      rhs.push_back(1.0);
      ++a.rows;
    }
    Result<NnlsSolution> solution = SolveNnls(a, rhs);
    if (!solution.ok()) return solution.status();
    std::copy(solution.value().x.begin(), solution.value().x.end(), fit.theta);
    bool added = false;
    for (std::size_t i = 0; i < m; ++i) {
      if (i == skip || runs[i].completed || fit.censored_active[i]) continue;
      if (Dot(fit.theta, basis[i].data()) < y[i] * (1 - 1e-9)) {
        fit.censored_active[i] = true;
        added = true;
      }
    }
    if (!added || iteration + 1 >= options.max_censoring_iterations) break;
  }
  fit.score = 0;
  for (std::size_t i = 0; i < m; ++i) {
    if (i == skip) continue;
    const double e = (y[i] - Dot(fit.theta, basis[i].data())) / y[i];
    if (runs[i].completed || e > 0) fit.score += e * e;
  }
  return fit;
}

// Leave-one-out relative squared error of the completed runs.
Result<double> LeaveOneOutScore(const std::vector<MeasuredRun>& runs, const std::vector<double>& y,
                                const BasisSpec& spec, const FitOptions& options) {
  double score = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!runs[i].completed) continue;
    Result<CoreFit> fit = FitCore(runs, y, spec, options, i);
    if (!fit.ok()) return fit.status();
    double basis[kColumns];
    Basis(spec, ConfigOf(runs[i]), basis);
    const double e = (y[i] - Dot(fit.value().theta, basis)) / y[i];
    score += e * e;
  }
  return score;
}

std::vector<ClassChoice> Candidates(const FitOptions& o) {
  std::vector<ClassChoice> out;
  std::vector<std::pair<ReductionObjectClass, ReductionObjectScaling>> objects;
  if (o.reduction_object_class) {
    objects.push_back({*o.reduction_object_class, o.reduction_object_scaling});
  } else {
    objects = {{ReductionObjectClass::kConstant, ReductionObjectScaling::kDataset},
               {ReductionObjectClass::kLinear, ReductionObjectScaling::kDataset},
               {ReductionObjectClass::kLinear, ReductionObjectScaling::kComputeNodes}};
  }
  std::vector<GlobalReductionClass> globals;
  if (o.global_reduction_class) {
    globals.push_back(*o.global_reduction_class);
  } else {
    globals = {GlobalReductionClass::kLinearConstant, GlobalReductionClass::kConstantLinear};
  }
  std::vector<double> kappas = {0};
  if (o.hardware_aware && o.memory_overhead_factor) {
    kappas = {*o.memory_overhead_factor};
  } else if (o.hardware_aware) {
    kappas.insert(kappas.end(), o.memory_overhead_factors.begin(), o.memory_overhead_factors.end());
  }
  for (double kappa : kappas) {
    for (auto [object, scaling] : objects) {
      for (auto global : globals) out.push_back({object, scaling, global, kappa});
    }
  }
  return out;
}

// Fit with explicit targets y (the bootstrap replaces the measured values).
Result<RuntimeFit> FitWithValues(const std::vector<MeasuredRun>& runs, const std::vector<double>& y,
                                 const FitOptions& options) {
  std::size_t completed = 0;
  for (const MeasuredRun& r : runs) completed += r.completed ? 1 : 0;
  std::vector<std::string> types;
  for (const MeasuredRun& r : runs) {
    if (std::find(types.begin(), types.end(), r.instance_type) == types.end()) {
      types.push_back(r.instance_type);
    }
  }
  std::string type_list;
  for (const std::string& t : types) type_list += (type_list.empty() ? "" : "+") + t;
  const std::string what =
      runs.empty() ? std::string("fit") : "fit of " + runs[0].workload + " on " + type_list;
  if (completed == 0 && !runs.empty()) {
    return Status::InvalidArgument(what + ": all " + std::to_string(runs.size()) +
                                   " runs are censored (completed=false); a fit needs at least " +
                                   std::to_string(options.min_completed_runs) + " completed runs");
  }
  if (completed < options.min_completed_runs) {
    return Status::InvalidArgument(what + " needs at least " +
                                   std::to_string(options.min_completed_runs) +
                                   " completed runs, got " + std::to_string(completed) + " (" +
                                   std::to_string(runs.size() - completed) + " censored)");
  }
  for (std::size_t i = 1; i < runs.size(); ++i) {
    if (runs[i].workload != runs[0].workload ||
        (!options.hardware_aware && runs[i].instance_type != runs[0].instance_type)) {
      return Status::InvalidArgument("runs[" + std::to_string(i) +
                                     "]: a fit takes runs of one workload on one instance "
                                     "type; got " +
                                     runs[i].workload + " on " + runs[i].instance_type + " after " +
                                     runs[0].workload + " on " + runs[0].instance_type);
    }
  }
  if (options.hardware_aware) {
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (!(runs[i].vcpus > 0) || !(runs[i].memory_bytes > 0)) {
        return Status::InvalidArgument("runs[" + std::to_string(i) +
                                       "]: a hardware-aware fit needs vcpus and memory_bytes of "
                                       "instance type '" +
                                       runs[i].instance_type + "'");
      }
    }
  }

  // Reference: the completed run with the median compute-node count (first type on ties).
  std::vector<std::size_t> completed_idx;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].completed) completed_idx.push_back(i);
  }
  std::stable_sort(completed_idx.begin(), completed_idx.end(), [&](std::size_t a, std::size_t b) {
    return runs[a].compute_nodes < runs[b].compute_nodes;
  });
  const MeasuredRun& reference = runs[completed_idx[completed_idx.size() / 2]];

  const std::vector<ClassChoice> candidates = Candidates(options);
  const bool cross_validate = options.choose_by_cross_validation && candidates.size() > 1 &&
                              completed >= kMinRunsForLooResiduals;
  std::optional<CoreFit> best;
  BasisSpec best_spec;
  double best_score = 0;
  for (const ClassChoice& cls : candidates) {
    BasisSpec spec{cls, options.retrieval_scales_with_storage_nodes, options.hardware_aware,
                   options.hardware_aware ? reference.vcpus : 1.0};
    Result<CoreFit> fit = FitCore(runs, y, spec, options);
    if (!fit.ok()) return fit.status();
    double score = fit.value().score;
    if (cross_validate) {
      Result<double> loo = LeaveOneOutScore(runs, y, spec, options);
      if (!loo.ok()) return loo.status();
      score = loo.value();
    }
    if (!best || score < best_score * (1 - kClassTieFraction) - 1e-15) {
      best = fit.value();
      best_spec = spec;
      best_score = score;
    }
  }

  RuntimeFit out;
  out.workload = runs[0].workload;
  out.instance_type = reference.instance_type;
  out.instance_types = types;
  out.hardware_aware = options.hardware_aware;
  out.reference_vcpus = best_spec.reference_vcpus;
  out.reduction_object_class = best_spec.cls.object;
  out.reduction_object_scaling = best_spec.cls.scaling;
  out.global_reduction_class = best_spec.cls.global;
  out.memory_overhead_factor = best_spec.cls.kappa;
  out.classes_chosen_by_fit = candidates.size() > 1;
  out.retrieval_scales_with_storage_nodes = options.retrieval_scales_with_storage_nodes;
  out.compute_coefficient = best->theta[0];
  out.disk_coefficient = best->theta[1];
  out.network_coefficient = best->theta[2];
  out.fixed_seconds = best->theta[3];
  out.reduction_object_coefficient = best->theta[4];
  out.global_reduction_coefficient = best->theta[5];
  out.memory_coefficient = best->theta[6];
  out.selection_score = best_score;
  out.reference = ConfigOf(reference);

  double sse = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const double predicted = PredictFitted(out, ConfigOf(runs[i])).TotalSeconds();
    out.runs_used.push_back(i);
    out.residual_seconds.push_back(y[i] - predicted);
    out.run_censored.push_back(!runs[i].completed);
    if (runs[i].completed) sse += std::pow((y[i] - predicted) / y[i], 2);
    if (best->censored_active[i]) ++out.censored_active;
  }
  out.weighted_rms = std::sqrt(sse / static_cast<double>(completed));
  if (out.classes_chosen_by_fit) {
    out.notes.push_back(std::string("classes chosen by ") +
                        (cross_validate ? "leave-one-out error" : "in-sample residual") +
                        " among " + std::to_string(candidates.size()) +
                        " candidates: reduction object " +
                        std::string(ToString(out.reduction_object_class)) +
                        (out.reduction_object_class == ReductionObjectClass::kLinear
                             ? " (" + std::string(ToString(out.reduction_object_scaling)) + ")"
                             : std::string()) +
                        ", global reduction " + std::string(ToString(out.global_reduction_class)) +
                        (options.hardware_aware
                             ? (out.memory_overhead_factor > 0
                                    ? ", memory term with kappa " + Num(out.memory_overhead_factor)
                                    : std::string(", no memory term"))
                             : std::string()) +
                        "; score " + Num(best_score));
  }
  if (completed < runs.size()) {
    out.notes.push_back(std::to_string(runs.size() - completed) +
                        " censored run(s) used as lower bounds; " +
                        std::to_string(out.censored_active) + " bound(s) active in the fit");
  }
  return out;
}

std::vector<double> MeasuredValues(const std::vector<MeasuredRun>& runs) {
  std::vector<double> y;
  for (const MeasuredRun& r : runs) y.push_back(r.runtime_seconds);
  return y;
}

FitOptions WithClasses(FitOptions options, const RuntimeFit& fit) {
  options.reduction_object_class = fit.reduction_object_class;
  options.reduction_object_scaling = fit.reduction_object_scaling;
  options.global_reduction_class = fit.global_reduction_class;
  options.memory_overhead_factor = fit.memory_overhead_factor;
  return options;
}

// Relative prediction residuals (measured/predicted − 1) of the completed runs: leave-one-out when
// there are enough runs, in-sample otherwise.
std::vector<double> RelativeResiduals(const std::vector<MeasuredRun>& runs, const RuntimeFit& fit,
                                      const FitOptions& options) {
  std::vector<double> out;
  std::size_t completed = 0;
  for (const MeasuredRun& r : runs) completed += r.completed ? 1 : 0;
  FitOptions loo = WithClasses(options, fit);
  loo.min_completed_runs = 1;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!runs[i].completed) continue;
    double predicted = PredictFitted(fit, ConfigOf(runs[i])).TotalSeconds();
    if (completed >= kMinRunsForLooResiduals) {
      std::vector<MeasuredRun> rest;
      for (std::size_t j = 0; j < runs.size(); ++j) {
        if (j != i) rest.push_back(runs[j]);
      }
      Result<RuntimeFit> refit = FitRuntime(rest, loo);
      if (refit.ok()) predicted = PredictFitted(refit.value(), ConfigOf(runs[i])).TotalSeconds();
    }
    if (predicted > 0) out.push_back(runs[i].runtime_seconds / predicted - 1);
  }
  return out;
}

double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

}  // namespace

RunConfig ConfigOf(const MeasuredRun& run) {
  return {run.dataset_bytes, run.storage_nodes, run.compute_nodes, run.bandwidth_bytes_per_second,
          run.vcpus,         run.memory_bytes};
}

std::string_view ToString(HeterogeneityMode mode) {
  return mode == HeterogeneityMode::kHardware ? "hardware" : "references";
}

bool Parse(std::string_view text, HeterogeneityMode* out) {
  for (auto v : {HeterogeneityMode::kHardware, HeterogeneityMode::kReferences}) {
    if (text == ToString(v)) return *out = v, true;
  }
  return false;
}

Status FitOptions::Validate() const {
  if (min_completed_runs < 1) {
    return Status::InvalidField("min_completed_runs", "must be >= 1, got 0");
  }
  for (double kappa : memory_overhead_factors) {
    if (!std::isfinite(kappa) || kappa <= 0) {
      return Status::InvalidField("memory_overhead_factors",
                                  "every factor must be > 0, got " + Num(kappa));
    }
  }
  if (memory_overhead_factor &&
      (!std::isfinite(*memory_overhead_factor) || *memory_overhead_factor < 0)) {
    return Status::InvalidField("memory_overhead_factor",
                                "must be >= 0, got " + Num(*memory_overhead_factor));
  }
  if (max_censoring_iterations < 1) {
    return Status::InvalidField("max_censoring_iterations",
                                "must be >= 1, got " + std::to_string(max_censoring_iterations));
  }
  return Status::Ok();
}

Status EvaluateOptions::Validate() const {
  if (Status s = fit.Validate(); !s.ok()) return s;
  if (bootstrap_replicates < 0) {
    return Status::InvalidField("bootstrap_replicates",
                                "must be >= 0, got " + std::to_string(bootstrap_replicates));
  }
  if (!(interval_level > 0 && interval_level < 1)) {
    return Status::InvalidField("interval_level", "must be in (0, 1), got " + Num(interval_level));
  }
  return Status::Ok();
}

Result<RuntimeFit> FitRuntime(const std::vector<MeasuredRun>& runs, const FitOptions& options) {
  if (Status s = options.Validate(); !s.ok()) return s;
  if (Status s = ValidateRuns(runs); !s.ok()) return s;
  return FitWithValues(runs, MeasuredValues(runs), options);
}

Breakdown PredictFitted(const RuntimeFit& fit, const RunConfig& x, const ScalingFactors& scaling) {
  BasisSpec spec{{fit.reduction_object_class, fit.reduction_object_scaling,
                  fit.global_reduction_class, fit.memory_overhead_factor},
                 fit.retrieval_scales_with_storage_nodes,
                 fit.hardware_aware,
                 fit.reference_vcpus > 0 ? fit.reference_vcpus : 1.0};
  double basis[kColumns];
  Basis(spec, x, basis);
  Breakdown b;
  // The memory-pressure term is local processing: it is reported inside compute_seconds.
  b.compute_seconds =
      scaling.compute * (fit.compute_coefficient * basis[0] + fit.memory_coefficient * basis[6]);
  b.disk_seconds = scaling.disk * fit.disk_coefficient * basis[1];
  b.network_seconds = scaling.network * fit.network_coefficient * basis[2];
  b.reduction_seconds =
      scaling.compute * (fit.fixed_seconds + fit.reduction_object_coefficient * basis[4]);
  b.global_reduction_seconds = scaling.compute * fit.global_reduction_coefficient * basis[5];
  return b;
}

Result<RuntimeProfile> ToProfile(const RuntimeFit& fit) {
  if (fit.instance_types.size() > 1) {
    return Status::InvalidArgument("a fit over several instance types (" +
                                   std::to_string(fit.instance_types.size()) +
                                   ") has no single-profile form; fit one instance type");
  }
  if (fit.memory_overhead_factor > 0 && fit.memory_coefficient > 0) {
    return Status::InvalidArgument(
        "the fit has a memory-pressure term, which a FREERIDE-G profile cannot express");
  }
  const Breakdown b = PredictFitted(fit, fit.reference);
  RuntimeProfile p;
  p.application = fit.workload;
  p.reduction_object_class = fit.reduction_object_class;
  p.reduction_object_scaling = fit.reduction_object_scaling;
  p.global_reduction_class = fit.global_reduction_class;
  p.retrieval_scales_with_storage_nodes = fit.retrieval_scales_with_storage_nodes;
  ProfileRun run;
  run.dataset_bytes = fit.reference.dataset_bytes;
  run.storage_nodes = fit.reference.storage_nodes;
  run.compute_nodes = fit.reference.compute_nodes;
  run.bandwidth_bytes_per_second = fit.reference.bandwidth_bytes_per_second;
  run.disk_seconds = b.disk_seconds;
  run.network_seconds = b.network_seconds;
  // The fit cannot observe the reduction object's size: r is written as 1 (a nominal byte) and
  // A_ro carries the whole growing term, so r' = r·(s_x/s or c_x/c) reproduces θ_r·x_r.
  ReductionCommunication rc;
  rc.fixed_seconds = fit.fixed_seconds;
  if (fit.reduction_object_class == ReductionObjectClass::kLinear) {
    run.reduction_object_bytes = 1;
    rc.seconds_per_byte = fit.reduction_object_coefficient *
                          (fit.reduction_object_scaling == ReductionObjectScaling::kDataset
                               ? fit.reference.dataset_bytes
                               : fit.reference.compute_nodes);
  }
  p.reduction_communication = rc;
  run.reduction_seconds = b.reduction_seconds;
  run.global_reduction_seconds = b.global_reduction_seconds;
  run.compute_seconds = b.compute_seconds + b.reduction_seconds + b.global_reduction_seconds;
  p.runs.push_back(run);
  return p;
}

Result<HeterogeneityFactors> LearnHeterogeneity(const std::vector<RuntimeFit>& on_a,
                                                const std::vector<RuntimeFit>& on_b) {
  double sum[4] = {0, 0, 0, 0};
  int count[4] = {0, 0, 0, 0};
  HeterogeneityFactors out;
  for (const RuntimeFit& a : on_a) {
    for (const RuntimeFit& b : on_b) {
      if (a.workload != b.workload) continue;
      const Breakdown ba = PredictFitted(a, a.reference);
      const Breakdown bb = PredictFitted(b, a.reference);
      const double ca[4] = {ba.disk_seconds, ba.network_seconds,
                            ba.compute_seconds + ba.reduction_seconds + ba.global_reduction_seconds,
                            ba.TotalSeconds()};
      const double cb[4] = {bb.disk_seconds, bb.network_seconds,
                            bb.compute_seconds + bb.reduction_seconds + bb.global_reduction_seconds,
                            bb.TotalSeconds()};
      for (int k = 0; k < 4; ++k) {
        // A component below 1e-9 of the total is "absent" on a: its ratio says nothing.
        if (ca[k] > 1e-9 * ca[3] && ca[k] > 0) {
          sum[k] += cb[k] / ca[k];
          ++count[k];
        }
      }
      out.references.push_back(a.workload);
      break;
    }
  }
  if (out.references.empty() || count[3] == 0) {
    return Status::InvalidArgument(
        "no reference workload was fitted on both instance types; heterogeneity factors need at "
        "least one");
  }
  const double total = sum[3] / count[3];
  static const char* kNames[3] = {"disk", "network", "compute"};
  double f[3];
  for (int k = 0; k < 3; ++k) {
    if (count[k] > 0) {
      f[k] = sum[k] / count[k];
    } else {
      f[k] = total;
      out.notes.push_back(std::string("no reference has a ") + kNames[k] +
                          " component on the profiled type; its factor is the total-runtime "
                          "ratio " +
                          Num(total));
    }
  }
  out.factors = {f[0], f[1], f[2]};
  return out;
}

Result<ErnestModel> FitErnest(const std::vector<MeasuredRun>& runs) {
  DenseMatrix a;
  a.cols = 4;
  std::vector<double> b;
  for (const MeasuredRun& r : runs) {
    if (!r.completed) continue;
    const double m = r.compute_nodes;
    // Ernest's "scale" is the input fraction; here the dataset in units of the first run's size,
    // so one workload's constant size gives scale 1 as in upstream's examples.
    const double scale = r.dataset_bytes / runs[0].dataset_bytes;
    for (double v : {1.0, scale / m, m, std::log(m)}) a.values.push_back(v);
    b.push_back(r.runtime_seconds);
    ++a.rows;
  }
  if (a.rows == 0) return Status::InvalidArgument("Ernest needs at least 1 completed run");
  Result<NnlsSolution> s = SolveNnls(a, b);
  if (!s.ok()) return s.status();
  ErnestModel out;
  for (int k = 0; k < 4; ++k) out.theta[k] = s.value().x[static_cast<std::size_t>(k)];
  // Remember the unit of scale: dataset bytes of the first run.
  out.theta[1] /= runs[0].dataset_bytes;
  return out;
}

double PredictErnest(const ErnestModel& e, const RunConfig& x) {
  const double m = x.compute_nodes;
  return e.theta[0] + e.theta[1] * x.dataset_bytes / m + e.theta[2] * m + e.theta[3] * std::log(m);
}

Result<AmdahlModel> FitAmdahl(const std::vector<MeasuredRun>& runs) {
  DenseMatrix a;
  a.cols = 2;
  std::vector<double> b;
  for (const MeasuredRun& r : runs) {
    if (!r.completed) continue;
    a.values.push_back(1);
    a.values.push_back(1 / r.compute_nodes);
    b.push_back(r.runtime_seconds);
    ++a.rows;
  }
  if (a.rows == 0) return Status::InvalidArgument("Amdahl needs at least 1 completed run");
  Result<NnlsSolution> s = SolveNnls(a, b);
  if (!s.ok()) return s.status();
  return AmdahlModel{s.value().x[0], s.value().x[1]};
}

double PredictAmdahl(const AmdahlModel& m, const RunConfig& x) {
  return m.serial_seconds + m.parallel_seconds / x.compute_nodes;
}

ErrorSummary Summarize(std::vector<double> apes) {
  ErrorSummary s;
  s.predicted = apes.size();
  if (apes.empty()) return s;
  std::sort(apes.begin(), apes.end());
  const std::size_t n = apes.size();
  s.median_ape = n % 2 ? apes[n / 2] : (apes[n / 2 - 1] + apes[n / 2]) / 2;
  const auto rank = static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(n)));
  s.p90_ape = apes[std::max<std::size_t>(rank, 1) - 1];
  double sum = 0;
  for (double v : apes) sum += v;
  s.mean_ape = sum / static_cast<double>(n);
  return s;
}

Result<Evaluation> EvaluateWorkload(const std::vector<MeasuredRun>& rows,
                                    const std::vector<bool>& train, const std::string& workload,
                                    const EvaluateOptions& options) {
  if (Status s = options.Validate(); !s.ok()) return s;
  if (rows.size() != train.size()) {
    return Status::InvalidArgument("evaluate: " + std::to_string(rows.size()) + " rows but " +
                                   std::to_string(train.size()) + " training flags");
  }
  if (Status s = ValidateRuns(rows); !s.ok()) return s;
  Evaluation ev;
  ev.workload = workload;
  ev.seed = options.seed;
  ev.heterogeneity = options.heterogeneity;

  bool any_row = false;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const MeasuredRun& r = rows[i];
    if (r.workload != workload) continue;
    any_row = true;
    if (train[i]) ev.train_rows.push_back(i);
    if (ev.heterogeneity == HeterogeneityMode::kHardware &&
        (!(r.vcpus > 0) || !(r.memory_bytes > 0))) {
      ev.heterogeneity = HeterogeneityMode::kReferences;
      ev.notes.push_back("instance type " + r.instance_type +
                         " has no vCPU/memory figures; using reference-workload factors");
    }
  }
  if (!any_row) return Status::InvalidArgument("evaluate: no row has workload " + workload);
  if (ev.train_rows.empty()) {
    return Status::InvalidField("train", "selects no row of workload " + workload);
  }
  const bool hardware = ev.heterogeneity == HeterogeneityMode::kHardware;
  constexpr const char* kPooled = "*";

  // Training runs of the workload, grouped by fit: one pooled group (hardware) or one per type.
  std::vector<std::string> groups;
  std::map<std::string, std::vector<MeasuredRun>> train_by_group;
  std::map<std::string, std::vector<MeasuredRun>> reference_by_type_workload;
  std::set<std::string> reference_workloads;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const MeasuredRun& r = rows[i];
    if (r.workload == workload) {
      if (!train[i]) continue;
      const std::string key = hardware ? kPooled : r.instance_type;
      if (!train_by_group.count(key)) groups.push_back(key);
      train_by_group[key].push_back(r);
    } else {
      reference_workloads.insert(r.workload);
      reference_by_type_workload[r.instance_type + "\n" + r.workload].push_back(r);
    }
  }

  FitOptions fit_options = options.fit;
  fit_options.hardware_aware = hardware;
  std::map<std::string, RuntimeFit> fits;
  std::map<std::string, std::vector<double>> residual_pool;
  std::string base_type;
  std::size_t base_completed = 0;
  Status last_error;
  for (const std::string& g : groups) {
    Result<RuntimeFit> fit = FitRuntime(train_by_group[g], fit_options);
    if (!fit.ok()) {
      last_error = fit.status();
      ev.notes.push_back("no model for " + std::string(g == kPooled ? "the training rows" : g) +
                         ": " + fit.status().message());
      continue;
    }
    fits[g] = fit.value();
    ev.fits.push_back(fit.value());
    residual_pool[g] = RelativeResiduals(train_by_group[g], fit.value(), fit_options);
    std::size_t completed = 0;
    for (const MeasuredRun& r : train_by_group[g]) completed += r.completed ? 1 : 0;
    if (completed > base_completed) {
      base_completed = completed;
      base_type = g;
    }
  }
  if (fits.empty()) return last_error;

  // Reference fits (kReferences), per (type, workload), fitted lazily.
  FitOptions reference_options = options.fit;
  reference_options.hardware_aware = false;
  std::map<std::string, std::optional<RuntimeFit>> reference_fits;
  auto reference_fits_on = [&](const std::string& type) {
    std::vector<RuntimeFit> out;
    for (const std::string& k : reference_workloads) {
      const std::string key = type + "\n" + k;
      if (!reference_fits.count(key)) {
        auto it = reference_by_type_workload.find(key);
        std::optional<RuntimeFit> f;
        if (it != reference_by_type_workload.end()) {
          Result<RuntimeFit> r = FitRuntime(it->second, reference_options);
          if (r.ok()) f = r.value();
        }
        reference_fits[key] = f;
      }
      if (reference_fits[key]) out.push_back(*reference_fits[key]);
    }
    return out;
  };
  std::map<std::string, std::optional<ScalingFactors>> factors_for;
  auto factors_to = [&](const std::string& type) -> std::optional<ScalingFactors> {
    if (factors_for.count(type)) return factors_for[type];
    Result<HeterogeneityFactors> h =
        LearnHeterogeneity(reference_fits_on(base_type), reference_fits_on(type));
    std::optional<ScalingFactors> f;
    if (h.ok()) {
      f = h.value().factors;
      ev.notes.push_back(type + " from " + base_type + ": factors disk " + Num(f->disk) +
                         ", network " + Num(f->network) + ", compute " + Num(f->compute) +
                         " from " + std::to_string(h.value().references.size()) +
                         " reference workload(s)");
    } else {
      ev.notes.push_back("no prediction on " + type + ": " + h.status().message());
    }
    factors_for[type] = f;
    return f;
  };

  // Baselines per training type (Ernest: one model per instance type, as its authors do).
  std::map<std::string, std::vector<MeasuredRun>> train_by_type;
  std::vector<MeasuredRun> all_train;
  for (std::size_t i : ev.train_rows) {
    train_by_type[rows[i].instance_type].push_back(rows[i]);
    all_train.push_back(rows[i]);
  }
  std::map<std::string, ErnestModel> ernest;
  std::map<std::string, AmdahlModel> amdahl;
  for (const auto& [t, runs] : train_by_type) {
    std::size_t completed = 0;
    for (const MeasuredRun& r : runs) completed += r.completed ? 1 : 0;
    // Two points fix Amdahl's two terms; Ernest is allowed from two points too (NNLS picks).
    if (completed >= 2) {
      if (auto e = FitErnest(runs); e.ok()) ernest[t] = e.value();
      if (auto a = FitAmdahl(runs); a.ok()) amdahl[t] = a.value();
    }
  }
  std::optional<AmdahlModel> amdahl_pooled;
  if (auto a = FitAmdahl(all_train); a.ok()) amdahl_pooled = a.value();

  // Predictions.
  std::vector<double> apes, ernest_apes, amdahl_apes, perfplan_on_ernest;
  std::vector<std::string> row_group;
  std::vector<ScalingFactors> row_scaling;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const MeasuredRun& r = rows[i];
    if (r.workload != workload || train[i]) continue;
    EvaluatedRow out;
    out.row = i;
    out.run = r;
    const RunConfig x = ConfigOf(r);
    std::string group;
    ScalingFactors scaling;
    if (hardware) {
      if (fits.count(kPooled)) {
        group = kPooled;
        out.method = "hardware-aware fit";
      }
    } else if (fits.count(r.instance_type)) {
      group = r.instance_type;
      out.method = "same-type fit";
    } else if (auto f = factors_to(r.instance_type)) {
      group = base_type;
      scaling = *f;
      out.method = "heterogeneity from " + base_type;
    }
    if (!group.empty()) {
      out.predicted_seconds = PredictFitted(fits[group], x, scaling).TotalSeconds();
    }
    if (ernest.count(r.instance_type)) {
      out.ernest_seconds = PredictErnest(ernest[r.instance_type], x);
    }
    if (amdahl.count(r.instance_type)) {
      out.amdahl_seconds = PredictAmdahl(amdahl[r.instance_type], x);
    } else if (amdahl_pooled) {
      out.amdahl_seconds = PredictAmdahl(*amdahl_pooled, x);
    }
    if (r.completed) {
      if (out.predicted_seconds) {
        out.ape = PredictionError(r.runtime_seconds, *out.predicted_seconds);
        apes.push_back(*out.ape);
      }
      if (out.ernest_seconds) {
        out.ernest_ape = PredictionError(r.runtime_seconds, *out.ernest_seconds);
        ernest_apes.push_back(*out.ernest_ape);
        if (out.ape) perfplan_on_ernest.push_back(*out.ape);
      }
      if (out.amdahl_seconds) {
        out.amdahl_ape = PredictionError(r.runtime_seconds, *out.amdahl_seconds);
        amdahl_apes.push_back(*out.amdahl_ape);
      }
    } else {
      ++ev.censored_rows;
      if (out.predicted_seconds) {
        out.respects_bound = *out.predicted_seconds >= r.runtime_seconds;
        ev.censored_respected += *out.respects_bound ? 1 : 0;
      }
    }
    ev.rows.push_back(out);
    row_group.push_back(group);
    row_scaling.push_back(scaling);
  }

  // Residual bootstrap: per fit, B refits on ŷ·(1 + r*) with the fit's classes fixed; each
  // replicate's prediction is perturbed by one more resampled relative residual.
  std::size_t inside = 0, with_interval = 0;
  // Out-of-sample errors of the same training design on the reference workloads.
  std::vector<double> design_pool;
  if (options.bootstrap_replicates > 0 && options.interval_noise_from_references) {
    EvaluateOptions inner = options;
    inner.bootstrap_replicates = 0;
    inner.interval_noise_from_references = false;
    inner.heterogeneity = ev.heterogeneity;
    std::set<std::pair<std::string, double>> design;
    for (std::size_t i : ev.train_rows) {
      design.insert({rows[i].instance_type, rows[i].compute_nodes});
    }
    for (const std::string& k : reference_workloads) {
      std::vector<bool> mask(rows.size(), false);
      for (std::size_t i = 0; i < rows.size(); ++i) {
        mask[i] = rows[i].workload == k &&
                  design.count({rows[i].instance_type, rows[i].compute_nodes}) > 0;
      }
      Result<Evaluation> reference = EvaluateWorkload(rows, mask, k, inner);
      if (!reference.ok()) continue;
      for (const EvaluatedRow& r : reference.value().rows) {
        if (r.ape && *r.predicted_seconds > 0) {
          design_pool.push_back(r.run.runtime_seconds / *r.predicted_seconds - 1);
        }
      }
    }
    constexpr std::size_t kMinDesignErrors = 5;
    if (design_pool.size() < kMinDesignErrors) design_pool.clear();
    ev.interval_noise_references = design_pool.size();
  }
  if (options.bootstrap_replicates > 0) {
    Rng rng(options.seed);
    const double tail = (1 - options.interval_level) / 2;
    std::vector<std::vector<double>> samples(ev.rows.size());
    for (const std::string& g : groups) {
      if (!fits.count(g)) continue;
      const RuntimeFit& fit = fits[g];
      const std::vector<double>& pool = residual_pool[g];
      if (pool.empty()) continue;
      std::vector<double> noise = pool;
      noise.insert(noise.end(), design_pool.begin(), design_pool.end());
      const std::vector<MeasuredRun>& runs = train_by_group[g];
      const FitOptions fixed = WithClasses(fit_options, fit);
      for (int b = 0; b < options.bootstrap_replicates; ++b) {
        std::vector<double> y;
        for (const MeasuredRun& r : runs) {
          y.push_back(r.completed ? PredictFitted(fit, ConfigOf(r)).TotalSeconds() *
                                        (1 + pool[rng.Below(pool.size())])
                                  : r.runtime_seconds);
          if (!(y.back() > 0)) y.back() = r.runtime_seconds;
        }
        Result<RuntimeFit> refit = FitWithValues(runs, y, fixed);
        if (!refit.ok()) continue;
        for (std::size_t k = 0; k < ev.rows.size(); ++k) {
          if (row_group[k] != g) continue;
          samples[k].push_back(
              PredictFitted(refit.value(), ConfigOf(ev.rows[k].run), row_scaling[k])
                  .TotalSeconds() *
              (1 + noise[rng.Below(noise.size())]));
        }
      }
    }
    for (std::size_t k = 0; k < ev.rows.size(); ++k) {
      EvaluatedRow& row = ev.rows[k];
      if (!row.predicted_seconds || samples[k].empty()) continue;
      row.interval_low_seconds = Quantile(samples[k], tail);
      row.interval_high_seconds = Quantile(samples[k], 1 - tail);
      if (row.run.completed) {
        row.inside_interval = row.run.runtime_seconds >= *row.interval_low_seconds &&
                              row.run.runtime_seconds <= *row.interval_high_seconds;
        ++with_interval;
        inside += *row.inside_interval ? 1 : 0;
      }
    }
  }
  ev.interval_coverage =
      with_interval ? static_cast<double>(inside) / static_cast<double>(with_interval) : 0;
  ev.perfplan = Summarize(apes);
  ev.ernest = Summarize(ernest_apes);
  ev.amdahl = Summarize(amdahl_apes);
  ev.perfplan_on_ernest_rows = Summarize(perfplan_on_ernest);

  // Selection: predict every configuration of the workload, training rows included.
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const MeasuredRun& r = rows[i];
    if (r.workload != workload) continue;
    const double measured = r.runtime_seconds * r.compute_nodes;
    if (r.completed && (!ev.selection.best_measured_node_seconds ||
                        measured < ev.selection.best_measured_node_seconds)) {
      ev.selection.best_measured_node_seconds = measured;
      ev.selection.best_row = i;
    }
    std::optional<double> predicted;
    if (hardware && fits.count(kPooled)) {
      predicted = PredictFitted(fits[kPooled], ConfigOf(r)).TotalSeconds();
    } else if (!hardware && fits.count(r.instance_type)) {
      predicted = PredictFitted(fits[r.instance_type], ConfigOf(r)).TotalSeconds();
    } else if (!hardware && factors_for.count(r.instance_type) && factors_for[r.instance_type]) {
      predicted =
          PredictFitted(fits[base_type], ConfigOf(r), *factors_for[r.instance_type]).TotalSeconds();
    }
    if (!predicted) continue;
    const double node_seconds = *predicted * r.compute_nodes;
    if (!ev.selection.available || node_seconds < ev.selection.picked_predicted_node_seconds) {
      ev.selection.available = true;
      ev.selection.picked_row = i;
      ev.selection.picked_predicted_node_seconds = node_seconds;
      ev.selection.picked_measured_node_seconds = measured;
      ev.selection.picked_completed = r.completed;
    }
  }
  if (ev.selection.available && ev.selection.best_measured_node_seconds > 0) {
    ev.selection.gap =
        ev.selection.picked_measured_node_seconds / ev.selection.best_measured_node_seconds - 1;
  }
  return ev;
}

}  // namespace perfplan::models
