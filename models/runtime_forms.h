// Candidate runtime forms and the choice among them by cross-validation on the training runs
// (issue 15). The FREERIDE-G decomposition (models/runtime_fit.h) fits the workloads it was shaped
// on; other workloads level off or slow down at large node counts. Each form below is fitted by
// non-negative least squares with residuals weighted by 1/runtime (relative error); m = compute
// nodes, s = dataset bytes, v = vCPUs per node relative to the first training run's type (1 when
// the runs are of one type and carry no hardware figures; with ChoiceOptions::scaling, memory or
// network bandwidth per node instead of vCPUs):
//
//   serial-floor    θ0 + θ1·s/(m·v)                  Amdahl with vCPU scaling: levels off at θ0
//   log-nodes       θ0 + θ1·s/(m·v) + θ2·log m       coordination growing slowly with machines
//   communication   θ0 + θ1·s/(m·v) + θ2·m           time rising again at large m
//   memory          θ0 + θ1·s/(m·v) + θ2·log m + θ3·max(0, κ·s/m − M)/v
//                                                    a node's share that does not fit in its
//                                                    memory M costs extra (spill, recompute);
//                                                    once the cluster holds the data, the time
//                                                    levels off. κ (in-memory size per input
//                                                    byte over the usable share of M) is fitted
//                                                    over MemoryOverheadGrid() (runtime_fit.h)
//   freeride-g      FitRuntime(): §3.1 components, hardware-aware when the runs pool types
//   ernest          per instance type θ0 + θ1·s/m + θ2·m + θ3·log m (Venkataraman et al., NSDI
//                   2016), weighted like the others; predicts only types it was trained on
//   average         geometric mean of every other eligible form's prediction
//
// ChooseRuntimeForm() scores every form on the training runs only: grouped K-fold with one fold per
// distinct compute-node count among the completed training runs (leave-one-node-count-out, so the
// score measures prediction at node counts the fold has not seen, which is what a scheduler asks);
// plain leave-one-out when there are fewer than 3 distinct node counts. Censored runs stay in every
// fold's training set (as lower bounds for freeride-g; the NNLS forms skip them) and are never
// scored. The score is the mean |log(measured / predicted)| over the held-out completed runs; a
// form that fails to fit a fold or cannot predict a held-out run or a target type is not eligible.
// Nor is a form with as many coefficients as the distinct completed configurations it fits them
// on (per instance type for ernest, over the pool for the others; κ counts as one): such a fit
// passes through its points, so its score measures interpolation between them and says nothing
// of how it extrapolates (ernest's 4 terms on 3 node counts of a type are exactly determined).
// The list is ordered from the fewest parameters to the most; the chosen form is the first whose
// score is within 2% of the lowest (parsimony: a richer form must earn its extra terms, so noise
// does not decide between forms that fit equally well; the rule and the 2% were fixed before any
// workload was scored, docs/accuracy.md).
//
// The chosen form's fold models and held-out residuals are kept: they are the calibration set of
// the CV+ intervals (models/conformal.h).
//
// Pure functions over plain structs; thread-safe. Units: seconds, bytes.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/conformal.h"
#include "models/runtime_fit.h"
#include "models/status.h"

