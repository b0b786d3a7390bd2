#include "models/heuristic_score.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace perfplan::models {

Status ScoreOptions::Validate() const {
  for (auto [name, weights] :
       {std::pair{"io_weights", &io_weights}, std::pair{"compute_weights", &compute_weights}}) {
    double sum = 0;
    for (std::size_t j = 0; j < kDimensions; ++j) {
      const double w = (*weights)[j];
      if (!std::isfinite(w) || w < 0) {
        return Status::InvalidArgument(std::string(name) + "[" + std::to_string(j) + "] (" +
                                       std::string(Dimensions()[j].name) + ") = " +
                                       std::to_string(w) + ": weights must be finite and >= 0");
      }
      sum += w;
    }
    if (sum <= 0) return Status::InvalidArgument(std::string(name) + ": all weights are 0");
  }
  if (!(epsilon >= 0 && epsilon <= 1)) {
    return Status::InvalidArgument("epsilon = " + std::to_string(epsilon) + ": must be in [0, 1]");
  }
  return Status::Ok();
}

namespace {

constexpr std::size_t kTotal = Index(Dimension::kTotalTimeSeconds);

double Mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// Equal within a relative 1e-12: the baseline and worst values are data, not computed sums.
bool Same(double a, double b) {
  return std::fabs(a - b) <= 1e-12 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

}  // namespace

Result<ScoreResult> ComputeScore(const ScoreInput& input, const ScoreOptions& settings) {
  if (Status s = settings.Validate(); !s.ok()) return s;
  ScoreResult out;
  out.type = input.type;
  const std::string type_name(ToString(input.type));
  bool any_value = false;
  bool used_history_mean = false;
  bool no_history_for_some = false;

  std::array<double, kDimensions> normalized{};
  for (std::size_t j = 0; j < kDimensions; ++j) {
    DimensionScore d;
    d.dimension = j;
    d.name = std::string(Dimensions()[j].name);
    d.value = input.gamma.values[j];
    if (!d.value) {
      d.note = j < 6 ? "no resource data" : "not in the event log";
      out.dimensions.push_back(std::move(d));
      continue;
    }
    any_value = true;
    const double g = *d.value;
    std::vector<double> history, baselines;
    for (const HistoryRun& r : input.history) {
      if (!r.gamma.values[j]) continue;
      history.push_back(*r.gamma.values[j]);
      if (r.baseline) baselines.push_back(*r.gamma.values[j]);
    }
    double b = g;
    if (!baselines.empty()) {
      b = Mean(baselines);
    } else if (!history.empty()) {
      b = Mean(history);
      used_history_mean = true;
    } else {
      no_history_for_some = true;
    }
    double m = b;
    for (double h : history) {
      if (IsWorse(j, h, m)) m = h;
    }
    if (IsWorse(j, g, m)) m = g;  // "when γ_j is worse than M_j, M_j = γ_j"
    d.baseline = b;
    d.worst = m;
    if (Same(m, b)) {
      // No spread between baseline and worst: the formula is 0/0 (γ = B) or x/0 (γ better).
      d.score = Same(g, b) ? 60.0 : 100.0;
      d.note = Same(g, b) ? "baseline is also the worst value: scored 60"
                          : "baseline is the worst value and this run is better: scored 100";
    } else {
      d.score = 60.0 * (m - g) / (m - b);
    }
    // This dimension's min-max position among the history and this run, for the weight shares.
    double lo = g, hi = g;
    for (double h : history) {
      lo = std::min(lo, h);
      hi = std::max(hi, h);
    }
    normalized[j] = hi > lo ? (g - lo) / (hi - lo) : 0.0;
    out.dimensions.push_back(std::move(d));
  }
  if (!any_value) {
    return Status::InvalidArgument("score: the run has no value in any of the 12 dimensions");
  }

  // Weights: the type's initial vector, normalized.
  std::array<double, kDimensions> w{};
  if (input.type == TaskType::kIoIntensive) {
    w = settings.io_weights;
  } else if (input.type == TaskType::kComputeIntensive) {
    w = settings.compute_weights;
  } else {
    w.fill(1.0);
  }
  const double w_sum = std::accumulate(w.begin(), w.end(), 0.0);
  for (double& x : w) x /= w_sum;
  // A dimension with γ_j = 0 (or no value) gives its weight to total time.
  std::array<bool, kDimensions> active{};
  for (std::size_t j = 0; j < kDimensions; ++j) {
    active[j] = input.gamma.values[j].has_value() && *input.gamma.values[j] != 0.0;
  }
  for (std::size_t j = 0; j < kDimensions; ++j) {
    if (active[j] || j == kTotal) continue;
    if (active[kTotal]) w[kTotal] += w[j];
    w[j] = 0;
  }
  if (!active[kTotal]) {
    w[kTotal] = 0;
    out.warnings.push_back(
        "no total time: the weights of empty dimensions were dropped instead of moved to it");
  }
  // Every other dimension moves by ε·(share_j − w_j).
  double norm_sum = 0;
  int active_count = 0;
  for (std::size_t j = 0; j < kDimensions; ++j) {
    if (!active[j]) continue;
    norm_sum += normalized[j];
    ++active_count;
  }
  for (std::size_t j = 0; j < kDimensions; ++j) {
    if (!active[j]) continue;
    const double share = norm_sum > 0 ? normalized[j] / norm_sum : 1.0 / active_count;
    w[j] += settings.epsilon * (share - w[j]);
  }
  const double total_w = std::accumulate(w.begin(), w.end(), 0.0);
  out.score = 0;
  for (std::size_t j = 0; j < kDimensions; ++j) {
    const double wj = total_w > 0 ? w[j] / total_w : 0.0;
    out.dimensions[j].weight = wj;
    if (out.dimensions[j].score) out.score += wj * *out.dimensions[j].score;
  }

  // Explanation: worst dimensions first.
  for (std::size_t j = 0; j < kDimensions; ++j) out.worst_first.push_back(j);
  std::stable_sort(out.worst_first.begin(), out.worst_first.end(),
                   [&](std::size_t a, std::size_t b) {
                     const auto& sa = out.dimensions[a].score;
                     const auto& sb = out.dimensions[b].score;
                     if (sa.has_value() != sb.has_value()) return sa.has_value();
                     return sa && *sa < *sb;
                   });

  if (input.history.empty()) {
    out.provisional_reasons.push_back("no history of type " + type_name +
                                      ": every dimension is scored against this run itself");
  } else {
    if (used_history_mean) {
      out.provisional_reasons.push_back("no baseline (default-configuration) run of type " +
                                        type_name +
                                        " in the history: the baseline is the mean of the " +
                                        std::to_string(input.history.size()) + " run(s)");
    }
    if (no_history_for_some) {
      out.provisional_reasons.push_back(
          "some dimensions have no value in any run of the history: scored against this run");
    }
    if (input.history.size() < kDimensions) {
      out.provisional_reasons.push_back(
          "only " + std::to_string(input.history.size()) + " run(s) of type " + type_name +
          " in the history, fewer than the " + std::to_string(kDimensions) + " dimensions");
    }
  }
  out.provisional = !out.provisional_reasons.empty();
  return out;
}

}  // namespace perfplan::models
