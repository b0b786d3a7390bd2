#include "models/runtime_forms.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "models/censoring_hinge.h"
#include "models/enum_names.h"
#include "models/nnls.h"
#include "models/runtime_calibration.h"
#include "models/runtime_evaluate.h"

namespace perfplan::models {
namespace {

// A form later in the parsimony order is chosen only when its score is lower than every earlier
// form's by more than this fraction (fixed a priori, not tuned on any workload).
constexpr double kParsimonyFraction = 0.02;
// Scores below this are exact fits (rounding only): equal.
constexpr double kExactScore = 1e-12;
// Columns of the pooled basis [1, s/(m·v), log m, m, memory] and of Ernest's [1, s/m, m, log m].
constexpr std::size_t kPooledColumns = 5;
constexpr std::size_t kErnestColumns = 4;
std::string Num(double v, int precision = 3) {
  std::ostringstream os;
  os.precision(precision);
  os << v;
  return os.str();
}

// Which of the pooled columns [1, s/(m·v), log m, m, memory] a form uses.
std::array<bool, kPooledColumns> PooledColumns(RuntimeForm form) {
  switch (form) {
    case RuntimeForm::kSerialFloor: return {true, true, false, false, false};
    case RuntimeForm::kLogNodes: return {true, true, true, false, false};
    case RuntimeForm::kCommunication: return {true, true, false, true, false};
    case RuntimeForm::kMemory: return {true, true, true, false, true};
    default: return {false, false, false, false, false};
  }
}

std::optional<double> RelativeFigure(const FormModel& m, const MeasuredRun& x) {
  if (m.reference_figure > 0) {
    const double figure = HardwareFigure(x, m.scaling);
    if (!(figure > 0)) return std::nullopt;
    return figure / m.reference_figure;
  }
  if (x.instance_type != m.single_type) return std::nullopt;
  return 1.0;
}

void PooledBasis(const MeasuredRun& x, double v, double kappa, double out[kPooledColumns]) {
  const double m = x.compute_nodes;
  out[0] = 1;
  out[1] = x.dataset_bytes / (m * v);
  out[2] = std::log(m);
  out[3] = m;
  out[4] = kappa > 0 ? std::max(0.0, kappa * x.dataset_bytes / m - x.memory_bytes) / v : 0;
}

void ErnestBasis(const MeasuredRun& x, double out[kPooledColumns]) {
  const double m = x.compute_nodes;
  out[0] = 1;
  out[1] = x.dataset_bytes / m;
  out[2] = m;
  out[3] = std::log(m);
  out[4] = 0;
}

// The basis columns marked in `use`, in order.
std::vector<std::size_t> Columns(const std::array<bool, kPooledColumns>& use) {
  std::vector<std::size_t> cols;
  for (std::size_t k = 0; k < kPooledColumns; ++k) {
    if (use[k]) cols.push_back(k);
  }
  return cols;
}

// Weighted NNLS with the basis columns in `use`, 1/runtime weights, over the completed runs and
// the censored runs the hinge pins (models/censoring_hinge.h).
using Theta = std::array<double, kPooledColumns>;
template <typename BasisFn>
Result<Theta> SolveWeighted(const std::vector<const MeasuredRun*>& runs,
                            const std::array<bool, kPooledColumns>& use, BasisFn basis,
                            int max_iterations) {
  const std::vector<std::size_t> cols = Columns(use);
  std::vector<Theta> rows(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) basis(*runs[i], rows[i].data());
  Theta theta = {0, 0, 0, 0, 0};
  const auto solve = [&](const std::vector<bool>& pinned) -> Status {
    DenseMatrix a;
    a.cols = cols.size();
    std::vector<double> rhs;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (!runs[i]->completed && !pinned[i]) continue;
      for (std::size_t k : cols) a.values.push_back(rows[i][k] / runs[i]->runtime_seconds);
      rhs.push_back(1.0);
      ++a.rows;
    }
    if (a.rows == 0) return Status::InvalidArgument("no completed run to fit");
    Result<NnlsSolution> s = SolveNnls(a, rhs);
    if (!s.ok()) return s.status();
    for (std::size_t j = 0; j < cols.size(); ++j) theta[cols[j]] = s.value().x[j];
    return Status::Ok();
  };
  const auto predicted = [&](std::size_t i) {
    double value = 0;
    for (std::size_t k = 0; k < kPooledColumns; ++k) value += theta[k] * rows[i][k];
    return value;
  };
  if (Status s = FitWithCensoringHinge(runs, max_iterations, solve, predicted); !s.ok()) return s;
  return theta;
}

// Coefficients the form fits per group (κ counts as one): a pooled form over every run; ernest per
// instance type; freeride-g by the classes its fit chose.
std::size_t Coefficients(const FormModel& model) {
  switch (model.form) {
    case RuntimeForm::kSerialFloor: return 2;
    case RuntimeForm::kLogNodes:
    case RuntimeForm::kCommunication: return 3;
    case RuntimeForm::kMemory: return 5;
    case RuntimeForm::kErnest: return kErnestColumns;
    case RuntimeForm::kFreerideG: {
      // compute, disk, network, fixed, global; a linear reduction object; θ_m and κ.
      const RuntimeFit& f = *model.freeride;
      return 5 + (f.reduction_object_class == ReductionObjectClass::kConstant ? 0 : 1) +
             (f.memory_overhead_factor > 0 ? 2 : 0);
    }
    case RuntimeForm::kAverage: return 0;
  }
  return 0;
}

// The fewest distinct completed configurations of any group the form fits separately (each
// instance type for ernest, the pool otherwise).
std::size_t FewestConfigurations(RuntimeForm form, const std::vector<MeasuredRun>& runs) {
  std::map<std::string, std::set<std::array<double, 3>>> groups;
  for (const MeasuredRun& r : runs) {
    if (!r.completed) continue;
    groups[r.instance_type].insert({r.compute_nodes, r.storage_nodes, r.dataset_bytes});
  }
  if (form == RuntimeForm::kErnest) {
    std::size_t fewest = 0;
    for (const auto& [type, configs] : groups) {
      fewest = fewest == 0 ? configs.size() : std::min(fewest, configs.size());
    }
    return fewest;
  }
  std::size_t total = 0;
  for (const auto& [type, configs] : groups) total += configs.size();
  return total;
}

// Fits each fold's model, fit_fold(k, fold k's training runs), for the folds of `folds` and
// predicts its held-out runs: `log_prediction` per run index of `runs` (NaN where not held out),
// `fold_models` in fold order. "" when every fold was fitted and predicted its held-out runs;
// otherwise why not (the outputs then partly filled).
template <typename FitFold>
std::string HeldOutPredictions(const std::vector<MeasuredRun>& runs, const RuntimeFolds& folds,
                               FitFold fit_fold, std::vector<double>* log_prediction,
                               std::vector<FormModel>* fold_models) {
  log_prediction->assign(runs.size(), std::nan(""));
  fold_models->clear();
  for (std::size_t k = 0; k < folds.held_out.size(); ++k) {
    Result<FormModel> model = fit_fold(k, FoldTraining(runs, folds.held_out[k]));
    if (!model.ok()) return "fold " + std::to_string(k + 1) + ": " + model.status().message();
    for (std::size_t i : folds.held_out[k]) {
      const std::optional<double> p = PredictForm(model.value(), runs[i]);
      if (!p) {
        return "fold " + std::to_string(k + 1) + " cannot predict the held-out run at " +
               Num(runs[i].compute_nodes) + " x " + runs[i].instance_type;
      }
      (*log_prediction)[i] = std::log(*p);
    }
    fold_models->push_back(model.value());
  }
  return "";
}

// Mean |log(measured / predicted)| over the held-out runs of `folds`, from the held-out log
// predictions (per run index).
double HeldOutError(const std::vector<MeasuredRun>& runs, const RuntimeFolds& folds,
                    const std::vector<double>& log_prediction) {
  double sum = 0;
  std::size_t n = 0;
  for (const std::vector<std::size_t>& fold : folds.held_out) {
    for (std::size_t i : fold) {
      sum += std::abs(std::log(runs[i].runtime_seconds) - log_prediction[i]);
      ++n;
    }
  }
  return n == 0 ? 0 : sum / static_cast<double>(n);
}

// The held-out error (HeldOutError) of each penalty of PoolingPenaltyGrid(), in its order: the
// pooled fold models (`pooled_folds[k]` fitted without fold k) partially pooled with it on each
// fold's training runs. NaN where a fold cannot be fitted or cannot predict a held-out run.
std::vector<double> PenaltyErrors(const std::vector<MeasuredRun>& runs, const RuntimeFolds& folds,
                                  const std::vector<FormModel>& pooled_folds,
                                  int max_censoring_iterations) {
  std::vector<double> errors;
  std::vector<double> log_prediction;
  std::vector<FormModel> fold_models;
  for (double penalty : PoolingPenaltyGrid()) {
    const auto fit_fold = [&](std::size_t k, const std::vector<MeasuredRun>& rest) {
      return FitPartiallyPooled(pooled_folds[k], rest, penalty, max_censoring_iterations);
    };
    errors.push_back(
        HeldOutPredictions(runs, folds, fit_fold, &log_prediction, &fold_models).empty()
            ? HeldOutError(runs, folds, log_prediction)
            : std::nan(""));
  }
  return errors;
}

// The penalty partial pooling adopts from the pooled form's error and each penalty's (NaN: not
// fitted), PoolingPenaltyGrid() order: 0 (the pooled form stays) unless the pooled error is more
// than the parsimony margin above the lowest; then the largest penalty within the margin.
double AdoptedPenalty(double pooled_error, const std::vector<double>& errors) {
  double lowest = pooled_error;
  for (double e : errors) {
    if (!std::isnan(e)) lowest = std::min(lowest, e);
  }
  const double margin = lowest * (1 + kParsimonyFraction) + kExactScore;
  if (pooled_error <= margin) return 0;
  for (std::size_t j = errors.size(); j-- > 0;) {
    if (errors[j] <= margin) return PoolingPenaltyGrid()[j];
  }
  return 0;
}

// Held-out log predictions (per run index of `train`) of serial-floor with partial pooling as a
// whole procedure: for each fold k of `folds`, the penalty is chosen by AdoptedPenalty on fold k's
// training runs alone (their own leave-one-node-count-out folds), so the held-out runs of fold k
// take no part in choosing it, and the fold's prediction is the pooled fold model
// (`pooled_folds[k]`) partially pooled with that penalty (or left pooled). A fold whose training
// runs hold fewer than two instance types, or whose inner fits fail, stays pooled.
std::vector<double> NestedPartialHeldOut(const std::vector<MeasuredRun>& train,
                                         const RuntimeFolds& folds,
                                         const std::vector<FormModel>& pooled_folds,
                                         const ChoiceOptions& options, const FitOptions& fold_fit) {
  std::vector<double> out(train.size(), std::nan(""));
  for (std::size_t k = 0; k < folds.held_out.size(); ++k) {
    const std::vector<MeasuredRun> rest = FoldTraining(train, folds.held_out[k]);
    std::set<std::string> types;
    for (const MeasuredRun& r : rest) {
      if (r.completed) types.insert(r.instance_type);
    }
    double penalty = 0;
    const RuntimeFolds inner = MakeRuntimeFolds(rest);
    std::vector<FormModel> inner_pooled;
    std::vector<double> inner_log;
    const auto fit_inner = [&](std::size_t, const std::vector<MeasuredRun>& inner_rest) {
      return FitForm(RuntimeForm::kSerialFloor, inner_rest, fold_fit, options.scaling);
    };
    if (types.size() >= 2 &&
        HeldOutPredictions(rest, inner, fit_inner, &inner_log, &inner_pooled).empty()) {
      penalty = AdoptedPenalty(
          HeldOutError(rest, inner, inner_log),
          PenaltyErrors(rest, inner, inner_pooled, fold_fit.max_censoring_iterations));
    }
    FormModel model = pooled_folds[k];
    if (penalty > 0) {
      Result<FormModel> partial =
          FitPartiallyPooled(pooled_folds[k], rest, penalty, fold_fit.max_censoring_iterations);
      if (partial.ok()) model = partial.value();
    }
    for (std::size_t i : folds.held_out[k]) {
      std::optional<double> p = PredictForm(model, train[i]);
      if (!p) p = PredictForm(pooled_folds[k], train[i]);
      if (p) out[i] = std::log(*p);
    }
  }
  return out;
}

FormModel Average(std::vector<FormModel> members) {
  FormModel m;
  m.form = RuntimeForm::kAverage;
  m.members = std::move(members);
  return m;
}

}  // namespace

