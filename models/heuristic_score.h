// The 0–100 heuristic score of DESIGN §3.5 (seed 002): how one application run did against the
// history of runs of its task type. 60 = as good as the baseline (default-configuration) run;
// above 100 = better than anything in the history.
//
//   Score_j = 60 · (M_j − γ_j) / (M_j − B_j)
//   B_j = the baseline run's value (mean of the baseline runs when several);
//   M_j = the worst value of dimension j in the history, replaced by γ_j when γ_j is worse;
//   weights: the task type's initial vector; a dimension with γ_j = 0 or no data gives its weight
//   to total time; every other dimension moves by ε·(share_j − w_j), share_j = its share of the
//   min-max-normalized γ; then the weights are normalized to sum 1.  FS = Σ_j w_j · Score_j.
//
// Pure functions, no I/O; thread-safe as any value type. Units are those of each dimension
// (models/task_vectors.h); scores are unitless.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "models/status.h"
#include "models/task_clustering.h"
#include "models/task_vectors.h"

namespace perfplan::models {

struct ScoreOptions {
  // Initial weights of an IO-intensive run, in Dimensions() order (normalized before use).
  // Default: disk I/O, network, shuffle and total time weigh most.
  std::array<double, kDimensions> io_weights = {0.05, 0.15, 0.10, 0.05, 0.05, 0.05,
                                                0.05, 0.10, 0.10, 0.05, 0.20, 0.05};
  // Initial weights of a compute-intensive run. Default: CPU, load, memory, executor compute,
  // GC and total time weigh most.
  std::array<double, kDimensions> compute_weights = {0.10, 0.05, 0.05, 0.05, 0.10, 0.10,
                                                     0.10, 0.05, 0.05, 0.10, 0.20, 0.05};
  // ε of the weight adjustment (paper: "a very small learning rate"). Default 0.05; 0 keeps the
  // type's weights (after the zero-dimension transfer).
  double epsilon = 0.05;
  // InvalidArgument naming the field: negative or non-finite weights, all-zero weights, or
  // epsilon outside [0, 1].
  Status Validate() const;
};

// One earlier run of the same task type.
struct HistoryRun {
  std::string id;  // application id, for the explanation
  PerformanceVector gamma;
  bool baseline = false;  // ran with the default configuration
};

struct ScoreInput {
  PerformanceVector gamma;             // the run being scored
  TaskType type = TaskType::kUnknown;  // unknown: uniform initial weights
  std::vector<HistoryRun> history;     // same type, the run itself excluded
};

struct DimensionScore {
  std::size_t dimension = 0;
  std::string name;
  std::optional<double> value;     // γ_j
  std::optional<double> baseline;  // B_j
  std::optional<double> worst;     // M_j after the update with γ_j
  std::optional<double> score;     // Score_j; absent when γ_j is absent
  double weight = 0;               // final w_j
  std::string note;                // e.g. "no resource data", "baseline is the worst value"
};

struct ScoreResult {
  double score = 0;  // FS
  TaskType type = TaskType::kUnknown;
  std::vector<DimensionScore> dimensions;  // Dimensions() order
  std::vector<std::size_t> worst_first;    // indices into dimensions: scored ones by ascending
                                           // score, then the unscored
  bool provisional = false;
  std::vector<std::string> provisional_reasons;
  std::vector<std::string> warnings;
};

// Scores `input`. Fails (InvalidArgument) only for bad settings or when no dimension of γ has a
// value. Thin history never fails: the score is computed against what exists and marked
// provisional with the reason (no baseline run: B_j = the history's mean; no history at all:
// B_j = M_j = γ_j; fewer runs than the 12 dimensions).
Result<ScoreResult> ComputeScore(const ScoreInput& input, const ScoreOptions& settings = {});

}  // namespace perfplan::models
