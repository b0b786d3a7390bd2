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
  if (halving_final_candidates < 1) {
    return Status::InvalidArgument("halving_final_candidates: 0; expected at least 1");
  }
  if (!(budget_seconds > 0)) {
    return Status::InvalidField("budget_seconds", "" + std::to_string(budget_seconds) +
                                                      "; expected a positive number of seconds");
  }
  return Status::Ok();
}

Result<CvResult> CrossValidate(const Dataset& data, ModelKind kind, const HyperParams& params,
                               const CvOptions& cv, const SolverOptions& solver) {
  Result<std::vector<CvResult>> path = CrossValidatePath(data, kind, {params}, cv, solver);
  if (!path.ok()) return path.status();
  return std::move(path.value().front());
}

Result<std::vector<CvResult>> CrossValidatePath(const Dataset& data, ModelKind kind,
                                                const std::vector<HyperParams>& path,
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
  std::vector<CvResult> out(path.size());
  for (CvResult& r : out) r.predictions.assign(n, 0.0);
  for (int f = 0; f < cv.folds; ++f) {
    std::vector<std::size_t> train;
    for (std::size_t i = 0; i < n; ++i) {
      if (fold[i] != f) train.push_back(i);
    }
    Result<std::vector<Model>> models = Model::FitPath(data, kind, path, solver, train);
    if (!models.ok()) return models.status();
    for (std::size_t c = 0; c < path.size(); ++c) {
      for (std::size_t i = 0; i < n; ++i) {
        if (fold[i] == f) out[c].predictions[i] = models.value()[c].Predict(data.x[i]);
      }
    }
  }
  for (CvResult& r : out) {
    Result<double> mre = MeanRelativeError(data.y, r.predictions);
    if (!mre.ok()) return mre.status();
    r.mre = mre.value();
  }
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
    case ModelKind::kGaussianProcess:  // length scale and noise: marginal likelihood per fit
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

// One cross-validation to run: kind index, candidate index, rung data; with `whole_kind`, every
// candidate of the kind at once (CrossValidatePath: ridge's λ grid shares its Gram matrices).
struct Task {
  std::size_t kind = 0, candidate = 0;
  const Dataset* data = nullptr;
  bool whole_kind = false;
  bool always = false;  // run even when the budget is spent (a kind's default at its first rung)
};
struct TaskResult {
  bool ran = false;
  std::vector<double> mre;  // per candidate of the task
  Status status = Status::Ok();
};

// Two candidates of one kind on the same C path: every hyper-parameter but C equal.
bool SamePath(const HyperParams& a, const HyperParams& b) {
  return a.gamma == b.gamma && a.epsilon == b.epsilon && a.nu == b.nu && a.degree == b.degree &&
         a.coef0 == b.coef0 && a.lambda == b.lambda;
}

// The C paths of one kind's candidates: groups of candidate indices, each in increasing C, in
// the order of their first candidate in search order.
std::vector<std::vector<std::size_t>> CPaths(const std::vector<HyperParams>& candidates) {
  std::vector<std::vector<std::size_t>> paths;
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    auto it = std::find_if(paths.begin(), paths.end(), [&](const std::vector<std::size_t>& p) {
      return SamePath(candidates[p.front()], candidates[c]);
    });
    if (it == paths.end()) {
      paths.push_back({c});
    } else {
      it->push_back(c);
    }
  }
  for (auto& p : paths) {
    std::stable_sort(p.begin(), p.end(), [&](std::size_t a, std::size_t b) {
      return candidates[a].c < candidates[b].c;
    });
  }
  return paths;
}