std::string_view ToString(RuntimeForm form) {
  switch (form) {
    case RuntimeForm::kFreerideG: return "freeride-g";
    case RuntimeForm::kSerialFloor: return "serial-floor";
    case RuntimeForm::kLogNodes: return "log-nodes";
    case RuntimeForm::kCommunication: return "communication";
    case RuntimeForm::kMemory: return "memory";
    case RuntimeForm::kErnest: return "ernest";
    case RuntimeForm::kAverage: return "average";
  }
  return "freeride-g";
}

bool Parse(std::string_view text, RuntimeForm* out) {
  for (RuntimeForm f : AllRuntimeForms()) {
    if (text == ToString(f)) return *out = f, true;
  }
  return false;
}

bool IsPooledForm(RuntimeForm form) {
  return form == RuntimeForm::kSerialFloor || form == RuntimeForm::kLogNodes ||
         form == RuntimeForm::kCommunication || form == RuntimeForm::kMemory;
}

constexpr EnumName<HardwareScaling> kScalingNames[] = {{HardwareScaling::kVcpus, "vCPUs"},
                                                      {HardwareScaling::kMemory, "memory"},
                                                      {HardwareScaling::kNetwork,
                                                       "network bandwidth"}};
std::string_view ToString(HardwareScaling scaling) { return NameOf(kScalingNames, scaling); }

