#include "models/hindex.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "models/random.h"
#include "tests/support/result_checks.h"

namespace perfplan::models {
namespace {

// Closed-form expectations are computed in double from the same sums; allow rounding only.
constexpr double kExact = 1e-12;
// The paper prints four significant digits (and 50.74% where the exact ratio is 50.734%).
constexpr double kPaperRounding = 1e-3;

TEST_CASE("the worked example of the paper: A(L)=.2176, A(L*)=.4289 gives H=.493") {
  const HFromAreasResult h = testing::ValueOf(HFromAreas(0.2176, 0.4289));
  CHECK(h.h_index == doctest::Approx(0.493).epsilon(kPaperRounding));
  CHECK(h.efficiency == doctest::Approx(0.5074).epsilon(kPaperRounding));
  CHECK(h.speedup == doctest::Approx(1.971).epsilon(kPaperRounding));
  CHECK(std::abs(h.speedup - 1 / (1 - h.h_index)) < kExact);
}

TEST_CASE("H from areas rejects a non-positive area") {
  CHECK(HFromAreas(0, 0.4).status().message() ==
        "the Lorenz areas must be positive to compare them; got A(L) = 0, A(L*) = 0.4");
}

TEST_CASE("Lorenz points, areas and both Gini forms of a small sample") {
  const std::vector<double> sorted = {1, 2, 3, 4};
  const std::vector<double> l = LorenzPoints(sorted);
  REQUIRE(l.size() == 4);
  CHECK(l[0] == doctest::Approx(0.1));
  CHECK(l[1] == doctest::Approx(0.3));
  CHECK(l[2] == doctest::Approx(0.6));
  CHECK(l[3] == 1.0);
  CHECK(LorenzArea(l) == doctest::Approx(0.5));
  CHECK(IdealLorenzArea(l, 2) == doctest::Approx((0.1 / 0.3 + 1) / 2));
}

TEST_CASE("the trapezoid Gini equals the usual sample Gini") {
  Rng rng(3);
  std::vector<double> v(500);
  for (double& x : v) x = -std::log(rng.Uniform());
  const HIndexResult r = testing::ValueOf(ComputeHIndex(v, {}));
  std::sort(v.begin(), v.end());
  const double n = 500, s = std::accumulate(v.begin(), v.end(), 0.0);
  double g = 0;
  for (std::size_t i = 0; i < v.size(); ++i) g += (2.0 * (i + 1) - n - 1) * v[i];
  g /= n * s;
  CHECK(std::abs(r.gini_trapezoid - g) < kExact);
  CHECK(std::abs(r.gini - (g - 1 / n)) < kExact);
}

TEST_CASE("a step from 90 equal values to 10 slow ones: change point 90 and H in closed form") {
  std::vector<double> v(90, 1.0);
  v.insert(v.end(), 10, 20.0);
  const HIndexResult h = testing::ValueOf(ComputeHIndex(v, {}));
  CHECK(h.has_change_point);
  CHECK(h.change_point == 90);
  CHECK(h.change_point_fraction == doctest::Approx(0.9));
  const double area_l = (4095.0 / 290 + 2000.0 / 290) / 100;  // Σ i/290 + Σ (90 + 20j)/290
  const double area_lstar = 91.0 / 180;                       // (1/90)·Σ i/90
  CHECK(std::abs(h.area_l - area_l) < kExact);
  CHECK(std::abs(h.area_lstar - area_lstar) < kExact);
  CHECK(std::abs(h.h_index - (1 - area_l / area_lstar)) < kExact);
  CHECK(std::abs(h.speedup - area_lstar / area_l) < kExact);
  CHECK(h.max_over_median.value() == 20.0);
  CHECK(h.above_speculation_threshold == 10);  // 20 > 1.5·1
  CHECK(h.above_skew_threshold == 10);         // 20 > 5·1
  CHECK(h.warnings.empty());
}

TEST_CASE("all values equal: H = 0, no change point, a warning, nothing NaN") {
  const std::vector<double> v(50, 2.5);
  const HIndexResult h = testing::ValueOf(ComputeHIndex(v, {}));
  CHECK(h.h_index == 0);
  CHECK(h.efficiency == 1);
  CHECK(h.speedup == 1);
  CHECK_FALSE(h.has_change_point);
  CHECK(h.change_point == 50);
  CHECK(h.change_point_fraction == 1);
  CHECK(h.area_lstar == h.area_l);
  CHECK(h.gini_trapezoid == doctest::Approx(0).scale(1));
  CHECK_FALSE(h.hill.available);
  REQUIRE(h.warnings.size() == 1);
  CHECK(h.warnings[0] == "all 50 values are equal (2.5): no change point; H = 0");
  for (double x : {h.area_l, h.gini, h.area_lstar, h.h_index, h.speedup, h.hill.alpha}) {
    CHECK(std::isfinite(x));
  }
}

TEST_CASE("values growing linearly have a quadratic Lorenz curve: no change point with p = 2") {
  std::vector<double> v(100);
  std::iota(v.begin(), v.end(), 1.0);
  HIndexOptions options;
  options.degree = 2;
  const HIndexResult r = testing::ValueOf(ComputeHIndex(v, options));
  CHECK_FALSE(r.has_change_point);
  CHECK(r.h_index == 0);
  CHECK(r.warnings.at(0) ==
        "one degree-2 polynomial fits the whole Lorenz curve: no change point; H = 0");
}

TEST_CASE("zeros among the values are accepted while the ideal curve is defined") {
  std::vector<double> v(10, 0.0);
  v.insert(v.end(), 90, 1.0);
  v.insert(v.end(), 3, 30.0);
  const HIndexResult r = testing::ValueOf(ComputeHIndex(v, {}));
  CHECK(r.change_point == 93);
  CHECK(r.h_index == doctest::Approx(0.4571775312066575));  // numpy, same formulas
}

TEST_CASE("a change point inside a run of zeros is an error, not a NaN") {
  std::vector<double> v(40, 0.0);
  v.insert(v.end(), 60, 1.0);
  v.push_back(30);
  CHECK(ComputeHIndex(v, {}).status().message() ==
        "the 40 smallest values (up to the change point) sum to 0: the ideal Lorenz curve L* is "
        "undefined (too many zero values)");
}

TEST_CASE("bad values are rejected with their position") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> v(30, 1.0);
  struct Case {
    double bad;
    const char* message;
  };
  for (const Case& c : {Case{nan, "value 7 is NaN; expected a finite time ≥ 0"},
                        Case{inf, "value 7 is infinite; expected a finite time ≥ 0"},
                        Case{-0.5, "value 7 is negative (-0.5); expected a finite time ≥ 0"}}) {
    CAPTURE(c.message);
    std::vector<double> w = v;
    w[6] = c.bad;
    CHECK(ComputeHIndex(w, {}).status().message() == c.message);
  }
  CHECK(ComputeHIndex(std::vector<double>(30, 0.0), {}).status().message() ==
        "all 30 values are zero: the Lorenz curve is undefined");
  CHECK(ComputeHIndex(std::vector<double>(21, 1.0), {}).status().message() ==
        "need at least 2ω + 2 = 22 values (ω = 10); got 21");
  HIndexOptions bad;
  bad.degree = 0;
  CHECK(ComputeHIndex(v, bad).status().message() == "degree: must be 1, 2 or 3; got 0");
  bad.degree = 2;
  bad.min_segment = 2;
  CHECK(ComputeHIndex(v, bad).status().message() ==
        "min_segment: ω must be 0 (default) or at least degree + 1 = 3; got 2");
}

TEST_CASE("negative values are allowed when the options say so (normal mixtures)") {
  Rng rng(9);
  std::vector<double> v(200);
  for (double& x : v) x = 0.5 + 0.4 * (rng.Uniform() + rng.Uniform() + rng.Uniform() - 1.5);
  v[0] = -0.3;
  HIndexOptions options;
  options.allow_negative = true;
  options.degree = 2;
  const HIndexResult r = testing::ValueOf(ComputeHIndex(v, options));
  CHECK(std::isfinite(r.h_index));
}

TEST_CASE("the default minimum segment is 10, or 1% of n when larger") {
  CHECK(EffectiveMinSegment({}, 500) == 10);
  CHECK(EffectiveMinSegment({}, 5000) == 50);
  HIndexOptions options;
  options.min_segment = 7;
  CHECK(EffectiveMinSegment(options, 5000) == 7);
}

TEST_CASE("BIC chooses a degree in 1..3 and reports all three") {
  Rng rng(4);
  std::vector<double> v(1000);
  for (double& x : v) {
    x = rng.Uniform() < 0.9 ? 0.1 * std::pow(rng.Uniform(), -1 / 4.0)
                            : std::pow(rng.Uniform(), -1 / 1.7);
  }
  HIndexOptions options;
  options.choose_degree = true;
  const HIndexResult r = testing::ValueOf(ComputeHIndex(v, options));
  REQUIRE(r.bic.size() == 3);
  const auto best = std::min_element(r.bic.begin(), r.bic.end());
  CHECK(r.degree == 1 + (best - r.bic.begin()));
}

TEST_CASE("Hill's estimator follows its formula") {
  const std::vector<double> v = {1, 1, 1, std::exp(1.0), std::exp(2.0)};
  HillEstimate h = HillTailIndex(v, 2);
  REQUIRE(h.available);
  CHECK(h.alpha == doctest::Approx(1 / 1.5));
  CHECK_FALSE(HillTailIndex(v, 5).available);
  CHECK(HillTailIndex(v, 5).note == "k = 5 is outside 1..4");
  CHECK(HillTailIndex(std::vector<double>{0, 0, 1, 2}, 2).note ==
        "the tail threshold Y_(n−k) = 0 is not positive");
}

TEST_CASE("Hill's estimator recovers the tail index of Pareto quantiles") {
  const std::size_t n = 10000;
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::pow(1 - (i + 0.5) / n, -1 / 1.7);
  // Exact quantiles carry no sampling noise; what is left is the discretization bias (< 1%).
  CHECK(HillTailIndex(v, 100).alpha == doctest::Approx(1.7).epsilon(0.01));
}

TEST_CASE("Hill's tail starts at the first value after the change point, else k = sqrt(n)") {
  std::vector<double> v(90, 1.0);
  for (int j = 1; j <= 10; ++j) v.push_back(10.0 * j);
  Result<HIndexResult> r = ComputeHIndex(v, {});
  REQUIRE(r.ok());
  CHECK(r.value().hill.rule == HillRule::kAfterChangePoint);
  CHECK(r.value().hill.k == 100 - r.value().change_point - 1);
  HIndexOptions sqrt_rule;
  sqrt_rule.hill_rule = HillRule::kSqrtN;
  r = ComputeHIndex(v, sqrt_rule);
  REQUIRE(r.ok());
  CHECK(r.value().hill.rule == HillRule::kSqrtN);
  CHECK(r.value().hill.k == 10);
}

TEST_CASE("job-level H weights each task's H by its time") {
  const std::vector<TaskHIndex> tasks = {{0.5, 30}, {0.2, 10}, {0.0, 60}};
  CHECK(JobHIndex(tasks).value() == doctest::Approx((0.5 * 30 + 0.2 * 10) / 100));
  CHECK(JobHIndex({}).status().message() == "no tasks: H_job needs at least one task");
  const std::vector<TaskHIndex> zero = {{0.5, 0}};
  CHECK(JobHIndex(zero).status().message() ==
        "the task times sum to 0: H_job weights are undefined");
}

TEST_CASE("RD compares two platforms by the areas under their Lorenz curves") {
  HIndexResult a, b;
  a.area_l = 0.45;
  b.area_l = 0.30;
  CHECK(RelativeDifference(a, b) == doctest::Approx(0.15));
}

TEST_CASE("HillRule round-trips through its spelling") {
  for (HillRule rule : {HillRule::kAfterChangePoint, HillRule::kSqrtN}) {
    HillRule back = HillRule::kAfterChangePoint;
    CHECK(Parse(ToString(rule), &back));
    CHECK(back == rule);
  }
  HillRule out = HillRule::kSqrtN;
  CHECK_FALSE(Parse("sqrt", &out));
}

}  // namespace
}  // namespace perfplan::models