// How many of `alive` candidates go on to the next rung when `transitions` rung changes remain:
// the best 1/η, η = max(kHalvingFactor, (alive / final_candidates)^(1/transitions)), so the last
// rung (all runs) holds final_candidates (fewer only when fewer are left).
std::size_t Survivors(std::size_t alive, std::size_t transitions, std::size_t final_candidates) {
  const double final_count = static_cast<double>(final_candidates);
  const double eta =
      std::max<double>(kHalvingFactor, std::pow(static_cast<double>(alive) / final_count,
                                                1.0 / static_cast<double>(transitions)));
  const auto keep = static_cast<std::size_t>(std::ceil(static_cast<double>(alive) / eta - 1e-9));
  return std::min(alive, std::max(keep, final_candidates));
}

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
  const std::size_t n = data.runs();
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
  std::vector<bool> started(sel.kinds.size(), false);
  // Per candidate: its latest MRE and the runs of the rung that gave it (0 = not run).
  std::vector<std::vector<double>> mre(sel.kinds.size());
  std::vector<std::vector<std::size_t>> mre_runs(sel.kinds.size());
  for (std::size_t k = 0; k < sel.kinds.size(); ++k) {
    mre[k].assign(candidates[k].size(), INFINITY);
    mre_runs[k].assign(candidates[k].size(), 0);
  }

  // Cross-validates `tasks` (threads share them out) and books each result on its kind: fits,
  // evaluated (at `first_rung`), the rung's runs, and the kind's best so far at that rung.
  auto run = [&](std::vector<Task> tasks, bool first_rung) -> Status {
    for (Task& t : tasks) {
      t.always = !started[t.kind] && t.candidate == 0;
    }
    // Every kind's default first, as the budget skips from the end.
    std::stable_sort(tasks.begin(), tasks.end(),
                     [](const Task& a, const Task& b) { return a.always && !b.always; });
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
        const std::vector<HyperParams> path =
            task.whole_kind ? candidates[task.kind]
                            : std::vector<HyperParams>{candidates[task.kind][task.candidate]};
        Result<std::vector<CvResult>> cv = CrossValidatePath(
            *task.data, sel.kinds[task.kind].kind, path, settings.cv, settings.solver);
        results[t].ran = true;
        if (!cv.ok()) {
          results[t].status = cv.status();
        } else {
          for (const CvResult& r : cv.value()) results[t].mre.push_back(r.mre);
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
    for (std::size_t t = 0; t < tasks.size(); ++t) {
      if (!results[t].status.ok()) return results[t].status;
      if (!results[t].ran) continue;
      const Task& task = tasks[t];
      KindResult& kr = sel.kinds[task.kind];
      started[task.kind] = true;
      const std::size_t runs = task.data->runs();
      if (kr.rung_runs.empty() || kr.rung_runs.back() != runs) {
        kr.rung_runs.push_back(runs);
        kr.mre = INFINITY;  // a larger rung: its MRE replaces the smaller rung's
      }
      kr.mre_runs = runs;
      for (std::size_t i = 0; i < results[t].mre.size(); ++i) {
        const std::size_t c = task.whole_kind ? i : task.candidate;
        const double m = results[t].mre[i];
        kr.fits += settings.cv.folds;
        if (first_rung) ++kr.evaluated;
        mre[task.kind][c] = m;
        mre_runs[task.kind][c] = runs;
        if (m < kr.mre || (m == kr.mre && c < kr.best_candidate)) {
          kr.mre = m;
          kr.params = candidates[task.kind][c];
          kr.best_candidate = c;
        }
      }
    }
    return Status::Ok();
  };

  // Kinds searched on all runs with their full grid: every kind for the grid strategy; the
  // cheap kinds (ridge, poly-ridge, the Gaussian process on at most kGpMaxRuns runs, mean) for
  // halving.
  const bool halving = settings.strategy == SearchStrategy::kSuccessiveHalving;
  std::vector<std::size_t> pooled;  // the SVR kinds of successive halving
  {
    std::vector<Task> tasks;
    for (std::size_t k = 0; k < sel.kinds.size(); ++k) {
      if (halving && IsSvr(sel.kinds[k].kind)) {
        if (!candidates[k].empty()) pooled.push_back(k);
        continue;
      }
      if (candidates[k].empty()) continue;
      if (IsSvr(sel.kinds[k].kind)) {  // the grid: one task per candidate, shared by threads
        for (std::size_t c = 0; c < candidates[k].size(); ++c) tasks.push_back({k, c, &data});
      } else {
        tasks.push_back({k, 0, &data, true});
      }
    }
    if (Status s = run(std::move(tasks), true); !s.ok()) return s;
  }

  if (!pooled.empty()) {
    std::size_t pool_size = 0;
    for (std::size_t k : pooled) pool_size += candidates[k].size();
    const std::vector<std::size_t> sizes =
        RungSizes(n, pool_size, settings.cv.folds, settings.halving_min_runs);
    // The subsample of each rung: the first `size` runs of one seeded permutation, so a larger
    // rung holds every run of a smaller one.
    std::vector<std::size_t> perm(n);
    for (std::size_t i = 0; i < n; ++i) perm[i] = i;
    models::Rng subsample_rng(settings.cv.seed ^ 0xA5A5A5A5A5A5A5A5ULL);
    subsample_rng.Shuffle(perm);
    std::map<std::size_t, Dataset> subsets;
    for (std::size_t size : sizes) {
      if (size == n) continue;
      std::vector<std::size_t> rows(perm.begin(), perm.begin() + static_cast<std::ptrdiff_t>(size));
      std::sort(rows.begin(), rows.end());
      subsets.emplace(size, Subset(data, rows));
    }
    auto rung_data = [&](std::size_t size) -> const Dataset* {
      return size == n ? &data : &subsets.at(size);
    };

    // First rung: each C path in waves of increasing C; when there are later rungs, a path
    // stops at the first C that does not lower its MRE by kCPathImprovement (the default
    // candidate is always tried). A single rung (small data) tries every candidate, as the grid.
    const Dataset* first = rung_data(sizes.front());
    const bool prune_paths = sizes.size() > 1;
    struct Path {
      std::size_t kind;
      std::vector<std::size_t> order;
    };
    std::vector<Path> paths;
    for (std::size_t k : pooled) {
      for (auto& p : CPaths(candidates[k])) paths.push_back({k, std::move(p)});
    }
    // The next larger C on each candidate's path (SIZE_MAX at a path's end).
    std::vector<std::vector<std::size_t>> larger_c(sel.kinds.size());
    for (std::size_t k : pooled) larger_c[k].assign(candidates[k].size(), SIZE_MAX);
    for (const Path& p : paths) {
      for (std::size_t i = 0; i + 1 < p.order.size(); ++i) larger_c[p.kind][p.order[i]] = p.order[i + 1];
    }
    std::vector<bool> open(paths.size(), true);
    std::vector<double> path_best(paths.size(), INFINITY);
    std::vector<std::pair<std::size_t, std::size_t>> tried;  // (kind, candidate)
    for (std::size_t wave = 0;; ++wave) {
      std::vector<Task> tasks;
      for (std::size_t p = 0; p < paths.size(); ++p) {
        if (wave >= paths[p].order.size()) continue;
        const std::size_t c = paths[p].order[wave];
        if (open[p] || c == 0) tasks.push_back({paths[p].kind, c, first});
      }
      if (tasks.empty()) break;
      if (Status s = run(tasks, true); !s.ok()) return s;
      for (std::size_t p = 0; p < paths.size(); ++p) {
        if (wave >= paths[p].order.size()) continue;
        const std::size_t c = paths[p].order[wave];
        const double m = mre[paths[p].kind][c];
        if (!std::isfinite(m)) {
          if (open[p] && c != 0) open[p] = false;  // skipped by the budget
          continue;
        }
        tried.push_back({paths[p].kind, c});
        if (prune_paths && wave > 0 && !(m < (1 - kCPathImprovement) * path_best[p])) {
          open[p] = false;
        }
        path_best[p] = std::min(path_best[p], m);
      }
    }

    // Later rungs: the pool's best (MRE, kind order, search order) go on.
    std::vector<std::pair<std::size_t, std::size_t>> alive = tried;
    for (std::size_t r = 1; r < sizes.size(); ++r) {
      std::sort(alive.begin(), alive.end(), [&](const auto& a, const auto& b) {
        const double ma = mre[a.first][a.second], mb = mre[b.first][b.second];
        return ma != mb ? ma < mb : a < b;
      });
      alive.resize(Survivors(alive.size(), sizes.size() - r, settings.halving_final_candidates));
      // On all runs each survivor is joined by its path's next larger C: the best C grows with
      // the runs (less regularisation needed), and the first rung's C paths stopped on a third
      // or less of them.
      if (r + 1 == sizes.size()) {
        const std::size_t survivors = alive.size();
        for (std::size_t i = 0; i < survivors; ++i) {
          const auto [k, c] = alive[i];
          const std::size_t next = larger_c[k][c];
          if (next != SIZE_MAX && std::find(alive.begin(), alive.end(), std::make_pair(k, next)) ==
                                      alive.end()) {
            alive.push_back({k, next});
          }
        }
      }
      std::sort(alive.begin(), alive.end());
      std::vector<Task> tasks;
      for (const auto& [k, c] : alive) tasks.push_back({k, c, rung_data(sizes[r])});
      if (Status s = run(std::move(tasks), false); !s.ok()) return s;
      alive.erase(std::remove_if(alive.begin(), alive.end(),
                                 [&](const auto& kc) {  // skipped by the budget
                                   return mre_runs[kc.first][kc.second] != sizes[r];
                                 }),
                  alive.end());
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
  // The choice: the lowest MRE among the kinds cross-validated on all runs (with the budget, on
  // the largest rung any kind reached).
  std::size_t top_runs = 0;
  for (const KindResult& kr : sel.kinds) top_runs = std::max(top_runs, kr.mre_runs);
  bool first_kind = true;
  for (const KindResult& kr : sel.kinds) {
    if (kr.kind == ModelKind::kMean) sel.mean_mre = kr.mre;
    if (kr.mre_runs != top_runs) continue;
    if (first_kind || kr.mre < sel.chosen_mre) {
      sel.chosen = kr.kind;
      sel.chosen_mre = kr.mre;
      first_kind = false;
    }
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
