// Failure-aware tuning (issue 21): which configurations fail. Runs marked as failed (the
// DatasetOptions::failed_markers, BestConf's -1) train an L2-regularised logistic regression of
// the failure probability on the standardized parameters, fitted by Newton's method (IRLS) on
// Eigen; recommendations skip configurations whose predicted probability exceeds a threshold.
// Deterministic; a fitted FailureModel is an immutable value, thread-safe to query.
#pragma once

#include <cstddef>
#include <vector>

#include "models/status.h"
#include "tuning/dataset.h"

namespace perfplan::tuning {

struct FailureModel {
  std::vector<double> mean, scale;  // standardization of each feature (training runs)
  std::vector<double> weights;      // per standardized feature
  double bias = 0;
  std::size_t failed_runs = 0;
  std::size_t succeeded_runs = 0;
  double lambda = 1;
  // Leave-one-fold-out accuracy (5 folds, every run predicted by a model that did not see it) and
  // that of always answering the majority class, for the answer to report honestly.
  double cv_accuracy = -1;
  double majority_accuracy = -1;

  // Predicted probability that configuration x (original units, features order) fails.
  double Probability(const std::vector<double>& x) const;
};

// Fits from the succeeded runs of `data` (data.x) and its failed runs (data.failed_x).
// InvalidArgument when there are no failed runs, or no succeeded ones, or lambda <= 0.
Result<FailureModel> FitFailureModel(const Dataset& data, double lambda = 1.0);

}  // namespace perfplan::tuning
