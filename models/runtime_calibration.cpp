#include "models/runtime_calibration.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <set>

#include "models/runtime_evaluate.h"

namespace perfplan::models {
namespace {

// Fewest distinct compute-node counts for leave-one-node-count-out; below, leave-one-out.
constexpr std::size_t kMinNodeGroups = 3;
// Most folds: beyond, the groups (node counts, or runs) are dealt round-robin into this many, so a
// choice costs at most this many refits per form however long the history (10- to 20-fold cross-
// validation is the usual budget; 20 keeps every design of docs/accuracy.md, at most 11 distinct
// node counts, as it was).
constexpr std::size_t kMaxFolds = 20;

}  // namespace

RuntimeFolds MakeRuntimeFolds(const std::vector<MeasuredRun>& runs) {
  std::set<double> nodes;
  for (const MeasuredRun& r : runs) {
    if (r.completed) nodes.insert(r.compute_nodes);
  }
  // Each completed run's group: the rank of its node count, or its own rank among the completed.
  const bool by_nodes = nodes.size() >= kMinNodeGroups;
  const std::vector<double> counts(nodes.begin(), nodes.end());
  std::vector<std::size_t> group(runs.size(), 0);
  std::size_t groups = by_nodes ? counts.size() : 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!runs[i].completed) continue;
    if (by_nodes) {
      const auto at = std::lower_bound(counts.begin(), counts.end(), runs[i].compute_nodes);
      group[i] = static_cast<std::size_t>(at - counts.begin());
    } else {
      group[i] = groups++;
    }
  }
  RuntimeFolds f;
  const std::size_t folds = std::min(groups, kMaxFolds);
  if (groups > kMaxFolds) {
    f.scheme = std::to_string(kMaxFolds) + (by_nodes ? "-fold, node counts interleaved" : "-fold");
  } else {
    f.scheme = by_nodes ? "leave-one-node-count-out" : "leave-one-out";
  }
  f.held_out.resize(folds);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].completed) f.held_out[group[i] % folds].push_back(i);
  }
  return f;
}

std::vector<MeasuredRun> FoldTraining(const std::vector<MeasuredRun>& runs,
                                      const std::vector<std::size_t>& held) {
  const std::set<std::size_t> out(held.begin(), held.end());
  std::vector<MeasuredRun> rest;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!out.count(i)) rest.push_back(runs[i]);
  }
  return rest;
}

std::vector<double> CalibrationDifficulty(const ModelChoice& choice,
                                          const std::vector<MeasuredRun>& train) {
  const RuntimeFolds folds = MakeRuntimeFolds(train);
  std::vector<double> out;
  out.reserve(choice.calibration_fold.size());
  for (std::size_t k = 0; k < folds.held_out.size(); ++k) {
    const TrainedNodeRanges rest(FoldTraining(train, folds.held_out[k]));
    for (std::size_t i : folds.held_out[k]) {
      bool transfer = false;
      out.push_back(rest.Widening(train[i], &transfer));
    }
  }
  // The choice lists its calibration runs fold by fold, in the same order.
  bool matches = out.size() == choice.calibration_fold.size();
  std::size_t j = 0;
  for (std::size_t k = 0; matches && k < folds.held_out.size(); ++k) {
    for (std::size_t n = 0; matches && n < folds.held_out[k].size(); ++n) {
      matches = choice.calibration_fold[j++] == k;
    }
  }
  if (!matches) out.assign(choice.calibration_fold.size(), 1.0);
  return out;
}

std::vector<ConformalPoint> NormalisedCalibrationPoints(const ModelChoice& choice,
                                                        const std::vector<double>& difficulty,
                                                        const MeasuredRun& target,
                                                        double predicted_seconds,
                                                        double target_widening) {
  std::vector<ConformalPoint> points = CalibrationPoints(choice, target, predicted_seconds);
  for (std::size_t j = 0; j < points.size(); ++j) {
    const double sigma = j < difficulty.size() && difficulty[j] > 0 ? difficulty[j] : 1.0;
    points[j].radius_log *= target_widening / sigma;
  }
  return points;
}

std::vector<ScalingAlternative> UnidentifiedScalings(const ModelChoice& choice,
                                                     const std::vector<MeasuredRun>& train,
                                                     const std::vector<std::string>& target_types,
                                                     const ChoiceOptions& options) {
  std::vector<ScalingAlternative> out;
  if (options.scaling != HardwareScaling::kVcpus || !IsPooledForm(choice.chosen)) return out;
  std::set<std::string> types;
  for (const MeasuredRun& r : train) {
    if (r.completed) types.insert(r.instance_type);
  }
  if (types.size() != 1) return out;
  for (HardwareScaling scaling : {HardwareScaling::kMemory, HardwareScaling::kNetwork}) {
    if (std::any_of(train.begin(), train.end(),
                    [&](const MeasuredRun& r) { return !(HardwareFigure(r, scaling) > 0); })) {
      continue;
    }
    ChoiceOptions alternative = options;
    alternative.candidates = {choice.chosen};
    alternative.scaling = scaling;
    Result<ModelChoice> refit = ChooseRuntimeForm(train, target_types, alternative);
    if (!refit.ok()) continue;
    ScalingAlternative a;
    a.scaling = scaling;
    a.choice = refit.value();
    a.difficulty = CalibrationDifficulty(a.choice, train);
    out.push_back(std::move(a));
  }
  return out;
}

std::optional<double> ReferenceRuntime(const std::vector<MeasuredRun>& reference,
                                       const std::string& type, double nodes) {
  std::map<double, std::pair<double, int>> log_sum;  // node count -> (sum of log runtime, runs)
  for (const MeasuredRun& r : reference) {
    if (!r.completed || r.instance_type != type || !(r.runtime_seconds > 0)) continue;
    auto& [sum, count] = log_sum[r.compute_nodes];
    sum += std::log(r.runtime_seconds);
    ++count;
  }
  if (log_sum.empty() || !(nodes > 0)) return std::nullopt;
  auto mean = [](const std::pair<double, int>& v) { return v.first / v.second; };
  auto above = log_sum.lower_bound(nodes);
  if (above == log_sum.begin()) return std::exp(mean(above->second));
  if (above == log_sum.end()) return std::exp(mean(std::prev(above)->second));
  if (above->first == nodes) return std::exp(mean(above->second));
  const auto below = std::prev(above);
  const double t = std::log(nodes / below->first) / std::log(above->first / below->first);
  return std::exp(mean(below->second) + t * (mean(above->second) - mean(below->second)));
}

}  // namespace perfplan::models
