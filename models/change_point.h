// Least-squares change point of a curve sampled at x_i = i/n (DESIGN §3.4, seed 000 eq. 4.3;
// Bai & Perron 1998): the split m that minimizes the residual sum of squares (SSE) of one
// degree-p polynomial fitted to points 1..m plus another fitted to points m+1..n, with at least ω
// points on each side (ω ≤ m ≤ n − ω).
//
// Method. Every candidate's SSE comes from two running (prefix and suffix) least-squares fits
// updated one point at a time with Givens rotations — the numerically stable form of the recursive
// residuals Bai & Perron use to get all segment SSEs. One pass from the left gives SSE(1..m) for
// every m, one pass from the right gives SSE(m+1..n); the search is O(n·(p+1)²) after the sort,
// not O(n²). Each pass uses its own origin (x for prefixes, 1 − x for suffixes) so a segment's
// basis is always the monomials on [0, a]; with Givens QR the implicit column scaling makes that
// well conditioned. It agrees with a direct QR fit per candidate (SegmentSse) to 5e-12 relative
// at n = 10^7 and p = 3 (see tests/models/change_point_test.cpp and bench/hindex_bench.cpp).
//
// Pure functions over spans; no allocation beyond the returned vectors; thread-safe.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "models/status.h"

namespace perfplan::models {

// Largest polynomial degree supported by the change-point search.
inline constexpr int kMaxChangePointDegree = 3;

// Accumulates the least-squares fit of y on (1, t, …, t^p) one point at a time (Givens QR) and
// reports the SSE of the fit over all points added so far. Exact for any order of t values.
class SequentialPolynomialFit {
 public:
  // degree must be in 1..kMaxChangePointDegree (asserted).
  explicit SequentialPolynomialFit(int degree);
  // Adds (t, y); returns the SSE of the current fit (0 while there are ≤ p+1 points).
  double Add(double t, double y);
  double sse() const { return sse_; }

 private:
  int columns_;
  double r_[kMaxChangePointDegree + 1][kMaxChangePointDegree + 1] = {};
  double d_[kMaxChangePointDegree + 1] = {};  // r_jj², carried separately (see Add)
  double z_[kMaxChangePointDegree + 1] = {};
  double sse_ = 0;
};

struct ChangePointSearch {
  int degree = 1;               // p
  std::size_t min_segment = 0;  // ω
  std::size_t m = 0;            // argmin: the number of points in the first segment
  double sse = 0;               // SSE(1..m) + SSE(m+1..n) at the argmin
  double sse_single = 0;        // SSE of one degree-p polynomial over all n points
  double sum_squares = 0;       // Σ y_i², the scale the SSEs are compared with
};

// Checks the arguments shared by the searches below: degree in 1..3, ω ≥ degree + 1, and
// n ≥ 2ω + 2. Returns InvalidArgument with a message naming the broken rule, e.g.
// "need at least 2ω + 2 = 22 values (ω = 10); got 15".
Status CheckChangePointArguments(std::size_t n, int degree, std::size_t min_segment);

// SSE of splitting after m, for every m in ω..n−ω (element m − ω), from the two running fits.
// y_i is the curve at x_i = i/n. Fails as CheckChangePointArguments does.
Result<std::vector<double>> SplitCosts(std::span<const double> y, int degree,
                                       std::size_t min_segment);

// The O(n·(p+1)²) search: the smallest m with the least split cost (ties go to the earlier split).
Result<ChangePointSearch> FindChangePoint(std::span<const double> y, int degree,
                                          std::size_t min_segment);

// SSE of one degree-p polynomial fitted directly (Householder QR on x centred and scaled to
// [−1, 1] over the segment) to points first..last (1-based, inclusive) at x_i = i/n.
// Requires 1 ≤ first ≤ last ≤ y.size() and 1 ≤ degree ≤ 3 (asserted). O(last − first).
double SegmentSse(std::span<const double> y, std::size_t first, std::size_t last, int degree);

// The straightforward O(n²·(p+1)²) search, refitting both segments of every candidate with
// SegmentSse. The reference for tests and the benchmark; same result contract as FindChangePoint.
Result<ChangePointSearch> FindChangePointDirect(std::span<const double> y, int degree,
                                                std::size_t min_segment);

}  // namespace perfplan::models
