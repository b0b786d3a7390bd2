// Cross-validation and model choice per metric (DESIGN §3.6): k-fold cross-validated MRE for each
// model kind, a hyper-parameter search (C, γ, ε for SVR; λ for ridge) under a time budget, and
// the kind with the lowest MRE trained on all runs.
//
// Determinism: folds come from a seeded shuffle (models::Rng + Fisher-Yates, identical on every
// platform) and candidates are tried in a fixed order, so the same data, settings and seed give
// the same answer whenever the search completes. When the time budget stops the search early the
// answer says so (budget_exhausted) and depends on machine speed. Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/status.h"
#include "tuning/dataset.h"
#include "tuning/model.h"

namespace perfplan::tuning {

struct CvOptions {
  int folds = 5;           // k of k-fold CV; >= 2 and <= runs
  std::uint64_t seed = 1;  // shuffles runs into folds; reported back in every answer

  Status Validate() const;  // InvalidArgument naming folds when < 2
};

struct CvResult {
  double mre = 0;                   // mean relative error over all out-of-fold predictions
  std::vector<double> predictions;  // out-of-fold prediction for each run, dataset order
};

// k-fold CV of one kind with fixed hyper-parameters. InvalidArgument when there are fewer runs
// than folds, or a measured value is 0 (relative error undefined); errors of Model::Fit pass on.
Result<CvResult> CrossValidate(const Dataset& data, ModelKind kind, const HyperParams& params,
                               const CvOptions& cv, const SolverOptions& solver = {});

// The hyper-parameter candidates tried for `kind`, first = the default, in search order.
// `features` sets the default γ = 1/features.
std::vector<HyperParams> SearchCandidates(ModelKind kind, std::size_t features);

struct SearchOptions {
  std::vector<ModelKind> kinds = AllModelKinds();  // kinds to compare; default all
  CvOptions cv;
  SolverOptions solver;
  // Wall-clock budget for the whole search. Candidates run round-robin across kinds (every
  // kind's default first), so each kind has a result even when the budget runs out. Default 60.
  double budget_seconds = 60;
  // Seconds on a monotonic clock; default std::chrono::steady_clock. Tests inject a fake.
  std::function<double()> clock;

  Status Validate() const;  // InvalidArgument for empty kinds or a non-positive budget
};

struct KindResult {
  ModelKind kind = ModelKind::kMean;
  HyperParams params;  // the best candidate found
  double mre = 0;      // its CV MRE
  int evaluated = 0;   // candidates tried
  int candidates = 0;  // candidates available
};

struct Selection {
  std::string target;
  std::vector<KindResult> kinds;  // in SearchOptions::kinds order
  ModelKind chosen = ModelKind::kMean;
  double chosen_mre = 0;
  double mean_mre = -1;  // the mean predictor's MRE when kMean was compared, else -1
  bool budget_exhausted = false;
  int folds = 0;
  std::uint64_t seed = 0;
  std::vector<std::string> warnings;
};

// Runs the search. Errors of CrossValidate pass on (fewer runs than folds, zero targets).
Result<Selection> SelectModel(const Dataset& data, const SearchOptions& settings);

// Fits the chosen kind with its best hyper-parameters on all runs, records the CV MRE and sets
// the baseline to the first run.
Result<Model> TrainSelected(const Dataset& data, const Selection& selection,
                            const SolverOptions& solver = {});

}  // namespace perfplan::tuning