double HardwareFigure(const MeasuredRun& run, HardwareScaling scaling) {
  switch (scaling) {
    case HardwareScaling::kVcpus: return run.vcpus;
    case HardwareScaling::kMemory: return run.memory_bytes;
    case HardwareScaling::kNetwork: return run.bandwidth_bytes_per_second;
  }
  return 0;
}

const std::vector<RuntimeForm>& AllRuntimeForms() {
  static const std::vector<RuntimeForm> kAll = {
      RuntimeForm::kSerialFloor, RuntimeForm::kLogNodes, RuntimeForm::kCommunication,
      RuntimeForm::kMemory,      RuntimeForm::kFreerideG, RuntimeForm::kErnest,
      RuntimeForm::kAverage};
  return kAll;
}

Status ChoiceOptions::Validate() const {
  if (candidates.empty()) return Status::InvalidArgument("candidates: must not be empty");
  return fit.Validate();
}

Result<FormModel> FitForm(RuntimeForm form, const std::vector<MeasuredRun>& runs,
                          const FitOptions& fit, HardwareScaling scaling) {
  std::vector<const MeasuredRun*> completed, all;
  for (const MeasuredRun& r : runs) {
    if (r.completed) completed.push_back(&r);
    all.push_back(&r);
  }
  if (completed.empty()) {
    return Status::InvalidArgument(std::string(ToString(form)) + ": no completed run to fit");
  }
  FormModel m;
  m.form = form;
  if (form == RuntimeForm::kFreerideG) {
    Result<RuntimeFit> f = FitRuntime(runs, fit);
    if (!f.ok()) return f.status();
    m.freeride = f.value();
    return m;
  }
  if (form == RuntimeForm::kAverage) {
    return Status::InvalidArgument("average: fitted through ChooseRuntimeForm from its members");
  }
  if (form == RuntimeForm::kErnest) {
    std::map<std::string, std::vector<const MeasuredRun*>> by_type;
    for (const MeasuredRun* r : all) by_type[r->instance_type].push_back(r);
    for (const auto& [type, rs] : by_type) {
      if (std::none_of(rs.begin(), rs.end(), [](const MeasuredRun* r) { return r->completed; })) {
        continue;  // only bounds on this type: no model of it
      }
      Result<Theta> theta = SolveWeighted(rs, {true, true, true, true, false}, ErnestBasis,
                                          fit.max_censoring_iterations);
      if (!theta.ok()) return theta.status();
      std::copy_n(theta.value().begin(), kErnestColumns, m.per_type[type].begin());
    }
    return m;
  }
  m.scaling = scaling;
  bool hardware = true;
  for (const MeasuredRun* r : all) hardware &= HardwareFigure(*r, scaling) > 0;
  if (hardware) {
    m.reference_figure = HardwareFigure(*completed[0], scaling);
  } else {
    for (const MeasuredRun* r : all) {
      if (r->instance_type != completed[0]->instance_type) {
        return Status::InvalidArgument(std::string(ToString(form)) +
                                       ": pooling instance types needs " +
                                       std::string(ToString(scaling)) + " on every run; '" +
                                       r->instance_type + "' has none");
      }
    }
    m.single_type = completed[0]->instance_type;
  }
  if (form == RuntimeForm::kMemory) {
    for (const MeasuredRun* r : all) {
      if (!(r->memory_bytes > 0)) {
        return Status::InvalidArgument("memory: needs memory_bytes on every run; '" +
                                       r->instance_type + "' has none");
      }
    }
  }
  const double ref = m.reference_figure;
  // κ over the grid (the memory form) by the weighted in-sample residual, ties to the smaller.
  // The grid is MemoryOverheadGrid() (models/runtime_fit.h), the same as FitRuntime's.
  const std::vector<double> kappas =
      form == RuntimeForm::kMemory ? MemoryOverheadGrid() : std::vector<double>{0};
  double best_residual = 0;
  for (double kappa : kappas) {
    Result<Theta> theta = SolveWeighted(
        all, PooledColumns(form),
        [&](const MeasuredRun& x, double out[kPooledColumns]) {
          PooledBasis(x, ref > 0 ? HardwareFigure(x, scaling) / ref : 1.0, kappa, out);
        },
        fit.max_censoring_iterations);
    if (!theta.ok()) return theta.status();
    FormModel candidate = m;
    candidate.theta = theta.value();
    candidate.memory_factor = kappa;
    double residual = 0;
    for (const MeasuredRun* r : completed) {
      std::optional<double> p = PredictForm(candidate, *r);
      const double e = 1 - (p ? *p : 0) / r->runtime_seconds;
      residual += e * e;
    }
    if (kappa == kappas.front() || residual < best_residual * (1 - 1e-12)) {
      best_residual = residual;
      m.theta = candidate.theta;
      m.memory_factor = kappa;
    }
  }
  return m;
}

