#include "tuning/failure.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "models/random.h"

namespace perfplan::tuning {
namespace {

double Sigmoid(double z) {
  if (z >= 0) return 1 / (1 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1 + e);
}

struct Rows {
  std::vector<const std::vector<double>*> x;
  std::vector<double> failed;  // 1 = failed
};

// Newton's method on the penalised log-likelihood (the bias is not penalised).
FailureModel Fit(const Rows& rows, std::size_t d, double lambda) {
  FailureModel m;
  m.lambda = lambda;
  const std::size_t n = rows.x.size();
  m.mean.assign(d, 0);
  m.scale.assign(d, 1);
  for (std::size_t j = 0; j < d; ++j) {
    double s = 0, s2 = 0;
    for (const auto* x : rows.x) s += (*x)[j];
    const double mu = s / static_cast<double>(n);
    for (const auto* x : rows.x) s2 += ((*x)[j] - mu) * ((*x)[j] - mu);
    const double sd = std::sqrt(s2 / static_cast<double>(n));
    m.mean[j] = mu;
    m.scale[j] = sd > 0 ? sd : 1;
  }
  Eigen::MatrixXd z(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d + 1));
  Eigen::VectorXd y(static_cast<Eigen::Index>(n));
  for (std::size_t r = 0; r < n; ++r) {
    const auto i = static_cast<Eigen::Index>(r);
    z(i, 0) = 1;
    for (std::size_t j = 0; j < d; ++j) {
      z(i, static_cast<Eigen::Index>(j + 1)) = ((*rows.x[r])[j] - m.mean[j]) / m.scale[j];
    }
    y(i) = rows.failed[r];
  }
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(d + 1));
  Eigen::VectorXd penalty = Eigen::VectorXd::Constant(static_cast<Eigen::Index>(d + 1), lambda);
  penalty(0) = 0;
  for (int iter = 0; iter < 50; ++iter) {
    const Eigen::VectorXd eta = z * beta;
    Eigen::VectorXd p(eta.size()), w(eta.size());
    for (Eigen::Index i = 0; i < eta.size(); ++i) {
      p(i) = Sigmoid(eta(i));
      w(i) = std::max(p(i) * (1 - p(i)), 1e-10);
    }
    const Eigen::VectorXd grad = z.transpose() * (y - p) - penalty.cwiseProduct(beta);
    Eigen::MatrixXd hess = z.transpose() * w.asDiagonal() * z;
    hess.diagonal() += penalty;
    hess(0, 0) += 1e-9;
    const Eigen::VectorXd step = hess.ldlt().solve(grad);
    beta += step;
    if (step.cwiseAbs().maxCoeff() < 1e-9) break;
  }
  m.bias = beta(0);
  m.weights.resize(d);
  for (std::size_t j = 0; j < d; ++j) m.weights[j] = beta(static_cast<Eigen::Index>(j + 1));
  return m;
}

}  // namespace

double FailureModel::Probability(const std::vector<double>& x) const {
  double eta = bias;
  for (std::size_t j = 0; j < weights.size() && j < x.size(); ++j) {
    eta += weights[j] * (x[j] - mean[j]) / scale[j];
  }
  return Sigmoid(eta);
}

Result<FailureModel> FitFailureModel(const Dataset& data, double lambda) {
  if (!(lambda > 0)) {
    return Status::InvalidField("failure_lambda", "must be > 0");
  }
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
  FailureModel model = Fit(all, d, lambda);
  model.failed_runs = data.failed_x.size();
  model.succeeded_runs = data.x.size();

  // 5-fold cross-validated accuracy (seeded fold assignment), against the majority class.
  const std::size_t n = all.x.size();
  const std::size_t folds = std::min<std::size_t>(5, n);
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  models::Rng rng(1);
  rng.Shuffle(order);
  std::size_t correct = 0;
  for (std::size_t k = 0; k < folds; ++k) {
    Rows train;
    std::vector<std::size_t> test;
    for (std::size_t i = 0; i < n; ++i) {
      if (i % folds == k) {
        test.push_back(order[i]);
      } else {
        train.x.push_back(all.x[order[i]]);
        train.failed.push_back(all.failed[order[i]]);
      }
    }
    const FailureModel fold = Fit(train, d, lambda);
    for (std::size_t t : test) {
      const bool predicted = fold.Probability(*all.x[t]) > 0.5;
      correct += predicted == (all.failed[t] == 1) ? 1 : 0;
    }
  }
  model.cv_accuracy = static_cast<double>(correct) / static_cast<double>(n);
  model.majority_accuracy =
      static_cast<double>(std::max(model.failed_runs, model.succeeded_runs)) /
      static_cast<double>(n);
  return model;
}

}  // namespace perfplan::tuning
