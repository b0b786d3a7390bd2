// Cross-validation and model choice per metric (DESIGN §3.6): k-fold cross-validated MRE for each
// model kind, a hyper-parameter search (C, γ, ε for SVR; λ for ridge), and the kind with the
// lowest MRE trained on all runs.
//
// The search of the SVR kinds is successive halving by default, pooled over the SVR kinds: all
// their candidates are cross-validated on a seeded subsample of the runs (n / 3^k, at least
// kHalvingMinRuns), the pool's best go on to a subsample three times larger, and so on until the
// survivors (kHalvingFinalCandidates), each joined by its C path's next larger C (the best C
// grows with the runs), are cross-validated on all runs. On the first rung
// each C path (a kind's candidates equal but for C) is walked in increasing C and stops at the
// first C that does not lower the MRE by kCPathImprovement: large C is where libsvm is slowest
// (it reaches its iteration limit for the linear kernel). A kind's MRE is its best candidate's
// on the largest rung it reached (KindResult::mre_runs); only kinds cross-validated on all runs
// can be chosen. With a single rung (under 3 × kHalvingMinRuns runs) every candidate is tried on
// all runs, as in the grid. Ridge, the Gaussian process and the mean are cheap: always their full
// grid on all runs (the Gaussian process has one candidate: each fit chooses its length scale and
// noise by the marginal likelihood of its training runs, at most kGpMaxRuns of them), in one task
// per kind (CrossValidatePath), which a time budget does not interrupt.
// SearchStrategy::kFullGrid cross-validates every candidate on all runs (what scikit-learn's
// GridSearchCV does).
//
// Determinism: folds and subsamples come from seeded shuffles (models::Rng + Fisher-Yates,
// identical on every platform), candidates are ranked by (MRE, kind order, search order), and threads only
// share out the fits, so the same data, settings and seed give the same answer on any machine
// and for any thread count. There is no time budget by default, so the search always runs to
// its end; only a budget the caller sets, when it stops the search early, makes the answer depend
// on machine speed, and the answer then says so (budget_exhausted). Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
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

// CrossValidate of each of `path` on the same folds, sharing each fold's work that does not
// depend on the hyper-parameters (Model::FitPath): ridge's λ grid costs about one CV. Each
// result equals CrossValidate's with the same parameters.
Result<std::vector<CvResult>> CrossValidatePath(const Dataset& data, ModelKind kind,
                                                const std::vector<HyperParams>& path,
                                                const CvOptions& cv,
                                                const SolverOptions& solver = {});

// The hyper-parameter candidates tried for `kind`, first = the default, in search order.
// `features` sets the default γ = 1/features.
std::vector<HyperParams> SearchCandidates(ModelKind kind, std::size_t features);

enum class SearchStrategy {
  kSuccessiveHalving,  // "halving": the default, see above
  kFullGrid,           // "grid": every candidate on all runs
};
std::string_view ToString(SearchStrategy strategy);
// Parses "halving" and "grid"; false (and *strategy untouched) for anything else.
bool Parse(std::string_view text, SearchStrategy* strategy);

// Successive halving: the smallest subsample (runs), the factor between rungs' runs (and the
// least factor between their candidates), the candidates the last rung (all runs) holds, and the
// relative MRE gain a larger C must bring on the first rung for its C path to go on.
inline constexpr std::size_t kHalvingMinRuns = 150;
inline constexpr int kHalvingFactor = 3;
inline constexpr std::size_t kHalvingFinalCandidates = 1;
inline constexpr double kCPathImprovement = 0.01;

struct SearchOptions {
  std::vector<ModelKind> kinds = AllModelKinds();  // kinds to compare; default all
  CvOptions cv;
  SolverOptions solver;
  SearchStrategy strategy = SearchStrategy::kSuccessiveHalving;
  // The smallest subsample of successive halving (>= 2 × folds are used in any case). Default
  // kHalvingMinRuns; tests lower it to keep their data small.
  std::size_t halving_min_runs = kHalvingMinRuns;
  // Candidates successive halving takes to the last rung (all runs), >= 1. Default
  // kHalvingFinalCandidates.
  std::size_t halving_final_candidates = kHalvingFinalCandidates;
  // Threads sharing the candidates' cross-validations (>= 1; the answer does not depend on it).
  // Default 1.
  int threads = 1;
  // Wall-clock budget for the whole search, an opt-in safety net: every kind's default candidate
  // is always evaluated, later ones are skipped once the budget is spent. Default: none
  // (infinity), so the answer does not depend on machine speed.
  double budget_seconds = std::numeric_limits<double>::infinity();
  // Seconds on a monotonic clock; default std::chrono::steady_clock. Tests inject a fake.
  std::function<double()> clock;

  // InvalidArgument for empty kinds, a non-positive budget, threads < 1 or no final candidate.
  Status Validate() const;
};

struct KindResult {
  ModelKind kind = ModelKind::kMean;
  HyperParams params;  // the best candidate found
  double mre = 0;      // its CV MRE, on mre_runs runs
  // Runs of the rung `mre` comes from: all runs, except for an SVR kind of successive halving
  // whose candidates all dropped out before the last rung (it then cannot be chosen).
  std::size_t mre_runs = 0;
  std::size_t best_candidate = 0;  // index of `params` in SearchCandidates' order
  int evaluated = 0;   // candidates tried (on any subsample)
  int candidates = 0;  // candidates available
  int fits = 0;        // model fits spent on this kind (folds × candidates × rungs)
  std::vector<std::size_t> rung_runs;  // runs of each rung it reached (the grid: all runs)
};

struct Selection {
  std::string target;
  std::vector<KindResult> kinds;  // in SearchOptions::kinds order
  ModelKind chosen = ModelKind::kMean;
  double chosen_mre = 0;
  double mean_mre = -1;  // the mean predictor's MRE when kMean was compared, else -1
  bool budget_exhausted = false;
  SearchStrategy strategy = SearchStrategy::kSuccessiveHalving;
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
