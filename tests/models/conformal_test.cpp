#include "models/conformal.h"

#include <doctest/doctest.h>

#include <cmath>

namespace perfplan::models {
namespace {

TEST_CASE("CV+ takes the alpha(n+1)-th lowest and (1-alpha)(n+1)-th highest centred bound") {
  // 19 points, level 0.9: ranks floor(0.1·20) = 2 and ceil(0.9·20) = 18.
  std::vector<ConformalPoint> points;
  for (int i = 1; i <= 19; ++i) points.push_back({0.0, 0.01 * i});
  const ConformalInterval iv = CvPlusInterval(points, 1.0, 0.9);
  // Lows sorted ascending: −0.19, −0.18, … → 2nd is −0.18; highs: 0.01 … 0.19 → 18th is 0.18.
  CHECK(iv.low_seconds == doctest::Approx(std::exp(-0.18)));
  CHECK(iv.high_seconds == doctest::Approx(std::exp(0.18)));
  CHECK(!iv.short_of_points);
}

TEST_CASE("CV+ centres each radius at its own fold prediction") {
  // Fold predictions e^0.1 and e^−0.1 with radii 0.2 and 0.3; one point each side is below the
  // level's rank, so the extremes are used and the interval says so.
  const ConformalInterval iv = CvPlusInterval({{0.1, 0.2}, {-0.1, 0.3}}, 1.0, 0.9);
  CHECK(iv.short_of_points);
  CHECK(iv.low_seconds == doctest::Approx(std::exp(-0.4)));
  CHECK(iv.high_seconds == doctest::Approx(std::exp(0.3)));
}

TEST_CASE("a CV+ interval always contains its own point prediction") {
  // Every fold model predicts far above the full model: CV+ alone would exclude it.
  const ConformalInterval iv = CvPlusInterval({{std::log(200.0), 0.01}, {std::log(210.0), 0.02}},
                                              100.0, 0.9);
  CHECK(iv.low_seconds == doctest::Approx(100.0));
  CHECK(iv.high_seconds == doctest::Approx(210.0 * std::exp(0.02)));
}

TEST_CASE("the radius factor widens every radius on the log scale") {
  std::vector<ConformalPoint> points;
  for (int i = 1; i <= 19; ++i) points.push_back({0.0, 0.01 * i});
  const ConformalInterval iv = CvPlusInterval(points, 1.0, 0.9, 2.5);
  CHECK(iv.low_seconds == doctest::Approx(std::exp(-0.45)));
  CHECK(iv.high_seconds == doctest::Approx(std::exp(0.45)));
}

TEST_CASE("no calibration point gives the point itself") {
  const ConformalInterval iv = CvPlusInterval({}, 42.0, 0.9);
  CHECK(iv.low_seconds == 42.0);
  CHECK(iv.high_seconds == 42.0);
}

}  // namespace
}  // namespace perfplan::models
