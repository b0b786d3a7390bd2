// FREERIDE-G-style runtime model (DESIGN §3.1; Glimcher & Agrawal, IPDPS 2007).
//
// A profile run measures, on a reference configuration (dataset size s, n storage nodes, c compute
// nodes, bandwidth b), the data retrieval time t_d, network time t_n, total processing time t_c,
// reduction-object size r, its communication time T_ro and the global-reduction time T_g. The model
// scales those to a target configuration (s_x, n_x, c_x, b_x):
//
//   T_disk    = (s_x/s)·(n/n_x)·t_d
//   T_network = (s_x/s)·(n/n_x)·(b/b_x)·t_n        ((n/n_x) dropped when retrieval throughput
//                                                   does not grow with storage nodes)
//   simple:          T_compute = (s_x/s)·(c/c_x)·t_c
//   with reductions: T_compute = (s_x/s)·(c/c_x)·(t_c − T_ro − T_g) + T_ro' + T_g'
//                    T_ro' = A_ro·r' + B_ro, r' by reduction-object class,
//                    T_g'  = T_g·c_x/c (linear-constant) or T_g·s_x/s (constant-linear)
//   heterogeneous:   T_exec(b) = s_d·T_disk(a) + s_n·T_network(a) + s_c·T_compute(a)
//
// Usage: ResolveModel() validates a profile once (inferring classes and fitting A_ro, B_ro where
// the profile leaves them open); Predict() is then a cheap pure function, safe to call from many
// threads on the same ResolvedModel. Units are in every field name: bytes, seconds, bytes/second.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace perfplan::models {

// How the reduction-object size r changes with the configuration.
enum class ReductionObjectClass {
  kConstant,  // r is set by application parameters (e.g. k-means: k centroids), r' = r
  kLinear,    // r grows linearly with the dataset size or with the number of compute nodes
};
// What a kLinear reduction object grows with.
enum class ReductionObjectScaling {
  kDataset,       // r' = r·s_x/s
  kComputeNodes,  // r' = r·c_x/c
};
// How the global-reduction time T_g changes with the configuration.
enum class GlobalReductionClass {
  kLinearConstant,  // grows with compute nodes, independent of data size: T_g' = T_g·c_x/c
  kConstantLinear,  // grows with data size, independent of compute nodes: T_g' = T_g·s_x/s
};
// Which form of T_compute to use.
enum class ModelVariant {
  kAuto,        // reductions when the profile measured any reduction or global-reduction time
  kSimple,      // T_compute = (s_x/s)·(c/c_x)·t_c
  kReductions,  // separate reduction and global-reduction terms
};

std::string_view ToString(ReductionObjectClass value);
std::string_view ToString(ReductionObjectScaling value);
std::string_view ToString(GlobalReductionClass value);
std::string_view ToString(ModelVariant value);
// Parse the exact spellings ToString() produces ("constant", "linear", "dataset",
// "compute-nodes", "linear-constant", "constant-linear", "auto", "simple", "reductions").
// Return false (leaving *out unchanged) for anything else.
bool Parse(std::string_view text, ReductionObjectClass* out);
bool Parse(std::string_view text, ReductionObjectScaling* out);
bool Parse(std::string_view text, GlobalReductionClass* out);
bool Parse(std::string_view text, ModelVariant* out);

// One measured profile run (the FREERIDE-G "summary information").
struct ProfileRun {
  double dataset_bytes = 0;               // s, > 0
  double storage_nodes = 0;               // n, > 0
  double compute_nodes = 0;               // c, > 0
  double bandwidth_bytes_per_second = 0;  // b between storage and compute nodes, > 0
  double disk_seconds = 0;                // t_d, data retrieval, >= 0
  double network_seconds = 0;             // t_n, data transfer, >= 0
  double compute_seconds = 0;             // t_c, total processing including T_ro and T_g, >= 0
  double reduction_object_bytes = 0;      // r, largest reduction object, >= 0
  double reduction_seconds = 0;           // T_ro, reduction-object communication, >= 0
  double global_reduction_seconds = 0;    // T_g, >= 0; T_ro + T_g <= t_c
};

// T_ro = seconds_per_byte·r + fixed_seconds (the paper's A_ro and B_ro).
struct ReductionCommunication {
  double seconds_per_byte = 0;  // A_ro, >= 0
  double fixed_seconds = 0;     // B_ro, >= 0 (latency-like)
};

// Multipliers of each component when running on other hardware (s_d, s_n, s_c of §3.1):
// time on the target hardware divided by time on the profiled hardware. 1 = same hardware.
struct ScalingFactors {
  double disk = 1;
  double network = 1;
  double compute = 1;
};

// What a user states about an application; open choices (nullopt) are inferred from the runs.
struct RuntimeProfile {
  std::string application;       // free text, e.g. "kmeans"
  std::vector<ProfileRun> runs;  // at least one; class inference needs two or more
  std::optional<ReductionObjectClass> reduction_object_class;  // nullopt: infer from runs
  ReductionObjectScaling reduction_object_scaling = ReductionObjectScaling::kDataset;
  std::optional<GlobalReductionClass> global_reduction_class;  // nullopt: infer from runs
  // False when retrieval throughput does not grow with storage nodes: the (n/n_x) factor of
  // T_network is dropped. Default true, as in the paper's base model.
  bool retrieval_scales_with_storage_nodes = true;
  // A_ro and B_ro. nullopt: fitted from the runs (least squares over (r, T_ro) with two or more
  // distinct r; with one, B_ro = 0 and A_ro = T_ro/r).
  std::optional<ReductionCommunication> reduction_communication;
};

