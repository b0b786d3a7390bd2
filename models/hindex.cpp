#include "models/hindex.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>

#include "models/enum_names.h"
#include "models/radix_sort.h"

namespace perfplan::models {
namespace {

// One polynomial explains the whole Lorenz curve when its SSE is below this fraction of Σ L²
// (an RMS misfit of 1e-12 relative: rounding level). Then there is no change point to find.
constexpr double kNoChangeRelativeSse = 1e-24;
// BIC needs ln(SSE); an exact fit would give −∞. SSE is floored at this fraction of Σ L².
constexpr double kBicSseFloor = 1e-30;
constexpr std::size_t kDefaultMinSegment = 10;
// spark.speculation.multiplier and spark.sql.adaptive.skewJoin.skewedPartitionFactor defaults.
constexpr double kSparkSpeculationMultiplier = 1.5;
constexpr double kSparkSkewFactor = 5.0;

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// Neumaier's compensated running sum.
struct CompensatedSum {
  double sum = 0;
  double compensation = 0;
  void Add(double v) {
    const double t = sum + v;
    if (std::abs(sum) >= std::abs(v)) {
      compensation += (sum - t) + v;
    } else {
      compensation += (v - t) + sum;
    }
    sum = t;
  }
  double Value() const { return sum + compensation; }
};

double Median(std::span<const double> sorted) {
  const std::size_t n = sorted.size();
  return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

}  // namespace

constexpr EnumName<HillRule> kHillRuleNames[] = {
    {HillRule::kAfterChangePoint, "after-change-point"}, {HillRule::kSqrtN, "sqrt-n"}};

std::string_view ToString(HillRule rule) { return NameOf(kHillRuleNames, rule); }

bool Parse(std::string_view text, HillRule* out) { return ParseName(kHillRuleNames, text, out); }

Status HIndexOptions::Validate() const {
  if (!choose_degree && (degree < 1 || degree > kMaxChangePointDegree)) {
    return Status::InvalidField("degree", "must be 1, 2 or 3; got " + std::to_string(degree));
  }
  const int p = choose_degree ? 1 : degree;
  if (min_segment != 0 && min_segment < static_cast<std::size_t>(p) + 1) {
    return Status::InvalidField(
        "min_segment", "ω must be 0 (default) or at least degree + 1 = " + std::to_string(p + 1) +
                           "; got " + std::to_string(min_segment));
  }
  return Status::Ok();
}

std::size_t EffectiveMinSegment(const HIndexOptions& options, std::size_t n) {
  if (options.min_segment != 0) return options.min_segment;
  return std::max(kDefaultMinSegment, n / 100);
}

Status CheckValues(std::span<const double> values, bool allow_negative) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    // One comparison a value on the good path; the message is built only for a bad one.
    if (std::isfinite(v) && (allow_negative || v >= 0)) continue;
    const std::string where = "value " + std::to_string(i + 1);
    const char* expected =
        allow_negative ? "expected a finite number" : "expected a finite time ≥ 0";
    if (std::isnan(v)) return Status::InvalidArgument(where + " is NaN; " + expected);
    if (std::isinf(v)) return Status::InvalidArgument(where + " is infinite; " + expected);
    return Status::InvalidArgument(where + " is negative (" + Num(v) + "); " + expected);
  }
  return Status::Ok();
}

std::vector<double> LorenzPoints(std::span<const double> sorted) {
  CompensatedSum total;
  for (double v : sorted) total.Add(v);
  const double s_n = total.Value();
  assert(s_n != 0);
  std::vector<double> lorenz(sorted.size());
  CompensatedSum running;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    running.Add(sorted[i]);
    lorenz[i] = running.Value() / s_n;
  }
  if (!lorenz.empty()) lorenz.back() = 1.0;
  return lorenz;
}

double LorenzArea(std::span<const double> lorenz) {
  CompensatedSum s;
  for (double v : lorenz) s.Add(v);
  return lorenz.empty() ? 0.0 : s.Value() / static_cast<double>(lorenz.size());
}

