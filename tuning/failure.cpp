#include "tuning/failure.h"

#include <Eigen/Dense>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>
#include <thread>

#include "models/enum_names.h"
#include "models/random.h"
#include "models/text.h"

namespace perfplan::tuning {
namespace {

constexpr models::EnumName<FailureFeatures> kFeatureNames[] = {
    {FailureFeatures::kValues, "values"},
    {FailureFeatures::kLogValues, "log-values"},
    {FailureFeatures::kValuesAndLogs, "values+logs"},
};

// Out-of-fold probabilities are clipped to [kClip, 1 - kClip] for the log-loss (docs/tuning.md).
constexpr double kClip = 1e-12;
constexpr int kMaxNewtonSteps = 50;
constexpr int kMaxEmSteps = 100;
constexpr double kEmTolerance = 1e-7;   // relative change of the penalised log-likelihood
constexpr std::uint64_t kFoldSeed = 1;  // outer folds and the selection on all runs; inner: + 1

double Sigmoid(double z) {
  if (z >= 0) return 1 / (1 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1 + e);
}

// log σ(z), stably.
double LogSigmoid(double z) {
  return z >= 0 ? -std::log1p(std::exp(-z)) : z - std::log1p(std::exp(z));
}

double TermValue(const FailureTerm& t, double x) {
  return t.log ? std::log(std::max(x, t.floor)) : x;
}

struct Rows {
  std::vector<const std::vector<double>*> x;
  std::vector<double> failed;  // 1 = failed
};

Rows Subset(const Rows& rows, const std::vector<std::size_t>& fold_of, std::size_t fold,
            bool inside) {
  Rows out;
  for (std::size_t i = 0; i < rows.x.size(); ++i) {
    if ((fold_of[i] == fold) == inside) {
      out.x.push_back(rows.x[i]);
      out.failed.push_back(rows.failed[i]);
    }
  }
  return out;
}

// Stratified folds: the failed and the succeeded rows are each shuffled (seeded) and dealt in
// turn, so every fold gets its share of both classes.
std::vector<std::size_t> StratifiedFolds(const Rows& rows, std::size_t folds, std::uint64_t seed) {
  std::vector<std::size_t> failed, succeeded;
  for (std::size_t i = 0; i < rows.x.size(); ++i) {
    (rows.failed[i] == 1 ? failed : succeeded).push_back(i);
  }
  models::Rng rng(seed);
  rng.Shuffle(failed);
  rng.Shuffle(succeeded);
  std::vector<std::size_t> fold_of(rows.x.size());
  std::size_t next = 0;
  for (const auto* group : {&failed, &succeeded}) {
    for (std::size_t i : *group) fold_of[i] = next++ % folds;
  }
  return fold_of;
}

// The standardized terms of some rows: what one feature set's candidates are fitted on.
struct Design {
  std::vector<FailureTerm> terms;
  std::vector<double> mean, scale;
  Eigen::MatrixXd z;  // rows × (1 + terms), column 0 = 1 (the bias)
  Eigen::VectorXd y;  // 1 = failed
};

Design MakeDesign(const Rows& rows, std::size_t d, FailureFeatures features) {
  Design g;
  const std::size_t n = rows.x.size();
  std::vector<double> lowest(d, 0);
  for (std::size_t j = 0; j < d; ++j) {
    lowest[j] = (*rows.x[0])[j];
    for (const auto* x : rows.x) lowest[j] = std::min(lowest[j], (*x)[j]);
  }
  for (std::size_t j = 0; j < d; ++j) {
    if (features == FailureFeatures::kLogValues && lowest[j] > 0) {
      g.terms.push_back({j, true, lowest[j]});
    } else {
      g.terms.push_back({j, false, 0});
    }
  }
  if (features == FailureFeatures::kValuesAndLogs) {
    for (std::size_t j = 0; j < d; ++j) {
      if (lowest[j] > 0) g.terms.push_back({j, true, lowest[j]});
    }
  }
  const std::size_t t = g.terms.size();
  g.z.resize(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(t + 1));
  g.y.resize(static_cast<Eigen::Index>(n));
  g.mean.assign(t, 0);
  g.scale.assign(t, 1);
  for (std::size_t k = 0; k < t; ++k) {
    const auto col = static_cast<Eigen::Index>(k + 1);
    for (std::size_t r = 0; r < n; ++r) {
      g.z(static_cast<Eigen::Index>(r), col) =
          TermValue(g.terms[k], (*rows.x[r])[g.terms[k].column]);
    }
    const double mu = g.z.col(col).mean();
    const double sd = std::sqrt((g.z.col(col).array() - mu).square().mean());
    g.mean[k] = mu;
    g.scale[k] = sd > 0 ? sd : 1;
    g.z.col(col) = (g.z.col(col).array() - mu) / g.scale[k];
  }
  g.z.col(0).setOnes();
  for (std::size_t r = 0; r < n; ++r) g.y(static_cast<Eigen::Index>(r)) = rows.failed[r];
  return g;
}

// Σ w_i [t_i log σ(η_i) + (1 − t_i) log σ(−η_i)] − λ/2 |β without the bias|²: the penalised
// log-likelihood of soft targets t (the M-step of EM) with row weights w.
double Objective(const Eigen::MatrixXd& z, const Eigen::VectorXd& t, const Eigen::VectorXd& w,
                 const Eigen::VectorXd& beta, double lambda) {
  const Eigen::VectorXd eta = z * beta;
  double ll = 0;
  for (Eigen::Index i = 0; i < eta.size(); ++i) {
    if (w(i) == 0) continue;
    ll += w(i) * (t(i) * LogSigmoid(eta(i)) + (1 - t(i)) * LogSigmoid(-eta(i)));
  }
  return ll - 0.5 * lambda * beta.tail(beta.size() - 1).squaredNorm();
}

// Newton's method from `beta` (a warm start), halving a step that lowers the objective.
Eigen::VectorXd Newton(const Eigen::MatrixXd& z, const Eigen::VectorXd& t, const Eigen::VectorXd& w,
                       double lambda, Eigen::VectorXd beta) {
  const Eigen::Index p = z.cols();
  Eigen::VectorXd penalty = Eigen::VectorXd::Constant(p, lambda);
  penalty(0) = 0;
  double current = Objective(z, t, w, beta, lambda);
  for (int iter = 0; iter < kMaxNewtonSteps; ++iter) {
    const Eigen::VectorXd eta = z * beta;
    Eigen::VectorXd resid(eta.size()), curv(eta.size());
    for (Eigen::Index i = 0; i < eta.size(); ++i) {
      const double prob = Sigmoid(eta(i));
      resid(i) = w(i) * (t(i) - prob);
      curv(i) = std::max(w(i) * prob * (1 - prob), 1e-10);
    }
    const Eigen::VectorXd grad = z.transpose() * resid - penalty.cwiseProduct(beta);
    Eigen::MatrixXd hess = z.transpose() * curv.asDiagonal() * z;
    hess.diagonal() += penalty;
    hess(0, 0) += 1e-9;
    Eigen::VectorXd step = hess.ldlt().solve(grad);
    double next = Objective(z, t, w, beta + step, lambda);
    for (int half = 0; half < 20 && !(next >= current); ++half) {
      step *= 0.5;
      next = Objective(z, t, w, beta + step, lambda);
    }
    if (!(next >= current)) break;  // no ascent left at machine precision
    beta += step;
    current = next;
    if (step.cwiseAbs().maxCoeff() < 1e-9) break;
  }
  return beta;
}

// P(fail) of every row under units `betas`: 1 − Π (1 − σ(η_k)).
Eigen::VectorXd UnionProbability(const Eigen::MatrixXd& z,
                                 const std::vector<Eigen::VectorXd>& betas) {
  Eigen::VectorXd none = Eigen::VectorXd::Ones(z.rows());
  for (const auto& b : betas) {
    const Eigen::VectorXd eta = z * b;
    for (Eigen::Index i = 0; i < eta.size(); ++i) none(i) *= Sigmoid(-eta(i));
  }
  return Eigen::VectorXd::Ones(z.rows()) - none;
}

double UnionObjective(const Design& g, const std::vector<Eigen::VectorXd>& betas, double lambda) {
  const Eigen::VectorXd p = UnionProbability(g.z, betas);
  double ll = 0;
  for (Eigen::Index i = 0; i < p.size(); ++i) {
    const double q = std::clamp(p(i), kClip, 1 - kClip);
    ll += g.y(i) == 1 ? std::log(q) : std::log(1 - q);
  }
  for (const auto& b : betas) ll -= 0.5 * lambda * b.tail(b.size() - 1).squaredNorm();
  return ll;
}

// Any of `units` logistic units (noisy-OR), by EM: the latent is which units "fired" on a failed
// run (P(unit k fired | failed) = σ_k / P(fail)); a succeeded run fired none. Started without
// randomness from `single` (the one-unit fit at the same λ): each further unit is first fitted
// to the failed runs the current units explain worst (P(fail) < 0.5, or the lower half of the
// failed runs when none is), against the succeeded runs.
std::vector<Eigen::VectorXd> FitUnion(const Design& g, double lambda, std::size_t units,
                                      const Eigen::VectorXd& single) {
  const Eigen::Index n = g.z.rows();
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(n);
  std::vector<Eigen::VectorXd> betas = {single};
  while (betas.size() < units) {
    const Eigen::VectorXd p = UnionProbability(g.z, betas);
    std::vector<double> failed_p;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (g.y(i) == 1) failed_p.push_back(p(i));
    }
    std::sort(failed_p.begin(), failed_p.end());
    double cut = 0.5;
    if (failed_p.empty() || failed_p.front() >= 0.5) {
      cut = failed_p.empty() ? 0.5 : failed_p[failed_p.size() / 2];
    }
    Eigen::VectorXd w = ones;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (g.y(i) == 1 && !(p(i) < cut)) w(i) = 0;  // explained already: not this unit's
    }
    betas.push_back(Newton(g.z, g.y, w, lambda, Eigen::VectorXd::Zero(g.z.cols())));
  }
  double current = UnionObjective(g, betas, lambda);
  for (int step = 0; step < kMaxEmSteps; ++step) {
    std::vector<Eigen::VectorXd> fired(units, Eigen::VectorXd::Zero(n));
    const Eigen::VectorXd p = UnionProbability(g.z, betas);
    for (std::size_t k = 0; k < units; ++k) {
      const Eigen::VectorXd eta = g.z * betas[k];
      for (Eigen::Index i = 0; i < n; ++i) {
        if (g.y(i) == 1) fired[k](i) = std::min(1.0, Sigmoid(eta(i)) / std::max(p(i), kClip));
      }
    }
    for (std::size_t k = 0; k < units; ++k)
      betas[k] = Newton(g.z, fired[k], ones, lambda, betas[k]);
    const double next = UnionObjective(g, betas, lambda);
    const bool converged = std::abs(next - current) <= kEmTolerance * (1 + std::abs(current));
    current = next;
    if (converged) break;
  }
  return betas;
}

