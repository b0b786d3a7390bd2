#include "models/conformal.h"

#include <algorithm>
#include <cmath>

namespace perfplan::models {

ConformalInterval CvPlusInterval(const std::vector<ConformalPoint>& points,
                                 double predicted_seconds, double level, double radius_factor) {
  ConformalInterval out;
  out.low_seconds = out.high_seconds = predicted_seconds;
  const std::size_t n = points.size();
  if (n == 0) return out;
  std::vector<double> lows, highs;
  lows.reserve(n);
  highs.reserve(n);
  for (const ConformalPoint& p : points) {
    lows.push_back(p.centre_log - radius_factor * p.radius_log);
    highs.push_back(p.centre_log + radius_factor * p.radius_log);
  }
  std::sort(lows.begin(), lows.end());
  std::sort(highs.begin(), highs.end());
  const double alpha = 1 - level;
  const double np1 = static_cast<double>(n + 1);
  // 1-based ranks of the CV+ quantiles; out of range means too few points for this level. The
  // slack keeps 1 − 0.9 = 0.0999… from moving a rank that is an integer in exact arithmetic.
  constexpr double kRankSlack = 1e-9;
  const auto low_rank = static_cast<long>(std::floor(alpha * np1 + kRankSlack));
  const auto high_rank = static_cast<long>(std::ceil(level * np1 - kRankSlack));
  out.short_of_points = low_rank < 1 || high_rank > static_cast<long>(n);
  const double low_log = lows[static_cast<std::size_t>(std::max(low_rank, 1L) - 1)];
  const double high_log =
      highs[static_cast<std::size_t>(std::min(high_rank, static_cast<long>(n)) - 1)];
  out.low_seconds = std::min(std::exp(low_log), predicted_seconds);
  out.high_seconds = std::max(std::exp(high_log), predicted_seconds);
  return out;
}

}  // namespace perfplan::models