double IdealLorenzArea(std::span<const double> lorenz, std::size_t m) {
  assert(m >= 1 && m <= lorenz.size() && lorenz[m - 1] != 0);
  return LorenzArea(lorenz.first(m)) / lorenz[m - 1];
}

Result<HFromAreasResult> HFromAreas(double area_l, double area_lstar) {
  if (!(area_l > 0) || !(area_lstar > 0)) {
    return Status::InvalidArgument(
        "the Lorenz areas must be positive to compare them; got A(L) = " + Num(area_l) +
        ", A(L*) = " + Num(area_lstar));
  }
  HFromAreasResult r;
  r.h_index = 1 - area_l / area_lstar;
  r.efficiency = area_l / area_lstar;
  r.speedup = area_lstar / area_l;
  return r;
}

HillEstimate HillTailIndex(std::span<const double> sorted, std::size_t k) {
  HillEstimate h;
  h.k = k;
  const std::size_t n = sorted.size();
  if (k < 1 || k >= n) {
    h.note = "k = " + std::to_string(k) + " is outside 1.." + std::to_string(n == 0 ? 0 : n - 1);
    return h;
  }
  const double threshold = sorted[n - k - 1];
  if (!(threshold > 0)) {
    h.note = "the tail threshold Y_(n−k) = " + Num(threshold) + " is not positive";
    return h;
  }
  double sum_log = 0;
  for (std::size_t i = 0; i < k; ++i) sum_log += std::log(sorted[n - 1 - i] / threshold);
  if (!(sum_log > 0)) {
    h.note = "the " + std::to_string(k) + " largest values all equal the threshold: no tail";
    return h;
  }
  h.available = true;
  h.alpha = static_cast<double>(k) / sum_log;
  return h;
}

namespace {

HillEstimate HillByRule(std::span<const double> sorted, const HIndexResult& r, HillRule rule) {
  const std::size_t n = sorted.size();
  std::string fallback;
  if (rule == HillRule::kAfterChangePoint) {
    const std::size_t k = r.has_change_point ? n - r.change_point - 1 : 0;
    if (k >= 2) {
      HillEstimate h = HillTailIndex(sorted, k);
      h.rule = HillRule::kAfterChangePoint;
      return h;
    }
    fallback =
        r.has_change_point ? "fewer than 2 values after the change point" : "no change point";
    fallback += "; k = ⌊√n⌋ instead";
  }
  HillEstimate h = HillTailIndex(sorted, static_cast<std::size_t>(std::sqrt(double(n))));
  h.rule = HillRule::kSqrtN;
  if (!fallback.empty()) h.note = h.note.empty() ? fallback : fallback + "; " + h.note;
  return h;
}

double Bic(const ChangePointSearch& s, std::size_t n) {
  const double sse =
      std::max({s.sse, s.sum_squares * kBicSseFloor, std::numeric_limits<double>::min()});
  const double nn = static_cast<double>(n);
  return nn * std::log(sse / nn) + (2.0 * (s.degree + 1) + 1.0) * std::log(nn);
}

}  // namespace