FailureModel ModelOf(const Design& g, const std::vector<Eigen::VectorXd>& betas,
                     FailureFeatures features, double lambda) {
  FailureModel m;
  m.features = features;
  m.lambda = lambda;
  m.terms = g.terms;
  m.mean = g.mean;
  m.scale = g.scale;
  for (const auto& beta : betas) {
    FailureUnit u;
    u.bias = beta(0);
    u.weights.resize(g.terms.size());
    for (std::size_t k = 0; k < g.terms.size(); ++k) {
      u.weights[k] = beta(static_cast<Eigen::Index>(k + 1));
    }
    m.units.push_back(std::move(u));
  }
  return m;
}

struct Score {
  double log_loss = 0;
  std::size_t correct = 0;
  void Add(double p, bool failed) {
    const double q = std::clamp(p, kClip, 1 - kClip);
    log_loss -= failed ? std::log(q) : std::log(1 - q);
    correct += (p > 0.5) == failed ? 1 : 0;
  }
};

// The candidates in documented order: each feature set × λ (one unit), then each union size × λ
// (log-values terms).
std::vector<FailureCandidate> Candidates(const FailureOptions& o) {
  std::vector<FailureCandidate> out;
  for (FailureFeatures f : o.feature_sets) {
    for (double l : o.lambdas) out.push_back({f, 1, l});
  }
  for (std::size_t k : o.union_units) {
    for (double l : o.lambdas) out.push_back({FailureFeatures::kLogValues, k, l});
  }
  return out;
}

