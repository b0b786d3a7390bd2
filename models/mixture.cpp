#include "models/mixture.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <utility>

namespace perfplan::models {
namespace {

// Weights must sum to 1 up to what decimal input can represent.
constexpr double kWeightSumTolerance = 1e-9;

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

class MixtureParser {
 public:
  explicit MixtureParser(std::string_view text) : text_(text) {}

  Result<Mixture> Parse() {
    Mixture mixture;
    std::size_t unweighted_column = 0;
    while (true) {
      SkipSpace();
      MixtureComponent c;
      c.column = pos_ + 1;
      if (AtNumberStart()) {
        Result<double> w = Number("a weight");
        if (!w.ok()) return w.status();
        c.weight = w.value();
        if (!(c.weight > 0 && c.weight <= 1)) {
          return Error(c.column, "weight must be in (0, 1]; got " + Num(c.weight));
        }
        if (Status s = Expect('*', "after the weight"); !s.ok()) return s;
        SkipSpace();
      } else {
        unweighted_column = c.column;
      }
      if (Status s = Distribution(c); !s.ok()) return s;
      mixture.components.push_back(c);
      SkipSpace();
      if (pos_ == text_.size()) break;
      if (text_[pos_] != '+') {
        return Error(pos_ + 1, "expected '+' or the end of the expression, found " + Found());
      }
      ++pos_;
    }
    if (unweighted_column != 0 && mixture.components.size() > 1) {
      return Error(unweighted_column, "every term needs a weight 'w*' when there are several");
    }
    double sum = 0;
    for (const MixtureComponent& c : mixture.components) sum += c.weight;
    if (std::abs(sum - 1) > kWeightSumTolerance) {
      return Status::InvalidArgument("weights sum to " + Num(sum) + "; they must sum to 1");
    }
    return mixture;
  }

 private:
  static Status Error(std::size_t column, const std::string& message) {
    return Status::InvalidArgument("column " + std::to_string(column) + ": " + message);
  }

  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }

  bool AtNumberStart() const {
    if (pos_ >= text_.size()) return false;
    const char c = text_[pos_];
    return (c >= '0' && c <= '9') || c == '.' || c == '-';
  }

  // The token at pos_ for messages: 'x' (up to the next delimiter) or "the end of the expression".
  std::string Found() const {
    if (pos_ >= text_.size()) return "the end of the expression";
    std::size_t end = pos_ + 1;
    const std::string_view delimiters = " \t+*(),";
    if (delimiters.find(text_[pos_]) == std::string_view::npos) {
      while (end < text_.size() && delimiters.find(text_[end]) == std::string_view::npos) ++end;
    }
    return "'" + std::string(text_.substr(pos_, end - pos_)) + "'";
  }

  Status Expect(char c, const std::string& context) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return Status::Ok();
    }
    return Error(pos_ + 1, std::string("expected '") + c + "' " + context + ", found " + Found());
  }

  Result<double> Number(const std::string& what) {
    SkipSpace();
    double value = 0;
    const char* begin = text_.data() + pos_;
    const char* end = text_.data() + text_.size();
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr == begin || !std::isfinite(value)) {
      return Error(pos_ + 1, "expected " + what + " (a number), found " + Found());
    }
    pos_ += static_cast<std::size_t>(ptr - begin);
    return value;
  }

  Status Distribution(MixtureComponent& c) {
    const std::size_t name_column = pos_ + 1;
    std::size_t end = pos_;
    while (end < text_.size() && std::isalpha(static_cast<unsigned char>(text_[end]))) ++end;
    const std::string_view name = text_.substr(pos_, end - pos_);
    if (name.empty()) {
      return Error(name_column, "expected a distribution (pareto or normal), found " + Found());
    }
    if (name == "pareto") {
      c.kind = DistributionKind::kPareto;
    } else if (name == "normal") {
      c.kind = DistributionKind::kNormal;
    } else {
      return Error(name_column,
                   "unknown distribution '" + std::string(name) + "'; expected pareto or normal");
    }
    pos_ = end;
    const std::string label(name);
    if (Status s = Expect('(', "after " + label); !s.ok()) return s;
    SkipSpace();
    const std::size_t first_column = pos_ + 1;
    const char* first_name = c.kind == DistributionKind::kPareto ? "alpha" : "mean";
    Result<double> a = Number(label + " " + first_name);
    if (!a.ok()) return a.status();
    if (Status s = Expect(',', "after " + label + " " + first_name); !s.ok()) return s;
    SkipSpace();
    const std::size_t second_column = pos_ + 1;
    const char* second_name = c.kind == DistributionKind::kPareto ? "c" : "sd";
    Result<double> b = Number(label + " " + second_name);
    if (!b.ok()) return b.status();
    if (Status s = Expect(')', "to close " + label + "(…)"); !s.ok()) return s;
    c.first = a.value();
    c.second = b.value();
    if (c.kind == DistributionKind::kPareto) {
      if (!(c.first > 1)) {
        return Error(first_column,
                     "pareto alpha must be > 1 for a finite mean; got " + Num(c.first));
      }
      if (!(c.second > 0))
        return Error(second_column, "pareto c must be > 0; got " + Num(c.second));
    } else if (!(c.second > 0)) {
      return Error(second_column, "normal sd must be > 0; got " + Num(c.second));
    }
    return Status::Ok();
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

double NormalCdf(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }

// Acklam's rational approximation for p ≤ 0.5, refined by one Halley step.
double LowerNormalQuantile(double p) {
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                 -2.759285104469687e+02, 1.383577518672690e+02,
                                 -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                 -1.556989798598866e+02, 6.680131188771972e+01,
                                 -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                 -2.400758277161838e+00, -2.549732539343734e+00,
                                 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                 2.445134137142996e+00, 3.754408661907416e+00};
  double x;
  if (p < 0.02425) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    const double q = p - 0.5;
    const double r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  const double e = NormalCdf(x) - p;
  const double u = e * std::sqrt(2 * std::numbers::pi) * std::exp(0.5 * x * x);
  const double refined = x - u / (1 + 0.5 * x * u);
  return std::isfinite(refined) ? refined : x;
}

