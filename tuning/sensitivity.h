// Parameter sensitivity of a fitted model (DESIGN §3.6): η_i = (ŷ(x + Δ_i) − ŷ(x)) / Δ_i at a
// configuration x (by default the model's baseline run), the direction that improves the metric,
// and a ranking by |η_i| scaled by the parameter's training range.
//
// Units: η is in target units per parameter unit (e.g. seconds per byte for a size parameter,
// parsed sizes are bytes and durations seconds). Pure functions of the model; thread-safe.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "models/status.h"
#include "tuning/model.h"

namespace perfplan::tuning {

enum class Goal {
  kMinimize,  // lower is better (times, bytes spilled); the default
  kMaximize,  // higher is better (throughput, the heuristic score)
};

// A configuration as "name=value" overrides of the model's baseline: names are parameters (the
// source column, e.g. spark.executor.memory) and values are parsed with Spark units ("4g").
// For a one-hot parameter the value picks the category. InvalidArgument naming the parameter for
// an unknown name (the message lists the known ones), an unparsable value or an unknown category.
Result<std::vector<double>> ResolveConfiguration(
    const Model& model, const std::vector<std::pair<std::string, std::string>>& overrides);

struct SensitivityOptions {
  Goal goal = Goal::kMinimize;
  // Configuration to differentiate at, one value per feature; empty = the model's baseline.
  std::vector<double> at;
  // Δ_i as a fraction of the parameter's training range (whole numbers for integer parameters,
  // at least 1). Default 0.01. Raise it for noisy models.
  double step_fraction = 0.01;

  Status Validate() const;  // InvalidArgument when step_fraction is not in (0, 1]
};

struct ParameterSensitivity {
  std::string name;  // feature name ("param" or "param=category")
  Unit unit = Unit::kNone;
  double value = 0;       // x_i, original units
  double step = 0;        // Δ_i (negative when the step went down: x_i + Δ was out of range)
  double eta = 0;         // (ŷ(x + Δ_i) − ŷ(x)) / Δ_i
  double scaled = 0;      // |η_i| × (max_i − min_i): the metric change across the range
  std::string direction;  // "increase", "decrease" or "none": the way that improves the goal;
                          // for a category (one-hot "param=value"): "choose", "avoid" or "none"
  int rank = 0;           // 1 = most influential (largest scaled)
};

struct Sensitivity {
  std::string target;
  ModelKind kind = ModelKind::kMean;
  double cv_mre = -1;
  double predicted = 0;                          // ŷ(x)
  std::vector<ParameterSensitivity> parameters;  // rank order
  std::vector<std::string> warnings;
};

// InvalidArgument when `at` has the wrong size or settings are invalid.
Result<Sensitivity> ComputeSensitivity(const Model& model, const SensitivityOptions& settings);

}  // namespace perfplan::tuning