// Fits every candidate on `train`, in Candidates order; each feature set's λ path is warm-started
// in the order given, and the unions start from the log-values single unit at their λ.
std::vector<FailureModel> FitAll(const Rows& train, std::size_t d, const FailureOptions& o,
                                 const std::vector<FailureCandidate>& candidates) {
  std::vector<FailureModel> models(candidates.size());
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(static_cast<Eigen::Index>(train.x.size()));
  std::vector<FailureFeatures> sets;  // the term sets the candidates use, in order
  for (const FailureCandidate& c : candidates) {
    if (std::find(sets.begin(), sets.end(), c.features) == sets.end()) sets.push_back(c.features);
  }
  for (FailureFeatures f : sets) {
    const Design g = MakeDesign(train, d, f);
    Eigen::VectorXd beta = Eigen::VectorXd::Zero(g.z.cols());
    for (double lambda : o.lambdas) {
      beta = Newton(g.z, g.y, ones, lambda, beta);
      for (std::size_t c = 0; c < candidates.size(); ++c) {
        if (candidates[c].features != f || candidates[c].lambda != lambda) continue;
        models[c] = candidates[c].units == 1
                        ? ModelOf(g, {beta}, f, lambda)
                        : ModelOf(g, FitUnion(g, lambda, candidates[c].units, beta), f, lambda);
      }
    }
  }
  return models;
}

