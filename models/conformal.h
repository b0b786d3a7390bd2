// Conformal prediction intervals on the log scale: CV+ / jackknife+ (Barber, Candès, Ramdas,
// Tibshirani, "Predictive inference with the jackknife+", Ann. Statist. 2021).
//
// Each calibration point i contributes a centre c_i = log ŷ_{-k(i)}(x) (the prediction at the
// target x of the model fitted without i's fold) and a radius r_i = |log y_i − log ŷ_{-k(i)}(x_i)|
// (i's own out-of-sample log residual). The CV+ interval at level 1 − α is
//   [ the ⌊α(n+1)⌋-th smallest of c_i − r_i ,  the ⌈(1−α)(n+1)⌉-th smallest of c_i + r_i ]
// and its guarantee (coverage ≥ 1 − 2α, ≈ 1 − α in practice) needs n ≥ 1/α − 1 points; with fewer
// the extreme values are used (the interval is then as wide as the calibration set allows, and
// `ConformalInterval::short_of_points` says so). The interval is finally widened to contain the
// point prediction, so it never excludes its own prediction. Radii may be scaled per target
// (extrapolation): the caller passes the factor.
//
// Pure functions; thread-safe. Units: the interval is in seconds (exp of the log bounds).
#pragma once

#include <cstddef>
#include <vector>

namespace perfplan::models {

struct ConformalPoint {
  double centre_log = 0;  // log of the fold model's prediction at the target
  double radius_log = 0;  // |log measured − log fold prediction| at the calibration point, ≥ 0
};

struct ConformalInterval {
  double low_seconds = 0;
  double high_seconds = 0;
  bool short_of_points = false;  // fewer points than the level needs: extremes used
};

// The interval at `level` (in (0, 1)) for point prediction `predicted_seconds` (> 0) from
// `points` (at least one), each radius multiplied by `radius_factor` (≥ 1; 1 = no widening).
// Always low ≤ predicted ≤ high.
ConformalInterval CvPlusInterval(const std::vector<ConformalPoint>& points,
                                 double predicted_seconds, double level,
                                 double radius_factor = 1);

}  // namespace perfplan::models
