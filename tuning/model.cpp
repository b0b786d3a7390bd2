#include "tuning/model.h"

#include <svm.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "models/fnv1a.h"
#include "models/input_file.h"
#include "models/json_fields.h"
#include "models/json_text.h"
#include "models/random.h"
#include "tuning/gaussian_process.h"

namespace perfplan::tuning {

using Json = nlohmann::json;

namespace {

void SilentPrint(const char*) {}

// libsvm prints its training log to stdout by default; the hook is process-wide.
void SilenceLibsvm() {
  static std::once_flag once;
  std::call_once(once, [] { svm_set_print_string_function(&SilentPrint); });
}

struct KindName {
  ModelKind kind;
  std::string_view name;
};
constexpr KindName kKindNames[] = {
    {ModelKind::kEpsSvrRbf, "eps-svr-rbf"},
    {ModelKind::kEpsSvrLinear, "eps-svr-linear"},
    {ModelKind::kEpsSvrPoly, "eps-svr-poly"},
    {ModelKind::kNuSvrRbf, "nu-svr-rbf"},
    {ModelKind::kRidge, "ridge"},
    {ModelKind::kPolyRidge, "poly-ridge"},
    {ModelKind::kGaussianProcess, "gaussian-process"},
    {ModelKind::kMean, "mean"},
};

bool IsSvr(ModelKind k) {
  return k == ModelKind::kEpsSvrRbf || k == ModelKind::kEpsSvrLinear ||
         k == ModelKind::kEpsSvrPoly || k == ModelKind::kNuSvrRbf;
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

std::size_t PolyTerms(std::size_t features) { return features + features * (features + 1) / 2; }

std::string_view ToString(ModelKind kind) {
  for (const auto& k : kKindNames) {
    if (k.kind == kind) return k.name;
  }
  return "?";
}

bool Parse(std::string_view text, ModelKind* kind) {
  for (const auto& k : kKindNames) {
    if (k.name == text) {
      *kind = k.kind;
      return true;
    }
  }
  return false;
}

const std::vector<ModelKind>& AllModelKinds() {
  static const std::vector<ModelKind> kAll = {
      ModelKind::kEpsSvrRbf, ModelKind::kEpsSvrLinear, ModelKind::kEpsSvrPoly, ModelKind::kNuSvrRbf,
      ModelKind::kRidge,     ModelKind::kPolyRidge,    ModelKind::kGaussianProcess,
      ModelKind::kMean};
  return kAll;
}

Status HyperParams::Validate() const {
  auto bad = [](const char* field, double v, const char* expected) {
    return Status::InvalidArgument(std::string(field) + ": " + Num(v) + "; expected " + expected);
  };
  if (!(c > 0) || !std::isfinite(c)) return bad("C", c, "a finite value > 0");
  if (!(gamma >= 0) || !std::isfinite(gamma)) return bad("gamma", gamma, ">= 0 (0 = 1/features)");
  if (!(epsilon >= 0) || !std::isfinite(epsilon)) return bad("epsilon", epsilon, ">= 0");
  if (!(nu > 0 && nu <= 1)) return bad("nu", nu, "a value in (0, 1]");
  if (degree < 1 || degree > 10) return bad("degree", degree, "an integer in [1, 10]");
  if (!std::isfinite(coef0)) return bad("coef0", coef0, "a finite value");
  if (!(lambda >= 0) || !std::isfinite(lambda)) return bad("lambda", lambda, ">= 0");
  return Status::Ok();
}

struct Model::State {
  ModelKind kind = ModelKind::kMean;
  HyperParams params;
  SolverOptions solver;
  std::string target;
  std::vector<Feature> features;
  std::size_t runs = 0;
  std::vector<double> x_mean, x_sd;
  double y_mean = 0, y_sd = 1;
  double y_min = 0, y_max = 0;
  // SVR: dense support vectors over standardized features, their coefficients and rho.
  std::vector<std::vector<double>> sv;
  std::vector<double> sv_coef;
  double rho = 0;
  // Ridge: weights over standardized (and, for poly-ridge, expanded and centered) features.
  std::vector<double> weights;
  std::vector<double> poly_mean;
  // Gaussian process: its training runs (original units), the feature ranges that scale them,
  // the hyper-parameters chosen on them, and the process (rebuilt from these on load).
  std::vector<std::vector<double>> gp_x;
  std::vector<double> gp_y, gp_min, gp_max;
  GpHyperParams gp_hyper;
  std::optional<GaussianProcess> gp;

  // A libsvm view over sv/sv_coef/rho for svm_predict. Built once; State is never copied after.
  std::vector<svm_node> nodes;
  std::vector<svm_node*> sv_rows;
  std::vector<double*> coef_rows;
  svm_model view{};

  // Dense copies for PredictBatch.
  Eigen::MatrixXd sv_dense;
  Eigen::VectorXd sv_sq_norm;
  Eigen::VectorXd coef_dense;

  void BuildView() {
    const std::size_t d = features.size();
    sv_dense.resize(static_cast<Eigen::Index>(sv.size()), static_cast<Eigen::Index>(d));
    for (std::size_t i = 0; i < sv.size(); ++i) {
      for (std::size_t j = 0; j < d; ++j) sv_dense(i, j) = sv[i][j];
    }
    sv_sq_norm = sv_dense.rowwise().squaredNorm();
    coef_dense = Eigen::Map<const Eigen::VectorXd>(sv_coef.data(),
                                                   static_cast<Eigen::Index>(sv_coef.size()));
    nodes.assign(sv.size() * (d + 1), svm_node{});
    sv_rows.assign(sv.size(), nullptr);
    for (std::size_t i = 0; i < sv.size(); ++i) {
      svm_node* row = &nodes[i * (d + 1)];
      for (std::size_t j = 0; j < d; ++j) row[j] = {static_cast<int>(j + 1), sv[i][j]};
      row[d] = {-1, 0.0};
      sv_rows[i] = row;
    }
    coef_rows = {sv_coef.data()};
    view = svm_model{};
    view.param = LibsvmParam();
    view.nr_class = 2;
    view.l = static_cast<int>(sv.size());
    view.SV = sv_rows.data();
    view.sv_coef = coef_rows.data();
    view.rho = &rho;
    view.free_sv = 0;
  }

  svm_parameter LibsvmParam() const {
    svm_parameter p{};
    p.svm_type = kind == ModelKind::kNuSvrRbf ? NU_SVR : EPSILON_SVR;
    p.kernel_type = kind == ModelKind::kEpsSvrLinear ? LINEAR
                    : kind == ModelKind::kEpsSvrPoly ? POLY
                                                     : RBF;
    p.degree = params.degree;
    p.gamma = params.gamma;
    p.coef0 = params.coef0;
    p.cache_size = solver.cache_mb;
    p.eps = solver.tolerance;
    p.C = params.c;
    p.nr_weight = 0;
    p.weight_label = nullptr;
    p.weight = nullptr;
    p.nu = params.nu;
    p.p = params.epsilon;
    p.shrinking = solver.shrinking ? 1 : 0;
    p.probability = 0;
    return p;
  }

  // Standardized features (and the degree-2 expansion for poly-ridge).
  void Standardize(const std::vector<double>& x, std::vector<double>* out) const {
    out->resize(x.size());
    for (std::size_t j = 0; j < x.size(); ++j) (*out)[j] = (x[j] - x_mean[j]) / x_sd[j];
  }
  static void Expand(const std::vector<double>& z, std::vector<double>* out) {
    out->assign(z.begin(), z.end());
    for (std::size_t i = 0; i < z.size(); ++i) {
      for (std::size_t j = i; j < z.size(); ++j) out->push_back(z[i] * z[j]);
    }
  }

  double PredictStandardized(const std::vector<double>& z) const {
    switch (kind) {
      case ModelKind::kMean:
        return 0.0;
      case ModelKind::kRidge: {
        double s = 0;
        for (std::size_t j = 0; j < z.size(); ++j) s += weights[j] * z[j];
        return s;
      }
      case ModelKind::kPolyRidge: {
        std::vector<double> phi;
        Expand(z, &phi);
        double s = 0;
        for (std::size_t j = 0; j < phi.size(); ++j) s += weights[j] * (phi[j] - poly_mean[j]);
        return s;
      }
      default: {
        std::vector<svm_node> q(z.size() + 1);
        for (std::size_t j = 0; j < z.size(); ++j) q[j] = {static_cast<int>(j + 1), z[j]};
        q[z.size()] = {-1, 0.0};
        return svm_predict(&view, q.data());
      }
    }
  }
};

namespace {

// Ridge on rows of `a` (n x p) against centered target t for each of `lambdas`: primal when
// p <= n, dual otherwise. The Gram matrix (the cost: n·p² or n²·p) is formed once for all λ.
std::vector<std::vector<double>> SolveRidgePath(const Eigen::MatrixXd& a, const Eigen::VectorXd& t,
                                                const std::vector<double>& lambdas) {
  const Eigen::Index n = a.rows(), p = a.cols();
  const bool primal = p <= n;
  const Eigen::MatrixXd gram = primal ? Eigen::MatrixXd(a.transpose() * a)
                                      : Eigen::MatrixXd(a * a.transpose());
  const Eigen::VectorXd rhs = primal ? Eigen::VectorXd(a.transpose() * t) : t;
  std::vector<std::vector<double>> out;
  for (double lambda : lambdas) {
    // A tiny floor keeps the system solvable when lambda = 0 and columns are collinear.
    const double reg = std::max(lambda, 1e-10);
    Eigen::MatrixXd m = gram;
    m.diagonal().array() += reg;
    const Eigen::VectorXd w =
        primal ? Eigen::VectorXd(m.ldlt().solve(rhs)) : Eigen::VectorXd(a.transpose() * m.ldlt().solve(rhs));
    out.emplace_back(w.data(), w.data() + w.size());
  }
  return out;
}

// The Gaussian process on `rows` (at most kGpMaxRuns of them, a seeded subset when more), its
// features scaled by their range over those rows: nothing of the held-out runs is seen.
Status FitGaussianProcess(const Dataset& data, std::vector<std::size_t> rows, Model::State* state) {
  if (rows.size() > kGpMaxRuns) {
    models::Rng rng(rows.size());
    rng.Shuffle(rows);
    rows.resize(kGpMaxRuns);
    std::sort(rows.begin(), rows.end());
  }
  const std::size_t d = data.features.size();
  state->gp_min.assign(d, 0.0);
  state->gp_max.assign(d, 0.0);
  for (std::size_t j = 0; j < d; ++j) {
    state->gp_min[j] = state->gp_max[j] = data.x[rows[0]][j];
  }
  for (std::size_t r : rows) {
    state->gp_x.push_back(data.x[r]);
    state->gp_y.push_back(data.y[r]);
    for (std::size_t j = 0; j < d; ++j) {
      state->gp_min[j] = std::min(state->gp_min[j], data.x[r][j]);
      state->gp_max[j] = std::max(state->gp_max[j], data.x[r][j]);
    }
  }
  std::vector<Feature> features = data.features;
  for (std::size_t j = 0; j < d; ++j) {
    features[j].min = state->gp_min[j];
    features[j].max = state->gp_max[j];
  }
  Result<GaussianProcess> gp = GaussianProcess::Fit(features, state->gp_x, state->gp_y);
  if (!gp.ok()) return gp.status();
  state->gp_hyper = {gp.value().length_scale(), gp.value().noise()};
  state->gp = std::move(gp).value();
  return Status::Ok();
}

}  // namespace

Result<Model> Model::Fit(const Dataset& data, ModelKind kind, const HyperParams& params,
                         const SolverOptions& solver, const std::vector<std::size_t>& rows) {
  Result<std::vector<Model>> models = FitPath(data, kind, {params}, solver, rows);
  if (!models.ok()) return models.status();
  return std::move(models.value().front());
}

Result<std::vector<Model>> Model::FitPath(const Dataset& data, ModelKind kind,
                                          const std::vector<HyperParams>& path,
                                          const SolverOptions& solver,
                                          const std::vector<std::size_t>& rows_in) {
  if (path.empty()) return Status::InvalidArgument("no hyper-parameters to fit");
  for (const HyperParams& p : path) {
    if (Status s = p.Validate(); !s.ok()) return s;
  }
  const HyperParams& params_in = path.front();
  std::vector<std::size_t> rows = rows_in;
  if (rows.empty()) {
    for (std::size_t i = 0; i < data.runs(); ++i) rows.push_back(i);
  }
  const std::size_t n = rows.size(), d = data.features.size();
  if (n < 2) return Status::InvalidArgument("a model needs at least 2 training runs");
  if (kind == ModelKind::kPolyRidge && PolyTerms(d) > kMaxPolyRidgeTerms) {
    return Status::InvalidArgument("poly-ridge on " + std::to_string(d) + " parameters needs " +
                                   std::to_string(PolyTerms(d)) + " terms, more than " +
                                   std::to_string(kMaxPolyRidgeTerms) +
                                   "; use another kind or fewer parameters");
  }
  auto state = std::make_shared<State>();
  state->kind = kind;
  state->params = params_in;
  state->solver = solver;
  state->target = data.target;
  state->features = data.features;
  state->runs = n;
  if (state->params.gamma == 0) state->params.gamma = 1.0 / static_cast<double>(d);

  // Training statistics: mean and population standard deviation (ddof = 0).
  state->x_mean.assign(d, 0.0);
  state->x_sd.assign(d, 0.0);
  for (std::size_t r : rows) {
    for (std::size_t j = 0; j < d; ++j) state->x_mean[j] += data.x[r][j];
    state->y_mean += data.y[r];
  }
  for (std::size_t j = 0; j < d; ++j) state->x_mean[j] /= static_cast<double>(n);
  state->y_mean /= static_cast<double>(n);
  double y_var = 0;
  for (std::size_t r : rows) {
    for (std::size_t j = 0; j < d; ++j) {
      const double dx = data.x[r][j] - state->x_mean[j];
      state->x_sd[j] += dx * dx;
    }
    y_var += (data.y[r] - state->y_mean) * (data.y[r] - state->y_mean);
  }
  // A feature constant within this subset (possible inside a CV fold) standardizes to 0.
  for (double& s : state->x_sd) {
    s = std::sqrt(s / static_cast<double>(n));
    if (s == 0) s = 1;
  }
  state->y_sd = std::sqrt(y_var / static_cast<double>(n));
  if (state->y_sd == 0) state->y_sd = 1;

  state->y_min = state->y_max = data.y[rows[0]];
  for (std::size_t r : rows) {
    state->y_min = std::min(state->y_min, data.y[r]);
    state->y_max = std::max(state->y_max, data.y[r]);
  }
  std::vector<std::vector<double>> z(n);
  std::vector<double> t(n);
  for (std::size_t i = 0; i < n; ++i) {
    state->Standardize(data.x[rows[i]], &z[i]);
    t[i] = (data.y[rows[i]] - state->y_mean) / state->y_sd;
  }

  if (kind == ModelKind::kGaussianProcess) {
    if (Status s = FitGaussianProcess(data, rows, state.get()); !s.ok()) return s;
    std::vector<Model> out;
    for (const HyperParams& p : path) {  // nothing searched depends on the HyperParams
      auto fitted = std::make_shared<State>(*state);
      fitted->params = p;
      if (fitted->params.gamma == 0) fitted->params.gamma = 1.0 / static_cast<double>(d);
      out.push_back(Model(std::move(fitted)));
    }
    return out;
  }
  if (IsSvr(kind) && path.size() > 1) {
    // No shared work between SVR fits: one Fit each (the statistics above are recomputed).
    std::vector<Model> out;
    for (const HyperParams& p : path) {
      Result<Model> m = Fit(data, kind, p, solver, rows);
      if (!m.ok()) return m.status();
      out.push_back(std::move(m).value());
    }
    return out;
  }
  if (IsSvr(kind)) {
    SilenceLibsvm();
    std::vector<svm_node> nodes(n * (d + 1));
    std::vector<svm_node*> x_rows(n);
    for (std::size_t i = 0; i < n; ++i) {
      svm_node* row = &nodes[i * (d + 1)];
      for (std::size_t j = 0; j < d; ++j) row[j] = {static_cast<int>(j + 1), z[i][j]};
      row[d] = {-1, 0.0};
      x_rows[i] = row;
    }
    svm_problem prob{};
    prob.l = static_cast<int>(n);
    prob.y = t.data();
    prob.x = x_rows.data();
    const svm_parameter param = state->LibsvmParam();
    if (const char* err = svm_check_parameter(&prob, &param)) {
      return Status::InvalidArgument(std::string("libsvm rejected the parameters: ") + err);
    }
    svm_model* trained = svm_train(&prob, &param);
    if (trained == nullptr) return Status::Failed("libsvm training failed");
    state->rho = trained->rho[0];
    state->sv.resize(trained->l);
    state->sv_coef.resize(trained->l);
    for (int i = 0; i < trained->l; ++i) {
      state->sv_coef[i] = trained->sv_coef[0][i];
      std::vector<double> dense(d, 0.0);
      for (const svm_node* p = trained->SV[i]; p->index != -1; ++p) dense[p->index - 1] = p->value;
      state->sv[i] = std::move(dense);
    }
    svm_free_and_destroy_model(&trained);  // free_sv = 0: our nodes are not touched
    state->BuildView();
    std::vector<Model> out;
    out.push_back(Model(std::move(state)));
    return out;
  }
  if (kind == ModelKind::kRidge || kind == ModelKind::kPolyRidge) {
    std::vector<std::vector<double>> phi(n);
    if (kind == ModelKind::kPolyRidge) {
      for (std::size_t i = 0; i < n; ++i) State::Expand(z[i], &phi[i]);
      state->poly_mean.assign(phi[0].size(), 0.0);
      for (const auto& row : phi) {
        for (std::size_t j = 0; j < row.size(); ++j) state->poly_mean[j] += row[j];
      }
      for (double& m : state->poly_mean) m /= static_cast<double>(n);
    } else {
      phi = z;
    }
    const std::size_t p = phi[0].size();
    Eigen::MatrixXd a(n, p);
    Eigen::VectorXd tv(n);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < p; ++j) {
        a(i, j) = phi[i][j] - (state->poly_mean.empty() ? 0.0 : state->poly_mean[j]);
      }
      tv(i) = t[i];
    }
    std::vector<double> lambdas;
    for (const HyperParams& p : path) lambdas.push_back(p.lambda);
    std::vector<std::vector<double>> weights = SolveRidgePath(a, tv, lambdas);
    std::vector<Model> out;
    for (std::size_t i = 0; i < path.size(); ++i) {
      auto fitted = std::make_shared<State>(*state);
      fitted->params = path[i];
      if (fitted->params.gamma == 0) fitted->params.gamma = 1.0 / static_cast<double>(d);
      fitted->weights = std::move(weights[i]);
      out.push_back(Model(std::move(fitted)));
    }
    return out;
  }
  std::vector<Model> out;
  for (const HyperParams& p : path) {  // the mean: nothing depends on the parameters
    auto fitted = std::make_shared<State>(*state);
    fitted->params = p;
    if (fitted->params.gamma == 0) fitted->params.gamma = 1.0 / static_cast<double>(d);
    out.push_back(Model(std::move(fitted)));
  }
  return out;
}

double Model::Predict(const std::vector<double>& x) const {
  assert(x.size() == state_->features.size());
  if (state_->gp) return state_->gp->PredictMean(x);
  std::vector<double> z;
  state_->Standardize(x, &z);
  return state_->y_mean + state_->y_sd * state_->PredictStandardized(z);
}

void Model::PredictBatch(const std::vector<std::vector<double>>& xs,
                         std::vector<double>* out) const {
  const State& s = *state_;
  out->resize(xs.size());
  if (!IsSvr(s.kind) || xs.empty() || s.sv.empty()) {
    for (std::size_t i = 0; i < xs.size(); ++i) (*out)[i] = Predict(xs[i]);
    return;
  }
  const Eigen::Index m = static_cast<Eigen::Index>(xs.size());
  const Eigen::Index d = static_cast<Eigen::Index>(s.features.size());
  Eigen::MatrixXd z(m, d);
  for (Eigen::Index i = 0; i < m; ++i) {
    assert(xs[i].size() == s.features.size());
    for (Eigen::Index j = 0; j < d; ++j) z(i, j) = (xs[i][j] - s.x_mean[j]) / s.x_sd[j];
  }
  // l x m dot products: column i holds configuration i against every support vector, so the
  // kernel and the weighted sum run over contiguous memory without m x l temporaries.
  const Eigen::MatrixXd k = s.sv_dense * z.transpose();
  Eigen::VectorXd f(m);
  Eigen::ArrayXd col(k.rows());
  for (Eigen::Index i = 0; i < m; ++i) {
    if (s.kind == ModelKind::kEpsSvrLinear) {
      col = k.col(i).array();
    } else if (s.kind == ModelKind::kEpsSvrPoly) {
      col = (s.params.gamma * k.col(i).array() + s.params.coef0).pow(s.params.degree);
    } else {
      // ||z - v||^2 = ||z||^2 + ||v||^2 - 2 z.v
      const double zn = z.row(i).squaredNorm();
      col =
          (-s.params.gamma * ((s.sv_sq_norm.array() + zn) - 2.0 * k.col(i).array()).max(0.0)).exp();
    }
    f(i) = (col * s.coef_dense.array()).sum();
  }
  for (Eigen::Index i = 0; i < m; ++i) (*out)[i] = s.y_mean + s.y_sd * (f(i) - s.rho);
}

ModelKind Model::kind() const { return state_->kind; }
const HyperParams& Model::params() const { return state_->params; }
const std::string& Model::target() const { return state_->target; }
const std::vector<Feature>& Model::features() const { return state_->features; }
std::size_t Model::support_vectors() const { return state_->sv.size(); }
std::size_t Model::training_runs() const { return state_->runs; }
double Model::target_min() const { return state_->y_min; }
double Model::target_max() const { return state_->y_max; }
double Model::cv_mre() const { return cv_mre_; }
void Model::set_cv_mre(double mre) { cv_mre_ = mre; }
const std::vector<double>& Model::baseline() const { return baseline_; }
void Model::set_baseline(std::vector<double> x) { baseline_ = std::move(x); }
const FailureModel* Model::failure() const { return failure_ ? &*failure_ : nullptr; }
void Model::set_failure(FailureModel failure) { failure_ = std::move(failure); }

namespace {

constexpr const char* kFormatName = "perfplan-tuning-model";

// "fnv1a64:<16 hex digits>" of the model's text. Files written before session 9 were summed from
// one digit short of FNV's offset basis (models::kFnv1a64ShortOffset); they still load
// (docs/tuning.md, "Model file").
std::string Checksum(const std::string& text, std::uint64_t offset = models::kFnv1a64Offset) {
  return "fnv1a64:" + models::Fnv1a64Hex(text, offset);
}

Unit UnitFromString(const std::string& s) {
  if (s == "bytes") return Unit::kBytes;
  if (s == "seconds") return Unit::kSeconds;
  return Unit::kNone;
}

}  // namespace

Status Model::Save(const std::string& path) const {
  const State& s = *state_;
  // Keys that are their field's name are named once (models/json_fields.h). Json sorts its keys,
  // so the text and its checksum do not depend on the order they are set in.
  Json m = PERFPLAN_JSON_FIELDS(s, target, x_mean, x_sd, y_mean, y_sd, y_min, y_max, sv_coef, rho,
                                weights, poly_mean);
  m["kind"] = std::string(ToString(s.kind));
  m["training_runs"] = s.runs;
  m["cv_mre"] = cv_mre_;
  m["params"] = PERFPLAN_JSON_FIELDS(s.params, c, gamma, epsilon, nu, degree, coef0, lambda);
  m["solver"] = PERFPLAN_JSON_FIELDS(s.solver, tolerance, cache_mb, shrinking);
  Json features = Json::array();
  for (const Feature& f : s.features) {
    Json feature = PERFPLAN_JSON_FIELDS(f, name, parameter, category, integer, min, max);
    feature["unit"] = std::string(ToString(f.unit));
    features.push_back(feature);
  }
  m["features"] = features;
  m["baseline"] = baseline_;
  m["support_vectors"] = s.sv;
  if (s.gp) {
    Json gp = PERFPLAN_JSON_FIELDS(s.gp_hyper, length_scale, noise);
    gp["feature_min"] = s.gp_min;
    gp["feature_max"] = s.gp_max;
    gp["x"] = s.gp_x;
    gp["y"] = s.gp_y;
    m["gaussian_process"] = gp;
  }
  if (failure_) {
    const FailureModel& f = *failure_;
    Json failure = PERFPLAN_JSON_FIELDS(f, lambda, mean, scale, failed_runs, succeeded_runs,
                                        cv_accuracy, cv_log_loss, majority_accuracy);
    failure["features"] = std::string(ToString(f.features));
    failure["terms"] = Json::array();
    for (const FailureTerm& t : f.terms) {
      failure["terms"].push_back(PERFPLAN_JSON_FIELDS(t, column, log, floor));
    }
    failure["units"] = Json::array();
    for (const FailureUnit& u : f.units) {
      failure["units"].push_back(PERFPLAN_JSON_FIELDS(u, weights, bias));
    }
    if (f.bounds_known) {
      failure["bounds"] = Json::array();
      for (const FailureBound& b : f.bounds) {
        failure["bounds"].push_back(PERFPLAN_JSON_FIELDS(b, a, b, product, upper, limit));
      }
    }
    m["failure"] = failure;
  }
  const std::string body = JsonText(m);
  Json doc;
  doc["format"] = kFormatName;
  doc["format_version"] = kFormatVersion;
  doc["checksum"] = Checksum(body);
  doc["model"] = m;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Failed(path + ": cannot write the model file");
  out << JsonText(doc, 1) << "\n";
  out.close();
  if (!out) return Status::Failed(path + ": writing the model file failed");
  return Status::Ok();
}

Result<Model> Model::Load(const std::string& path) {
  Result<std::string> read = ReadInputFile(path);
  if (!read.ok()) return Status::InvalidArgument(read.status().message());
  std::stringstream ss(read.value());
  auto corrupt = [&](const std::string& why) {
    return Status::InvalidArgument(path + ": not a valid perfplan tuning model (" + why +
                                   "); train it again with 'perfplan tune train'");
  };
  Json doc = Json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return corrupt("not a JSON document");
  if (!doc.contains("format") || doc["format"] != kFormatName) {
    return corrupt("the \"format\" field is not \"" + std::string(kFormatName) + "\"");
  }
  if (!doc.contains("format_version") || !doc["format_version"].is_number_integer()) {
    return corrupt("no integer \"format_version\"");
  }
  const int version = doc["format_version"].get<int>();
  if (version != kFormatVersion) {
    return Status::InvalidArgument(path + ": model format version " + std::to_string(version) +
                                   ", this perfplan reads version " +
                                   std::to_string(kFormatVersion) +
                                   "; train the model again with this perfplan");
  }
  if (!doc.contains("model") || !doc["model"].is_object() || !doc.contains("checksum")) {
    return corrupt("missing \"model\" or \"checksum\"");
  }
  const Json& m = doc["model"];
  const std::string body = JsonText(m);
  if (doc["checksum"] != Checksum(body) &&
      doc["checksum"] != Checksum(body, models::kFnv1a64ShortOffset)) {
    return corrupt("checksum mismatch: edited or damaged");
  }
  try {
    auto state = std::make_shared<State>();
    if (!Parse(m.at("kind").get<std::string>(), &state->kind)) return corrupt("unknown kind");
    state->target = m.at("target").get<std::string>();
    state->runs = m.at("training_runs").get<std::size_t>();
    const Json& p = m.at("params");
    state->params.c = p.at("c").get<double>();
    state->params.gamma = p.at("gamma").get<double>();
    state->params.epsilon = p.at("epsilon").get<double>();
    state->params.nu = p.at("nu").get<double>();
    state->params.degree = p.at("degree").get<int>();
    state->params.coef0 = p.at("coef0").get<double>();
    state->params.lambda = p.at("lambda").get<double>();
    const Json& so = m.at("solver");
    state->solver.tolerance = so.at("tolerance").get<double>();
    state->solver.cache_mb = so.at("cache_mb").get<double>();
    state->solver.shrinking = so.at("shrinking").get<bool>();
    for (const Json& f : m.at("features")) {
      Feature feat;
      feat.name = f.at("name").get<std::string>();
      feat.parameter = f.at("parameter").get<std::string>();
      feat.category = f.at("category").get<std::string>();
      feat.unit = UnitFromString(f.at("unit").get<std::string>());
      feat.integer = f.at("integer").get<bool>();
      feat.min = f.at("min").get<double>();
      feat.max = f.at("max").get<double>();
      state->features.push_back(feat);
    }
    state->x_mean = m.at("x_mean").get<std::vector<double>>();
    state->x_sd = m.at("x_sd").get<std::vector<double>>();
    state->y_mean = m.at("y_mean").get<double>();
    state->y_sd = m.at("y_sd").get<double>();
    state->y_min = m.at("y_min").get<double>();
    state->y_max = m.at("y_max").get<double>();
    state->sv = m.at("support_vectors").get<std::vector<std::vector<double>>>();
    state->sv_coef = m.at("sv_coef").get<std::vector<double>>();
    state->rho = m.at("rho").get<double>();
    state->weights = m.at("weights").get<std::vector<double>>();
    state->poly_mean = m.at("poly_mean").get<std::vector<double>>();
    std::vector<double> baseline = m.at("baseline").get<std::vector<double>>();
    const double cv = m.at("cv_mre").get<double>();
    const std::size_t d = state->features.size();
    if (d == 0 || state->x_mean.size() != d || state->x_sd.size() != d) {
      return corrupt("feature statistics do not match the features");
    }
    for (double s : state->x_sd) {
      if (!(s > 0)) return corrupt("a feature standard deviation is not positive");
    }
    if (!baseline.empty() && baseline.size() != d) return corrupt("baseline size mismatch");
    if (Status s = state->params.Validate(); !s.ok()) return corrupt(s.message());
    if (IsSvr(state->kind)) {
      if (state->sv.size() != state->sv_coef.size())
        return corrupt("support vector count mismatch");
      for (const auto& v : state->sv) {
        if (v.size() != d) return corrupt("support vector size mismatch");
      }
      state->BuildView();
    } else if (state->kind == ModelKind::kRidge) {
      if (state->weights.size() != d) return corrupt("ridge weight count mismatch");
    } else if (state->kind == ModelKind::kPolyRidge) {
      const std::size_t p = d + d * (d + 1) / 2;
      if (state->weights.size() != p || state->poly_mean.size() != p) {
        return corrupt("poly-ridge weight count mismatch");
      }
    } else if (state->kind == ModelKind::kGaussianProcess) {
      const Json& g = m.at("gaussian_process");
      state->gp_hyper.length_scale = g.at("length_scale").get<double>();
      state->gp_hyper.noise = g.at("noise").get<double>();
      state->gp_min = g.at("feature_min").get<std::vector<double>>();
      state->gp_max = g.at("feature_max").get<std::vector<double>>();
      state->gp_x = g.at("x").get<std::vector<std::vector<double>>>();
      state->gp_y = g.at("y").get<std::vector<double>>();
      if (state->gp_min.size() != d || state->gp_max.size() != d) {
        return corrupt("gaussian-process feature range size mismatch");
      }
      // A process is fitted on at most kGpMaxRuns runs; more would only come from an edited
      // file and would cost runs³ to rebuild.
      if (state->gp_x.size() > kGpMaxRuns) return corrupt("gaussian-process holds too many runs");
      for (const auto& row : state->gp_x) {
        if (row.size() != d) return corrupt("gaussian-process run size mismatch");
      }
      std::vector<Feature> features = state->features;
      for (std::size_t j = 0; j < d; ++j) {
        features[j].min = state->gp_min[j];
        features[j].max = state->gp_max[j];
      }
      Result<GaussianProcess> gp =
          GaussianProcess::FitWith(features, state->gp_x, state->gp_y, state->gp_hyper);
      if (!gp.ok()) return corrupt(gp.status().message());
      state->gp = std::move(gp).value();
    }
    Model model(std::move(state));
    model.cv_mre_ = cv;
    model.baseline_ = std::move(baseline);
    if (m.contains("failure")) {  // optional: only models trained with failed runs have it
      const Json& fj = m.at("failure");
      FailureModel f;
      f.mean = fj.at("mean").get<std::vector<double>>();
      f.scale = fj.at("scale").get<std::vector<double>>();
      f.failed_runs = fj.at("failed_runs").get<std::size_t>();
      f.succeeded_runs = fj.at("succeeded_runs").get<std::size_t>();
      f.lambda = fj.at("lambda").get<double>();
      f.cv_accuracy = fj.at("cv_accuracy").get<double>();
      f.majority_accuracy = fj.at("majority_accuracy").get<double>();
      // Files before session 8 have one value term per feature and no feature set.
      if (fj.contains("terms")) {
        if (!ParseFailureFeatures(fj.at("features").get<std::string>(), &f.features)) {
          return corrupt("unknown failure model feature set");
        }
        for (const Json& t : fj.at("terms")) {
          f.terms.push_back({t.at("column").get<std::size_t>(), t.at("log").get<bool>(),
                             t.at("floor").get<double>()});
        }
        f.cv_log_loss = fj.at("cv_log_loss").get<double>();
        for (const Json& u : fj.at("units")) {
          f.units.push_back(
              {u.at("weights").get<std::vector<double>>(), u.at("bias").get<double>()});
        }
      } else {
        for (std::size_t j = 0; j < d; ++j) f.terms.push_back({j, false, 0});
        f.units.push_back(
            {fj.at("weights").get<std::vector<double>>(), fj.at("bias").get<double>()});
      }
      const std::size_t t = f.terms.size();
      if (f.mean.size() != t || f.scale.size() != t || f.units.empty()) {
        return corrupt("failure model size mismatch");
      }
      for (const FailureUnit& u : f.units) {
        if (u.weights.size() != t) return corrupt("failure model size mismatch");
      }
      for (const FailureTerm& term : f.terms) {
        if (term.column >= d || (term.log && !(term.floor > 0))) {
          return corrupt("a failure model term is out of range");
        }
      }
      for (double sc : f.scale) {
        if (!(sc > 0)) return corrupt("a failure model scale is not positive");
      }
      // Files before session 9 have no bounds of the successful runs.
      f.bounds_known = fj.contains("bounds");
      if (f.bounds_known) {
        for (const Json& b : fj.at("bounds")) {
          f.bounds.push_back({b.at("a").get<std::size_t>(), b.at("b").get<std::size_t>(),
                              b.at("product").get<bool>(), b.at("upper").get<bool>(),
                              b.at("limit").get<double>()});
          const FailureBound& got = f.bounds.back();
          if (!(got.a < got.b && got.b < d && got.limit > 0 && std::isfinite(got.limit))) {
            return corrupt("a failure model bound is out of range");
          }
        }
      }
      model.failure_ = std::move(f);
    }
    return model;
  } catch (const Json::exception& e) {
    return corrupt(std::string("missing or mistyped field: ") + e.what());
  }
}

Result<double> MeanRelativeError(const std::vector<double>& y, const std::vector<double>& y_hat) {
  if (y.empty() || y.size() != y_hat.size()) {
    return Status::InvalidArgument("MRE needs equally many measured and predicted values (> 0)");
  }
  double sum = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (y[i] == 0) {
      return Status::InvalidArgument("measured value " + std::to_string(i + 1) +
                                     " is 0: relative error is undefined");
    }
    sum += std::fabs(y[i] - y_hat[i]) / std::fabs(y[i]);
  }
  return sum / static_cast<double>(y.size());
}

}  // namespace perfplan::tuning
