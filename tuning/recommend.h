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
#include "tuning/model.h"
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

  Status Validate() const;  // InvalidArgument naming samples, refine_starts or refine_sweeps
};

struct RecommendedValue {
  std::string parameter;  // the Spark property (or column) name
  Unit unit = Unit::kNone;
  double value = 0;  // numeric value in original units (category index for categorical)
  double baseline = 0;
  std::string text;  // as written in spark-defaults.conf ("4g", "0.6", a category)
  std::string baseline_text;
};

struct Recommendation {
  std::string target;
  ModelKind kind = ModelKind::kMean;
  double cv_mre = -1;
  std::vector<RecommendedValue> config;  // one per parameter, model order
  double predicted = 0;
  double baseline_predicted = 0;
  // (baseline − predicted) / |baseline| when minimizing, (predicted − baseline) / |baseline|
  // when maximizing: the predicted relative improvement.
  double predicted_gain = 0;
  std::size_t evaluated = 0;  // model evaluations
  std::size_t feasible = 0;   // sampled candidates satisfying every constraint
  std::uint64_t seed = 0;
  std::vector<std::string> spark_defaults;  // spark-defaults.conf lines
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
