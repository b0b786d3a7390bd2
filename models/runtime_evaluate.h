// Evaluating runtime predictions against held-out runs (`perfplan evaluate`, the accuracy study of
// docs/accuracy.md): train on some rows of a workload, predict the others, score APE for perfplan,
// Ernest and Amdahl, and give every prediction a calibrated interval.
//
// With kHardware (the default) perfplan's model is chosen among the candidate forms of
// models/runtime_forms.h by cross-validation on the training rows only. With kReferences it is the
// FREERIDE-G fit per instance type, other types reached through §3.1 factors.
//
// Intervals are conformal (models/conformal.h) on log-scale out-of-sample residuals: CV+ over the
// chosen form's folds (kHardware) or jackknife around the per-type fit's leave-one-out residuals
// (kReferences), joined by the errors the same training design makes on the reference workloads.
// They are widened when the target lies beyond the trained node range or on a type reached only
// through transfer (factor √(1 + d/span), plus 1 for a transfer; d the log distance outside the
// trained node range, span that range's log width, at least log 2), and always contain their own
// prediction. When every completed training run is of one type and the chosen form is pooled, a
// transfer row's interval instead spans the form refitted with its hardware ratio from vCPUs,
// memory and network bandwidth, which those runs cannot tell apart, and the base type's prediction
// scaled by each reference workload's runtime ratio between the two types (radii √(1 + d/span), no
// +1; models/runtime_calibration.h). In kHardware every interval also contains the predictions of
// the forms the choice set aside as exactly determined (ModelChoice::exact_forms: they pass through
// the training runs, which therefore cannot reject them); a note counts the rows this widened.
//
// Pure functions over plain structs; no randomness. Thread-safe. Units: seconds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/runtime_fit.h"
#include "models/runtime_forms.h"
#include "models/status.h"

