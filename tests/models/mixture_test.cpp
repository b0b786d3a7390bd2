#include "models/mixture.h"

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "tests/support/result_checks.h"

namespace perfplan::models {
namespace {

// scipy.integrate.quad of E[X·S(X)]/E[X] (independent of this code) agrees with the tanh-sinh
// integration to better than 1e-9; allow 1e-8.
constexpr double kQuadrature = 1e-8;

TEST_CASE("a two-term Pareto mixture parses into weights, kinds and parameters") {
  const Mixture m = testing::ValueOf(ParseMixture(" 0.9 * pareto(4, 0.1) + 0.1*pareto(1.7,1) "));
  REQUIRE(m.components.size() == 2);
  const MixtureComponent& a = m.components[0];
  CHECK(a.weight == 0.9);
  CHECK(a.kind == DistributionKind::kPareto);
  CHECK(a.first == 4);
  CHECK(a.second == 0.1);
  CHECK(a.column == 2);
  CHECK(m.components[1].column == 25);
  CHECK(ToString(m) == "0.9*pareto(4,0.1)+0.1*pareto(1.7,1)");
  CHECK(Mean(m) == doctest::Approx(0.9 * 0.4 / 3 + 0.1 * 1.7 / 0.7));
}

TEST_CASE("a single term needs no weight") {
  const Mixture m = testing::ValueOf(ParseMixture("normal(0.5,0.4)"));
  CHECK(m.components[0].weight == 1);
  CHECK(CanBeNegative(m));
}

TEST_CASE("bad mixture expressions name the column of the bad token") {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"0.9*paretto(4,0.1)+0.1*pareto(1.7,1)",
       "column 5: unknown distribution 'paretto'; expected pareto or normal"},
      {"0.9*pareto(4,x)+0.1*pareto(1.7,1)", "column 14: expected pareto c (a number), found 'x'"},
      {"0.9*pareto(4 0.1)+0.1*pareto(1.7,1)",
       "column 14: expected ',' after pareto alpha, found '0.1'"},
      {"0.9 pareto(4,0.1)", "column 5: expected '*' after the weight, found 'pareto'"},
      {"0.9*pareto(4,0.1)+0.1*pareto(1.7,1",
       "column 35: expected ')' to close pareto(…), found "
       "the end of the expression"},
      {"0.9*pareto(4,0.1)-0.1*pareto(1.7,1)",
       "column 18: expected '+' or the end of the expression, found '-0.1'"},
      {"0.9*pareto(0.9,0.1)+0.1*pareto(1.7,1)",
       "column 12: pareto alpha must be > 1 for a finite mean; got 0.9"},
      {"0.9*pareto(4,0)+0.1*pareto(1.7,1)", "column 14: pareto c must be > 0; got 0"},
      {"0.9*normal(0.5,-1)+0.1*pareto(1.7,1)", "column 16: normal sd must be > 0; got -1"},
      {"0.9*pareto(4,0.1)+0.05*pareto(1.7,1)", "weights sum to 0.95; they must sum to 1"},
      {"pareto(4,0.1)+pareto(1.7,1)",
       "column 15: every term needs a weight 'w*' when there are several"},
      {"1.5*pareto(4,0.1)", "column 1: weight must be in (0, 1]; got 1.5"},
      {"0.9*(4,0.1)", "column 5: expected a distribution (pareto or normal), found '('"},
      {"  ",
       "the mixture expression is empty; expected e.g. "
       "\"0.9*pareto(4,0.1)+0.1*pareto(1.7,1)\""},
  };
  for (const Case& c : cases) {
    const std::string text = c.text;
    CAPTURE(text);
    CHECK(ParseMixture(c.text).status().message() == c.message);
  }
}

TEST_CASE("the normal quantile inverts the normal CDF in the centre and both tails") {
  for (double p : {1e-300, 1e-20, 1e-6, 0.01, 0.02425, 0.3, 0.5}) {
    CAPTURE(p);
    const double x = NormalQuantile(p, 1 - p);
    CHECK(0.5 * std::erfc(-x / std::numbers::sqrt2) == doctest::Approx(p).epsilon(1e-13));
    CHECK(NormalQuantile(1 - p, p) == doctest::Approx(-x).epsilon(1e-13));
  }
}

TEST_CASE("the true H of the DESIGN's Pareto mixture is 0.5797") {
  Result<TrueHIndex> t =
      ComputeTrueHIndex(ParseMixture("0.9*pareto(4,0.1)+0.1*pareto(1.7,1)").value());
  REQUIRE(t.ok());
  CHECK(t.value().area_baseline == doctest::Approx(1 - 1 / 1.75).epsilon(kQuadrature));
  CHECK(t.value().area_l == doctest::Approx(0.18014792818450898).epsilon(kQuadrature));
  CHECK(t.value().h_index == doctest::Approx(0.5796548342361458).epsilon(kQuadrature));
}

TEST_CASE("the true H of the DESIGN's normal-Pareto mixture is 0.1434") {
  Result<TrueHIndex> t =
      ComputeTrueHIndex(ParseMixture("0.9*normal(0.5,0.4)+0.1*pareto(1.7,1)").value());
  REQUIRE(t.ok());
  // Closed form for a normal: A(L) = (m/2 − s/(2√π))/m.
  CHECK(
      t.value().area_baseline ==
      doctest::Approx((0.25 - 0.4 / (2 * std::sqrt(std::numbers::pi))) / 0.5).epsilon(kQuadrature));
  CHECK(t.value().h_index == doctest::Approx(0.14341795107318966).epsilon(kQuadrature));
}

TEST_CASE("a single-term mixture has no stragglers: true H = 0") {
  const TrueHIndex t = testing::ValueOf(ComputeTrueHIndex(ParseMixture("pareto(3,2)").value()));
  CHECK(t.h_index == 0);
  CHECK(t.area_l == doctest::Approx(1 - 1 / (2 - 1 / 3.0)).epsilon(kQuadrature));
}

TEST_CASE("a baseline with a non-positive mean is rejected") {
  CHECK(ComputeTrueHIndex(ParseMixture("0.5*normal(-1,1)+0.5*pareto(2,1)").value())
            .status()
            .message() ==
        "the mixture and its first term (the straggler-free baseline) need positive means; got "
        "0.5 and -1");
}

TEST_CASE("draws follow the mixture: the sample mean of 200000 Pareto draws") {
  Rng rng(42);
  const Mixture m = ParseMixture("pareto(4,0.1)").value();
  double sum = 0, min = 1;
  for (double x : Sample(m, 200000, rng)) sum += x, min = std::min(min, x);
  // Pareto(4) has sd 0.0471 around 0.1333; 5 standard errors of the mean is 5e-4.
  CHECK(sum / 200000 == doctest::Approx(0.4 / 3).epsilon(5e-4 / (0.4 / 3)));
  CHECK(min >= 0.1);
}

TEST_CASE("the same seed gives the same draws") {
  const Mixture m = ParseMixture("0.9*normal(0.5,0.4)+0.1*pareto(1.7,1)").value();
  Rng a(7), b(7);
  CHECK(Sample(m, 100, a) == Sample(m, 100, b));
}

}  // namespace
}  // namespace perfplan::models