std::optional<double> PredictForm(const FormModel& model, const MeasuredRun& target) {
  double value = 0;
  switch (model.form) {
    case RuntimeForm::kFreerideG:
      if (!model.freeride) return std::nullopt;
      value = PredictFitted(*model.freeride, ConfigOf(target)).TotalSeconds();
      break;
    case RuntimeForm::kErnest: {
      auto it = model.per_type.find(target.instance_type);
      if (it == model.per_type.end()) return std::nullopt;
      double b[kPooledColumns];
      ErnestBasis(target, b);
      for (std::size_t k = 0; k < kErnestColumns; ++k) value += it->second[k] * b[k];
      break;
    }
    case RuntimeForm::kAverage: {
      if (model.members.empty()) return std::nullopt;
      double log_sum = 0;
      for (const FormModel& member : model.members) {
        std::optional<double> p = PredictForm(member, target);
        if (!p) return std::nullopt;
        log_sum += std::log(*p);
      }
      value = std::exp(log_sum / static_cast<double>(model.members.size()));
      break;
    }
    default: {
      std::optional<double> v = RelativeFigure(model, target);
      if (!v) return std::nullopt;
      if (model.form == RuntimeForm::kMemory && !(target.memory_bytes > 0)) return std::nullopt;
      double b[kPooledColumns];
      PooledBasis(target, *v, model.memory_factor, b);
      const auto own = model.type_theta.find(target.instance_type);
      const std::array<double, 5>& theta =
          own != model.type_theta.end() ? own->second : model.theta;
      for (std::size_t k = 0; k < kPooledColumns; ++k) value += theta[k] * b[k];
    }
  }
  if (!(value > 0) || !std::isfinite(value)) return std::nullopt;
  return value;
}