Result<HIndexResult> ComputeHIndex(std::vector<double> values, const HIndexOptions& options) {
  if (Status s = options.Validate(); !s.ok()) return s;
  if (Status s = CheckValues(values, options.allow_negative); !s.ok()) return s;
  const std::size_t n = values.size();
  const std::size_t omega = EffectiveMinSegment(options, n);
  const int check_degree = options.choose_degree ? 1 : options.degree;
  if (Status s = CheckChangePointArguments(n, check_degree, omega); !s.ok()) return s;

  SortAscending(values);
  CompensatedSum total;
  for (double v : values) total.Add(v);
  HIndexResult r;
  r.n = n;
  r.total = total.Value();
  r.min_segment = omega;
  r.degree = check_degree;
  if (values.front() == 0 && values.back() == 0) {
    return Status::InvalidArgument("all " + std::to_string(n) +
                                   " values are zero: the Lorenz curve is undefined");
  }
  if (!(r.total > 0)) {
    return Status::InvalidArgument("the values sum to " + Num(r.total) +
                                   "; the Lorenz curve needs a positive total");
  }

  const std::vector<double> lorenz = LorenzPoints(values);
  const double inv_n = 1.0 / static_cast<double>(n);
  r.area_l = LorenzArea(lorenz);
  r.area_l_trapezoid = r.area_l - 0.5 * inv_n;
  r.gini = 1 - 2 * r.area_l;
  r.gini_trapezoid = 1 - 2 * r.area_l_trapezoid;
  const double median = Median(values);
  if (median > 0) {
    r.max_over_median = values.back() / median;
    const auto above = [&](double threshold) {
      return static_cast<std::size_t>(values.end() -
                                      std::upper_bound(values.begin(), values.end(), threshold));
    };
    r.above_speculation_threshold = above(kSparkSpeculationMultiplier * median);
    r.above_skew_threshold = above(kSparkSkewFactor * median);
  }

  r.change_point = n;
  r.change_point_fraction = 1;
  r.area_lstar = r.area_l;
  if (values.front() == values.back()) {
    r.warnings.push_back("all " + std::to_string(n) + " values are equal (" + Num(values.front()) +
                         "): no change point; H = 0");
    r.hill = HillByRule(values, r, options.hill_rule);
    return r;
  }

  ChangePointSearch best;
  if (options.choose_degree) {
    bool first = true;
    for (int p = 1; p <= kMaxChangePointDegree; ++p) {
      if (omega < static_cast<std::size_t>(p) + 1) {
        r.warnings.push_back("degree " + std::to_string(p) +
                             " not considered: ω = " + std::to_string(omega) + " < degree + 1");
        continue;
      }
      Result<ChangePointSearch> s = FindChangePoint(lorenz, p, omega);
      if (!s.ok()) return s.status();
      r.bic.push_back(Bic(s.value(), n));
      if (first || r.bic.back() < Bic(best, n)) best = s.value();
      first = false;
    }
  } else {
    Result<ChangePointSearch> s = FindChangePoint(lorenz, options.degree, omega);
    if (!s.ok()) return s.status();
    best = s.value();
  }
  r.degree = best.degree;

  if (best.sse_single <= kNoChangeRelativeSse * best.sum_squares) {
    r.sse = best.sse_single;
    r.warnings.push_back("one degree-" + std::to_string(best.degree) +
                         " polynomial fits the whole Lorenz curve: no change point; H = 0");
    r.hill = HillByRule(values, r, options.hill_rule);
    return r;
  }
  r.has_change_point = true;
  r.change_point = best.m;
  r.change_point_fraction = static_cast<double>(best.m) * inv_n;
  r.sse = best.sse;
  if (!(lorenz[best.m - 1] > 0)) {
    return Status::InvalidArgument(
        "the " + std::to_string(best.m) + " smallest values (up to the change point) sum to " +
        Num(lorenz[best.m - 1] * r.total) + ": the ideal Lorenz curve L* is undefined" +
        (values[best.m - 1] == 0 ? " (too many zero values)" : ""));
  }
  r.area_lstar = IdealLorenzArea(lorenz, best.m);
  Result<HFromAreasResult> h = HFromAreas(r.area_l, r.area_lstar);
  if (!h.ok()) return h.status();
  r.h_index = h.value().h_index;
  r.efficiency = h.value().efficiency;
  r.speedup = h.value().speedup;
  r.hill = HillByRule(values, r, options.hill_rule);
  return r;
}

Result<double> JobHIndex(std::span<const TaskHIndex> tasks) {
  if (tasks.empty()) return Status::InvalidArgument("no tasks: H_job needs at least one task");
  double total = 0;
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const double p = tasks[t].task_seconds;
    if (!std::isfinite(p) || p < 0) {
      return Status::InvalidArgument("task " + std::to_string(t + 1) + " has task_seconds " +
                                     Num(p) + "; expected a finite time ≥ 0");
    }
    total += p;
  }
  if (!(total > 0)) {
    return Status::InvalidArgument("the task times sum to 0: H_job weights are undefined");
  }
  double h = 0;
  for (const TaskHIndex& t : tasks) h += t.task_seconds / total * t.h_index;
  return h;
}

double RelativeDifference(const HIndexResult& a, const HIndexResult& b) {
  return a.area_l - b.area_l;
}

}  // namespace perfplan::models