namespace perfplan::models {

enum class RuntimeForm {
  kSerialFloor,
  kLogNodes,
  kCommunication,
  kMemory,
  kFreerideG,
  kErnest,
  kAverage,
};
std::string_view ToString(RuntimeForm form);
bool Parse(std::string_view text, RuntimeForm* out);
// Every form, from the fewest parameters to the most (the parsimony order).
const std::vector<RuntimeForm>& AllRuntimeForms();
// serial-floor, log-nodes, communication and memory: one fit over every type through v.
bool IsPooledForm(RuntimeForm form);

// Which hardware figure of a node the pooled forms' v is the ratio of. kVcpus is the model;
// memory and network bandwidth are the alternatives that runs of one instance type cannot tell
// apart from it (models/runtime_calibration.h, UnidentifiedScalings).
enum class HardwareScaling { kVcpus, kMemory, kNetwork };
std::string_view ToString(HardwareScaling scaling);
// The run's figure for `scaling` (vcpus, memory_bytes, bandwidth_bytes_per_second); 0 = unknown.
double HardwareFigure(const MeasuredRun& run, HardwareScaling scaling);

// One fitted form (only the members of its kind are set).
struct FormModel {
  RuntimeForm form = RuntimeForm::kSerialFloor;
  std::optional<RuntimeFit> freeride;       // kFreerideG
  HardwareScaling scaling = HardwareScaling::kVcpus;  // pooled forms: the figure v is the ratio of
  double reference_figure = 0;              // pooled forms: the first training run's figure;
                                            // 0 = v is 1 (one type, no hardware)
  std::string single_type;                  // pooled forms without hardware: the only type
  std::array<double, 5> theta = {0, 0, 0, 0, 0};  // pooled: [1, s/(m·v), log m, m, memory]
  double memory_factor = 0;                 // kMemory: the fitted κ
  std::map<std::string, std::array<double, 4>> per_type;  // kErnest: [1, s/m, m, log m]
  // Pooled forms fitted by FitPartiallyPooled: each training type's own coefficients, in theta's
  // columns; theta is then their common centre (types without training runs). Empty: fully pooled.
  std::map<std::string, std::array<double, 5>> type_theta;
  double pooling_penalty = 0;               // FitPartiallyPooled's λ (0: fully pooled)
  std::vector<FormModel> members;           // kAverage
};

// Fits `form` to the runs (one workload); pooled forms take v from `scaling`. kFreerideG uses
// `fit` as given (the caller sets hardware_aware). Errors (InvalidArgument): no completed run;
// pooled forms over several types without the scaling's figure on every run; kMemory without
// memory_bytes on every run; kAverage (fit through ChooseRuntimeForm).
Result<FormModel> FitForm(RuntimeForm form, const std::vector<MeasuredRun>& runs,
                          const FitOptions& fit,
                          HardwareScaling scaling = HardwareScaling::kVcpus);

// The form's prediction at `target` (its instance type and configuration), seconds; nullopt when
// the model cannot reach the target (ernest on an untrained type; a pooled form without hardware
// on another type; a non-positive prediction).
std::optional<double> PredictForm(const FormModel& model, const MeasuredRun& target);

// Partial pooling of a fitted pooled form (serial-floor, log-nodes, communication, memory): every
// instance type t with a completed run gets its own parallel-work coefficient c_t >= 0 (column
// s/(m·v)), shrunk toward the common θ1 >= 0 by the ridge term penalty · Σ_t (w_t·(c_t − θ1))²,
// w_t = mean of s/(m·v) over runtime on t's completed runs (a unit of the coefficient's relative
// effect on t's runs, so the penalty counts in runs: 1 weighs a deviation like one run's relative
// error). The other coefficients (floor, log m, m, memory) describe the workload, not the type,
// and stay common, as do the scaling figure, its reference and κ. Minimised jointly by NNLS with
// FitForm's 1/runtime-weighted residuals and censoring hinge. penalty → ∞ is the pooled fit, → 0
// the parallel work of each type fitted on its own (how fast a type runs the part that falls with
// nodes, beside what its vCPU ratio says). Types without a completed run are predicted with θ.
// Errors (InvalidArgument): not a pooled form; penalty not finite and > 0; no completed run; a run
// without the pooled fit's hardware figure.
Result<FormModel> FitPartiallyPooled(const FormModel& pooled, const std::vector<MeasuredRun>& runs,
                                     double penalty, int max_censoring_iterations);
// The penalties the model choice tries, 4^k for k = -2..4 (1/16 of one run's weight to 256 runs),
// fixed a priori (docs/accuracy.md, session 14).
const std::vector<double>& PoolingPenaltyGrid();

struct ChoiceOptions {
  FitOptions fit;  // for freeride-g (hardware_aware as the caller needs)
  // Forms to consider, in parsimony order; default every form. kAverage averages the others in
  // this list that are eligible.
  std::vector<RuntimeForm> candidates = AllRuntimeForms();
  HardwareScaling scaling = HardwareScaling::kVcpus;  // the pooled forms' v
  // When the chosen form is serial-floor and the training runs hold two or more instance types, try
  // FitPartiallyPooled over PoolingPenaltyGrid() with the same folds (ModelChoice::pooling_*).
  // Not for forms with a term rising with m: beside it, per-type parallel work extrapolates badly.
  // Then the choice also scores serial-floor by that procedure, the penalty chosen inside each
  // fold on the fold's training runs alone (nested; CandidateScore::cv_error of serial-floor).
  bool partial_pooling = true;
  Status Validate() const;  // non-empty candidates; fit.Validate()
};

struct CandidateScore {
  RuntimeForm form = RuntimeForm::kSerialFloor;
  bool eligible = false;
  double cv_error = 0;       // mean |log(measured/predicted)| over held-out runs (eligible only)
  double cv_median_ape = 0;  // median |measured − predicted| / measured of the same predictions
  std::size_t scored = 0;    // held-out completed runs scored
  std::string note;          // why not eligible ("" when eligible)
};

struct ModelChoice {
  RuntimeForm chosen = RuntimeForm::kSerialFloor;
  FormModel model;  // the chosen form fitted on every training run
  std::vector<CandidateScore> candidates;
  std::string scheme;      // "leave-one-node-count-out" or "leave-one-out"
  std::size_t folds = 0;
  std::string reason;      // one line: which form and why
  // Calibration set of the chosen form: per held-out completed training run, its fold's model
  // (index into fold_models) and |log residual|.
  std::vector<FormModel> fold_models;
  std::vector<std::size_t> calibration_fold;
  std::vector<double> calibration_radius_log;
  // Forms not eligible only because they have exactly as many coefficients as the distinct
  // completed configurations they are fitted on (log-nodes and communication on three node counts
  // of one type), fitted on every training run. They pass through the training runs, so the runs
  // cannot reject them: cross-validation cannot judge them, and neither can anything else in the
  // training data. Intervals contain their predictions (models/runtime_evaluate.h).
  std::vector<FormModel> exact_forms;
  // Partial pooling of a chosen serial-floor (ChoiceOptions::partial_pooling): the same folds'
  // error for each penalty of PoolingPenaltyGrid() (NaN when a fold could not be fitted), the fully
  // pooled form's error, and the penalty adopted (0: fully pooled kept). A penalty is adopted only
  // when the pooled error is not within the parsimony margin of the lowest, and then the largest
  // penalty within it; `model` is then the partial fit (the point prediction), while fold_models
  // and the calibration radii stay the fully pooled form's: the penalty was chosen on the partial
  // fits' held-out residuals, so they are not out-of-sample for a CV+ interval.
  std::vector<std::pair<double, double>> pooling_scores;
  double pooled_cv_error = 0;  // serial-floor fully pooled; its candidate score is the nested one
  double pooling_penalty = 0;
};

// Chooses among options.candidates on `train` (one workload; completed and censored runs).
// `target_types` are the instance types the caller will predict: a form that cannot reach one of
// them is not eligible. Errors: options invalid; fewer than 2 completed runs; no eligible form
// (the message lists each form's reason).
Result<ModelChoice> ChooseRuntimeForm(const std::vector<MeasuredRun>& train,
                                      const std::vector<std::string>& target_types,
                                      const ChoiceOptions& options = {});

// The CV+ calibration points of `choice` at `target`: each held-out run's radius centred at its
// fold model's prediction at the target (the full model's where the fold model cannot reach it).
std::vector<ConformalPoint> CalibrationPoints(const ModelChoice& choice, const MeasuredRun& target,
                                              double predicted_seconds);

}  // namespace perfplan::models
