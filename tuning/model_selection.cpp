#include "tuning/model_selection.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "models/random.h"

namespace perfplan::tuning {
namespace {

// Fold of each run: a seeded permutation dealt round-robin into k folds.
std::vector<int> AssignFolds(std::size_t n, int k, std::uint64_t seed) {
  std::vector<std::size_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = i;
  models::Rng rng(seed);
  rng.Shuffle(perm);
  std::vector<int> fold(n);
  for (std::size_t pos = 0; pos < n; ++pos) fold[perm[pos]] = static_cast<int>(pos % k);
  return fold;
}

double SteadySeconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

Status CvOptions::Validate() const {
  if (folds < 2) {
    return Status::InvalidField("folds", "" + std::to_string(folds) + "; expected at least 2");
  }
  return Status::Ok();
}

Status SearchOptions::Validate() const {
  if (Status s = cv.Validate(); !s.ok()) return s;
  if (kinds.empty()) return Status::InvalidField("kinds", "empty; name at least one model kind");
  if (!(budget_seconds > 0)) {
    return Status::InvalidField("budget_seconds", "" + std::to_string(budget_seconds) +
                                                      "; expected a positive number of seconds");
  }
  return Status::Ok();
}

Result<CvResult> CrossValidate(const Dataset& data, ModelKind kind, const HyperParams& params,
                               const CvOptions& cv, const SolverOptions& solver) {
  if (Status s = cv.Validate(); !s.ok()) return s;
  const std::size_t n = data.runs();
  if (n < static_cast<std::size_t>(cv.folds)) {
    return Status::InvalidArgument(data.source + ": " + std::to_string(n) +
                                   " runs, fewer than the " + std::to_string(cv.folds) +
                                   " cross-validation folds; use fewer folds or more runs");
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (data.y[i] == 0) {
      return Status::InvalidArgument(
          data.source + ":" + std::to_string(data.lines[i]) + ": " + data.target +
          ": the target is 0, so its relative error is undefined; MRE needs non-zero targets");
    }
  }
  const std::vector<int> fold = AssignFolds(n, cv.folds, cv.seed);
  CvResult out;
  out.predictions.assign(n, 0.0);
  for (int f = 0; f < cv.folds; ++f) {
    std::vector<std::size_t> train;
    for (std::size_t i = 0; i < n; ++i) {
      if (fold[i] != f) train.push_back(i);
    }
    Result<Model> model = Model::Fit(data, kind, params, solver, train);
    if (!model.ok()) return model.status();
    for (std::size_t i = 0; i < n; ++i) {
      if (fold[i] == f) out.predictions[i] = model.value().Predict(data.x[i]);
    }
  }
  Result<double> mre = MeanRelativeError(data.y, out.predictions);
  if (!mre.ok()) return mre.status();
  out.mre = mre.value();
  return out;
}

std::vector<HyperParams> SearchCandidates(ModelKind kind, std::size_t features) {
  const double g0 = 1.0 / static_cast<double>(std::max<std::size_t>(features, 1));
  std::vector<HyperParams> out;
  HyperParams base;
  base.gamma = g0;
  out.push_back(base);  // the default first
  auto add = [&](HyperParams p) {
    for (const auto& q : out) {
      if (q.c == p.c && q.gamma == p.gamma && q.epsilon == p.epsilon && q.nu == p.nu &&
          q.lambda == p.lambda && q.degree == p.degree) {
        return;
      }
    }
    out.push_back(p);
  };
  switch (kind) {
    case ModelKind::kEpsSvrRbf:
    case ModelKind::kNuSvrRbf:
      for (double c : {1.0, 10.0, 100.0, 0.1, 1000.0}) {
        for (double gm : {1.0, 0.3, 3.0, 0.1}) {
          for (double e : {0.1, 0.01}) {
            if (kind == ModelKind::kNuSvrRbf && e != 0.1) continue;
            HyperParams p = base;
            p.c = c;
            p.gamma = g0 * gm;
            p.epsilon = e;
            add(p);
          }
        }
      }
      break;
    case ModelKind::kEpsSvrLinear:
    case ModelKind::kEpsSvrPoly:
      for (double c : {1.0, 0.1, 10.0, 0.01, 100.0}) {
        if (kind == ModelKind::kEpsSvrPoly && c > 10.0) continue;  // slow to converge, rarely best
        for (double e : {0.1, 0.01}) {
          HyperParams p = base;
          p.c = c;
          p.epsilon = e;
          add(p);
        }
      }
      break;
    case ModelKind::kRidge:
    case ModelKind::kPolyRidge:
      for (double l : {1.0, 0.001, 0.01, 0.1, 10.0, 100.0, 1e3, 1e4, 1e5}) {
        HyperParams p = base;
        p.lambda = l;
        add(p);
      }
      break;
    case ModelKind::kMean:
      break;
  }
  return out;
}

Result<Selection> SelectModel(const Dataset& data, const SearchOptions& settings) {
  if (Status s = settings.Validate(); !s.ok()) return s;
  const auto clock = settings.clock ? settings.clock : std::function<double()>(SteadySeconds);
  const double start = clock();
  Selection sel;
  sel.target = data.target;
  sel.folds = settings.cv.folds;
  sel.seed = settings.cv.seed;
  std::vector<std::vector<HyperParams>> candidates;
  std::size_t rounds = 0;
  for (ModelKind k : settings.kinds) {
    candidates.push_back(SearchCandidates(k, data.features.size()));
    if (k == ModelKind::kPolyRidge && PolyTerms(data.features.size()) > kMaxPolyRidgeTerms) {
      candidates.back().clear();
      sel.warnings.push_back("poly-ridge skipped: " + std::to_string(data.features.size()) +
                             " parameters expand into " +
                             std::to_string(PolyTerms(data.features.size())) + " terms");
    }
    rounds = std::max(rounds, candidates.back().size());
    KindResult kr;
    kr.kind = k;
    kr.candidates = static_cast<int>(candidates.back().size());
    kr.mre = INFINITY;
    sel.kinds.push_back(kr);
  }
  for (std::size_t r = 0; r < rounds; ++r) {
    for (std::size_t k = 0; k < sel.kinds.size(); ++k) {
      if (r >= candidates[k].size()) continue;
      if (r > 0 && clock() - start > settings.budget_seconds) {
        sel.budget_exhausted = true;
        continue;
      }
      Result<CvResult> cv =
          CrossValidate(data, sel.kinds[k].kind, candidates[k][r], settings.cv, settings.solver);
      if (!cv.ok()) return cv.status();
      ++sel.kinds[k].evaluated;
      if (cv.value().mre < sel.kinds[k].mre) {
        sel.kinds[k].mre = cv.value().mre;
        sel.kinds[k].params = candidates[k][r];
      }
    }
  }
  if (sel.budget_exhausted) {
    char budget[32];
    std::snprintf(budget, sizeof budget, "%g", settings.budget_seconds);
    sel.warnings.push_back("the time budget of " + std::string(budget) +
                           " s ended the hyper-parameter search early; results depend on "
                           "machine speed (raise budget_seconds for a complete, repeatable "
                           "search)");
  }
  if (std::all_of(sel.kinds.begin(), sel.kinds.end(),
                  [](const KindResult& k) { return k.evaluated == 0; })) {
    return Status::InvalidArgument("no model kind could be evaluated: " + sel.warnings.front());
  }
  sel.chosen = sel.kinds.front().kind;
  sel.chosen_mre = sel.kinds.front().mre;
  for (const KindResult& kr : sel.kinds) {
    if (kr.mre < sel.chosen_mre) {
      sel.chosen = kr.kind;
      sel.chosen_mre = kr.mre;
    }
    if (kr.kind == ModelKind::kMean) sel.mean_mre = kr.mre;
  }
  if (sel.chosen == ModelKind::kMean) {
    sel.warnings.push_back("no model beats the mean predictor on " + data.target +
                           "; the parameters given do not explain it");
  }
  return sel;
}

Result<Model> TrainSelected(const Dataset& data, const Selection& selection,
                            const SolverOptions& solver) {
  HyperParams params;
  for (const KindResult& kr : selection.kinds) {
    if (kr.kind == selection.chosen) params = kr.params;
  }
  Result<Model> model = Model::Fit(data, selection.chosen, params, solver);
  if (!model.ok()) return model;
  model.value().set_cv_mre(selection.chosen_mre);
  model.value().set_baseline(data.x.front());
  return model;
}

}  // namespace perfplan::tuning
