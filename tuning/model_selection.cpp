#include "tuning/model_selection.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <thread>

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
  if (kinds.empty()) return Status::InvalidArgument("kinds: empty; name at least one model kind");
  if (threads < 1) {
    return Status::InvalidArgument("threads: " + std::to_string(threads) + "; expected at least 1");
  }
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

std::string_view ToString(SearchStrategy strategy) {
  return strategy == SearchStrategy::kFullGrid ? "grid" : "halving";
}

bool Parse(std::string_view text, SearchStrategy* strategy) {
  if (text == "halving") {
    *strategy = SearchStrategy::kSuccessiveHalving;
  } else if (text == "grid") {
    *strategy = SearchStrategy::kFullGrid;
  } else {
    return false;
  }
  return true;
}

namespace {

bool IsSvr(ModelKind kind) {
  return kind == ModelKind::kEpsSvrRbf || kind == ModelKind::kEpsSvrLinear ||
         kind == ModelKind::kEpsSvrPoly || kind == ModelKind::kNuSvrRbf;
}

// The rows of `data` at `rows`, in that order (the sub-dataset of one rung).
Dataset Subset(const Dataset& data, const std::vector<std::size_t>& rows) {
  Dataset out;
  out.source = data.source;
  out.target = data.target;
  out.features = data.features;
  for (std::size_t i : rows) {
    out.x.push_back(data.x[i]);
    out.y.push_back(data.y[i]);
    out.lines.push_back(data.lines[i]);
  }
  return out;
}

// Rung sizes for n runs: n / 3^k down to min_runs (at least 2 × folds), ending with n.
std::vector<std::size_t> RungSizes(std::size_t n, std::size_t candidates, int folds,
                                   std::size_t min_runs) {
  std::vector<std::size_t> sizes = {n};
  const std::size_t floor_runs =
      std::max<std::size_t>(min_runs, static_cast<std::size_t>(folds) * 2);
  std::size_t left = candidates;
  while (left > 1) {
    const std::size_t next = sizes.front() / kHalvingFactor;
    if (next < floor_runs) break;
    sizes.insert(sizes.begin(), next);
    left = (left + kHalvingFactor - 1) / kHalvingFactor;
  }
  return sizes;
}

// One cross-validation to run: kind index, candidate index, rung.
struct Task {
  std::size_t kind = 0, candidate = 0;
  const Dataset* data = nullptr;
  bool always = false;  // run even when the budget is spent (a kind's default at its first rung)
};
struct TaskResult {
  bool ran = false;
  double mre = INFINITY;
  Status status = Status::Ok();
};

}  // namespace