// The candidate of the lowest CV log-loss on `rows` (ties: the first), fitted on all of them.
FailureModel Select(const Rows& rows, std::size_t d, const FailureOptions& o, std::uint64_t seed) {
  std::vector<FailureCandidate> candidates = Candidates(o);
  const std::size_t n = rows.x.size();
  const std::size_t folds = std::min(o.folds, n);
  const std::vector<std::size_t> fold_of = StratifiedFolds(rows, folds, seed);
  std::vector<Score> scores(candidates.size());
  for (std::size_t k = 0; k < folds; ++k) {
    const Rows train = Subset(rows, fold_of, k, false);
    const Rows test = Subset(rows, fold_of, k, true);
    if (train.x.empty() || test.x.empty()) continue;
    const std::vector<FailureModel> fitted = FitAll(train, d, o, candidates);
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      for (std::size_t t = 0; t < test.x.size(); ++t) {
        scores[c].Add(fitted[c].Probability(*test.x[t]), test.failed[t] == 1);
      }
    }
  }
  std::size_t best = 0;
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    candidates[c].cv_log_loss = scores[c].log_loss / static_cast<double>(n);
    candidates[c].cv_accuracy = static_cast<double>(scores[c].correct) / static_cast<double>(n);
    if (candidates[c].cv_log_loss < candidates[best].cv_log_loss) best = c;
  }
  FailureModel m = std::move(FitAll(rows, d, o, {candidates[best]}).front());
  m.candidates = std::move(candidates);
  return m;
}

// The bounds of the successful runs (docs/tuning.md): for each pair of columns > 0 in every run,
// the ratio and the product, on each side where a failed run lies beyond every successful run.
std::vector<FailureBound> SuccessBounds(const Dataset& data) {
  const std::size_t d = data.features.size();
  std::vector<bool> positive(d, true);
  for (const auto* runs : {&data.x, &data.failed_x}) {
    for (const auto& x : *runs) {
      for (std::size_t j = 0; j < d; ++j) positive[j] = positive[j] && x[j] > 0;
    }
  }
  std::vector<FailureBound> out;
  for (std::size_t a = 0; a < d; ++a) {
    if (!positive[a]) continue;
    for (std::size_t b = a + 1; b < d; ++b) {
      if (!positive[b]) continue;
      for (bool product : {false, true}) {
        const FailureBound probe{a, b, product, true, 0};
        double lo = probe.Value(data.x.front()), hi = lo;
        for (const auto& x : data.x) {
          lo = std::min(lo, probe.Value(x));
          hi = std::max(hi, probe.Value(x));
        }
        bool above = false, below = false;
        for (const auto& x : data.failed_x) {
          above = above || probe.Value(x) > hi;
          below = below || probe.Value(x) < lo;
        }
        if (above) out.push_back({a, b, product, true, hi});
        if (below) out.push_back({a, b, product, false, lo});
      }
    }
  }
  return out;
}

// Runs jobs 0..tasks-1 on up to `threads` threads (the calling one included), each taking the
// next job left; job i writes only its own result, so the outcome does not depend on the threads.
template <typename Job>
void RunParallel(std::size_t tasks, int threads, const Job& job) {
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < tasks; i = next++) job(i);
  };
  const std::size_t n = std::min<std::size_t>(tasks, static_cast<std::size_t>(threads));
  std::vector<std::thread> workers;
  for (std::size_t w = 1; w < n; ++w) workers.emplace_back(work);
  work();
  for (auto& t : workers) t.join();
}

}  // namespace

std::string_view ToString(FailureFeatures f) { return models::NameOf(kFeatureNames, f); }

bool ParseFailureFeatures(std::string_view text, FailureFeatures* out) {
  return models::ParseName(kFeatureNames, text, out);
}