const std::vector<double>& PoolingPenaltyGrid() {
  static const std::vector<double> kGrid = {0.0625, 0.25, 1, 4, 16, 64, 256};
  return kGrid;
}

Result<FormModel> FitPartiallyPooled(const FormModel& pooled, const std::vector<MeasuredRun>& runs,
                                     double penalty, int max_censoring_iterations) {
  const std::string name = "partial pooling of " + std::string(ToString(pooled.form));
  if (!IsPooledForm(pooled.form)) {
    return Status::InvalidArgument("partial pooling: " + std::string(ToString(pooled.form)) +
                                   " is not a pooled form");
  }
  if (!(penalty > 0) || !std::isfinite(penalty)) {
    return Status::InvalidArgument(name + ": penalty must be finite and > 0, got " + Num(penalty));
  }
  std::map<std::string, std::size_t> type_index;  // types with a completed run
  std::vector<std::string> types;
  for (const MeasuredRun& r : runs) {
    if (r.completed && type_index.emplace(r.instance_type, types.size()).second) {
      types.push_back(r.instance_type);
    }
  }
  if (types.empty()) return Status::InvalidArgument(name + ": no completed run to fit");
  const std::vector<std::size_t> cols = Columns(PooledColumns(pooled.form));  // column 1 is always cols[1]
  const std::size_t width = cols.size();
  struct Row {
    std::size_t type = 0;
    Theta basis = {0, 0, 0, 0, 0};
    const MeasuredRun* run = nullptr;
  };
  std::vector<Row> rows;
  for (const MeasuredRun& r : runs) {
    const auto it = type_index.find(r.instance_type);
    if (it == type_index.end()) continue;  // only bounds on this type: nothing of its own to fit
    const std::optional<double> v = RelativeFigure(pooled, r);
    if (!v) {
      return Status::InvalidArgument(name + ": no " + std::string(ToString(pooled.scaling)) +
                                     " figure for '" + r.instance_type + "'");
    }
    Row row;
    row.type = it->second;
    row.run = &r;
    PooledBasis(r, *v, pooled.memory_factor, row.basis.data());
    rows.push_back(row);
  }
  // w_t: the mean of s/(m·v) over runtime on t's completed runs, the relative effect of a unit of
  // the parallel-work coefficient on t's runs (every completed run has s/(m·v) > 0).
  std::vector<double> weight(types.size(), 0);
  std::vector<std::size_t> count(types.size(), 0);
  for (const Row& row : rows) {
    if (!row.run->completed) continue;
    ++count[row.type];
    weight[row.type] += row.basis[1] / row.run->runtime_seconds;
  }
  for (std::size_t t = 0; t < types.size(); ++t) weight[t] /= static_cast<double>(count[t]);
  const double root = std::sqrt(penalty);
  // Unknowns: the common coefficients θ (width, in cols' order), then each type's c_t.
  const std::size_t unknowns = width + types.size();
  FormModel out = pooled;
  out.pooling_penalty = penalty;
  std::vector<const MeasuredRun*> fitted(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) fitted[i] = rows[i].run;
  const auto solve = [&](const std::vector<bool>& pinned) -> Status {
    DenseMatrix a;
    a.cols = unknowns;
    std::vector<double> rhs;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (!rows[i].run->completed && !pinned[i]) continue;
      a.values.resize(a.values.size() + unknowns, 0);
      for (std::size_t j = 0; j < width; ++j) {
        a.At(a.rows, j == 1 ? width + rows[i].type : j) =
            rows[i].basis[cols[j]] / rows[i].run->runtime_seconds;
      }
      rhs.push_back(1);
      ++a.rows;
    }
    for (std::size_t t = 0; t < types.size(); ++t) {
      a.values.resize(a.values.size() + unknowns, 0);
      a.At(a.rows, 1) = -root * weight[t];
      a.At(a.rows, width + t) = root * weight[t];
      rhs.push_back(0);
      ++a.rows;
    }
    Result<NnlsSolution> s = SolveNnls(a, rhs);
    if (!s.ok()) return s.status();
    out.theta = {0, 0, 0, 0, 0};
    for (std::size_t j = 0; j < width; ++j) out.theta[cols[j]] = s.value().x[j];
    out.type_theta.clear();
    for (std::size_t t = 0; t < types.size(); ++t) {
      std::array<double, 5> own = out.theta;
      own[1] = s.value().x[width + t];
      out.type_theta[types[t]] = own;
    }
    return Status::Ok();
  };
  const auto predicted = [&](std::size_t i) {
    const std::array<double, 5>& own = out.type_theta[types[rows[i].type]];
    double value = 0;
    for (std::size_t k = 0; k < kPooledColumns; ++k) value += own[k] * rows[i].basis[k];
    return value;
  };
  if (Status s = FitWithCensoringHinge(fitted, max_censoring_iterations, solve, predicted);
      !s.ok()) {
    return s;
  }
  return out;
}