struct ResolveOptions {
  ModelVariant variant = ModelVariant::kAuto;  // force simple or reductions; auto picks
  // A prediction whose dataset size or compute-node count is more than this factor away from the
  // reference run (either direction) carries an extrapolation warning. Default 8 (DESIGN §3.1).
  double extrapolation_warning_ratio = 8;
};

// A profile after validation, inference and fitting: everything Predict() needs.
struct ResolvedModel {
  std::string application;
  std::vector<ProfileRun> runs;
  ModelVariant variant = ModelVariant::kSimple;  // never kAuto once resolved
  ReductionObjectClass reduction_object_class = ReductionObjectClass::kConstant;
  ReductionObjectScaling reduction_object_scaling = ReductionObjectScaling::kDataset;
  GlobalReductionClass global_reduction_class = GlobalReductionClass::kLinearConstant;
  bool reduction_object_class_inferred = false;
  bool global_reduction_class_inferred = false;
  bool retrieval_scales_with_storage_nodes = true;
  ReductionCommunication reduction_communication;
  bool reduction_communication_fitted = false;
  double extrapolation_warning_ratio = 8;
  std::vector<std::string> notes;  // how classes and A_ro/B_ro were obtained
};

// Where a job is to run.
struct Target {
  double dataset_bytes = 0;               // s_x, > 0
  double storage_nodes = 0;               // n_x, > 0
  double compute_nodes = 0;               // c_x, > 0
  double bandwidth_bytes_per_second = 0;  // b_x, > 0
  ScalingFactors scaling;                 // hardware of the target relative to the profile's
};

// The five additive components of a prediction. runtime = their sum.
struct Breakdown {
  double disk_seconds = 0;
  double network_seconds = 0;
  double compute_seconds = 0;  // local processing only: excludes the two reduction terms
  double reduction_seconds = 0;
  double global_reduction_seconds = 0;
  double TotalSeconds() const {
    return disk_seconds + network_seconds + compute_seconds + reduction_seconds +
           global_reduction_seconds;
  }
};

struct Prediction {
  double runtime_seconds = 0;
  Breakdown breakdown;
  std::size_t reference_run = 0;             // index into ResolvedModel::runs that was scaled
  double reduction_object_bytes = 0;         // r' at the target
  std::vector<std::string> warnings;         // validity warnings, e.g. extrapolation
};

// Validates the profile and resolves every open choice. Errors name the run and field, e.g.
// "runs[1].compute_nodes: must be > 0, got -2". Class inference from fewer than two runs, or
// from runs that do not vary what the class depends on, is an error that says what to add.
Result<ResolvedModel> ResolveModel(const RuntimeProfile& profile,
                                   const ResolveOptions& options = {});

// Checks a target: every size, count and bandwidth > 0 and finite, factors > 0.
Status ValidateTarget(const Target& target);

// Predicts the runtime at `target` by scaling the reference run nearest to it (smallest sum of
// |log ratio| over size, storage nodes, compute nodes and bandwidth; ties: the earlier run).
// Precondition: ValidateTarget(target).ok(). Pure and thread-safe.
Prediction Predict(const ResolvedModel& model, const Target& target);

// Same, without building warning texts: the hot path for ranking many alternatives.
double PredictRuntimeSeconds(const ResolvedModel& model, const Target& target,
                             Breakdown* breakdown = nullptr);

// Class inference from two or more profile runs (exposed for tests and `validate`).
struct ClassInference {
  ReductionObjectClass reduction_object_class = ReductionObjectClass::kConstant;
  ReductionObjectScaling reduction_object_scaling = ReductionObjectScaling::kDataset;
  GlobalReductionClass global_reduction_class = GlobalReductionClass::kLinearConstant;
  std::string reduction_object_evidence;  // one line saying why
  std::string global_reduction_evidence;
};
// Chooses each class by the smallest squared log-ratio error when predicting every run from every
// other. Fails when fewer than two runs, or when no run differs from another in dataset size or
// compute nodes (then the classes cannot be told apart).
Result<ClassInference> InferClasses(const std::vector<ProfileRun>& runs);

// Least-squares fit of T_ro = A_ro·r + B_ro over the runs, clamped to non-negative coefficients.
Result<ReductionCommunication> FitReductionCommunication(const std::vector<ProfileRun>& runs);

// Component times of one reference application on one cluster (for heterogeneity factors).
struct ReferenceMeasurement {
  std::string application;
  double disk_seconds = 0;
  double network_seconds = 0;
  double compute_seconds = 0;
};
// s_d = mean_k T_disk(b,k)/T_disk(a,k) over applications k measured on both clusters (matched by
// name); likewise s_n and s_c. A component that is zero on cluster a for an application is left
// out of that component's mean. Fails when no application is common to both, or a component has
// no usable pair.
Result<ScalingFactors> ComputeScalingFactors(const std::vector<ReferenceMeasurement>& on_a,
                                             const std::vector<ReferenceMeasurement>& on_b);

// Prediction error E = |T_exact − T_pred| / T_exact. Precondition: exact_seconds > 0.
double PredictionError(double exact_seconds, double predicted_seconds);

}  // namespace perfplan::models
