#include "models/change_point.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>

namespace perfplan::models {

SequentialPolynomialFit::SequentialPolynomialFit(int degree) : columns_(degree + 1) {
  assert(degree >= 1 && degree <= kMaxChangePointDegree);
}

double SequentialPolynomialFit::Add(double t, double y) {
  double row[kMaxChangePointDegree + 1];
  row[0] = 1;
  for (int j = 1; j < columns_; ++j) row[j] = row[j - 1] * t;
  double rhs = y;
  // Rotate the new row into the triangular factor; what is left of rhs is the part of y the
  // current fit cannot explain, and its square is the increase of the SSE. The squared diagonal
  // d_j = r_jj² is carried as well, so the square root is not on the dependency chain from one
  // point to the next (the loop-carried updates are all multiply-adds).
  for (int j = 0; j < columns_; ++j) {
    const double a = row[j];
    if (a == 0) continue;
    const double r = r_[j][j];
    const double d = d_[j] + a * a;
    const double inv_h = 1 / std::sqrt(d);
    const double c = r * inv_h;
    const double s = a * inv_h;
    d_[j] = d;
    r_[j][j] = d * inv_h;
    for (int l = j + 1; l < columns_; ++l) {
      const double rl = r_[j][l];
      r_[j][l] = c * rl + s * row[l];
      row[l] = c * row[l] - s * rl;
    }
    const double zj = z_[j];
    z_[j] = c * zj + s * rhs;
    rhs = c * rhs - s * zj;
  }
  sse_ += rhs * rhs;
  return sse_;
}

Status CheckChangePointArguments(std::size_t n, int degree, std::size_t min_segment) {
  if (degree < 1 || degree > kMaxChangePointDegree) {
    return Status::InvalidArgument("degree must be 1, 2 or 3; got " + std::to_string(degree));
  }
  if (min_segment < static_cast<std::size_t>(degree) + 1) {
    return Status::InvalidArgument(
        "minimum segment ω must be at least degree + 1 = " + std::to_string(degree + 1) +
        " so a degree-" + std::to_string(degree) + " fit is determined; got " +
        std::to_string(min_segment));
  }
  const std::size_t needed = 2 * min_segment + 2;
  if (n < needed) {
    return Status::InvalidArgument("need at least 2ω + 2 = " + std::to_string(needed) +
                                   " values (ω = " + std::to_string(min_segment) + "); got " +
                                   std::to_string(n));
  }
  return Status::Ok();
}

namespace {

// Both running fits in one loop: step k adds point k to the left fit and point n + 1 − k to the
// right one. The two are independent, so interleaving them gives the processor twice the work to
// overlap with the latency of each rotation. costs[m − ω] receives SSE(1..m) + SSE(m+1..n) for
// every split m in ω..n−ω; returns the SSE of one fit over all n points (the right fit at the end).
double AccumulateSplitCosts(std::span<const double> y, int degree, std::size_t omega,
                            std::vector<double>& costs) {
  const std::size_t n = y.size();
  const double inv_n = 1.0 / static_cast<double>(n);
  std::fill(costs.begin(), costs.end(), 0.0);
  SequentialPolynomialFit left(degree), right(degree);
  for (std::size_t k = 1; k <= n; ++k) {
    // Right fit: point i = n + 1 − k at t = 1 − i/n; having added points i..n, its SSE is the
    // right-segment SSE of the split m = i − 1.
    const std::size_t i = n + 1 - k;
    const double right_sse = right.Add(static_cast<double>(n - i) * inv_n, y[i - 1]);
    if (i - 1 >= omega && i - 1 <= n - omega) costs[i - 1 - omega] += right_sse;
    // Left fit: point m = k at t = m/n; its SSE is the left-segment SSE of the split m.
    if (k <= n - omega) {
      const double left_sse = left.Add(static_cast<double>(k) * inv_n, y[k - 1]);
      if (k >= omega) costs[k - omega] += left_sse;
    }
  }
  return right.sse();
}

double SumSquares(std::span<const double> y) {
  double s = 0;
  for (double v : y) s += v * v;
  return s;
}

}  // namespace

Result<std::vector<double>> SplitCosts(std::span<const double> y, int degree,
                                       std::size_t min_segment) {
  if (Status s = CheckChangePointArguments(y.size(), degree, min_segment); !s.ok()) return s;
  std::vector<double> costs(y.size() - 2 * min_segment + 1, 0.0);
  AccumulateSplitCosts(y, degree, min_segment, costs);
  return costs;
}

Result<ChangePointSearch> FindChangePoint(std::span<const double> y, int degree,
                                          std::size_t min_segment) {
  if (Status s = CheckChangePointArguments(y.size(), degree, min_segment); !s.ok()) return s;
  std::vector<double> costs(y.size() - 2 * min_segment + 1, 0.0);
  ChangePointSearch out;
  out.degree = degree;
  out.min_segment = min_segment;
  out.sse_single = AccumulateSplitCosts(y, degree, min_segment, costs);
  std::size_t best = 0;
  for (std::size_t k = 1; k < costs.size(); ++k) {
    if (costs[k] < costs[best]) best = k;
  }
  out.m = best + min_segment;
  out.sse = costs[best];
  out.sum_squares = SumSquares(y);
  return out;
}

namespace {

// Householder QR of the segment's (1, u, …, u^p | y) with u = x centred and scaled to [−1, 1];
// `work` is scratch of (p + 2)·N doubles, column-major.
double SegmentSseWith(std::span<const double> y, std::size_t first, std::size_t last, int degree,
                      std::vector<double>& work) {
  assert(first >= 1 && first <= last && last <= y.size());
  assert(degree >= 1 && degree <= kMaxChangePointDegree);
  const std::size_t rows = last - first + 1;
  const int k = degree + 1;
  work.resize(static_cast<std::size_t>(k + 1) * rows);
  auto col = [&](int j) { return work.data() + static_cast<std::size_t>(j) * rows; };
  const double centre = 0.5 * static_cast<double>(first + last);
  const double half = rows > 1 ? 0.5 * static_cast<double>(last - first) : 1.0;
  for (std::size_t r = 0; r < rows; ++r) {
    const double u = (static_cast<double>(first + r) - centre) / half;
    double power = 1;
    for (int j = 0; j < k; ++j) {
      col(j)[r] = power;
      power *= u;
    }
    col(k)[r] = y[first - 1 + r];
  }
  const int steps = static_cast<int>(std::min<std::size_t>(rows, static_cast<std::size_t>(k)));
  for (int j = 0; j < steps; ++j) {
    double* v = col(j);
    double norm = 0;
    for (std::size_t r = j; r < rows; ++r) norm += v[r] * v[r];
    norm = std::sqrt(norm);
    if (norm == 0) continue;
    const double alpha = v[j] > 0 ? -norm : norm;
    v[j] -= alpha;
    const double vnorm2 = norm * norm - (v[j] + alpha) * (v[j] + alpha) + v[j] * v[j];
    if (vnorm2 == 0) continue;
    for (int l = j + 1; l <= k; ++l) {
      double* w = col(l);
      double dot = 0;
      for (std::size_t r = j; r < rows; ++r) dot += v[r] * w[r];
      const double f = 2 * dot / vnorm2;
      for (std::size_t r = j; r < rows; ++r) w[r] -= f * v[r];
    }
  }
  double sse = 0;
  const double* rhs = col(k);
  for (std::size_t r = static_cast<std::size_t>(steps); r < rows; ++r) sse += rhs[r] * rhs[r];
  return sse;
}

}  // namespace

double SegmentSse(std::span<const double> y, std::size_t first, std::size_t last, int degree) {
  std::vector<double> work;
  return SegmentSseWith(y, first, last, degree, work);
}

Result<ChangePointSearch> FindChangePointDirect(std::span<const double> y, int degree,
                                                std::size_t min_segment) {
  if (Status s = CheckChangePointArguments(y.size(), degree, min_segment); !s.ok()) return s;
  const std::size_t n = y.size();
  std::vector<double> work;
  ChangePointSearch out;
  out.degree = degree;
  out.min_segment = min_segment;
  out.sse_single = SegmentSseWith(y, 1, n, degree, work);
  out.sum_squares = SumSquares(y);
  bool first = true;
  for (std::size_t m = min_segment; m <= n - min_segment; ++m) {
    const double cost =
        SegmentSseWith(y, 1, m, degree, work) + SegmentSseWith(y, m + 1, n, degree, work);
    if (first || cost < out.sse) {
      out.sse = cost;
      out.m = m;
      first = false;
    }
  }
  return out;
}

}  // namespace perfplan::models