// Quantile of one component at (u, 1 − u).
double Quantile(const MixtureComponent& c, double u, double one_minus_u) {
  if (c.kind == DistributionKind::kPareto) return c.second * std::pow(one_minus_u, -1 / c.first);
  return c.first + c.second * NormalQuantile(u, one_minus_u);
}

// P(X > x) of one component.
double Survival(const MixtureComponent& c, double x) {
  if (c.kind == DistributionKind::kPareto) {
    return x <= c.second ? 1.0 : std::pow(x / c.second, -c.first);
  }
  return NormalCdf(-(x - c.first) / c.second);
}

// (u, 1 − u) pairs where component i's quantile reaches another component's kink (a Pareto c).
std::vector<std::pair<double, double>> Breakpoints(const MixtureComponent& ci,
                                                   const std::vector<MixtureComponent>& all) {
  std::vector<std::pair<double, double>> points = {{0.0, 1.0}, {1.0, 0.0}};
  for (const MixtureComponent& cj : all) {
    if (cj.kind != DistributionKind::kPareto) continue;
    const double tail = Survival(ci, cj.second);  // 1 − F_i(c_j)
    if (tail > 0 && tail < 1 && !(ci.kind == DistributionKind::kPareto && cj.second == ci.second)) {
      points.push_back({1 - tail, tail});
    }
  }
  std::sort(points.begin(), points.end(), [](const auto& x, const auto& y) {
    return x.second > y.second;  // ascending u = descending 1 − u
  });
  points.erase(std::unique(points.begin(), points.end(),
                           [](const auto& x, const auto& y) { return x.second == y.second; }),
               points.end());
  return points;
}

// ∫ f(u, 1 − u) du over [a, b] by tanh-sinh quadrature; ca = 1 − a and cb = 1 − b are passed so
// points near either end keep their distance to 1 exactly. Returns false when not converged.
template <typename F>
bool TanhSinh(const F& f, double a, double ca, double b, double cb, double* out) {
  constexpr double kTMax = 4.0;
  constexpr double kRelative = 1e-13;
  const double width = b - a;
  double previous = 0;
  for (int level = 2; level <= 12; ++level) {
    const double h = std::ldexp(1.0, -level);
    double sum = 0;
    const int steps = static_cast<int>(kTMax / h);
    for (int k = -steps; k <= steps; ++k) {
      const double t = k * h;
      const double s = 0.5 * std::numbers::pi * std::sinh(t);
      const double cosh_s = std::cosh(s);
      const double weight = 0.5 * width * 0.5 * std::numbers::pi * std::cosh(t) / (cosh_s * cosh_s);
      if (weight == 0) continue;
      const double from_a = width / (1 + std::exp(-2 * s));
      const double from_b = width / (1 + std::exp(2 * s));
      if (from_a <= 0 || from_b <= 0) continue;
      const double u = t <= 0 ? a + from_a : b - from_b;
      const double one_minus_u = t <= 0 ? ca - from_a : cb + from_b;
      if (!(u > 0) || !(one_minus_u > 0)) continue;
      sum += weight * f(u, one_minus_u);
    }
    const double estimate = sum * h;
    if (level > 2 &&
        std::abs(estimate - previous) <= kRelative * std::max(1.0, std::abs(estimate))) {
      *out = estimate;
      return true;
    }
    previous = estimate;
  }
  *out = previous;
  return false;
}

