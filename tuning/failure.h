// Failure-aware tuning (issue 21): which configurations fail. Runs marked as failed (the
// DatasetOptions::failed_markers, BestConf's -1) train an L2-regularised logistic model of the
// failure probability, fitted by Newton's method (IRLS) on Eigen; recommendations skip
// configurations whose predicted probability exceeds a threshold.
//
// The model is chosen among candidates (docs/tuning.md, "Which logistic model"): the terms (the
// parameters' values, the logarithms of the positive ones, or both: a ratio rule a/b > c is linear
// in the logarithms), one logistic unit or "any of K units" (a noisy-OR: a run fails when any of
// several rules breaks), and an L2 penalty; the lowest 5-fold CV log-loss on the training runs
// wins. The accuracy it reports is nested: the whole selection is repeated inside each outer fold.
// Deterministic (seeded, stratified folds; no random start); a fitted FailureModel is an
// immutable value, thread-safe to query.
//
// Beside the logistic model, the fit keeps the bounds of the successful runs (FailureBound): for
// each pair of positive parameters, the successful runs' range of their ratio and product on
// every side a failed run lies beyond. A configuration inside them breaks no one- or
// two-parameter threshold rule that a training run broke (docs/tuning.md), whatever the logistic
// model says; recommendations stay inside them.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "tuning/dataset.h"

namespace perfplan::tuning {

// The terms a candidate's logistic units are linear in.
enum class FailureFeatures {
  kValues,         // each parameter's value
  kLogValues,      // log x for parameters > 0 in every training run, the value for the others
  kValuesAndLogs,  // every value, and the log of every positive parameter
};
std::string_view ToString(FailureFeatures f);  // "values", "log-values", "values+logs"
bool ParseFailureFeatures(std::string_view text, FailureFeatures* out);

// One term: a parameter's value, or its logarithm.
struct FailureTerm {
  std::size_t column = 0;  // index into Dataset::features
  bool log = false;        // log(max(x, floor)) instead of x
  double floor = 0;        // log terms: the smallest training value (> 0), so log never sees <= 0
};

// One logistic unit: σ(bias + Σ weights[k] · standardized term k).
struct FailureUnit {
  std::vector<double> weights;  // per standardized term
  double bias = 0;
};

// A candidate of the selection on all runs, with its CV mean log-loss and accuracy (p > 0.5).
struct FailureCandidate {
  FailureFeatures features = FailureFeatures::kValues;
  std::size_t units = 1;
  double lambda = 1;
  double cv_log_loss = -1;
  double cv_accuracy = -1;
};

// A bound the successful runs show to be safe: x[a] / x[b] (or x[a] · x[b]) at most (upper) or at
// least `limit`, the successful runs' largest (smallest) value, kept because a failed run lies
// beyond it.
struct FailureBound {
  std::size_t a = 0, b = 0;  // columns (indices into Dataset::features), a < b
  bool product = false;      // x[a] · x[b] instead of x[a] / x[b]
  bool upper = true;         // value <= limit; else value >= limit
  double limit = 0;

  double Value(const std::vector<double>& x) const;  // x[a] / x[b] or x[a] · x[b]
  bool Holds(const std::vector<double>& x) const;
};

struct FailureModel {
  FailureFeatures features = FailureFeatures::kValues;  // the chosen candidate's terms
  double lambda = 1;                                    // and its penalty
  std::vector<FailureTerm> terms;
  std::vector<double> mean, scale;  // standardization of each term (training runs)
  // One unit: logistic regression. Several: P(fail) = 1 − Π (1 − σ_k), any unit failing it.
  std::vector<FailureUnit> units;
  std::size_t failed_runs = 0;
  std::size_t succeeded_runs = 0;
  // Out-of-fold accuracy and mean log-loss of the whole procedure (nested: each outer fold's
  // model was selected and fitted without its runs), and that of always answering the majority
  // class, for the answer to report honestly.
  double cv_accuracy = -1;
  double cv_log_loss = -1;
  double majority_accuracy = -1;
  // The selection on all runs, in candidate order (not kept in saved model files).
  std::vector<FailureCandidate> candidates;
  // The bounds of the successful runs, in (a, b, ratio before product, upper before lower)
  // order. bounds_known is false for a model loaded from a file written before session 9,
  // which has none.
  std::vector<FailureBound> bounds;
  bool bounds_known = true;

  // Predicted probability that configuration x (original units, features order) fails.
  double Probability(const std::vector<double>& x) const;
  // The first bound x breaks, or nullptr when x is inside them all.
  const FailureBound* BrokenBound(const std::vector<double>& x) const;
};

// What FitFailureModel chooses among. The defaults are the documented rule; tests narrow them.
struct FailureOptions {
  // Terms of the single-unit candidates, in tie-break order. Default: all three, in enum order.
  std::vector<FailureFeatures> feature_sets = {
      FailureFeatures::kValues, FailureFeatures::kLogValues, FailureFeatures::kValuesAndLogs};
  // Unit counts (>= 2) of the any-of-K candidates, on the log-values terms, tried after the
  // single-unit ones. Default 2 and 3; empty: single units only.
  std::vector<std::size_t> union_units = {2, 3};
  // L2 penalties tried (> 0), in tie-break order. Default 100, 10, 1, 0.1, 0.01.
  std::vector<double> lambdas = {100, 10, 1, 0.1, 0.01};
  std::size_t folds = 5;  // CV folds for the selection and the nested estimate (>= 2)
  // Threads sharing the selection on all runs and the nested estimate's outer folds (each a
  // whole selection); the model does not depend on it. Default 1.
  int threads = 1;
  // InvalidField naming failure_feature_sets, failure_union_units, failure_lambdas,
  // failure_folds or failure_threads (1 to 1024).
  Status Validate() const;
};

// Selects and fits from the succeeded runs of `data` (data.x) and its failed runs (data.failed_x),
// and finds the bounds of the successful runs. InvalidArgument when there are no failed runs, or
// no succeeded ones, or the options are invalid.
Result<FailureModel> FitFailureModel(const Dataset& data, const FailureOptions& options = {});

}  // namespace perfplan::tuning
