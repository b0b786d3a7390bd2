#include "models/random.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace perfplan::models {
namespace {

TEST_CASE("the same seed gives the same draws, another seed other draws") {
  Rng a(7), b(7), c(8);
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t x = a.Next();
    CHECK(x == b.Next());
    CHECK(x != c.Next());
  }
}

TEST_CASE("Below stays in range and reaches every value") {
  Rng rng(1);
  for (std::uint64_t n : {1ULL, 2ULL, 3ULL, 10ULL, 1000ULL}) {
    CAPTURE(n);
    std::vector<int> seen(n, 0);
    for (int i = 0; i < 20000; ++i) {
      const std::uint64_t v = rng.Below(n);
      REQUIRE(v < n);
      ++seen[v];
    }
    CHECK(std::count(seen.begin(), seen.end(), 0) == 0);
  }
}

TEST_CASE("Below is not biased towards small values") {
  // n just above 2^63: plain modulo would return values below 2^64 - n twice as often.
  const std::uint64_t n = (std::uint64_t{1} << 63) + (std::uint64_t{1} << 62);
  Rng rng(3);
  int low = 0;
  constexpr int kDraws = 20000;
  for (int i = 0; i < kDraws; ++i) low += rng.Below(n) < (0 - n) ? 1 : 0;
  // Unbiased: P(low) = (2^64 - n) / n = 1/3. Modulo would give 1/2. 5 sigma is about 0.017.
  CHECK(static_cast<double>(low) / kDraws == doctest::Approx(1.0 / 3).epsilon(0.06));
}

TEST_CASE("Shuffle permutes and depends on the seed") {
  std::vector<int> base(50);
  std::iota(base.begin(), base.end(), 0);
  std::vector<int> x = base, y = base, z = base;
  Rng a(11), b(11), c(12);
  a.Shuffle(x);
  b.Shuffle(y);
  c.Shuffle(z);
  CHECK(x == y);
  CHECK(x != z);
  CHECK(x != base);
  std::sort(x.begin(), x.end());
  CHECK(x == base);
}

TEST_CASE("Uniform is strictly inside (0, 1)") {
  Rng rng(5);
  for (int i = 0; i < 10000; ++i) {
    const double u = rng.Uniform();
    REQUIRE(u > 0);
    REQUIRE(u < 1);
  }
}

}  // namespace
}  // namespace perfplan::models
