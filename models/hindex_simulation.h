// Monte Carlo check of the H-index estimator (DESIGN §3.4, seed 000 §6): draw `reps` samples of n
// bucket times from a mixture, estimate m̂ and H on each, and compare with the true H of the
// mixture (models/mixture.h).
//
// Randomness comes only from the Rng the caller passes (seed it and report the seed); the same
// seed gives the same result on every platform. Pure otherwise; thread-safe for distinct Rngs.
// Cost: reps·(n log n + n·(p+1)²) — 1000 reps of n = 1000 take well under a second.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "models/hindex.h"
#include "models/mixture.h"
#include "models/random.h"
#include "models/status.h"

namespace perfplan::models {

struct HIndexSimulationOptions {
  std::size_t n = 1000;     // values (buckets) per repetition; at least 2ω + 2
  std::size_t reps = 1000;  // Monte Carlo repetitions, ≥ 1
  // Change-point settings for every repetition. allow_negative is set automatically when the
  // mixture has a normal component.
  HIndexOptions hindex;

  // InvalidArgument naming the field: reps = 0, n = 0, or hindex.Validate() failing.
  Status Validate() const;
};

struct HIndexSimulationResult {
  TrueHIndex truth;              // by numerical integration
  double mean_change_point = 0;  // mean m̂ over the repetitions that succeeded
  double mean_change_point_fraction = 0;
  double mean_h_index = 0;
  double median_h_index = 0;
  double sd_h_index = 0;  // sample standard deviation of H across repetitions
  double mean_gini = 0;
  std::size_t reps = 0;         // repetitions that produced an H
  std::size_t failed_reps = 0;  // repetitions whose sample had no defined H (see warnings)
  std::size_t reps_without_change_point = 0;
  std::vector<std::string> warnings;  // the first failure message, if any
};

// Errors: options.Validate(), ComputeTrueHIndex() failing, or every repetition failing (Failed,
// with the first repetition's message).
Result<HIndexSimulationResult> SimulateHIndex(const Mixture& mixture,
                                              const HIndexSimulationOptions& options, Rng& rng);

}  // namespace perfplan::models
