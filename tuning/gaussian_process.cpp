#include "tuning/gaussian_process.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>

#include "models/random.h"
#include "tuning/properties.h"

namespace perfplan::tuning {

struct GaussianProcess::State {
  std::vector<double> lo, span;  // feature scaling to [0, 1]
  Eigen::MatrixXd x;             // scaled training inputs, one row per run
  Eigen::VectorXd alpha;         // K⁻¹ (y - mean), standardized
  Eigen::LLT<Eigen::MatrixXd> llt;
  double y_mean = 0, y_sd = 1;
  bool log_y = false;
  double ell = 1, noise = 0.1;
  double lml = 0;
  double best = 0;  // best observed modelled value, standardized, for minimisation
  double best_max = 0;
};

namespace {

constexpr double kNoiseFloor = 1e-6;

Eigen::MatrixXd Kernel(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double ell) {
  const Eigen::VectorXd an = a.rowwise().squaredNorm();
  const Eigen::VectorXd bn = b.rowwise().squaredNorm();
  Eigen::MatrixXd d2 = (-2.0 * a * b.transpose()).colwise() + an;
  d2.rowwise() += bn.transpose();
  return (-d2.cwiseMax(0.0) / (2 * ell * ell)).array().exp().matrix();
}

constexpr double kLengthScaleGrid[] = {0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0, 1.5};
constexpr double kNoiseGrid[] = {0.01, 0.05, 0.1, 0.2, 0.4};

// Log marginal likelihood of standardized y for the kernel matrix `kernel` (one length scale)
// and `noise`; fills llt and alpha.
double Lml(const Eigen::MatrixXd& kernel, const Eigen::VectorXd& y, double noise,
           Eigen::LLT<Eigen::MatrixXd>* llt, Eigen::VectorXd* alpha) {
  Eigen::MatrixXd k = kernel;
  k.diagonal().array() += noise * noise + kNoiseFloor;
  llt->compute(k);
  if (llt->info() != Eigen::Success) return -std::numeric_limits<double>::infinity();
  *alpha = llt->solve(y);
  const Eigen::MatrixXd l = llt->matrixL();
  const double log_det = 2 * l.diagonal().array().log().sum();
  return -0.5 * y.dot(*alpha) - 0.5 * log_det -
         0.5 * static_cast<double>(y.size()) * std::log(2 * std::numbers::pi);
}

double NormalPdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi); }
double NormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

}  // namespace

Result<GaussianProcess> GaussianProcess::Fit(const std::vector<Feature>& features,
                                             const std::vector<std::vector<double>>& x,
                                             const std::vector<double>& y) {
  return Build(features, x, y, nullptr);
}

Result<GaussianProcess> GaussianProcess::FitWith(const std::vector<Feature>& features,
                                                 const std::vector<std::vector<double>>& x,
                                                 const std::vector<double>& y,
                                                 const GpHyperParams& hyper) {
  if (!(hyper.length_scale > 0) || !(hyper.noise >= 0) || !std::isfinite(hyper.length_scale) ||
      !std::isfinite(hyper.noise)) {
    return Status::InvalidArgument("gp: length scale and noise must be finite, length scale > 0");
  }
  return Build(features, x, y, &hyper);
}

