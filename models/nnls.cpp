#include "models/nnls.h"

#include <Eigen/Dense>
#include <cmath>
#include <string>

namespace perfplan::models {
namespace {

// Dual values within this fraction of the largest count as tied (see the column choice below).
constexpr double kTieFraction = 1e-9;

// Least squares on the passive columns only; the other entries of the result are 0.
Eigen::VectorXd SolvePassive(const Eigen::MatrixXd& a, const Eigen::VectorXd& b,
                             const std::vector<bool>& passive) {
  std::vector<Eigen::Index> cols;
  for (std::size_t j = 0; j < passive.size(); ++j) {
    if (passive[j]) cols.push_back(static_cast<Eigen::Index>(j));
  }
  Eigen::MatrixXd sub(a.rows(), static_cast<Eigen::Index>(cols.size()));
  for (std::size_t k = 0; k < cols.size(); ++k)
    sub.col(static_cast<Eigen::Index>(k)) = a.col(cols[k]);
  const Eigen::VectorXd z = sub.colPivHouseholderQr().solve(b);
  Eigen::VectorXd s = Eigen::VectorXd::Zero(a.cols());
  for (std::size_t k = 0; k < cols.size(); ++k) s(cols[k]) = z(static_cast<Eigen::Index>(k));
  return s;
}

}  // namespace

Result<NnlsSolution> SolveNnls(const DenseMatrix& dense, const std::vector<double>& rhs,
                               const NnlsOptions& options) {
  if (dense.rows == 0 || dense.cols == 0) {
    return Status::InvalidArgument("nnls: the matrix needs at least 1 row and 1 column, got " +
                                   std::to_string(dense.rows) + "x" + std::to_string(dense.cols));
  }
  if (dense.values.size() != dense.rows * dense.cols || rhs.size() != dense.rows) {
    return Status::InvalidArgument("nnls: sizes disagree: matrix " + std::to_string(dense.rows) +
                                   "x" + std::to_string(dense.cols) + " with " +
                                   std::to_string(dense.values.size()) + " values, right side " +
                                   std::to_string(rhs.size()));
  }
  const auto m = static_cast<Eigen::Index>(dense.rows);
  const auto n = static_cast<Eigen::Index>(dense.cols);
  Eigen::MatrixXd a(m, n);
  Eigen::VectorXd b(m);
  for (Eigen::Index r = 0; r < m; ++r) {
    b(r) = rhs[static_cast<std::size_t>(r)];
    if (!std::isfinite(b(r))) return Status::InvalidArgument("nnls: right side is not finite");
    for (Eigen::Index c = 0; c < n; ++c) {
      a(r, c) = dense.At(static_cast<std::size_t>(r), static_cast<std::size_t>(c));
      if (!std::isfinite(a(r, c))) return Status::InvalidArgument("nnls: matrix is not finite");
    }
  }
  // Unit-norm columns: x_j ≥ 0 is invariant under positive scaling, and the dual test below
  // becomes comparable across columns.
  Eigen::VectorXd scale(n);
  for (Eigen::Index c = 0; c < n; ++c) {
    const double norm = a.col(c).norm();
    scale(c) = norm > 0 ? norm : 1.0;
    a.col(c) /= scale(c);
  }
  const double tol = options.tolerance * std::max(1.0, b.norm());
  const std::size_t max_iterations =
      options.max_iterations > 0 ? options.max_iterations : 3 * dense.cols + 10;

  std::vector<bool> passive(dense.cols, false);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
  std::size_t iterations = 0;
  while (true) {
    const Eigen::VectorXd w = a.transpose() * (b - a * x);
    double max_w = tol;
    for (Eigen::Index j = 0; j < n; ++j) {
      if (!passive[static_cast<std::size_t>(j)]) max_w = std::max(max_w, w(j));
    }
    if (max_w <= tol) break;
    // Ties (equal columns up to rounding) go to the lowest index, so which of several collinear
    // columns carries a shared term is decided by column order, not by rounding noise.
    Eigen::Index best = -1;
    for (Eigen::Index j = 0; j < n && best < 0; ++j) {
      if (!passive[static_cast<std::size_t>(j)] && w(j) >= max_w * (1 - kTieFraction)) best = j;
    }
    if (++iterations > max_iterations) {
      return Status::Failed("nnls: no convergence within " + std::to_string(max_iterations) +
                            " iterations");
    }
    passive[static_cast<std::size_t>(best)] = true;
    Eigen::VectorXd s = SolvePassive(a, b, passive);
    // The entering column must improve the fit; when the subproblem drives it non-positive the
    // dual test was numerically marginal: drop it and stop (standard safeguard).
    if (s(best) <= 0) {
      passive[static_cast<std::size_t>(best)] = false;
      break;
    }
    while (true) {
      double alpha = 2;
      for (Eigen::Index j = 0; j < n; ++j) {
        if (passive[static_cast<std::size_t>(j)] && s(j) <= 0) {
          alpha = std::min(alpha, x(j) / (x(j) - s(j)));
        }
      }
      if (alpha > 1) break;  // every passive entry positive
      x += alpha * (s - x);
      for (Eigen::Index j = 0; j < n; ++j) {
        if (passive[static_cast<std::size_t>(j)] && x(j) <= 1e-15 * std::max(1.0, x.norm())) {
          passive[static_cast<std::size_t>(j)] = false;
          x(j) = 0;
        }
      }
      s = SolvePassive(a, b, passive);
    }
    x = s;
  }

  NnlsSolution out;
  out.iterations = iterations;
  out.residual_norm = (a * x - b).norm();
  out.x.resize(dense.cols);
  for (Eigen::Index c = 0; c < n; ++c) {
    out.x[static_cast<std::size_t>(c)] = std::max(0.0, x(c)) / scale(c);
  }
  return out;
}

}  // namespace perfplan::models
