// The Monte Carlo reproductions of DESIGN §3.4 (seed 000 §6): n = 1000 buckets, 1000 repetitions.
#include "models/hindex_simulation.h"

#include <doctest/doctest.h>

#include "tests/support/result_checks.h"

namespace perfplan::models {
namespace {

constexpr std::uint64_t kSeed = 20140101;

HIndexSimulationResult Run(const char* mixture, int degree, std::uint64_t seed = kSeed) {
  HIndexSimulationOptions options;
  options.n = 1000;
  options.reps = 1000;
  options.hindex.degree = degree;
  Rng rng(seed);
  const HIndexSimulationResult r =
      testing::ValueOf(SimulateHIndex(ParseMixture(mixture).value(), options, rng));
  return r;
}

TEST_CASE("Pareto mixture, p = 1: true H 0.5797, mean m̂ 906, mean H 0.55, median 0.54") {
  const HIndexSimulationResult r = Run("0.9*pareto(4,0.1)+0.1*pareto(1.7,1)", 1);
  // Tolerances are the DESIGN's. Monte Carlo standard errors at 1000 repetitions: m̂ ≈ 0.4,
  // H ≈ 0.002, so the bands are several standard errors wide.
  CHECK(r.truth.h_index == doctest::Approx(0.5797).epsilon(0.003 / 0.5797));
  CHECK(r.mean_change_point == doctest::Approx(906).epsilon(5.0 / 906));
  CHECK(r.mean_h_index == doctest::Approx(0.55).epsilon(0.01 / 0.55));
  CHECK(r.median_h_index == doctest::Approx(0.54).epsilon(0.01 / 0.54));
  CHECK(r.reps == 1000);
  CHECK(r.failed_reps == 0);
}

TEST_CASE("normal-Pareto mixture, p = 2: true H 0.143, mean H within 0.02 of 0.136") {
  const HIndexSimulationResult r = Run("0.9*normal(0.5,0.4)+0.1*pareto(1.7,1)", 2);
  CHECK(r.truth.h_index == doctest::Approx(0.143).epsilon(0.003 / 0.143));
  CHECK(r.mean_h_index == doctest::Approx(0.136).epsilon(0.02 / 0.136));
  // DESIGN: mean m̂ ≈ 920 (paper: just above 900).
  CHECK(r.mean_change_point == doctest::Approx(920).epsilon(10.0 / 920));
  CHECK(r.failed_reps == 0);
}

TEST_CASE("normal-Pareto mixture, p = 1 fails as the DESIGN says: m̂ near 560") {
  HIndexSimulationOptions options;
  options.reps = 200;  // enough to see the failure; the point is m̂ far from 900
  Rng rng(kSeed);
  Result<HIndexSimulationResult> r =
      SimulateHIndex(ParseMixture("0.9*normal(0.5,0.4)+0.1*pareto(1.7,1)").value(), options, rng);
  REQUIRE(r.ok());
  CHECK(r.value().mean_change_point == doctest::Approx(560).epsilon(40.0 / 560));
}

TEST_CASE("the same seed reproduces the simulation exactly") {
  HIndexSimulationOptions options;
  options.reps = 20;
  const Mixture m = ParseMixture("0.9*pareto(4,0.1)+0.1*pareto(1.7,1)").value();
  Rng a(5), b(5);
  CHECK(SimulateHIndex(m, options, a).value().mean_h_index ==
        SimulateHIndex(m, options, b).value().mean_h_index);
}

TEST_CASE("simulation options are checked before any work") {
  const Mixture m = ParseMixture("pareto(4,0.1)").value();
  Rng rng(1);
  HIndexSimulationOptions options;
  options.reps = 0;
  CHECK(SimulateHIndex(m, options, rng).status().message() == "reps: must be at least 1; got 0");
  options.reps = 10;
  options.n = 15;
  CHECK(SimulateHIndex(m, options, rng).status().message() ==
        "need at least 2ω + 2 = 22 values (ω = 10); got 15");
}

}  // namespace
}  // namespace perfplan::models
