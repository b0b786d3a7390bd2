#include "models/change_point.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/random.h"
#include "tests/support/result_checks.h"

namespace perfplan::models {
namespace {

// The running fits and a direct QR fit round differently; both are backward stable, so their
// SSEs agree to a small multiple of eps·Σy² — 1e-9 relative leaves three orders of margin.
constexpr double kAgreeRelative = 1e-9;

// A Lorenz-like curve: sorted positive draws, cumulated and normalized.
std::vector<double> LorenzOfPareto(std::size_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> v(n);
  for (double& x : v) {
    const double alpha = rng.Uniform() < 0.9 ? 4.0 : 1.7;
    const double c = alpha == 4.0 ? 0.1 : 1.0;
    x = c * std::pow(rng.Uniform(), -1.0 / alpha);
  }
  std::sort(v.begin(), v.end());
  double s = 0;
  for (double& x : v) x = (s += x);
  for (double& x : v) x /= s;
  return v;
}

TEST_CASE("SequentialPolynomialFit reproduces an exact cubic with zero SSE") {
  SequentialPolynomialFit fit(3);
  double sse = 1;
  for (int i = 0; i < 50; ++i) {
    const double t = i / 50.0;
    sse = fit.Add(t, 1 - 2 * t + 0.5 * t * t - 3 * t * t * t);
  }
  CHECK(sse < 1e-25);
}

TEST_CASE("SequentialPolynomialFit SSE equals the direct fit of the same points") {
  const std::vector<double> y = LorenzOfPareto(300, 7);
  for (int p = 1; p <= 3; ++p) {
    CAPTURE(p);
    SequentialPolynomialFit fit(p);
    for (std::size_t i = 1; i <= y.size(); ++i) fit.Add(i / 300.0, y[i - 1]);
    const double direct = SegmentSse(y, 1, y.size(), p);
    CHECK(std::abs(fit.sse() - direct) <= kAgreeRelative * direct);
  }
}

TEST_CASE("a curve made of two lines has its change point at the break") {
  const std::size_t n = 100;
  std::vector<double> y(n);
  for (std::size_t i = 1; i <= n; ++i) {
    const double x = double(i) / n;
    y[i - 1] = i <= 70 ? 0.5 * x : 0.35 + 3 * (x - 0.7);
  }
  const ChangePointSearch s = testing::ValueOf(FindChangePoint(y, 1, 10));
  CHECK(s.m == 70);
  CHECK(s.sse < 1e-25);
  CHECK(s.sse_single > 0.1);
}

TEST_CASE("every split cost agrees with direct fits of both segments") {
  const std::vector<double> y = LorenzOfPareto(400, 11);
  for (int p = 1; p <= 3; ++p) {
    CAPTURE(p);
    const std::vector<double> costs = testing::ValueOf(SplitCosts(y, p, 10));
    REQUIRE(costs.size() == 400 - 20 + 1);
    for (std::size_t m = 10; m <= 390; ++m) {
      CAPTURE(m);
      const double direct = SegmentSse(y, 1, m, p) + SegmentSse(y, m + 1, 400, p);
      CHECK(std::abs(costs[m - 10] - direct) <= kAgreeRelative * direct + 1e-18);
    }
  }
}

TEST_CASE("the prefix-sum search finds the same change point as the direct O(n^2) search") {
  for (std::uint64_t seed : {1, 2, 3}) {
    const std::vector<double> y = LorenzOfPareto(600, seed);
    for (int p = 1; p <= 3; ++p) {
      CAPTURE(seed);
      CAPTURE(p);
      Result<ChangePointSearch> fast = FindChangePoint(y, p, 10);
      Result<ChangePointSearch> direct = FindChangePointDirect(y, p, 10);
      REQUIRE(fast.ok());
      REQUIRE(direct.ok());
      CHECK(fast.value().m == direct.value().m);
      CHECK(std::abs(fast.value().sse - direct.value().sse) <= kAgreeRelative * direct.value().sse);
      CHECK(std::abs(fast.value().sse_single - direct.value().sse_single) <=
            kAgreeRelative * direct.value().sse_single);
    }
  }
}

TEST_CASE("split costs stay accurate at a million points with a cubic") {
  const std::size_t n = 1'000'000;
  const std::vector<double> y = LorenzOfPareto(n, 5);
  const std::vector<double> costs = testing::ValueOf(SplitCosts(y, 3, 10'000));
  for (std::size_t m : {10'000u, 250'000u, 899'999u, 900'000u, 990'000u}) {
    CAPTURE(m);
    const double direct = SegmentSse(y, 1, m, 3) + SegmentSse(y, m + 1, n, 3);
    // The DESIGN asks for agreement with a direct fit to 1e-6; check it relative to the SSE.
    CHECK(std::abs(costs[m - 10'000] - direct) <= 1e-6 * direct);
  }
}

TEST_CASE("bad arguments are rejected with the rule they break") {
  const std::vector<double> y(15, 0.5);
  CHECK(FindChangePoint(y, 1, 10).status().message() ==
        "need at least 2ω + 2 = 22 values (ω = 10); got 15");
  CHECK(FindChangePoint(y, 4, 10).status().message() == "degree must be 1, 2 or 3; got 4");
  CHECK(FindChangePoint(y, 3, 3).status().message() ==
        "minimum segment ω must be at least degree + 1 = 4 so a degree-3 fit is determined; got 3");
  CHECK(FindChangePointDirect(y, 1, 10).status().code() == StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace perfplan::models