Status FailureOptions::Validate() const {
  if (feature_sets.empty()) return Status::InvalidField("failure_feature_sets", "is empty");
  for (std::size_t k : union_units) {
    if (k < 2) {
      return Status::InvalidField("failure_union_units",
                                  "must be >= 2 (got " + std::to_string(k) + ")");
    }
  }
  if (lambdas.empty()) return Status::InvalidField("failure_lambdas", "is empty");
  for (double l : lambdas) {
    if (!(l > 0)) {
      return Status::InvalidField("failure_lambdas",
                                  "must be > 0 (got " + models::FormatNumber(l) + ")");
    }
  }
  if (folds < 2) {
    return Status::InvalidField("failure_folds",
                                "must be >= 2 (got " + std::to_string(folds) + ")");
  }
  if (threads < 1 || threads > 1024) {
    return Status::InvalidField("failure_threads",
                                "must be 1 to 1024 (got " + std::to_string(threads) + ")");
  }
  return Status::Ok();
}

double FailureBound::Value(const std::vector<double>& x) const {
  return product ? x[a] * x[b] : x[a] / x[b];
}

bool FailureBound::Holds(const std::vector<double>& x) const {
  const double v = Value(x);
  return upper ? v <= limit : v >= limit;
}

const FailureBound* FailureModel::BrokenBound(const std::vector<double>& x) const {
  for (const FailureBound& b : bounds) {
    if (b.b < x.size() && !b.Holds(x)) return &b;
  }
  return nullptr;
}

double FailureModel::Probability(const std::vector<double>& x) const {
  double none = 1;  // probability that no unit fails x
  for (const FailureUnit& u : units) {
    double eta = u.bias;
    for (std::size_t k = 0; k < terms.size(); ++k) {
      if (terms[k].column >= x.size()) continue;
      eta += u.weights[k] * (TermValue(terms[k], x[terms[k].column]) - mean[k]) / scale[k];
    }
    none *= Sigmoid(-eta);
  }
  return 1 - none;
}

Result<FailureModel> FitFailureModel(const Dataset& data, const FailureOptions& options) {
  if (Status s = options.Validate(); !s.ok()) return s;
  if (data.failed_x.empty()) {
    return Status::InvalidArgument(data.source +
                                   ": no failed runs; a failure model needs runs marked as failed");
  }
  if (data.x.empty()) {
    return Status::InvalidArgument(data.source + ": every run failed; nothing to contrast with");
  }
  const std::size_t d = data.features.size();
  Rows all;
  for (const auto& x : data.x) {
    all.x.push_back(&x);
    all.failed.push_back(0);
  }
  for (const auto& x : data.failed_x) {
    all.x.push_back(&x);
    all.failed.push_back(1);
  }
  // The selection on all runs (task 0) and, for the nested CV, each outer fold's selection
  // (inner CV) fitted on the other folds (tasks 1..folds): independent, so shared by threads.
  const std::size_t n = all.x.size();
  const std::size_t folds = std::min(options.folds, n);
  const std::vector<std::size_t> fold_of = StratifiedFolds(all, folds, kFoldSeed);
  std::vector<FailureModel> fitted(folds + 1);
  std::vector<char> scored(folds + 1, 0);  // not vector<bool>: threads write its elements
  RunParallel(folds + 1, options.threads, [&](std::size_t task) {
    if (task == 0) {
      fitted[0] = Select(all, d, options, kFoldSeed);
      return;
    }
    const Rows train = Subset(all, fold_of, task - 1, false);
    const Rows test = Subset(all, fold_of, task - 1, true);
    if (train.x.empty() || test.x.empty()) return;
    fitted[task] = Select(train, d, options, kFoldSeed + 1);
    scored[task] = 1;
  });
  FailureModel model = std::move(fitted[0]);
  model.failed_runs = data.failed_x.size();
  model.succeeded_runs = data.x.size();
  Score score;
  for (std::size_t k = 0; k < folds; ++k) {
    if (!scored[k + 1]) continue;
    const Rows test = Subset(all, fold_of, k, true);
    for (std::size_t t = 0; t < test.x.size(); ++t) {
      score.Add(fitted[k + 1].Probability(*test.x[t]), test.failed[t] == 1);
    }
  }
  model.cv_accuracy = static_cast<double>(score.correct) / static_cast<double>(n);
  model.cv_log_loss = score.log_loss / static_cast<double>(n);
  model.majority_accuracy = static_cast<double>(std::max(model.failed_runs, model.succeeded_runs)) /
                            static_cast<double>(n);
  model.bounds = SuccessBounds(data);
  return model;
}

}  // namespace perfplan::tuning
