// Fitting the FREERIDE-G runtime model from end-to-end runs, and measuring its error (DESIGN §3.2).
//
// Input: measured runs (one per row of a runs CSV): workload, instance type, dataset size s,
// storage nodes n, compute nodes c, bandwidth b, runtime, and whether the run completed. A run that
// did not complete (timeout or failure) carries a lower bound on the runtime, never a value.
//
// FitRuntime() decomposes the runtime of one workload into the non-negative components of §3.1 by
// weighted non-negative least squares (models/nnls.h):
//
//   T = θ_c·s/(c·v)                  local compute (v = vCPUs relative to the reference type; 1
//                                    unless hardware_aware)
//     + θ_d·s/n                      disk (retrieval)
//     + θ_n·s/(n·b)                  network ((n) dropped when retrieval does not scale)
//     + θ_0 + θ_r·x_r                reduction-object communication T_ro = A_ro·r' + B_ro,
//                                    x_r = none (constant class), s (linear, dataset) or c (linear,
//                                    compute nodes)
//     + θ_g·x_g                      global reduction, x_g = c (linear-constant) or s
//                                    (constant-linear)
//     + θ_m·max(0, κ·s/c − M)/v      memory pressure (hardware_aware only; M = memory per node):
//                                    work on the part of a node's share, κ times inflated in
//                                    memory, that does not fit
//
// with every θ ≥ 0 and residuals weighted by 1/runtime (relative error). The reduction and
// global-reduction classes (and κ, or no memory term) are chosen by fit quality: the smallest
// leave-one-out relative squared error when there are 3 or more completed runs (the in-sample
// residual otherwise), ties to the simpler candidate. Censored runs are lower bounds: a censored
// run enters the fit, as a row pinned at its bound, only while the current fit predicts below the
// bound (an iterated hinge; docs/fit.md).
//
// A single-type fit without a memory term converts to a RuntimeProfile (one reference run,
// explicit classes, A_ro/B_ro) that models::Predict reproduces exactly. Other instance types are
// reached either through the hardware table (hardware_aware fits pool every type, each run
// carrying its type's vCPUs and memory) or through the heterogeneity factors of §3.1 learned from
// reference workloads measured on both types. Evaluation against held-out rows, other candidate
// forms and prediction intervals: models/runtime_evaluate.h, models/runtime_forms.h.
//
// Pure functions over plain structs; no randomness. Thread-safe.
// Units: bytes, seconds, bytes per second.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/runtime_model.h"
#include "models/status.h"

