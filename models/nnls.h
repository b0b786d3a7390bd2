// Non-negative least squares: minimize ||A·x − b||² subject to x ≥ 0 (Lawson & Hanson, "Solving
// Least Squares Problems", 1974, algorithm NNLS, chapter 23).
//
// Used by the runtime-model fit (models/runtime_fit.h) and the Ernest and Amdahl baselines. Plain
// row-major storage keeps Eigen out of this header. Columns are scaled to unit norm internally, so
// features of very different magnitude (bytes per node next to a constant 1) solve reliably.
// Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <vector>

#include "models/status.h"

namespace perfplan::models {

// A dense matrix, row-major: element (r, c) is values[r * cols + c].
struct DenseMatrix {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> values;
  double& At(std::size_t r, std::size_t c) { return values[r * cols + c]; }
  double At(std::size_t r, std::size_t c) const { return values[r * cols + c]; }
};

struct NnlsOptions {
  // Upper bound on outer iterations (columns entering the passive set). Default 0 means 3·cols,
  // Lawson–Hanson's own bound; the algorithm converges well within it for any well-posed input.
  std::size_t max_iterations = 0;
  // A dual value w_j (gradient of the objective, on unit-norm columns) must exceed this, relative
  // to ||b||, for column j to enter. Default 1e-10; raise it only for very noisy tiny problems.
  double tolerance = 1e-10;
};

struct NnlsSolution {
  std::vector<double> x;       // cols values, each >= 0
  double residual_norm = 0;    // ||A·x − b||
  std::size_t iterations = 0;  // outer iterations used
};

// Solves the problem. When several columns tie for entering the passive set (equal up to a relative
// 1e-9, e.g. collinear columns), the lowest-index one enters: callers order columns by preference.
// Fails (InvalidArgument) when the sizes disagree, A has no rows or columns, or an entry is not
// finite; fails (Failed) when the iteration limit is hit. A column of zeros gets x_j = 0.
Result<NnlsSolution> SolveNnls(const DenseMatrix& a, const std::vector<double>& b,
                               const NnlsOptions& options = {});

// The problem given by its normal equations: gram = AᵀA (cols × cols, row-major), atb = Aᵀb,
// btb = bᵀb. Add() accumulates a row (weight 1; −1 takes one out, at the cost of cancellation
// when that row dominates a column: summing the rows kept is exact to rounding), so a problem that
// differs from another by a few rows (a run left out, a bound pinned) costs O(cols²) per row to
// set up instead of a pass over A.
struct NormalEquations {
  explicit NormalEquations(std::size_t columns)
      : cols(columns), gram(columns * columns, 0.0), atb(columns, 0.0) {}
  void Add(const double* row, double b, double weight = 1);
  // Adds every row of `other` (same cols): the normal equations of the two row sets together.
  void Add(const NormalEquations& other);

  std::size_t cols;
  std::vector<double> gram;
  std::vector<double> atb;
  double btb = 0;
};

// Lawson–Hanson's iterations, as SolveNnls (same tie rule, tolerance and safeguards), on the
// normal equations: each step costs O(cols³) whatever the row count, for up to 16 columns.
// Squares A's condition number, so results agree with SolveNnls's to fewer digits: the runtime
// fits' leave-one-out scores agree with refits through SolveNnls to 5e-13 relative on the Scout
// data (docs/performance.md, "Runtime model at scale"). For problems solved many times with a
// row changed. Fails (InvalidArgument) when the sizes disagree or an entry is not finite.
Result<NnlsSolution> SolveNnlsNormal(const NormalEquations& normal,
                                     const NnlsOptions& options = {});

}  // namespace perfplan::models
