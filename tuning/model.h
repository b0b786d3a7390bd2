// Config-sensitivity regression models (DESIGN §3.6): predict one metric from configuration
// parameters.
//
// A Model holds its kind, hyper-parameters, the training statistics used to standardize the
// features (and the target), the feature metadata (names, units, ranges) and the fitted state
// (libsvm support vectors, or ridge weights). Model kinds: libsvm ε-SVR with RBF, linear and
// polynomial kernels, ν-SVR (RBF), ridge regression and degree-2 polynomial ridge on Eigen, the
// Gaussian process of `tune next` (tuning/gaussian_process.h) on at most kGpMaxRuns training
// runs, and the mean predictor as the baseline every model must beat. libsvm types never leave
// model.cpp.
//
// Models are immutable after Fit/Load; a const Model may be used from many threads (libsvm's
// prediction only reads the model). Fit is deterministic: same data and parameters, same model.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "tuning/dataset.h"
#include "tuning/failure.h"

namespace perfplan::tuning {

enum class ModelKind {
  kEpsSvrRbf,     // "eps-svr-rbf"
  kEpsSvrLinear,  // "eps-svr-linear"
  kEpsSvrPoly,    // "eps-svr-poly"
  kNuSvrRbf,      // "nu-svr-rbf"
  kRidge,         // "ridge"
  kPolyRidge,     // "poly-ridge": ridge on degree-2 terms (squares and pairwise products)
  kGaussianProcess,  // "gaussian-process": length scale and noise by marginal likelihood
  kMean,          // "mean": predicts the training mean; the baseline to beat
};

std::string_view ToString(ModelKind kind);
// Parses the strings above; false (and *kind untouched) for anything else.
bool Parse(std::string_view text, ModelKind* kind);
// Every kind, in the order reports list them.
const std::vector<ModelKind>& AllModelKinds();

// Hyper-parameters. Each kind reads only its own fields. Values refer to standardized features
// and a standardized target, so they are comparable across data sets.
struct HyperParams {
  double c = 1.0;        // SVR: penalty C (> 0)
  double gamma = 0.0;    // SVR rbf/poly: kernel width; 0 = 1 / (number of features)
  double epsilon = 0.1;  // ε-SVR: insensitive-tube half width, in target standard deviations
  double nu = 0.5;       // ν-SVR: fraction bound in (0, 1]
  int degree = 2;        // poly kernel degree (>= 1)
  double coef0 = 1.0;    // poly kernel constant
  double lambda = 1.0;   // ridge / poly-ridge: L2 penalty (>= 0)

  // InvalidArgument naming the field and value when out of range.
  Status Validate() const;
};

// Solver settings that are not searched.
struct SolverOptions {
  double tolerance = 1e-3;  // libsvm stopping tolerance (svm_parameter.eps); sklearn's tol
  double cache_mb = 200;    // libsvm kernel cache in MiB
  bool shrinking = true;    // libsvm shrinking heuristic
};

class Model {
 public:
  // Fits `kind` on rows `rows` of `data` (all rows when empty). Standardization statistics come
  // from those rows only (population standard deviation, as scikit-learn's StandardScaler).
  // Fails with InvalidArgument on bad hyper-parameters or libsvm's own parameter check message;
  // with Failed if the solver fails.
  static Result<Model> Fit(const Dataset& data, ModelKind kind, const HyperParams& params,
                           const SolverOptions& solver = {},
                           const std::vector<std::size_t>& rows = {});

  // Fits `kind` once for each of `path` (same rows), sharing the work that does not depend on
  // the hyper-parameters: for ridge and poly-ridge the Gram matrix, so a grid of λ costs about
  // one fit. Each model equals Fit's with the same parameters (bit-identical). InvalidArgument
  // for an empty path; otherwise Fit's errors.
  static Result<std::vector<Model>> FitPath(const Dataset& data, ModelKind kind,
                                            const std::vector<HyperParams>& path,
                                            const SolverOptions& solver = {},
                                            const std::vector<std::size_t>& rows = {});

  // Prediction of the target (original units) for one configuration in original units, one
  // value per feature in features() order. Size mismatch is a programming error (asserted).
  double Predict(const std::vector<double>& x) const;
  // Predictions for many configurations at once (rows of `xs`), written to *out. Uses dense
  // matrix products for the SVR kernels, several times faster than row-by-row libsvm calls;
  // results equal Predict() up to floating-point summation order (~1e-12 relative).
  void PredictBatch(const std::vector<std::vector<double>>& xs, std::vector<double>* out) const;

  ModelKind kind() const;
  const HyperParams& params() const;
  const std::string& target() const;
  const std::vector<Feature>& features() const;
  std::size_t support_vectors() const;  // 0 for non-SVR kinds
  std::size_t training_runs() const;
  // Smallest and largest measured target among the training runs.
  double target_min() const;
  double target_max() const;

  // Set by the caller after cross-validation and kept in the saved file.
  double cv_mre() const;
  void set_cv_mre(double mre);
  // The reference configuration (by default the first training run: e.g. Spark's defaults in
  // BestConf files) used by sensitivity and recommendation when no other is given.
  const std::vector<double>& baseline() const;
  void set_baseline(std::vector<double> x);
  // The failure model trained beside it from the failed runs (tuning/failure.h), kept in the
  // saved file so a saved model's recommendations stay failure-aware; nullptr when the data had
  // no failed runs (and in files written before issue 21 added it).
  const FailureModel* failure() const;
  void set_failure(FailureModel failure);

  // Writes the model as a versioned JSON document (format "perfplan-tuning-model", version
  // kFormatVersion) with a checksum. Numbers round-trip exactly, so a loaded model predicts
  // bit-identically. Failed when the file cannot be written.
  Status Save(const std::string& path) const;
  // Reads a saved model. InvalidArgument, naming the file and what is wrong, for an unreadable
  // or corrupted file (bad JSON, checksum mismatch, missing or inconsistent fields) or another
  // format version.
  static Result<Model> Load(const std::string& path);
  static constexpr int kFormatVersion = 1;

  struct State;  // defined in model.cpp

 private:
  explicit Model(std::shared_ptr<const State> state) : state_(std::move(state)) {}
  std::shared_ptr<const State> state_;
  double cv_mre_ = -1;
  std::vector<double> baseline_;
  std::optional<FailureModel> failure_;
};

// Number of terms poly-ridge expands `features` parameters into (linear + squares + products),
// and the largest expansion Fit accepts (memory grows with runs x terms).
std::size_t PolyTerms(std::size_t features);
constexpr std::size_t kMaxPolyRidgeTerms = 20000;

// The Gaussian process trains on at most this many runs (its cost is a Cholesky factorisation
// of runs² entries per grid point, i.e. runs³): with more, on a seeded subset of that many of
// the training runs ("subset of data"), its length scale and noise chosen by the marginal
// likelihood of that subset only.
constexpr std::size_t kGpMaxRuns = 400;

// Mean relative error: mean over runs of |y - ŷ| / |y|. InvalidArgument when sizes differ, the
// input is empty, or some y is 0 (relative error undefined; the message says which index).
Result<double> MeanRelativeError(const std::vector<double>& y, const std::vector<double>& y_hat);

}  // namespace perfplan::tuning