namespace perfplan::models {

// One measured run (one row of the runs CSV of DESIGN §3.2).
struct MeasuredRun {
  std::string workload;
  std::string instance_type;
  double dataset_bytes = 0;               // s, > 0
  double storage_nodes = 0;               // n, > 0
  double compute_nodes = 0;               // c, > 0
  double bandwidth_bytes_per_second = 0;  // b, > 0
  double runtime_seconds = 0;             // > 0; a lower bound when !completed
  bool completed = true;                  // false: timeout/failure, runtime is censored
  // Hardware of the instance type (models/instance_types.h or the CSV); 0 = unknown. Only
  // hardware_aware fits read them.
  double vcpus = 0;
  double memory_bytes = 0;
};

// A configuration to predict (the runtime columns are ignored).
struct RunConfig {
  double dataset_bytes = 0;
  double storage_nodes = 0;
  double compute_nodes = 0;
  double bandwidth_bytes_per_second = 0;
  double vcpus = 0;         // per node; 0 = the fit's reference type
  double memory_bytes = 0;  // per node; 0 = no memory term
};
RunConfig ConfigOf(const MeasuredRun& run);

// Every positive field of every run is finite and > 0; otherwise InvalidArgument naming the run
// index and field ("runs[3].compute_nodes: must be > 0, got 0").
Status ValidateRuns(const std::vector<MeasuredRun>& runs);

// Candidate κ of every memory-pressure term (FitRuntime's θ_m and the `memory` form of
// models/runtime_forms.h): the geometric grid 0.5·√2^k, k = 0..8 (0.5 to 8), fixed from Spark's
// memory model and not from any workload (runtime_fit.cpp says how). One grid for both fits.
const std::vector<double>& MemoryOverheadGrid();

struct FitOptions {
  // Fewest completed runs a fit accepts. Default 3: three runs fix the parallel, fixed and
  // node-dependent terms of one instance type. Lower only for tests of degenerate data.
  std::size_t min_completed_runs = 3;
  // Classes to use; nullopt: chosen by fit quality (smallest leave-one-out or in-sample relative
  // error, see choose_by_cross_validation; ties go to the earlier candidate: constant reduction
  // object, linear-constant global reduction, no memory term).
  std::optional<ReductionObjectClass> reduction_object_class;
  ReductionObjectScaling reduction_object_scaling = ReductionObjectScaling::kDataset;
  std::optional<GlobalReductionClass> global_reduction_class;
  // §3.1 flag: false drops n from the network term (retrieval does not scale with storage nodes).
  bool retrieval_scales_with_storage_nodes = true;
  // Hinge iterations for censored rows (each adds the censored rows the fit undershoots).
  int max_censoring_iterations = 10;
  // Pool runs of several instance types: compute scales with 1/vCPUs and a memory-pressure term
  // may enter. Every run then needs vcpus and memory_bytes > 0. Default false (one type).
  bool hardware_aware = false;
  // Candidate κ values of the memory term (data inflation in memory); the fit also tries no
  // memory term. Only with hardware_aware. Empty: never a memory term. Default the grid above
  // (issue 9's {1, 1.5, 2, 2.5, 3, 4} had been set while looking at the Scout data).
  std::vector<double> memory_overhead_factors = MemoryOverheadGrid();
  // A fixed κ instead (0: no memory term); nullopt: chosen among the candidates above.
  std::optional<double> memory_overhead_factor;
  // Choose classes by leave-one-out error (true) or by the in-sample residual (false).
  bool choose_by_cross_validation = true;
  Status Validate() const;
};

// One fitted model of one workload: on one instance type, or (hardware_aware) over several.
struct RuntimeFit {
  std::string workload;
  std::string instance_type;                // the reference type (of fit.reference)
  std::vector<std::string> instance_types;  // every type among the runs
  bool hardware_aware = false;
  double reference_vcpus = 0;  // v = vcpus / reference_vcpus (hardware_aware)
  ReductionObjectClass reduction_object_class = ReductionObjectClass::kConstant;
  ReductionObjectScaling reduction_object_scaling = ReductionObjectScaling::kDataset;
  GlobalReductionClass global_reduction_class = GlobalReductionClass::kLinearConstant;
  bool classes_chosen_by_fit = false;
  bool retrieval_scales_with_storage_nodes = true;
  double disk_coefficient = 0;              // θ_d, seconds·nodes/byte
  double network_coefficient = 0;           // θ_n, dimensionless (s/(n·b) is seconds)
  double compute_coefficient = 0;           // θ_c, seconds·nodes/byte
  double fixed_seconds = 0;                 // θ_0 = B_ro
  double reduction_object_coefficient = 0;  // θ_r (per byte of data or per node, by class)
  double global_reduction_coefficient = 0;  // θ_g (per node or per byte, by class)
  double memory_coefficient = 0;            // θ_m, seconds·nodes/byte
  double memory_overhead_factor = 0;        // κ; 0 = no memory term
  double selection_score = 0;               // LOO (or in-sample) relative squared error
  RunConfig reference;                      // configuration the profile's run is written at
  // Runs used, as indices into the vector given to FitRuntime, and each one's residual
  // (measured − predicted, seconds; for censored runs: bound − predicted, reported only).
  std::vector<std::size_t> runs_used;
  std::vector<double> residual_seconds;
  std::vector<bool> run_censored;
  std::size_t censored_active = 0;  // censored runs that ended up pinned at their bound
  double weighted_rms = 0;          // sqrt(mean((measured−predicted)/measured)²) over completed
  std::vector<std::string> notes;
};

// Fits the runs (all of one workload; of one instance type unless options.hardware_aware; the
// caller selects them). Errors (InvalidArgument): fewer than min_completed_runs completed runs
// ("fit of W on T needs at least 3 completed runs, got 1 (2 censored)"), all runs censored, a
// non-positive or non-finite value (naming the run index and field), runs of more than one
// workload or (not hardware_aware) instance type, a hardware_aware run without vcpus or memory.
Result<RuntimeFit> FitRuntime(const std::vector<MeasuredRun>& runs, const FitOptions& options = {});

// The fitted components at `config` (hardware factors applied to the components; 1 = the fitted
// type). Pure.
Breakdown PredictFitted(const RuntimeFit& fit, const RunConfig& config,
                        const ScalingFactors& scaling = {});

// The fit as a profile `perfplan predict` accepts: one run at fit.reference with explicit classes
// and A_ro/B_ro, so models::Predict(ResolveModel(profile)) equals PredictFitted at every target.
// Fails (InvalidArgument) for a fit with a memory term or over several instance types, which the
// §3.1 profile cannot express.
Result<RuntimeProfile> ToProfile(const RuntimeFit& fit);

// Heterogeneity factors s_d, s_n, s_c of §3.1 for moving from the fits' type a to type b:
// the mean over reference workloads k (matched by workload name) of component(b,k)/component(a,k),
// each evaluated at k's reference configuration on a. A component no reference has on a (it is 0
// in every fit, as happens when the data cannot separate disk, network and compute) takes the
// ratio of the total runtimes instead; `notes` say which. Fails when no workload is on both.
struct HeterogeneityFactors {
  ScalingFactors factors;
  std::vector<std::string> references;  // workloads used
  std::vector<std::string> notes;
};
Result<HeterogeneityFactors> LearnHeterogeneity(const std::vector<RuntimeFit>& on_a,
                                                const std::vector<RuntimeFit>& on_b);

// Baselines, fitted on the same training rows (completed only; they have no censoring rule).
// Ernest (Venkataraman et al., NSDI 2016): NNLS on [1, s/m, m, log m], m = compute nodes, one model
// per instance type, unweighted as upstream's predictor.py.
struct ErnestModel {
  double theta[4] = {0, 0, 0, 0};
};
Result<ErnestModel> FitErnest(const std::vector<MeasuredRun>& runs);
double PredictErnest(const ErnestModel& model, const RunConfig& config);
// Amdahl: a + b/m by NNLS (unweighted).
struct AmdahlModel {
  double serial_seconds = 0;
  double parallel_seconds = 0;  // at one node
};
Result<AmdahlModel> FitAmdahl(const std::vector<MeasuredRun>& runs);
double PredictAmdahl(const AmdahlModel& model, const RunConfig& config);

}  // namespace perfplan::models
