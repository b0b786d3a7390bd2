#include "models/nnls.h"

#include <doctest/doctest.h>

#include <cmath>

namespace perfplan::models {
namespace {

// Exact data solve to rounding: QR on unit-norm columns loses a few digits at most.
constexpr double kExactTolerance = 1e-9;

DenseMatrix Matrix(std::size_t rows, std::size_t cols, std::vector<double> values) {
  return DenseMatrix{rows, cols, std::move(values)};
}

TEST_CASE("NNLS recovers non-negative coefficients of exact data") {
  // Columns of very different scale (1e9 next to 1), as in the runtime fit.
  const double x_true[3] = {2e-9, 0.5, 30};
  DenseMatrix a{6, 3, {}};
  std::vector<double> b;
  const double s[6] = {1e9, 2e9, 4e9, 1e9, 8e9, 3e9};
  const double c[6] = {1, 2, 4, 8, 3, 5};
  for (int i = 0; i < 6; ++i) {
    const double row[3] = {s[i], c[i] * c[i], 1};
    for (double v : row) a.values.push_back(v);
    b.push_back(x_true[0] * row[0] + x_true[1] * row[1] + x_true[2] * row[2]);
  }
  Result<NnlsSolution> r = SolveNnls(a, b);
  REQUIRE(r.ok());
  for (int k = 0; k < 3; ++k) {
    CAPTURE(k);
    CHECK(std::abs(r.value().x[k] - x_true[k]) <= kExactTolerance * x_true[k]);
  }
  CHECK(r.value().residual_norm < 1e-8);
}

TEST_CASE("NNLS clamps a coefficient that least squares makes negative") {
  // Unconstrained solution of the identity system is (1, -2); NNLS gives (1, 0).
  Result<NnlsSolution> r = SolveNnls(Matrix(2, 2, {1, 0, 0, 1}), {1, -2});
  REQUIRE(r.ok());
  CHECK(r.value().x[0] == doctest::Approx(1));
  CHECK(r.value().x[1] == 0);
  CHECK(r.value().residual_norm == doctest::Approx(2));
}

TEST_CASE("NNLS solves a textbook problem whose active set changes during the iteration") {
  // min ||A x - b|| with A = [[1,1],[1,2],[1,3]], b = [3, 2, 1]: unconstrained x = (4, -1);
  // with x >= 0 the answer is x = (2, 0) (mean of b on the constant column).
  Result<NnlsSolution> r = SolveNnls(Matrix(3, 2, {1, 1, 1, 2, 1, 3}), {3, 2, 1});
  REQUIRE(r.ok());
  CHECK(r.value().x[0] == doctest::Approx(2));
  CHECK(r.value().x[1] == 0);
}

TEST_CASE("NNLS gives zero to a column of zeros and to a duplicated column") {
  Result<NnlsSolution> r = SolveNnls(Matrix(3, 3, {1, 0, 1, 2, 0, 2, 3, 0, 3}), {2, 4, 6});
  REQUIRE(r.ok());
  CHECK(r.value().x[0] + r.value().x[2] == doctest::Approx(2));
  CHECK(r.value().x[1] == 0);
}

TEST_CASE("NNLS rejects sizes that disagree and non-finite input") {
  CHECK(SolveNnls(Matrix(2, 2, {1, 0, 0, 1}), {1}).status().message() ==
        "nnls: sizes disagree: matrix 2x2 with 4 values, right side 1");
  CHECK(SolveNnls(Matrix(0, 0, {}), {}).status().message() ==
        "nnls: the matrix needs at least 1 row and 1 column, got 0x0");
  CHECK(SolveNnls(Matrix(1, 1, {NAN}), {1}).status().message() == "nnls: matrix is not finite");
}

NormalEquations Normal(const DenseMatrix& a, const std::vector<double>& b) {
  NormalEquations eq(a.cols);
  for (std::size_t r = 0; r < a.rows; ++r) eq.Add(&a.values[r * a.cols], b[r]);
  return eq;
}

TEST_CASE("NNLS from the normal equations solves as from the matrix") {
  // Exact data with columns of very different scale, an active constraint, collinear columns
  // (the lowest index carries the shared term) and noise.
  const std::vector<std::pair<DenseMatrix, std::vector<double>>> problems = {
      {Matrix(4, 3, {1e9, 1, 1, 2e9, 4, 1, 4e9, 16, 1, 8e9, 3, 1}), {32, 34, 38, 49}},
      {Matrix(3, 2, {1, 1, 1, 2, 1, 3}), {3, 2, 1}},
      {Matrix(3, 3, {1, 0, 1, 2, 0, 2, 3, 0, 3}), {2, 4, 6}},
      {Matrix(5, 2, {1, 1, 1, 2, 1, 3, 1, 4, 1, 5}), {2.1, 2.9, 4.2, 4.8, 6.1}}};
  for (const auto& [a, b] : problems) {
    Result<NnlsSolution> direct = SolveNnls(a, b);
    Result<NnlsSolution> normal = SolveNnlsNormal(Normal(a, b));
    REQUIRE(direct.ok());
    REQUIRE(normal.ok());
    for (std::size_t j = 0; j < a.cols; ++j) {
      CAPTURE(j);
      CHECK(normal.value().x[j] ==
            doctest::Approx(direct.value().x[j]).epsilon(kExactTolerance).scale(1e-12));
      CHECK((normal.value().x[j] == 0) == (direct.value().x[j] == 0));
    }
    CHECK(normal.value().residual_norm ==
          doctest::Approx(direct.value().residual_norm).epsilon(1e-6).scale(1e-6));
  }
}

TEST_CASE("normal equations: a row added then removed leaves the others' problem") {
  const DenseMatrix a = Matrix(3, 2, {1, 1, 1, 2, 1, 3});
  NormalEquations eq = Normal(a, {3, 2, 1});
  const double extra[2] = {1, 10};
  eq.Add(extra, 7);
  eq.Add(extra, 7, -1);
  const NormalEquations plain = Normal(a, {3, 2, 1});
  for (std::size_t k = 0; k < eq.gram.size(); ++k)
    CHECK(eq.gram[k] == doctest::Approx(plain.gram[k]));
  CHECK(eq.btb == doctest::Approx(plain.btb));
}

TEST_CASE("NNLS from the normal equations rejects sizes that disagree and non-finite input") {
  NormalEquations bad(2);
  bad.atb.pop_back();
  CHECK(SolveNnlsNormal(bad).status().message() ==
        "nnls: sizes disagree: 2 columns (1 to 16) with a Gram matrix of 4 values and 1 "
        "right-side values");
  NormalEquations nan(1);
  nan.gram[0] = NAN;
  CHECK(SolveNnlsNormal(nan).status().message() == "nnls: normal equations are not finite");
}

}  // namespace
}  // namespace perfplan::models
