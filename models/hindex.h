// Straggler overhead of one task or stage: Lorenz curve, Gini, change point and H-index
// (DESIGN §3.4; seed 000, "Measuring Hadoop Optimality by Lorenz Curve").
//
// Input: the times X_1..X_n of one task's buckets or one stage's tasks (seconds, or any unit: every
// result is scale-free). Sorted ascending they give S_m = Y_1 + … + Y_m and the Lorenz points
// L_m = S_m/S_n at x = m/n. Then
//   A(L)  = (1/n)·Σ L_m                  (discrete; trapezoid: A(L) − 1/(2n))
//   Gini  = 1 − 2·A(L)                   (discrete; trapezoid: 1 − 2·A_trap = Gini + 1/n)
//   m̂     = least-squares change point of L (models/change_point.h), degree p, minimum segment ω
//   L*_m  = S_m/S_m̂ at x = m/m̂ (m ≤ m̂),  A(L*) = (1/m̂)·Σ_{m≤m̂} L*_m
//   H     = 1 − A(L)/A(L*),  efficiency 1 − H,  attainable speed-up 1/(1 − H) = A(L*)/A(L)
// Job level: H_job = Σ_t w_t·H_t with w_t = P_t/Σ P (P_t = task time). Platforms: RD = A(L^A) −
// A(L^B). Tail of the slow values: Hill's estimator with the rule for k in HillRule.
//
// Degenerate inputs have documented results, never NaN or infinity: all values equal → H = 0 and
// no change point; one polynomial fitting the whole curve to rounding → no change point, H = 0.
// Bad inputs (too few values, NaN, infinity, negative values unless allowed, all zeros) are
// InvalidArgument errors naming the 1-based position of the offending value.
//
// A stage's task durations (std::vector<double>) feed straight into ComputeHIndex. Pure functions;
// thread-safe; O(n log n) for the sort plus O(n·(p+1)²) for the rest.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/change_point.h"
#include "models/status.h"

namespace perfplan::models {

// How Hill's estimator picks k, the number of largest values it treats as the tail.
enum class HillRule {
  // k = n − m̂ − 1: the values after the change point, measured from the first of them
  // (threshold Y_(m̂+1)). Using Y_(m̂), the last value before the change, as the threshold would mix
  // the gap between the two regimes into every log ratio and bias α̂ low (0.82 instead of 1.88 on
  // a sample of .9·Pareto(4, .1) + .1·Pareto(1.7, 1)). Falls back to kSqrtN when there is no change
  // point or fewer than 2 such values.
  kAfterChangePoint,
  kSqrtN,  // k = ⌊√n⌋, the common rule of thumb for a sample without a known tail start
};
std::string_view ToString(HillRule rule);  // "after-change-point", "sqrt-n"
bool Parse(std::string_view text, HillRule* out);

struct HIndexOptions {
  // Degree p of the two polynomials of the change-point fit, 1..3. Default 1 (the paper's lines);
  // use 2 when the straggler-free part is itself uneven (e.g. normal bucket times).
  int degree = 1;
  // Choose p per data set: the degree in 1..3 with the least BIC (see HIndexResult::bic). Off by
  // default; when on, `degree` is ignored.
  bool choose_degree = false;
  // Minimum segment ω (points on each side of the change point). 0 = default max(10, ⌊n/100⌋).
  std::size_t min_segment = 0;
  // Accept negative values (simulations of normal mixtures). Off: measured times are never < 0.
  bool allow_negative = false;
  HillRule hill_rule = HillRule::kAfterChangePoint;

