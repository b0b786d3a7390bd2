#include "models/radix_sort.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "models/random.h"

namespace perfplan::models {
namespace {

TEST_CASE("radix sort orders large arrays exactly as std::sort, negatives and zeros included") {
  Rng rng(1);
  std::vector<double> v(kRadixSortMinSize * 3);
  for (double& x : v) {
    const double u = rng.Uniform();
    x = u < 0.1 ? 0.0 : u < 0.2 ? -std::pow(rng.Uniform(), -1.5) : std::pow(rng.Uniform(), -0.7);
  }
  v[5] = -std::numeric_limits<double>::infinity();
  v[6] = std::numeric_limits<double>::infinity();
  v[7] = std::numeric_limits<double>::denorm_min();
  std::vector<double> expected = v;
  std::sort(expected.begin(), expected.end());
  SortAscending(v);
  CHECK(v == expected);
}

TEST_CASE("radix sort puts -0.0 before +0.0 and keeps both") {
  std::vector<double> v(kRadixSortMinSize, 1.0);
  v[10] = 0.0;
  v[20] = -0.0;
  SortAscending(v);
  CHECK(std::signbit(v[0]));
  CHECK_FALSE(std::signbit(v[1]));
  CHECK(v[2] == 1.0);
}

TEST_CASE("small arrays and arrays of one repeated value sort too") {
  std::vector<double> small = {3, -1, 2};
  SortAscending(small);
  CHECK(small == std::vector<double>{-1, 2, 3});
  std::vector<double> same(kRadixSortMinSize + 1, 2.5);
  SortAscending(same);
  CHECK(std::all_of(same.begin(), same.end(), [](double x) { return x == 2.5; }));
}

}  // namespace
}  // namespace perfplan::models