// E[X·S(X)] for X from component ci, with S the survival function of `survivors`.
Result<double> ExpectedXTimesSurvival(const MixtureComponent& ci,
                                      const std::vector<MixtureComponent>& survivors) {
  const auto integrand = [&](double u, double one_minus_u) {
    const double x = Quantile(ci, u, one_minus_u);
    double s = 0;
    for (const MixtureComponent& cj : survivors) s += cj.weight * Survival(cj, x);
    return x * s;
  };
  const std::vector<std::pair<double, double>> points = Breakpoints(ci, survivors);
  double total = 0;
  for (std::size_t k = 0; k + 1 < points.size(); ++k) {
    double part = 0;
    if (!TanhSinh(integrand, points[k].first, points[k].second, points[k + 1].first,
                  points[k + 1].second, &part)) {
      return Status::Failed("the integral of the Lorenz curve of " +
                            std::string(ToString(ci.kind)) + " did not converge");
    }
    total += part;
  }
  return total;
}

}  // namespace

std::string_view ToString(DistributionKind kind) {
  return kind == DistributionKind::kPareto ? "pareto" : "normal";
}

Result<Mixture> ParseMixture(std::string_view text) {
  if (text.find_first_not_of(" \t") == std::string_view::npos) {
    return Status::InvalidArgument(
        "the mixture expression is empty; expected e.g. "
        "\"0.9*pareto(4,0.1)+0.1*pareto(1.7,1)\"");
  }
  return MixtureParser(text).Parse();
}

std::string ToString(const Mixture& mixture) {
  std::string out;
  for (const MixtureComponent& c : mixture.components) {
    if (!out.empty()) out += "+";
    out += Num(c.weight) + "*" + std::string(ToString(c.kind)) + "(" + Num(c.first) + "," +
           Num(c.second) + ")";
  }
  return out;
}

double Mean(const MixtureComponent& c) {
  return c.kind == DistributionKind::kPareto ? c.first * c.second / (c.first - 1) : c.first;
}

double Mean(const Mixture& mixture) {
  double mean = 0;
  for (const MixtureComponent& c : mixture.components) mean += c.weight * Mean(c);
  return mean;
}

bool CanBeNegative(const Mixture& mixture) {
  return std::any_of(mixture.components.begin(), mixture.components.end(),
                     [](const MixtureComponent& c) { return c.kind == DistributionKind::kNormal; });
}

double NormalQuantile(double p, double q) {
  assert(p > 0 && q > 0);
  return p <= 0.5 ? LowerNormalQuantile(p) : -LowerNormalQuantile(q);
}

double Sample(const Mixture& mixture, Rng& rng) {
  const double pick = rng.Uniform();
  const MixtureComponent* chosen = &mixture.components.back();
  double cumulative = 0;
  for (const MixtureComponent& c : mixture.components) {
    cumulative += c.weight;
    if (pick < cumulative) {
      chosen = &c;
      break;
    }
  }
  const double u = rng.Uniform();
  return Quantile(*chosen, u, 1 - u);
}

std::vector<double> Sample(const Mixture& mixture, std::size_t n, Rng& rng) {
  std::vector<double> out(n);
  for (double& x : out) x = Sample(mixture, rng);
  return out;
}

Result<TrueHIndex> ComputeTrueHIndex(const Mixture& mixture) {
  assert(!mixture.components.empty());
  const double mean = Mean(mixture);
  MixtureComponent baseline = mixture.components.front();
  const double baseline_mean = Mean(baseline);
  if (!(mean > 0) || !(baseline_mean > 0)) {
    return Status::InvalidArgument(
        "the mixture and its first term (the straggler-free baseline) need positive means; got " +
        Num(mean) + " and " + Num(baseline_mean));
  }
  double mixture_integral = 0;
  for (const MixtureComponent& c : mixture.components) {
    Result<double> part = ExpectedXTimesSurvival(c, mixture.components);
    if (!part.ok()) return part.status();
    mixture_integral += c.weight * part.value();
  }
  baseline.weight = 1;
  Result<double> base = ExpectedXTimesSurvival(baseline, {baseline});
  if (!base.ok()) return base.status();
  TrueHIndex out;
  out.area_l = mixture_integral / mean;
  out.area_baseline = base.value() / baseline_mean;
  out.h_index = mixture.components.size() == 1 ? 0.0 : 1 - out.area_l / out.area_baseline;
  return out;
}

}  // namespace perfplan::models
