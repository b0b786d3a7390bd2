// Gaussian-process regression of a metric over configurations, and expected improvement: the
// next experiment to run (CherryPick-style Bayesian optimisation, issue 21).
//
// Features are scaled to [0, 1] by each feature's range (Feature::min/max); the target is
// modelled as log(y) when every y is positive (run times), standardized. Kernel: squared
// exponential k(a, b) = exp(-|a - b|² / (2 ℓ²)) plus noise σ²·I; ℓ and σ are chosen by the
// largest log marginal likelihood over a fixed grid (deterministic, no optimiser). Eigen's
// Cholesky does the algebra. Immutable after Fit; const queries are thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "models/status.h"
#include "tuning/dataset.h"
#include "tuning/sensitivity.h"

namespace perfplan::tuning {

// A fitted process's hyper-parameters: the length scale (in units of the [0, 1]-scaled features)
// and the noise standard deviation (in target standard deviations).
struct GpHyperParams {
  double length_scale = 1;
  double noise = 0.1;
};

class GaussianProcess {
 public:
  // Fits on rows x (original units, features order) and targets y. InvalidArgument for fewer
  // than 2 runs, a size mismatch, or features without a range.
  static Result<GaussianProcess> Fit(const std::vector<Feature>& features,
                                     const std::vector<std::vector<double>>& x,
                                     const std::vector<double>& y);
  // Fit with fixed hyper-parameters, no search (a saved model's process, rebuilt on load: the
  // same inputs and hyper-parameters give a bit-identical process). InvalidArgument as Fit's, and
  // for a length scale <= 0 or a negative or non-finite noise.
  static Result<GaussianProcess> FitWith(const std::vector<Feature>& features,
                                         const std::vector<std::vector<double>>& x,
                                         const std::vector<double>& y,
                                         const GpHyperParams& hyper);

  // Posterior mean and standard deviation of the modelled target (log scale when log_target())
  // at x.
  void Posterior(const std::vector<double>& x, double* mean, double* sd) const;
  // Posterior mean in the target's own units.
  double PredictMean(const std::vector<double>& x) const;
  // Expected improvement over the best observed value, on the modelled scale, for `goal`.
  double ExpectedImprovement(const std::vector<double>& x, Goal goal) const;

  double length_scale() const;  // in units of the [0, 1]-scaled features
  double noise() const;         // noise standard deviation, in target standard deviations
  bool log_target() const;
  double log_marginal_likelihood() const;

  struct State;

 private:
  static Result<GaussianProcess> Build(const std::vector<Feature>& features,
                                       const std::vector<std::vector<double>>& x,
                                       const std::vector<double>& y, const GpHyperParams* fixed);
  explicit GaussianProcess(std::shared_ptr<const State> s) : state_(std::move(s)) {}
  std::shared_ptr<const State> state_;
};

struct NextExperiment {
  std::size_t candidate = 0;  // index into the candidates given
  double expected_improvement = 0;
  double predicted = 0;     // posterior mean, target units
  double predicted_sd = 0;  // posterior sd on the modelled scale
};

// The `count` candidates most worth running next: the largest expected improvement, then
// (for count > 1) the same with the earlier picks added as observations at their posterior mean
// ("kriging believer"), so a batch spreads out. Fewer when there are fewer candidates.
Result<std::vector<NextExperiment>> ProposeNext(const std::vector<Feature>& features,
                                                const std::vector<std::vector<double>>& x,
                                                const std::vector<double>& y,
                                                const std::vector<std::vector<double>>& candidates,
                                                std::size_t count, Goal goal);

// `n` configurations over the features' ranges on a seeded Latin hypercube, each value snapped
// to its property's step (tuning/properties.h: integers whole, BestConf KiB/ms whole) and a
// categorical parameter's one-hot group set to one of its categories. Features not sampled keep
// `baseline`'s value.
std::vector<std::vector<double>> SampleCandidates(const std::vector<Feature>& features,
                                                  const std::vector<double>& baseline,
                                                  std::size_t n, std::uint64_t seed);

// Replays a data set's measured runs as an oracle (sample only among measured configurations):
// start from `initial` runs drawn at random (seeded), then run, one at a time, the measured
// configuration with the largest expected improvement (random_order = false) or a random
// unmeasured one (random_order = true), until the best value seen is within `tolerance` of the
// best measured. Returns how many runs that took, the initial ones included.
std::size_t ReplayRunsToNearBest(const Dataset& data, bool random_order, std::uint64_t seed,
                                 std::size_t initial = 3, double tolerance = 0.1,
                                 Goal goal = Goal::kMinimize);

}  // namespace perfplan::tuning