Result<GaussianProcess> GaussianProcess::Build(const std::vector<Feature>& features,
                                               const std::vector<std::vector<double>>& x,
                                               const std::vector<double>& y,
                                               const GpHyperParams* fixed) {
  if (x.size() != y.size()) return Status::InvalidArgument("gp: x and y differ in size");
  if (y.size() < 2) {
    return Status::InvalidArgument("gp: " + std::to_string(y.size()) +
                                   " run(s); a Gaussian process needs at least 2");
  }
  auto s = std::make_shared<State>();
  const std::size_t d = features.size();
  const auto n = static_cast<Eigen::Index>(y.size());
  for (const Feature& f : features) {
    s->lo.push_back(f.min);
    s->span.push_back(f.max > f.min ? f.max - f.min : 1.0);
  }
  s->x.resize(n, static_cast<Eigen::Index>(d));
  for (Eigen::Index r = 0; r < n; ++r) {
    const auto& row = x[static_cast<std::size_t>(r)];
    if (row.size() != d) return Status::InvalidArgument("gp: a run has the wrong feature count");
    for (std::size_t j = 0; j < d; ++j) {
      s->x(r, static_cast<Eigen::Index>(j)) = (row[j] - s->lo[j]) / s->span[j];
    }
  }
  s->log_y = std::all_of(y.begin(), y.end(), [](double v) { return v > 0; });
  Eigen::VectorXd t(n);
  for (Eigen::Index r = 0; r < n; ++r) {
    const double v = y[static_cast<std::size_t>(r)];
    t(r) = s->log_y ? std::log(v) : v;
  }
  s->y_mean = t.mean();
  const double var = (t.array() - s->y_mean).square().mean();
  s->y_sd = var > 0 ? std::sqrt(var) : 1.0;
  t = (t.array() - s->y_mean) / s->y_sd;
  s->best = t.minCoeff();
  s->best_max = t.maxCoeff();

  // Grid over the length scale (relative to the diagonal of the unit cube) and the noise; the
  // kernel matrix depends on the length scale only, so it is formed once per length scale.
  const double diag = std::sqrt(static_cast<double>(std::max<std::size_t>(d, 1)));
  std::vector<double> scales, noises;
  if (fixed != nullptr) {
    scales = {fixed->length_scale};
    noises = {fixed->noise};
  } else {
    for (double c : kLengthScaleGrid) scales.push_back(c * diag);
    noises.assign(std::begin(kNoiseGrid), std::end(kNoiseGrid));
  }
  double best_lml = -std::numeric_limits<double>::infinity();
  for (double ell : scales) {
    const Eigen::MatrixXd k = Kernel(s->x, s->x, ell);
    for (double noise : noises) {
      Eigen::LLT<Eigen::MatrixXd> llt;
      Eigen::VectorXd alpha;
      const double lml = Lml(k, t, noise, &llt, &alpha);
      if (lml > best_lml) {
        best_lml = lml;
        s->ell = ell;
        s->noise = noise;
        s->llt = std::move(llt);
        s->alpha = std::move(alpha);
      }
    }
  }
  if (!std::isfinite(best_lml)) return Status::Failed("gp: the kernel matrix is not positive definite");
  s->lml = best_lml;
  return GaussianProcess(std::move(s));
}

void GaussianProcess::Posterior(const std::vector<double>& x, double* mean, double* sd) const {
  const State& s = *state_;
  Eigen::MatrixXd q(1, s.x.cols());
  for (Eigen::Index j = 0; j < s.x.cols(); ++j) {
    const auto k = static_cast<std::size_t>(j);
    q(0, j) = (x[k] - s.lo[k]) / s.span[k];
  }
  const Eigen::VectorXd kx = Kernel(s.x, q, s.ell).col(0);
  const double m = kx.dot(s.alpha);
  const Eigen::VectorXd v = s.llt.matrixL().solve(kx);
  const double var = std::max(1.0 - v.squaredNorm(), 0.0) + kNoiseFloor;
  *mean = s.y_mean + s.y_sd * m;
  *sd = s.y_sd * std::sqrt(var);
}

double GaussianProcess::PredictMean(const std::vector<double>& x) const {
  // The posterior mean alone: k(x)·α, without the variance's triangular solve (n² per point).
  const State& s = *state_;
  Eigen::MatrixXd q(1, s.x.cols());
  for (Eigen::Index j = 0; j < s.x.cols(); ++j) {
    const auto k = static_cast<std::size_t>(j);
    q(0, j) = (x[k] - s.lo[k]) / s.span[k];
  }
  const double m = s.y_mean + s.y_sd * Kernel(s.x, q, s.ell).col(0).dot(s.alpha);
  return s.log_y ? std::exp(m) : m;
}

double GaussianProcess::ExpectedImprovement(const std::vector<double>& x, Goal goal) const {
  const State& s = *state_;
  double m = 0, sd = 0;
  Posterior(x, &m, &sd);
  const double best = s.y_mean + s.y_sd * (goal == Goal::kMinimize ? s.best : s.best_max);
  const double gain = goal == Goal::kMinimize ? best - m : m - best;
  if (sd <= 0) return std::max(gain, 0.0);
  const double z = gain / sd;
  return gain * NormalCdf(z) + sd * NormalPdf(z);
}

double GaussianProcess::length_scale() const { return state_->ell; }
double GaussianProcess::noise() const { return state_->noise; }
bool GaussianProcess::log_target() const { return state_->log_y; }
double GaussianProcess::log_marginal_likelihood() const { return state_->lml; }

Result<std::vector<NextExperiment>> ProposeNext(const std::vector<Feature>& features,
                                                const std::vector<std::vector<double>>& x,
                                                const std::vector<double>& y,
                                                const std::vector<std::vector<double>>& candidates,
                                                std::size_t count, Goal goal) {
  std::vector<std::vector<double>> xs = x;
  std::vector<double> ys = y;
  std::vector<bool> taken(candidates.size(), false);
  std::vector<NextExperiment> out;
  while (out.size() < count && out.size() < candidates.size()) {
    Result<GaussianProcess> gp = GaussianProcess::Fit(features, xs, ys);
    if (!gp.ok()) return gp.status();
    NextExperiment best;
    bool found = false;
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      if (taken[c]) continue;
      const double ei = gp.value().ExpectedImprovement(candidates[c], goal);
      if (!found || ei > best.expected_improvement) {
        best.candidate = c;
        best.expected_improvement = ei;
        found = true;
      }
    }
    if (!found) break;
    double m = 0, sd = 0;
    gp.value().Posterior(candidates[best.candidate], &m, &sd);
    best.predicted = gp.value().PredictMean(candidates[best.candidate]);
    best.predicted_sd = sd;
    taken[best.candidate] = true;
    out.push_back(best);
    xs.push_back(candidates[best.candidate]);
    ys.push_back(best.predicted);  // kriging believer
  }
  return out;
}