namespace perfplan::models {

// How evaluate reaches instance types the workload was not trained on.
enum class HeterogeneityMode {
  kHardware,    // one hardware_aware fit over every training type; other types via their vCPUs,
                // memory and bandwidth (instance-type table)
  kReferences,  // per-type fits; other types via §3.1 factors from reference workloads
};
std::string_view ToString(HeterogeneityMode mode);
bool Parse(std::string_view text, HeterogeneityMode* out);

struct EvaluateOptions {
  FitOptions fit;
  // Default kHardware: it needs vcpus and memory_bytes on every row of the workload, and falls
  // back to kReferences (with a note) when some row lacks them.
  HeterogeneityMode heterogeneity = HeterogeneityMode::kHardware;
  // Candidate forms for the model choice (kHardware); default every form. A single form fixes it.
  std::vector<RuntimeForm> candidates = AllRuntimeForms();
  bool intervals = true;        // false: no prediction intervals (faster; the report's charts)
  double interval_level = 0.9;  // central prediction-interval coverage
  // Interval calibration also from the reference workloads: the log errors the same training
  // design (their runs on the training rows' instance types and node counts) makes on their other
  // runs join the workload's own out-of-sample residuals (when the references give 5 or more).
  // Default false: another workload's errors made TeraSort's intervals cover 100% (too wide) and
  // LR's 60% (too narrow) on the Scout data; the own residuals alone were chosen by the
  // leave-one-workload-out protocol of docs/accuracy.md.
  bool interval_noise_from_references = false;
  // One training type (kHardware, pooled form): transfer rows' intervals span the vCPU, memory and
  // network scalings those runs cannot tell apart, without the transfer's +1 (docs/accuracy.md
  // step 7). false: step 6's rule (vCPUs only, +1), for comparison.
  bool span_unidentified_scalings = true;
  // With span_unidentified_scalings: the span also holds, for each reference workload with
  // completed runs on the training type and on the row's type, the base type's prediction times
  // that reference's runtime ratio between the two types at the row's node count (docs/accuracy.md
  // step 8). false: the three hardware scalings only (step 7), for comparison.
  bool span_reference_workloads = true;
  // ChoiceOptions::partial_pooling: per-type parallel work on a chosen serial-floor when the
  // training runs hold several instance types (docs/accuracy.md, session 14). false: fully
  // pooled, for comparison.
  bool partial_pooling = true;
  Status Validate() const;
};

// One predicted row.
struct EvaluatedRow {
  std::size_t row = 0;  // index into the rows given to EvaluateWorkload
  MeasuredRun run;
  std::optional<double> predicted_seconds;  // nullopt when no model reaches the row
  std::optional<double> ape;                // completed rows with a prediction
  std::optional<double> interval_low_seconds, interval_high_seconds;
  std::optional<bool> inside_interval;
  // How much the interval's own-residual radii were widened (1 = not): beyond the trained node
  // range and/or an instance type reached only through transfer.
  double interval_widening = 1;
  bool transfer = false;  // the row's instance type has no completed training run
  // A transfer row when every completed training run is of one instance type: the interval spans
  // the chosen form refitted with its hardware ratio from vCPUs, memory and network bandwidth
  // (models/runtime_calibration.h); largest over smallest of their predictions (1 = not spanned).
  double scaling_spread = 1;
  std::string method;  // "same-type fit", "hardware-aware fit" or "heterogeneity from <type>"
  std::optional<double> ernest_seconds, ernest_ape;
  std::optional<double> amdahl_seconds, amdahl_ape;
  // Censored rows: whether the prediction respects the lower bound.
  std::optional<bool> respects_bound;
};

struct ErrorSummary {
  std::size_t predicted = 0;  // completed rows with a prediction
  double median_ape = 0;
  double p90_ape = 0;
  double mean_ape = 0;
};

// Selection over the workload's configurations in the file (training rows included): the one with
// the lowest predicted node-seconds (runtime × compute nodes), against the best measured one. A
// censored training run's prediction is raised to its bound (the run is known to take longer).
struct SelectionCheck {
  bool available = false;  // false when no configuration could be predicted
  std::size_t picked_row = 0;
  double picked_predicted_node_seconds = 0;
  double picked_measured_node_seconds = 0;  // a lower bound when the pick did not complete
  bool picked_completed = true;
  std::size_t best_row = 0;  // lowest measured node-seconds, completed runs
  double best_measured_node_seconds = 0;
  double gap = 0;  // picked measured / best measured − 1
};

struct Evaluation {
  std::string workload;
  std::vector<std::size_t> train_rows;
  std::vector<EvaluatedRow> rows;  // every non-training row of the workload
  ErrorSummary perfplan, ernest, amdahl;
  // perfplan on exactly the rows Ernest could predict (same-rows comparison).
  ErrorSummary perfplan_on_ernest_rows;
  double interval_coverage = 0;  // share of completed predicted rows inside their interval
  SelectionCheck selection;
  std::size_t censored_rows = 0, censored_respected = 0;
  std::vector<RuntimeFit> fits;  // the workload's fits, one per instance type trained on
  std::vector<std::string> notes;
  // The model choice (kHardware): every candidate's CV error and the chosen form.
  std::optional<ModelChoice> choice;
  std::size_t widened_rows = 0;     // rows whose interval was widened
  double max_interval_widening = 1;
  std::size_t scaling_rows = 0;     // rows whose interval spans the hardware scalings
  // Reference workloads whose type-to-type ratio joined some spanned interval (step 8).
  std::vector<std::string> scaling_references;
  double max_scaling_spread = 1, median_scaling_spread = 1;
  std::size_t intervals_short_of_points = 0;  // rows whose calibration set is below 1/α − 1
  HeterogeneityMode heterogeneity = HeterogeneityMode::kHardware;  // the mode actually used
  std::size_t interval_noise_references = 0;  // reference errors in the calibration (0: own)
};

// Trains on rows[i] with train[i] true and workload == `workload`; predicts every other row of the
// workload. Rows of other workloads are references for heterogeneity (all their rows are used).
// kHardware: the form chosen by cross-validation over the training rows (every type pooled)
// predicts every row.
// kReferences, per target instance type: a same-type fit when the type has enough training runs,
// otherwise the fit on the training type with the most runs, scaled by factors learned from the
// references.
// Errors: no training row of the workload, too few to fit on any type, sizes disagree.
Result<Evaluation> EvaluateWorkload(const std::vector<MeasuredRun>& rows,
                                    const std::vector<bool>& train, const std::string& workload,
                                    const EvaluateOptions& options = {});

// The widening factor of an interval's own radii at `target`: √(1 + d/span) for the log distance d
// outside [lo, hi] (the node counts of the completed training runs of the target's type, or of all
// of them for a transfer, when `train` has no completed run of that type), span = max(log(hi/lo),
// log 2); plus 1 for a transfer. Sets *transfer. 1 when `train` has no completed run.
double WideningFactor(const std::vector<MeasuredRun>& train, const MeasuredRun& target,
                      bool* transfer);

// The node-count ranges WideningFactor() reads from `train`, gathered once (per instance type of
// the completed runs, and over all of them), for many targets against the same training runs:
// Widening(target, transfer) == WideningFactor(train, target, transfer) in O(log types).
class TrainedNodeRanges {
 public:
  explicit TrainedNodeRanges(const std::vector<MeasuredRun>& train);
  double Widening(const MeasuredRun& target, bool* transfer) const;

 private:
  struct Range {
    double lo = 0, hi = 0;
    void Add(double nodes);
  };
  std::map<std::string, Range, std::less<>> by_type_;
  Range all_;
};

// Median and nearest-rank P90 of the values (0 for empty input).
ErrorSummary Summarize(std::vector<double> apes);


}  // namespace perfplan::models
