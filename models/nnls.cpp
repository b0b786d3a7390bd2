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

// The normal equations' matrices, on the stack: SolveNnlsNormal serves small problems solved
// many times over (a leave-one-out), where heap allocations would cost more than the solves.
constexpr Eigen::Index kMaxNormalColumns = 16;
using SmallMatrix =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxNormalColumns, kMaxNormalColumns>;
using SmallVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxNormalColumns, 1>;

// The same from the normal equations: G_PP · z = c_P, by pivoted LDLᵀ (G_PP is symmetric positive
// semi-definite; a zero pivot gives a zero entry, a least-squares answer, as the QR above does).
SmallVector SolvePassiveNormal(const SmallMatrix& g, const SmallVector& c,
                               const std::vector<bool>& passive) {
  Eigen::Index cols[kMaxNormalColumns];
  Eigen::Index p = 0;
  for (std::size_t j = 0; j < passive.size(); ++j) {
    if (passive[j]) cols[p++] = static_cast<Eigen::Index>(j);
  }
  SmallMatrix sub(p, p);
  SmallVector rhs(p);
  for (Eigen::Index r = 0; r < p; ++r) {
    rhs(r) = c(cols[r]);
    for (Eigen::Index k = 0; k < p; ++k) sub(r, k) = g(cols[r], cols[k]);
  }
  const SmallVector z = sub.ldlt().solve(rhs);
  SmallVector s = SmallVector::Zero(g.cols());
  for (Eigen::Index k = 0; k < p; ++k) s(cols[k]) = z(k);
  return s;
}

// Lawson–Hanson's iterations on unit-norm columns, whatever holds the problem: dual(x) is
// Aᵀ(b − A·x) and solve(passive) the least squares on the passive columns. Returns x (scaled).
template <typename Vector, typename Dual, typename Solve>
Result<Vector> LawsonHanson(Eigen::Index n, double tol, std::size_t max_iterations, Dual dual,
                            Solve solve, std::size_t* iterations_used) {
  std::vector<bool> passive(static_cast<std::size_t>(n), false);
  Vector x = Vector::Zero(n);
  std::size_t iterations = 0;
  while (true) {
    const Vector w = dual(x);
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
    Vector s = solve(passive);
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
      s = solve(passive);
    }
    x = s;
  }
  *iterations_used = iterations;
  return x;
}

std::size_t MaxIterations(const NnlsOptions& options, std::size_t cols) {
  return options.max_iterations > 0 ? options.max_iterations : 3 * cols + 10;
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
  NnlsSolution out;
  Result<Eigen::VectorXd> x = LawsonHanson<Eigen::VectorXd>(
      n, options.tolerance * std::max(1.0, b.norm()), MaxIterations(options, dense.cols),
      [&](const Eigen::VectorXd& x) -> Eigen::VectorXd { return a.transpose() * (b - a * x); },
      [&](const std::vector<bool>& passive) { return SolvePassive(a, b, passive); },
      &out.iterations);
  if (!x.ok()) return x.status();
  out.residual_norm = (a * x.value() - b).norm();
  out.x.resize(dense.cols);
  for (Eigen::Index c = 0; c < n; ++c) {
    out.x[static_cast<std::size_t>(c)] = std::max(0.0, x.value()(c)) / scale(c);
  }
  return out;
}

Result<NnlsSolution> SolveNnlsNormal(const NormalEquations& normal, const NnlsOptions& options) {
  const std::size_t cols = normal.cols;
  if (cols == 0 || cols > static_cast<std::size_t>(kMaxNormalColumns) ||
      normal.gram.size() != cols * cols || normal.atb.size() != cols) {
    return Status::InvalidArgument("nnls: sizes disagree: " + std::to_string(cols) +
                                   " columns (1 to " + std::to_string(kMaxNormalColumns) +
                                   ") with a Gram matrix of " + std::to_string(normal.gram.size()) +
                                   " values and " + std::to_string(normal.atb.size()) +
                                   " right-side values");
  }
  const auto n = static_cast<Eigen::Index>(cols);
  SmallMatrix g(n, n);
  SmallVector c(n);
  for (Eigen::Index r = 0; r < n; ++r) {
    c(r) = normal.atb[static_cast<std::size_t>(r)];
    for (Eigen::Index k = 0; k < n; ++k) {
      g(r, k) = normal.gram[static_cast<std::size_t>(r) * cols + static_cast<std::size_t>(k)];
    }
  }
  if (!g.allFinite() || !c.allFinite() || !std::isfinite(normal.btb)) {
    return Status::InvalidArgument("nnls: normal equations are not finite");
  }
  // The same unit-norm columns as SolveNnls: ‖A_j‖ = √G_jj.
  SmallVector scale(n);
  for (Eigen::Index j = 0; j < n; ++j) scale(j) = g(j, j) > 0 ? std::sqrt(g(j, j)) : 1.0;
  for (Eigen::Index r = 0; r < n; ++r) {
    c(r) /= scale(r);
    for (Eigen::Index k = 0; k < n; ++k) g(r, k) /= scale(r) * scale(k);
  }
  NnlsSolution out;
  Result<SmallVector> x = LawsonHanson<SmallVector>(
      n, options.tolerance * std::max(1.0, std::sqrt(std::max(0.0, normal.btb))),
      MaxIterations(options, cols), [&](const SmallVector& x) -> SmallVector { return c - g * x; },
      [&](const std::vector<bool>& passive) { return SolvePassiveNormal(g, c, passive); },
      &out.iterations);
  if (!x.ok()) return x.status();
  const SmallVector& v = x.value();
  out.residual_norm = std::sqrt(std::max(0.0, normal.btb - 2 * v.dot(c) + v.dot(g * v)));
  out.x.resize(cols);
  for (Eigen::Index j = 0; j < n; ++j) {
    out.x[static_cast<std::size_t>(j)] = std::max(0.0, v(j)) / scale(j);
  }
  return out;
}

void NormalEquations::Add(const double* row, double b, double weight) {
  for (std::size_t r = 0; r < cols; ++r) {
    atb[r] += weight * row[r] * b;
    for (std::size_t k = 0; k < cols; ++k) gram[r * cols + k] += weight * row[r] * row[k];
  }
  btb += weight * b * b;
}

void NormalEquations::Add(const NormalEquations& other) {
  for (std::size_t k = 0; k < gram.size(); ++k) gram[k] += other.gram[k];
  for (std::size_t k = 0; k < atb.size(); ++k) atb[k] += other.atb[k];
  btb += other.btb;
}

}  // namespace perfplan::models