Result<Selection> SelectModel(const Dataset& data, const SearchOptions& settings) {
  if (Status s = settings.Validate(); !s.ok()) return s;
  const auto clock = settings.clock ? settings.clock : std::function<double()>(SteadySeconds);
  const double start = clock();
  Selection sel;
  sel.target = data.target;
  sel.folds = settings.cv.folds;
  sel.seed = settings.cv.seed;
  sel.strategy = settings.strategy;
  std::vector<std::vector<HyperParams>> candidates;
  for (ModelKind k : settings.kinds) {
    candidates.push_back(SearchCandidates(k, data.features.size()));
    if (k == ModelKind::kPolyRidge && PolyTerms(data.features.size()) > kMaxPolyRidgeTerms) {
      candidates.back().clear();
      sel.warnings.push_back("poly-ridge skipped: " + std::to_string(data.features.size()) +
                             " parameters expand into " +
                             std::to_string(PolyTerms(data.features.size())) + " terms");
    }
    KindResult kr;
    kr.kind = k;
    kr.candidates = static_cast<int>(candidates.back().size());
    kr.mre = INFINITY;
    sel.kinds.push_back(kr);
  }

  // Rungs per kind and the subsample of each rung size: the first `size` runs of one seeded
  // permutation, so a larger rung holds every run of a smaller one.
  const std::size_t n = data.runs();
  std::vector<std::vector<std::size_t>> rungs(sel.kinds.size());
  std::size_t max_rungs = 0;
  for (std::size_t k = 0; k < sel.kinds.size(); ++k) {
    if (candidates[k].empty()) continue;
    rungs[k] = settings.strategy == SearchStrategy::kSuccessiveHalving && IsSvr(sel.kinds[k].kind)
                   ? RungSizes(n, candidates[k].size(), settings.cv.folds, settings.halving_min_runs)
                   : std::vector<std::size_t>{n};
    sel.kinds[k].rung_runs = rungs[k];
    max_rungs = std::max(max_rungs, rungs[k].size());
  }
  std::vector<std::size_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = i;
  models::Rng subsample_rng(settings.cv.seed ^ 0xA5A5A5A5A5A5A5A5ULL);
  subsample_rng.Shuffle(perm);
  std::map<std::size_t, Dataset> subsets;
  for (const auto& sizes : rungs) {
    for (std::size_t size : sizes) {
      if (size == n || subsets.count(size)) continue;
      std::vector<std::size_t> rows(perm.begin(), perm.begin() + static_cast<std::ptrdiff_t>(size));
      std::sort(rows.begin(), rows.end());
      subsets.emplace(size, Subset(data, rows));
    }
  }
  auto rung_data = [&](std::size_t size) -> const Dataset* {
    return size == n ? &data : &subsets.at(size);
  };

  // Survivors per kind, in search order. Rungs are aligned at the end (every kind's last rung is
  // all runs), so kinds with fewer rungs start later and all finish together.
  std::vector<std::vector<std::size_t>> alive(sel.kinds.size());
  for (std::size_t k = 0; k < sel.kinds.size(); ++k) {
    for (std::size_t c = 0; c < candidates[k].size(); ++c) alive[k].push_back(c);
  }
  std::vector<bool> started(sel.kinds.size(), false);
  for (std::size_t step = 0; step < max_rungs; ++step) {
    std::vector<Task> tasks;
    std::vector<std::size_t> rung_of(sel.kinds.size(), SIZE_MAX);
    for (std::size_t k = 0; k < sel.kinds.size(); ++k) {
      if (rungs[k].empty()) continue;
      const std::size_t offset = max_rungs - rungs[k].size();
      if (step < offset) continue;
      rung_of[k] = step - offset;
      const Dataset* d = rung_data(rungs[k][rung_of[k]]);
      for (std::size_t c : alive[k]) {
        tasks.push_back({k, c, d, !started[k] && c == 0});
      }
      started[k] = true;
    }
    // Interleave kinds (every kind's default first), as the budget skips from the end.
    std::stable_sort(tasks.begin(), tasks.end(), [&](const Task& a, const Task& b) {
      const auto pa = std::find(alive[a.kind].begin(), alive[a.kind].end(), a.candidate) -
                      alive[a.kind].begin();
      const auto pb = std::find(alive[b.kind].begin(), alive[b.kind].end(), b.candidate) -
                      alive[b.kind].begin();
      return pa < pb;
    });
    std::vector<TaskResult> results(tasks.size());
    std::atomic<std::size_t> next{0};
    std::atomic<bool> over_budget{false};
    auto worker = [&] {
      for (std::size_t t = next++; t < tasks.size(); t = next++) {
        const Task& task = tasks[t];
        if (!task.always && (over_budget || clock() - start > settings.budget_seconds)) {
          over_budget = true;
          continue;
        }
        Result<CvResult> cv = CrossValidate(*task.data, sel.kinds[task.kind].kind,
                                            candidates[task.kind][task.candidate], settings.cv,
                                            settings.solver);
        results[t].ran = true;
        if (!cv.ok()) {
          results[t].status = cv.status();
        } else {
          results[t].mre = cv.value().mre;
        }
      }
    };
    const int threads = std::max(1, std::min<int>(settings.threads, static_cast<int>(tasks.size())));
    if (threads == 1) {
      worker();
    } else {
      std::vector<std::thread> pool;
      for (int i = 0; i < threads; ++i) pool.emplace_back(worker);
      for (std::thread& th : pool) th.join();
    }
    if (over_budget) sel.budget_exhausted = true;
    for (const TaskResult& r : results) {
      if (!r.status.ok()) return r.status;
    }
    // Rank each kind's survivors by (MRE, search order); keep the best third except at the last
    // rung, where the best of all runs is the kind's answer.
    for (std::size_t k = 0; k < sel.kinds.size(); ++k) {
      if (rung_of[k] == SIZE_MAX) continue;
      std::vector<std::pair<double, std::size_t>> ranked;
      for (std::size_t t = 0; t < tasks.size(); ++t) {
        if (tasks[t].kind != k || !results[t].ran) continue;
        ranked.push_back({results[t].mre, tasks[t].candidate});
        if (rung_of[k] == 0) ++sel.kinds[k].evaluated;
        sel.kinds[k].fits += settings.cv.folds;
      }
      std::sort(ranked.begin(), ranked.end());
      const bool last = rung_of[k] + 1 == rungs[k].size();
      if (last) {
        if (!ranked.empty()) {
          sel.kinds[k].mre = ranked.front().first;
          sel.kinds[k].params = candidates[k][ranked.front().second];
        }
        continue;
      }
      const std::size_t keep = std::max<std::size_t>(
          1, (ranked.size() + kHalvingFactor - 1) / kHalvingFactor);
      alive[k].clear();
      for (std::size_t i = 0; i < std::min(keep, ranked.size()); ++i) {
        alive[k].push_back(ranked[i].second);
      }
      std::sort(alive[k].begin(), alive[k].end());
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
