// Configuration recommendation (DESIGN §3.6): search the bounded parameter space with a fitted
// model for the configuration that minimizes (or maximizes) the predicted metric, honouring
// constraints between parameters, and report it with the predicted gain over the baseline and the
// model's CV error.
//
// Search: a Latin-hypercube sample over each parameter's training range (categorical parameters
// pick one of their categories), then pattern-search refinement from the best feasible points
// (and the baseline). Deterministic for a seed. Bounds are the training ranges: the model is not
// trusted outside them. The sample may be predicted on several threads
// (RecommendOptions::threads); the answer is the same for any thread count. Predictions are
// clipped to the measured target range during the search (an SVR far from its support vectors can
// predict a negative time); when the winner reaches the clip the answer warns that the gain is an
// extrapolation. Pure function of the model; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "tuning/failure.h"
#include "tuning/model.h"
#include "tuning/properties.h"
#include "tuning/sensitivity.h"

namespace perfplan::tuning {

// A linear inequality over products of parameters, e.g.
//   "spark.executor.memory * spark.executor.instances <= 48g"
//   "spark.executor.cores * spark.executor.instances <= 32"
//   "spark.memory.fraction + spark.memory.storageFraction < 1.2"
// Grammar: sum of products (names or numbers with Spark units, '*' between factors, '+' or '-'
// between terms) on each side of one of <= < >= >.
class Constraint {
 public:
  // Parses `text`. InvalidArgument naming the position and what was expected, or an unknown
  // parameter (with the list of known ones).
  static Result<Constraint> Parse(std::string_view text, const Model& model);
  // Whether configuration x (original units, one value per feature) satisfies it.
  bool Holds(const std::vector<double>& x) const;
  const std::string& text() const { return text_; }

  struct Term {
    double sign = 1;
    double constant = 1;
    std::vector<std::size_t> features;  // factors, by feature index
  };

 private:
  std::string text_;
  std::vector<Term> terms_;  // lhs - rhs, so the test is sum(terms) OP 0
  int op_ = 0;               // 0 <=, 1 <, 2 >=, 3 >
};

struct RecommendOptions {
  Goal goal = Goal::kMinimize;
  std::size_t samples = 2000;  // space-filling candidates; more finds better optima slowly
  int refine_starts = 5;       // best candidates refined locally (plus the baseline)
  int refine_sweeps = 60;      // maximum pattern-search sweeps per start
  std::uint64_t seed = 1;      // sampling seed; reported back
  int threads = 1;             // threads predicting the sample; the answer does not depend on it
  std::vector<std::string> constraints;  // see Constraint
  std::vector<std::string> fixed;        // parameters held at their baseline value
  // Failure-aware search: when set, configurations whose predicted failure probability exceeds
  // max_failure_probability, or that lie beyond a bound of the successful runs
  // (FailureModel::bounds), are never candidates (as if they violated a constraint). The model
  // must have been fitted on the same features (FitFailureModel on the training data set).
  const FailureModel* failure = nullptr;
  double max_failure_probability = 0.2;

  // InvalidArgument naming samples, refine_starts, refine_sweeps, threads or
  // max_failure_probability (0 to 1).
  Status Validate() const;
};

struct RecommendedValue {
  std::string parameter;  // the data set's column name
  std::string property;   // the real property name (BestConf prefixes undone, tuning/properties.h)
  ConfFile file = ConfFile::kNone;  // where it is set
  PropertyType type = PropertyType::kNumber;
  Unit unit = Unit::kNone;
  double value = 0;  // numeric value in original units (category index for categorical)
  double baseline = 0;
  std::string text;  // as written in its file ("4g", "0.6", "15", "true", a category)
  std::string baseline_text;
};

struct Recommendation {
  std::string target;
  ModelKind kind = ModelKind::kMean;
  double cv_mre = -1;
  std::vector<RecommendedValue> config;  // one per parameter, model order
  double predicted = 0;           // the model's prediction at `config`, never clipped
  double baseline_predicted = 0;  // the model's prediction at the baseline
  // predicted · (1 ∓ cv_mre): a band of the model's cross-validated relative error (not a
  // probabilistic interval); both equal `predicted` when the model has no CV MRE.
  double interval_low = 0, interval_high = 0;
  // The prediction is better than the best measured value of the target (an extrapolation:
  // the answer warns).
  bool beyond_measured = false;
  // (baseline − predicted) / |baseline| when minimizing, (predicted − baseline) / |baseline|
  // when maximizing: the predicted relative improvement.
  double predicted_gain = 0;
  std::size_t evaluated = 0;  // model evaluations
  std::size_t feasible = 0;   // sampled candidates satisfying every constraint
  std::uint64_t seed = 0;
  // spark-defaults.conf lines (Spark properties; columns of no known family follow as
  // "# NAME = VALUE" comments), and mapred-site.xml / yarn-site.xml documents ("" when the model
  // has no property of that file).
  std::vector<std::string> spark_defaults;
  std::string mapred_site_xml;
  std::string yarn_site_xml;
  // Failure awareness (RecommendOptions::failure): whether it was on, the threshold, the
  // predicted failure probability of the recommendation and of the baseline, and how many
  // sampled candidates were skipped as likely to fail.
  bool failure_aware = false;
  double max_failure_probability = 0;
  double failure_probability = 0;
  double baseline_failure_probability = 0;
  std::size_t failure_rejected = 0;
  // Sampled candidates under the threshold but beyond a bound of the successful runs
  // (FailureModel::bounds), how many bounds there are, and those the answer sits on (within
  // 1 %), as "A / B <= 0.529 (the successful runs' largest)".
  std::size_t bound_rejected = 0;
  std::size_t failure_bounds = 0;
  std::vector<std::string> binding_bounds;
  std::size_t failed_runs = 0;  // failed runs the failure model learned from
  double failure_cv_accuracy = -1;        // FailureModel::cv_accuracy (nested CV)
  double failure_cv_log_loss = -1;        // FailureModel::cv_log_loss (nested CV)
  double failure_majority_accuracy = -1;  // FailureModel::majority_accuracy
  std::string failure_features;           // the chosen terms: ToString(FailureModel::features)
  std::size_t failure_units = 0;          // its logistic units (more than 1: any of them fails)
  double failure_lambda = 0;              // its L2 penalty
  std::vector<std::string> warnings;
};

// Runs the search. InvalidArgument for bad settings, a constraint that does not parse, an unknown
// fixed parameter, or when no sampled configuration satisfies the constraints (the message names
// them).
Result<Recommendation> Recommend(const Model& model, const RecommendOptions& settings);

// One spark-defaults.conf line for a parameter: "spark.executor.memory 4g". BestConf-style column
// names are translated: "Size.X" (KiB) becomes X with a size suffix, "Time.X" (ms) becomes X with
// a duration suffix. Names that are not Spark properties become comments ("# NAME = VALUE").
std::string SparkDefaultsLine(const std::string& parameter, const std::string& text);
// The value text for a parameter, in the unit Spark expects (see SparkDefaultsLine).
std::string SparkValueText(const std::string& parameter, double value, Unit unit, bool integer);

}  // namespace perfplan::tuning