  // InvalidArgument naming the field when degree is outside 1..3 or min_segment is in 1..p.
  Status Validate() const;
};

// The ω used for n values: options.min_segment, or max(10, ⌊n/100⌋) when that is 0.
std::size_t EffectiveMinSegment(const HIndexOptions& options, std::size_t n);

struct HillEstimate {
  bool available = false;  // false when the tail is empty, flat or does not start above 0
  double alpha = 0;        // tail index α̂ (0 when not available)
  std::size_t k = 0;       // number of largest values used
  HillRule rule = HillRule::kAfterChangePoint;  // the rule that chose k (after any fallback)
  std::string note;  // why it is unavailable or fell back; empty otherwise
};

struct HIndexResult {
  std::size_t n = 0;
  double total = 0;             // S_n, in the unit of the input (seconds for task times)
  double area_l = 0;            // A(L), discrete
  double area_l_trapezoid = 0;  // A(L) by the trapezoid rule with L_0 = 0
  double gini = 0;              // 1 − 2·A(L)
  double gini_trapezoid = 0;  // 1 − 2·A_trap(L); equals the usual sample Gini Σ(2i−n−1)Y_i/(n·S_n)
  int degree = 1;             // p used (the chosen one when choose_degree)
  std::size_t min_segment = 0;  // ω used
  bool has_change_point = false;
  std::size_t change_point = 0;      // m̂; n when there is no change point
  double change_point_fraction = 0;  // m̂/n
  double sse = 0;                    // split SSE at m̂ (one-fit SSE when no change point)
  double area_lstar = 0;             // A(L*); equals A(L) when there is no change point
  double h_index = 0;
  double efficiency = 1;
  double speedup = 1;
  std::optional<double> max_over_median;  // Y_n / median; empty when the median is 0
  // How many values exceed 1.5× and 5× the median — Spark's speculation multiplier and its
  // adaptive-execution skew factor — so H can be related to rules users know. 0 when the median
  // is ≤ 0.
  std::size_t above_speculation_threshold = 0;  // > 1.5·median
  std::size_t above_skew_threshold = 0;         // > 5·median
  HillEstimate hill;
  // BIC = n·ln(SSE/n) + (2(p+1) + 1)·ln n for each degree considered, from p = 1 up (p = 1, 2, 3
  // unless ω is too small for some), when choose_degree.
  std::vector<double> bic;
  std::vector<std::string> warnings;  // degenerate cases, fallbacks
};

// Checks every value: finite, and ≥ 0 unless allow_negative. InvalidArgument naming the first bad
// value's 1-based position, e.g. "value 7 is NaN; expected a finite time ≥ 0".
Status CheckValues(std::span<const double> values, bool allow_negative);

// L_1..L_n of ascending values whose total is not 0 (asserted), with L_n = 1 exactly.
// Partial sums are compensated (Neumaier), so L is accurate to rounding at n = 10^7.
std::vector<double> LorenzPoints(std::span<const double> sorted);

// (1/n)·Σ L_m with compensated summation.
double LorenzArea(std::span<const double> lorenz);

// A(L*) for the change point m (1 ≤ m ≤ lorenz.size(), L_m ≠ 0; asserted): (1/m)·Σ_{i≤m} L_i/L_m.
double IdealLorenzArea(std::span<const double> lorenz, std::size_t m);

// H, efficiency and speed-up from the two areas. InvalidArgument when area_l ≤ 0 or area_lstar ≤ 0
// (possible only with negative values).
struct HFromAreasResult {
  double h_index = 0;
  double efficiency = 1;
  double speedup = 1;
};
Result<HFromAreasResult> HFromAreas(double area_l, double area_lstar);

// Hill's estimator on ascending values with the k largest as the tail:
//   α̂ = 1 / ((1/k)·Σ_{i=1..k} ln(Y_{n−i+1} / Y_{n−k})).
// Not available (with a note) when k is not in 1..n−1, Y_{n−k} ≤ 0, or the tail is flat.
HillEstimate HillTailIndex(std::span<const double> sorted, std::size_t k);

// Everything above for one set of values (sorted in place; pass a copy to keep the order).
// Errors: options.Validate(), CheckValues(), too few values for ω (CheckChangePointArguments),
// all values zero, or (with negative values) a Lorenz area ≤ 0 — all InvalidArgument.
Result<HIndexResult> ComputeHIndex(std::vector<double> values, const HIndexOptions& options);

// The job-level index of seed 000 eq. 5.1: Σ_t w_t·H_t with w_t = P_t / Σ P.
struct TaskHIndex {
  double h_index = 0;
  double task_seconds = 0;  // P_t
};
// InvalidArgument when there are no tasks, a task time is negative or not finite, or Σ P = 0.
Result<double> JobHIndex(std::span<const TaskHIndex> tasks);

// RD(L^A, L^B) = A(L^A) − A(L^B): positive when platform A is the more even one.
double RelativeDifference(const HIndexResult& a, const HIndexResult& b);

}  // namespace perfplan::models
