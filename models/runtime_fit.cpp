#include "models/runtime_fit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include "models/censoring_hinge.h"
#include "models/nnls.h"
#include "models/short_number.h"

namespace perfplan::models {
namespace {

// Two fits whose weighted residuals differ by less than this fraction are "as good"; the simpler
// class then wins (so collinear data does not pick a class by rounding noise).
constexpr double kClassTieFraction = 1e-6;
// Runs with fewer completed rows than this choose classes by the in-sample residual; from this
// many on, by leave-one-out error (the in-sample fit is exact when runs ≈ parameters).
constexpr std::size_t kMinRunsForLooResiduals = 3;

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

Status ValidateRunsImpl(const std::vector<MeasuredRun>& runs) {
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const MeasuredRun& r = runs[i];
    const std::string where = "runs[" + std::to_string(i) + "].";
    for (auto [field, v] : {std::pair{"dataset_bytes", r.dataset_bytes},
                            {"storage_nodes", r.storage_nodes},
                            {"compute_nodes", r.compute_nodes},
                            {"bandwidth_bytes_per_second", r.bandwidth_bytes_per_second},
                            {"runtime_seconds", r.runtime_seconds}}) {
      if (!std::isfinite(v) || v <= 0) {
        return Status::InvalidField(where + field, "must be > 0, got " + FormatShort(v));
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

// Weighted NNLS with the censoring hinge (models/censoring_hinge.h), for one class choice.
Result<CoreFit> FitCore(const std::vector<MeasuredRun>& runs, const BasisSpec& spec,
                        const FitOptions& options) {
  const std::size_t m = runs.size();
  std::vector<std::array<double, kColumns>> basis(m);
  for (std::size_t i = 0; i < m; ++i) Basis(spec, ConfigOf(runs[i]), basis[i].data());
  CoreFit fit;
  const auto solve = [&](const std::vector<bool>& pinned) -> Status {
    DenseMatrix a;
    a.cols = kColumns;
    std::vector<double> rhs;
    for (std::size_t i = 0; i < m; ++i) {
      if (!runs[i].completed && !pinned[i]) continue;
      const double w = 1.0 / runs[i].runtime_seconds;
      for (std::size_t k = 0; k < kColumns; ++k) a.values.push_back(basis[i][k] * w);
      rhs.push_back(1.0);
      ++a.rows;
    }
    Result<NnlsSolution> solution = SolveNnls(a, rhs);
    if (!solution.ok()) return solution.status();
    std::copy(solution.value().x.begin(), solution.value().x.end(), fit.theta);
    return Status::Ok();
  };
  const auto predicted = [&](std::size_t i) { return Dot(fit.theta, basis[i].data()); };
  if (Status s = FitWithCensoringHinge(
          m, [&](std::size_t i) -> const MeasuredRun& { return runs[i]; },
          options.max_censoring_iterations, solve, predicted, &fit.censored_active);
      !s.ok()) {
    return s;
  }
  fit.score = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const double y = runs[i].runtime_seconds;
    const double e = (y - predicted(i)) / y;
    if (runs[i].completed || e > 0) fit.score += e * e;
  }
  return fit;
}

// Leave-one-out relative squared error of the completed runs: for each completed run i, FitCore
// without i (the same weighted NNLS and censoring hinge) predicts i. Each left-out fit is solved
// from its normal equations, the sum of those of the runs before i and of the completed runs
// after it (prefix and suffix sums, so nothing is subtracted and no precision is lost to
// cancellation) plus the bounds the hinge pins: O(columns²) per run to set up instead of a matrix
// of every run, so the score costs O(runs), not O(runs²).
Result<double> LeaveOneOutScore(const std::vector<MeasuredRun>& runs, const BasisSpec& spec,
                                const FitOptions& options) {
  const std::size_t m = runs.size();
  std::vector<std::array<double, kColumns>> basis(m), weighted(m);
  for (std::size_t i = 0; i < m; ++i) {
    Basis(spec, ConfigOf(runs[i]), basis[i].data());
    for (std::size_t k = 0; k < kColumns; ++k) {
      weighted[i][k] = basis[i][k] / runs[i].runtime_seconds;
    }
  }
  // suffix[i]: the completed runs from i on.
  std::vector<NormalEquations> suffix(m + 1, NormalEquations(kColumns));
  for (std::size_t i = m; i-- > 0;) {
    suffix[i] = suffix[i + 1];
    if (runs[i].completed) suffix[i].Add(weighted[i].data(), 1);
  }
  std::vector<std::size_t> censored;  // the hinge looks at these only: O(censored) per fit
  for (std::size_t j = 0; j < m; ++j) {
    if (!runs[j].completed) censored.push_back(j);
  }
  NormalEquations prefix(kColumns);  // the completed runs before i
  double theta[kColumns] = {0, 0, 0, 0, 0, 0, 0};
  double score = 0;
  for (std::size_t i = 0; i < m; ++i) {
    if (runs[i].completed) {
      const auto solve = [&](const std::vector<bool>& pinned) -> Status {
        NormalEquations eq = prefix;
        eq.Add(suffix[i + 1]);
        for (std::size_t k = 0; k < censored.size(); ++k) {
          if (pinned[k]) eq.Add(weighted[censored[k]].data(), 1);
        }
        Result<NnlsSolution> solution = SolveNnlsNormal(eq);
        if (!solution.ok()) return solution.status();
        std::copy(solution.value().x.begin(), solution.value().x.end(), theta);
        return Status::Ok();
      };
      std::vector<bool> pinned;
      if (Status s = FitWithCensoringHinge(
              censored.size(),
              [&](std::size_t k) -> const MeasuredRun& { return runs[censored[k]]; },
              options.max_censoring_iterations, solve,
              [&](std::size_t k) { return Dot(theta, basis[censored[k]].data()); }, &pinned);
          !s.ok()) {
        return s;
      }
      const double y = runs[i].runtime_seconds;
      const double e = (y - Dot(theta, basis[i].data())) / y;
      score += e * e;
      prefix.Add(weighted[i].data(), 1);
    }
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

// FitRuntime once its runs and options are validated.
Result<RuntimeFit> FitValidated(const std::vector<MeasuredRun>& runs, const FitOptions& options) {
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
    // A κ whose memory term is 0 on every run is the same fit as no memory term, which comes
    // first with the same classes (when κ is chosen) and so wins the tie: nothing to score.
    if (cls.kappa > 0 && candidates.front().kappa == 0 &&
        std::none_of(runs.begin(), runs.end(), [&](const MeasuredRun& r) {
          double row[kColumns];
          Basis(spec, ConfigOf(r), row);
          return row[6] > 0;
        })) {
      continue;
    }
    Result<CoreFit> fit = FitCore(runs, spec, options);
    if (!fit.ok()) return fit.status();
    double score = fit.value().score;
    if (cross_validate) {
      Result<double> loo = LeaveOneOutScore(runs, spec, options);
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
    out.residual_seconds.push_back(runs[i].runtime_seconds - predicted);
    out.run_censored.push_back(!runs[i].completed);
    if (runs[i].completed) {
      sse += std::pow((runs[i].runtime_seconds - predicted) / runs[i].runtime_seconds, 2);
    }
    if (best->censored_active[i]) ++out.censored_active;
  }
  out.weighted_rms = std::sqrt(sse / static_cast<double>(completed));
  if (out.classes_chosen_by_fit) {
    out.notes.push_back(
        std::string("classes chosen by ") +
        (cross_validate ? "leave-one-out error" : "in-sample residual") + " among " +
        std::to_string(candidates.size()) + " candidates: reduction object " +
        std::string(ToString(out.reduction_object_class)) +
        (out.reduction_object_class == ReductionObjectClass::kLinear
             ? " (" + std::string(ToString(out.reduction_object_scaling)) + ")"
             : std::string()) +
        ", global reduction " + std::string(ToString(out.global_reduction_class)) +
        (options.hardware_aware
             ? (out.memory_overhead_factor > 0
                    ? ", memory term with kappa " + FormatShort(out.memory_overhead_factor)
                    : std::string(", no memory term"))
             : std::string()) +
        "; score " + FormatShort(best_score));
  }
  if (completed < runs.size()) {
    out.notes.push_back(std::to_string(runs.size() - completed) +
                        " censored run(s) used as lower bounds; " +
                        std::to_string(out.censored_active) + " bound(s) active in the fit");
  }
  return out;
}

// The baselines' unweighted NNLS of the completed runs' runtimes on `basis(run)` (one row each).
template <typename Basis>
Result<std::vector<double>> FitCompletedRuntimes(const char* what,
                                                 const std::vector<MeasuredRun>& runs,
                                                 Basis basis) {
  DenseMatrix a;
  std::vector<double> b;
  for (const MeasuredRun& r : runs) {
    if (!r.completed) continue;
    const std::vector<double> row = basis(r);
    a.cols = row.size();
    a.values.insert(a.values.end(), row.begin(), row.end());
    b.push_back(r.runtime_seconds);
    ++a.rows;
  }
  if (a.rows == 0) {
    return Status::InvalidArgument(std::string(what) + " needs at least 1 completed run");
  }
  Result<NnlsSolution> s = SolveNnls(a, b);
  if (!s.ok()) return s.status();
  return s.value().x;
}

}  // namespace

Status ValidateRuns(const std::vector<MeasuredRun>& runs) { return ValidateRunsImpl(runs); }

// κ is the in-memory size of an input byte over the share of a node's memory that can hold it.
// Spark keeps (heap − 300 MiB) × spark.memory.fraction (0.6) for execution and storage, and the
// heap is part of the node (≈ 0.4–0.6 usable), while deserialised JVM objects take 0.5–3 times
// their input bytes: κ from about 1 to 8, and 0.5 for serialised or compressed caches. Steps of √2
// keep the grid's resolution relative, as κ is a ratio.
const std::vector<double>& MemoryOverheadGrid() {
  static const std::vector<double> kGrid = {0.5,  0.7071067811865476, 1,
                                            1.4142135623730951, 2, 2.8284271247461903,
                                            4,    5.656854249492381,  8};
  return kGrid;
}

RunConfig ConfigOf(const MeasuredRun& run) {
  return {run.dataset_bytes, run.storage_nodes, run.compute_nodes, run.bandwidth_bytes_per_second,
          run.vcpus,         run.memory_bytes};
}


Status FitOptions::Validate() const {
  if (min_completed_runs < 1) {
    return Status::InvalidField("min_completed_runs", "must be >= 1, got 0");
  }
  for (double kappa : memory_overhead_factors) {
    if (!std::isfinite(kappa) || kappa <= 0) {
      return Status::InvalidField("memory_overhead_factors",
                                  "every factor must be > 0, got " + FormatShort(kappa));
    }
  }
  if (memory_overhead_factor &&
      (!std::isfinite(*memory_overhead_factor) || *memory_overhead_factor < 0)) {
    return Status::InvalidField("memory_overhead_factor",
                                "must be >= 0, got " + FormatShort(*memory_overhead_factor));
  }
  if (max_censoring_iterations < 1) {
    return Status::InvalidField("max_censoring_iterations",
                                "must be >= 1, got " + std::to_string(max_censoring_iterations));
  }
  return Status::Ok();
}


Result<RuntimeFit> FitRuntime(const std::vector<MeasuredRun>& runs, const FitOptions& options) {
  if (Status s = options.Validate(); !s.ok()) return s;
  if (Status s = ValidateRunsImpl(runs); !s.ok()) return s;
  return FitValidated(runs, options);
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
                          FormatShort(total));
    }
  }
  out.factors = {f[0], f[1], f[2]};
  return out;
}

Result<ErnestModel> FitErnest(const std::vector<MeasuredRun>& runs) {
  // Ernest's "scale" is the input fraction; here the dataset in units of the first run's size,
  // so one workload's constant size gives scale 1 as in upstream's examples.
  Result<std::vector<double>> x = FitCompletedRuntimes("Ernest", runs, [&](const MeasuredRun& r) {
    const double m = r.compute_nodes;
    return std::vector<double>{1.0, r.dataset_bytes / runs[0].dataset_bytes / m, m, std::log(m)};
  });
  if (!x.ok()) return x.status();
  ErnestModel out;
  for (int k = 0; k < 4; ++k) out.theta[k] = x.value()[static_cast<std::size_t>(k)];
  // Remember the unit of scale: dataset bytes of the first run.
  out.theta[1] /= runs[0].dataset_bytes;
  return out;
}

double PredictErnest(const ErnestModel& e, const RunConfig& x) {
  const double m = x.compute_nodes;
  return e.theta[0] + e.theta[1] * x.dataset_bytes / m + e.theta[2] * m + e.theta[3] * std::log(m);
}

Result<AmdahlModel> FitAmdahl(const std::vector<MeasuredRun>& runs) {
  Result<std::vector<double>> x = FitCompletedRuntimes("Amdahl", runs, [](const MeasuredRun& r) {
    return std::vector<double>{1.0, 1 / r.compute_nodes};
  });
  if (!x.ok()) return x.status();
  return AmdahlModel{x.value()[0], x.value()[1]};
}

double PredictAmdahl(const AmdahlModel& m, const RunConfig& x) {
  return m.serial_seconds + m.parallel_seconds / x.compute_nodes;
}

}  // namespace perfplan::models
