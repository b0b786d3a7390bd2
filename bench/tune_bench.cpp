// Benchmarks of the config-sensitivity models (issue 5, item 9), plain chrono loops:
//   tune_bench [RUNS=2000] [PARAMETERS=30] [C=1] [CSV_OUT|-] [THREADS=1]
// 1. ε-SVR (RBF) training time on RUNS x PARAMETERS synthetic runs (compare with
//    bench/tune_sklearn_bench.py on the CSV written to CSV_OUT);
// 2. sensitivity of all parameters (mean of 100 calls);
// 3. a recommendation over 10^5 sampled configurations plus refinement;
// 4. the full `tune cv` search (successive halving over every kind, THREADS threads, --final N
//    candidates on all runs), the share of its cheap kinds and of the Gaussian process, and with
//    --grid the full ε-SVR (RBF) grid on all runs (compare with bench/tune_gridsearch_bench.py,
//    scikit-learn's GridSearchCV over the same 40 candidates and 5 folds). --search-only skips 1-3.
// --per-candidate instead times one fit of every search candidate (where the search's time goes).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "tuning/recommend.h"
#include "tuning/model_selection.h"
#include "tuning/sensitivity.h"

namespace {

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Process CPU seconds: the machine is shared, so wall time alone overstates the cost.
double CpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

perfplan::tuning::Dataset Synthetic(int runs, int params) {
  perfplan::tuning::Dataset d;
  d.source = "synthetic";
  d.target = "time_seconds";
  std::uint64_t s = 12345;
  auto next = [&s] {  // SplitMix64 → [0, 1)
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return static_cast<double>((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
  };
  for (int j = 0; j < params; ++j) {
    perfplan::tuning::Feature f;
    f.name = f.parameter = "p" + std::to_string(j);
    f.min = 0;
    f.max = 1;
    d.features.push_back(f);
  }
  for (int i = 0; i < runs; ++i) {
    std::vector<double> x(params);
    double y = 100;
    for (int j = 0; j < params; ++j) {
      x[j] = next();
      y += (j % 3 == 0 ? 40.0 / (x[j] + 0.2) : j % 3 == 1 ? 30 * x[j] * x[j] : 5 * x[j]);
    }
    y *= 1 + 0.02 * (next() - 0.5);
    d.x.push_back(x);
    d.y.push_back(y);
    d.lines.push_back(i + 2);
  }
  return d;
}

// 1-3: ε-SVR (RBF) training, sensitivity, batch prediction and a recommendation.
bool TrainSensitivityRecommend(const perfplan::tuning::Dataset& d, double c, int threads,
                               double* sink_out) {
  using namespace perfplan::tuning;
  using perfplan::Result;
  const int runs = static_cast<int>(d.runs());
  const int params = static_cast<int>(d.features.size());
  HyperParams hp;
  hp.c = c;
  auto t0 = std::chrono::steady_clock::now();
  double c0 = CpuSeconds();
  Result<Model> m = Model::Fit(d, ModelKind::kEpsSvrRbf, hp);
  const double train_s = Seconds(t0);
  if (!m.ok()) {
    std::fprintf(stderr, "%s\n", m.status().message().c_str());
    return false;
  }
  Model model = std::move(m).value();
  model.set_baseline(d.x[0]);
  std::printf(
      "train eps-svr-rbf: %d runs x %d parameters, C=%g: %.3f s wall, %.3f s CPU, %zu support "
      "vectors\n",
      runs, params, c, train_s, CpuSeconds() - c0, model.support_vectors());

  t0 = std::chrono::steady_clock::now();
  c0 = CpuSeconds();
  constexpr int kReps = 100;
  double& sink = *sink_out;
  for (int r = 0; r < kReps; ++r) sink += ComputeSensitivity(model, {}).value().predicted;
  std::printf("sensitivity of %d parameters: %.3f ms wall, %.3f ms CPU per call\n", params,
              1e3 * Seconds(t0) / kReps, 1e3 * (CpuSeconds() - c0) / kReps);

  {
    std::vector<std::vector<double>> rows(100000, std::vector<double>(params));
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = d.x[i % d.runs()];
    std::vector<double> out;
    t0 = std::chrono::steady_clock::now();
    c0 = CpuSeconds();
    for (std::size_t i = 0; i < rows.size(); i += 512) {
      std::vector<std::vector<double>> chunk(rows.begin() + i,
                                             rows.begin() + std::min(rows.size(), i + 512));
      model.PredictBatch(chunk, &out);
      sink += out[0];
    }
    std::printf("batch prediction of 10^5 configurations: %.3f s wall, %.3f s CPU\n", Seconds(t0),
                CpuSeconds() - c0);
  }

  RecommendOptions rs;
  rs.samples = 100000;
  rs.threads = threads;
  t0 = std::chrono::steady_clock::now();
  c0 = CpuSeconds();
  const Recommendation rec = Recommend(model, rs).value();
  std::printf(
      "recommend over %zu samples (+refinement, %zu model evaluations, %d threads): %.3f s "
      "wall, %.3f s CPU\n",
      rs.samples, rec.evaluated, threads, Seconds(t0), CpuSeconds() - c0);

  return true;
}

// --per-candidate: the CPU time of one fit of every search candidate of every kind on one
// fold's training rows (every fifth run held out), with its MRE on the held-out runs: where
// the search's time goes.
bool PerCandidate(const perfplan::tuning::Dataset& d) {
  using namespace perfplan::tuning;
  std::vector<std::size_t> train, test;
  for (std::size_t i = 0; i < d.runs(); ++i) (i % 5 == 4 ? test : train).push_back(i);
  for (ModelKind kind : AllModelKinds()) {
    double total = 0;
    const std::vector<HyperParams> candidates = SearchCandidates(kind, d.features.size());
    for (const HyperParams& p : candidates) {
      const double c0 = CpuSeconds();
      perfplan::Result<Model> m = Model::Fit(d, kind, p, {}, train);
      const double cpu = CpuSeconds() - c0;
      total += cpu;
      if (!m.ok()) {
        std::fprintf(stderr, "%s\n", m.status().message().c_str());
        return false;
      }
      double err = 0;
      for (std::size_t i : test) err += std::fabs(m.value().Predict(d.x[i]) - d.y[i]) / d.y[i];
      std::printf("%-15s C=%-6g gamma=%-8.4g epsilon=%-5g lambda=%-7g %8.3f s CPU  %5zu SV  "
                  "held-out MRE %.4f\n",
                  std::string(ToString(kind)).c_str(), p.c, p.gamma, p.epsilon, p.lambda, cpu,
                  m.value().support_vectors(), err / static_cast<double>(test.size()));
    }
    std::printf("%-15s %zu candidates, one fit each: %.3f s CPU\n",
                std::string(ToString(kind)).c_str(), candidates.size(), total);
  }
  return true;
}

}  // namespace

// Usage: tune_bench [RUNS=2000] [PARAMETERS=30] [C=1] [--csv-out FILE] [--threads N]
// --csv-out writes the synthetic runs (parameters, then time_seconds) for peers such as
// scikit-learn to train on; without it nothing is written.
int main(int argc, char** argv) {
  using namespace perfplan::tuning;
  using perfplan::Result;
  // Line-buffered, so each figure shows as soon as it is measured (the searches take minutes).
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::vector<std::string> positional;
  std::string csv_out;
  int threads = 1;
  bool grid = false;
  bool per_candidate = false;
  bool search_only = false;
  std::size_t final_candidates = perfplan::tuning::kHalvingFinalCandidates;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--grid") {
      grid = true;
    } else if (arg == "--search-only") {
      search_only = true;
    } else if (arg == "--per-candidate") {
      per_candidate = true;
    } else if (arg == "--final" && i + 1 < argc) {
      final_candidates = static_cast<std::size_t>(std::atoi(argv[++i]));
    } else if (arg == "--csv-out" && i + 1 < argc) {
      csv_out = argv[++i];
    } else if (arg == "--threads" && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else if (arg.rfind("--", 0) == 0) {
      std::fprintf(stderr,
                   "tune_bench: unknown flag %s\nusage: tune_bench [RUNS] [PARAMETERS] [C] "
                   "[--csv-out FILE] [--threads N] [--grid] [--per-candidate] [--final N] [--search-only]\n",
                   arg.c_str());
      return 2;
    } else {
      positional.push_back(arg);
    }
  }
  const int runs = positional.size() > 0 ? std::atoi(positional[0].c_str()) : 2000;
  const int params = positional.size() > 1 ? std::atoi(positional[1].c_str()) : 30;
  const double c = positional.size() > 2 ? std::atof(positional[2].c_str()) : 1.0;
  const Dataset d = Synthetic(runs, params);
  if (!csv_out.empty()) {
    std::ofstream out(csv_out);
    for (int j = 0; j < params; ++j) out << "p" << j << ",";
    out << "time_seconds\n";
    char buf[32];
    for (std::size_t i = 0; i < d.runs(); ++i) {
      for (double v : d.x[i]) {
        std::snprintf(buf, sizeof buf, "%.17g,", v);
        out << buf;
      }
      std::snprintf(buf, sizeof buf, "%.17g\n", d.y[i]);
      out << buf;
    }
    if (!out) {
      std::fprintf(stderr, "tune_bench: cannot write %s\n", csv_out.c_str());
      return 1;
    }
  }
  if (per_candidate) return PerCandidate(d) ? 0 : 1;
  double sink = 0;
  if (!search_only && !TrainSensitivityRecommend(d, c, threads, &sink)) return 1;

  // The search of `tune cv`: every kind, successive halving (the default).
  auto search = [&](SearchStrategy strategy, std::vector<ModelKind> kinds, const char* what) {
    SearchOptions ss;
    ss.kinds = std::move(kinds);
    ss.strategy = strategy;
    ss.threads = threads;
    ss.halving_final_candidates = final_candidates;
    ss.budget_seconds = 1e7;  // no budget: the whole search, as it ends on any machine
    const auto start = std::chrono::steady_clock::now();
    const double cpu = CpuSeconds();
    Result<Selection> sel = SelectModel(d, ss);
    if (!sel.ok()) {
      std::fprintf(stderr, "%s\n", sel.status().message().c_str());
      return false;
    }
    int fits = 0;
    for (const KindResult& k : sel.value().kinds) fits += k.fits;
    std::printf("%s (%d threads): %.3f s wall, %.3f s CPU, %d fits; chosen %s, CV MRE %.4f",
                what, threads, Seconds(start), CpuSeconds() - cpu, fits,
                std::string(ToString(sel.value().chosen)).c_str(), sel.value().chosen_mre);
    if (sel.value().mean_mre >= 0) std::printf(" (mean predictor %.4f)", sel.value().mean_mre);
    std::printf("\n");
    for (const KindResult& k : sel.value().kinds) {
      std::string rungs;
      for (std::size_t r : k.rung_runs) rungs += (rungs.empty() ? "" : "/") + std::to_string(r);
      std::printf("  %-15s MRE %.4f on %zu runs, C=%g gamma=%g epsilon=%g lambda=%g; %d/%d "
                  "candidates, %d fits, rungs %s\n",
                  std::string(ToString(k.kind)).c_str(), k.mre, k.mre_runs, k.params.c,
                  k.params.gamma, k.params.epsilon, k.params.lambda, k.evaluated, k.candidates,
                  k.fits, rungs.c_str());
    }
    return true;
  };
  if (!search(SearchStrategy::kSuccessiveHalving, AllModelKinds(), "tune cv search, halving"))
    return 1;
  // The share of the cheap kinds (always their full grid on all runs).
  if (!search(SearchStrategy::kSuccessiveHalving,
              {ModelKind::kRidge, ModelKind::kPolyRidge, ModelKind::kMean},
              "of which ridge, poly-ridge and mean"))
    return 1;
  if (!search(SearchStrategy::kSuccessiveHalving, {ModelKind::kGaussianProcess},
              "of which gaussian-process"))
    return 1;
  if (grid && !search(SearchStrategy::kFullGrid, {ModelKind::kEpsSvrRbf},
                      "eps-svr-rbf full grid, 40 candidates x 5 folds"))
    return 1;
  return sink == 42 ? 1 : 0;
}