Result<ModelChoice> ChooseRuntimeForm(const std::vector<MeasuredRun>& train,
                                      const std::vector<std::string>& target_types,
                                      const ChoiceOptions& options) {
  if (Status s = options.Validate(); !s.ok()) return s;
  std::size_t completed = 0;
  for (const MeasuredRun& r : train) completed += r.completed ? 1 : 0;
  if (completed < 2) {
    return Status::InvalidArgument("model choice needs at least 2 completed training runs, got " +
                                   std::to_string(completed));
  }
  const RuntimeFolds folds = MakeRuntimeFolds(train);
  FitOptions fold_fit = options.fit;
  fold_fit.min_completed_runs = 1;

  struct Scored {
    CandidateScore score;
    std::optional<FormModel> full;
    std::vector<FormModel> fold_models;
    std::vector<double> held_out_log_prediction;  // per completed run index (NaN when missing)
    std::size_t coefficients = 0, configurations = 0;
  };
  std::vector<Scored> scored;
  std::vector<double> log_measured(train.size(), 0);
  for (std::size_t i = 0; i < train.size(); ++i) log_measured[i] = std::log(train[i].runtime_seconds);

  auto finish_score = [&](Scored& s) {
    std::vector<double> apes;
    for (const std::vector<std::size_t>& fold : folds.held_out) {
      for (std::size_t i : fold) {
        apes.push_back(std::abs(1 - std::exp(s.held_out_log_prediction[i] - log_measured[i])));
      }
    }
    s.score.scored = apes.size();
    s.score.cv_error = HeldOutError(train, folds, s.held_out_log_prediction);
    s.score.cv_median_ape = Summarize(apes).median_ape;
  };

  for (RuntimeForm form : options.candidates) {
    if (form == RuntimeForm::kAverage) continue;
    Scored s;
    s.score.form = form;
    s.held_out_log_prediction.assign(train.size(), std::nan(""));
    Result<FormModel> full = FitForm(form, train, options.fit, options.scaling);
    if (!full.ok()) {
      s.score.note = full.status().message();
      scored.push_back(s);
      continue;
    }
    s.full = full.value();
    s.coefficients = Coefficients(*s.full);
    s.configurations = FewestConfigurations(form, train);
    std::string missing;
    for (const std::string& t : target_types) {
      const bool reaches =
          form == RuntimeForm::kErnest ? s.full->per_type.count(t) > 0
          : IsPooledForm(form)         ? s.full->reference_figure > 0 || s.full->single_type == t
                                       : true;
      if (!reaches) {
        missing = "cannot reach instance type " + t + " (no training run of it)";
        break;
      }
    }
    const auto fit_fold = [&](std::size_t, const std::vector<MeasuredRun>& rest) {
      return FitForm(form, rest, fold_fit, options.scaling);
    };
    if (missing.empty()) {
      missing = HeldOutPredictions(train, folds, fit_fold, &s.held_out_log_prediction,
                                   &s.fold_models);
    }
    if (!missing.empty()) {
      s.score.note = missing;
      scored.push_back(s);
      continue;
    }
    s.score.eligible = true;
    finish_score(s);
    scored.push_back(s);
  }

  // Over two or more instance types a chosen serial-floor is partially pooled (below), so its score
  // is the held-out error of that whole procedure, the penalty chosen inside each fold on the
  // fold's training runs alone (nested, so the score stays out-of-sample): the choice compares
  // the procedures that would make the prediction. Its fold models and held-out predictions stay
  // the fully pooled ones (the calibration set, and the average's member).
  std::set<std::string> trained_types;
  for (const MeasuredRun& r : train) {
    if (r.completed) trained_types.insert(r.instance_type);
  }
  const bool pool_partially = options.partial_pooling && trained_types.size() >= 2;
  double pooled_serial_floor_error = 0;
  for (Scored& s : scored) {
    if (!pool_partially || s.score.form != RuntimeForm::kSerialFloor || !s.score.eligible) continue;
    pooled_serial_floor_error = s.score.cv_error;
    Scored nested = s;
    nested.held_out_log_prediction =
        NestedPartialHeldOut(train, folds, s.fold_models, options, fold_fit);
    finish_score(nested);
    s.score.cv_error = nested.score.cv_error;
    s.score.cv_median_ape = nested.score.cv_median_ape;
  }

  // A form with as many coefficients as configurations passes through its points: its score
  // measures interpolation only. When some eligible form is over-determined, the others are not
  // eligible (with few runs every form may be exactly determined; then they all stay).
  const bool any_determined = std::any_of(scored.begin(), scored.end(), [](const Scored& s) {
    return s.score.eligible && s.configurations > s.coefficients;
  });
  std::vector<FormModel> exact_forms;
  for (Scored& s : scored) {
    if (!any_determined || !s.score.eligible || s.configurations > s.coefficients) continue;
    if (s.configurations == s.coefficients) exact_forms.push_back(*s.full);
    s.score.eligible = false;
    s.score.note = std::to_string(s.coefficients) + " coefficients on " +
                   std::to_string(s.configurations) + " distinct completed configurations" +
                   (s.score.form == RuntimeForm::kErnest ? " of an instance type" : "") +
                   ": the fit passes through them, so cross-validation cannot judge how it "
                   "extrapolates";
  }

  if (std::find(options.candidates.begin(), options.candidates.end(), RuntimeForm::kAverage) !=
      options.candidates.end()) {
    Scored avg;
    avg.score.form = RuntimeForm::kAverage;
    std::vector<const Scored*> members;
    for (const Scored& s : scored) {
      if (s.score.eligible) members.push_back(&s);
    }
    if (members.size() < 2) {
      avg.score.note = "fewer than 2 eligible forms to average";
    } else {
      std::vector<FormModel> full_members;
      for (const Scored* s : members) full_members.push_back(*s->full);
      avg.full = Average(full_members);
      for (std::size_t k = 0; k < folds.held_out.size(); ++k) {
        std::vector<FormModel> fold_members;
        for (const Scored* s : members) fold_members.push_back(s->fold_models[k]);
        avg.fold_models.push_back(Average(fold_members));
      }
      avg.held_out_log_prediction.assign(train.size(), std::nan(""));
      for (const std::vector<std::size_t>& fold : folds.held_out) {
        for (std::size_t i : fold) {
          double sum = 0;
          for (const Scored* s : members) sum += s->held_out_log_prediction[i];
          avg.held_out_log_prediction[i] = sum / static_cast<double>(members.size());
        }
      }
      avg.score.eligible = true;
      finish_score(avg);
    }
    scored.push_back(avg);
  }

  const Scored* lowest = nullptr;
  for (const Scored& s : scored) {
    if (s.score.eligible &&
        (!lowest || s.score.cv_error < lowest->score.cv_error - kExactScore)) {
      lowest = &s;
    }
  }
  const Scored* best = nullptr;
  const Scored* runner_up = nullptr;
  for (const Scored& s : scored) {
    if (!s.score.eligible) continue;
    if (!best && s.score.cv_error <=
                     lowest->score.cv_error * (1 + kParsimonyFraction) + kExactScore) {
      best = &s;
    } else if (!runner_up || s.score.cv_error < runner_up->score.cv_error) {
      runner_up = &s;
    }
  }
  ModelChoice out;
  for (const Scored& s : scored) out.candidates.push_back(s.score);
  out.scheme = folds.scheme;
  out.folds = folds.held_out.size();
  if (!best) {
    std::string why;
    for (const Scored& s : scored) {
      why += (why.empty() ? "" : "; ") + std::string(ToString(s.score.form)) + ": " + s.score.note;
    }
    return Status::InvalidArgument("no candidate runtime form fits the training runs (" + why +
                                   ")");
  }
  // Partial pooling of a chosen serial-floor: each type's parallel work = the common one + a
  // deviation shrunk by a penalty, scored by the same folds. The fully pooled form is the simplest
  // member of the family, so it stays unless it is outside the parsimony margin of the lowest
  // error; otherwise the largest (most pooled) penalty within the margin is adopted. Only
  // serial-floor: beside a common term that rises with m (log-nodes, communication, memory's
  // log m), freeing each type's parallel work lets that term absorb what the 3 smallest node
  // counts cannot separate, and it dominates beyond them (docs/accuracy.md, session 14: WordCount
  // huge, communication).
  std::optional<FormModel> partial;  // the adopted partial fit
  double partial_error = 0;
  if (pool_partially && best->score.form == RuntimeForm::kSerialFloor) {
    out.pooled_cv_error = pooled_serial_floor_error;
    std::vector<double> errors =
        PenaltyErrors(train, folds, best->fold_models, fold_fit.max_censoring_iterations);
    std::vector<std::optional<FormModel>> fits(errors.size());
    for (std::size_t j = 0; j < errors.size(); ++j) {
      const double penalty = PoolingPenaltyGrid()[j];
      if (!std::isnan(errors[j])) {
        Result<FormModel> full = FitPartiallyPooled(*best->full, train, penalty,
                                                    options.fit.max_censoring_iterations);
        if (full.ok()) {
          fits[j] = full.value();
        } else {
          errors[j] = std::nan("");
        }
      }
      out.pooling_scores.push_back({penalty, errors[j]});
    }
    out.pooling_penalty = AdoptedPenalty(out.pooled_cv_error, errors);
    for (std::size_t j = 0; j < errors.size(); ++j) {
      if (out.pooling_penalty > 0 && PoolingPenaltyGrid()[j] == out.pooling_penalty) {
        partial = fits[j];
        partial_error = errors[j];
      }
    }
  }
  out.chosen = best->score.form;
  out.model = partial ? *partial : *best->full;
  out.exact_forms = std::move(exact_forms);
  // The calibration set stays the fully pooled form's: the penalty was chosen on the partial fits'
  // held-out residuals, so those are no longer out-of-sample for a conformal interval (CV+ needs a
  // fitting procedure fixed before the residuals are seen). The pooled form's CV+ interval is a
  // valid one for the runtime whichever point is reported inside it, and CvPlusInterval widens it
  // to contain the partial fit's point.
  out.fold_models = best->fold_models;
  for (std::size_t k = 0; k < folds.held_out.size(); ++k) {
    for (std::size_t i : folds.held_out[k]) {
      out.calibration_fold.push_back(k);
      out.calibration_radius_log.push_back(
          std::abs(log_measured[i] - best->held_out_log_prediction[i]));
    }
  }
  out.reason = "model " + std::string(ToString(out.chosen)) + ": " +
               (best == lowest ? "lowest " : "") + folds.scheme +
               " error on the " + std::to_string(completed) + " completed training runs (" +
               std::to_string(out.folds) + " folds), mean |log error| " +
               Num(best->score.cv_error) +
               (out.pooling_scores.empty()
                    ? std::string()
                    : " with partial pooling, its penalty chosen inside each fold (fully pooled " +
                          Num(pooled_serial_floor_error) + ")") +
               ", median APE " + Num(100 * best->score.cv_median_ape) + "%";
  if (best != lowest) {
    out.reason += " (the simplest form within " + Num(100 * kParsimonyFraction) + "% of " +
                  std::string(ToString(lowest->score.form)) + "'s " +
                  Num(lowest->score.cv_error) + ")";
  } else if (runner_up) {
    out.reason += "; next " + std::string(ToString(runner_up->score.form)) + " " +
                  Num(runner_up->score.cv_error);
  }
  if (partial) {
    out.reason += "; per-type deviations shrunk toward it with penalty " +
                  Num(out.pooling_penalty) + " lower the fully pooled error to " +
                  Num(partial_error);
  } else if (!out.pooling_scores.empty()) {
    out.reason += "; fully pooled (per-type deviations did not lower its error by more than " +
                  Num(100 * kParsimonyFraction) + "%)";
  }
  return out;
}

std::vector<ConformalPoint> CalibrationPoints(const ModelChoice& choice, const MeasuredRun& target,
                                              double predicted_seconds) {
  std::vector<ConformalPoint> out;
  std::vector<std::optional<double>> centre(choice.fold_models.size());
  for (std::size_t k = 0; k < choice.fold_models.size(); ++k) {
    centre[k] = PredictForm(choice.fold_models[k], target);
  }
  for (std::size_t j = 0; j < choice.calibration_fold.size(); ++j) {
    const std::optional<double>& c = centre[choice.calibration_fold[j]];
    out.push_back({std::log(c ? *c : predicted_seconds), choice.calibration_radius_log[j]});
  }
  return out;
}

}  // namespace perfplan::models