std::vector<std::vector<double>> SampleCandidates(const std::vector<Feature>& features,
                                                  const std::vector<double>& baseline,
                                                  std::size_t n, std::uint64_t seed) {
  // Dimensions: numeric features, and one per categorical parameter (its one-hot group).
  struct Dim {
    std::vector<std::size_t> features;
    bool categorical = false;
    double lo = 0, hi = 0, quantum = 0;
  };
  std::vector<Dim> dims;
  std::map<std::string, std::size_t> group;
  for (std::size_t j = 0; j < features.size(); ++j) {
    const Feature& f = features[j];
    if (!f.category.empty()) {
      auto it = group.find(f.parameter);
      if (it == group.end()) {
        group[f.parameter] = dims.size();
        dims.push_back({{j}, true});
      } else {
        dims[it->second].features.push_back(j);
      }
      continue;
    }
    const PropertyInfo info = DescribeProperty(f);
    Dim d{{j}, false, f.min, f.max, info.quantum};
    if (d.quantum > 0) {
      const double lo = std::ceil(f.min / d.quantum) * d.quantum;
      const double hi = std::floor(f.max / d.quantum) * d.quantum;
      if (lo <= hi) d.lo = lo, d.hi = hi;
    }
    dims.push_back(d);
  }
  models::Rng rng(seed);
  std::vector<std::vector<std::size_t>> strata(dims.size(), std::vector<std::size_t>(n));
  for (auto& st : strata) {
    for (std::size_t i = 0; i < n; ++i) st[i] = i;
    rng.Shuffle(st);
  }
  std::vector<std::vector<double>> out(n, baseline);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < dims.size(); ++k) {
      const Dim& d = dims[k];
      if (d.categorical) {
        const std::size_t level = strata[k][i] % d.features.size();
        for (std::size_t l = 0; l < d.features.size(); ++l) {
          out[i][d.features[l]] = l == level ? 1.0 : 0.0;
        }
        continue;
      }
      double v = d.lo + (static_cast<double>(strata[k][i]) + rng.Uniform()) /
                            static_cast<double>(n) * (d.hi - d.lo);
      if (d.quantum > 0) v = std::round(v / d.quantum) * d.quantum;
      out[i][d.features[0]] = std::clamp(v, d.lo, d.hi);
    }
  }
  return out;
}

std::size_t ReplayRunsToNearBest(const Dataset& data, bool random_order, std::uint64_t seed,
                                 std::size_t initial, double tolerance, Goal goal) {
  const std::size_t n = data.runs();
  const bool minimize = goal == Goal::kMinimize;
  const double target = minimize ? *std::min_element(data.y.begin(), data.y.end())
                                 : *std::max_element(data.y.begin(), data.y.end());
  auto near_best = [&](double v) {
    return minimize ? v <= target * (1 + tolerance) : v >= target * (1 - tolerance);
  };
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  models::Rng rng(seed);
  rng.Shuffle(order);
  std::vector<bool> seen(n, false);
  std::vector<std::vector<double>> xs;
  std::vector<double> ys;
  auto run = [&](std::size_t r) {
    seen[r] = true;
    xs.push_back(data.x[r]);
    ys.push_back(data.y[r]);
    return near_best(data.y[r]);
  };
  std::size_t next_random = 0;
  for (; next_random < std::min(initial, n); ++next_random) {
    if (run(order[next_random])) return xs.size();
  }
  while (xs.size() < n) {
    std::size_t pick = n;
    if (!random_order && xs.size() >= 2) {
      std::vector<std::vector<double>> candidates;
      std::vector<std::size_t> index;
      for (std::size_t r = 0; r < n; ++r) {
        if (!seen[r]) {
          candidates.push_back(data.x[r]);
          index.push_back(r);
        }
      }
      Result<std::vector<NextExperiment>> next =
          ProposeNext(data.features, xs, ys, candidates, 1, goal);
      if (next.ok() && !next.value().empty()) pick = index[next.value()[0].candidate];
    }
    if (pick == n) {
      while (seen[order[next_random]]) ++next_random;
      pick = order[next_random];
    }
    if (run(pick)) return xs.size();
  }
  return xs.size();
}

}  // namespace perfplan::tuning
