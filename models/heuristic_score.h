// The bounded 0–100 heuristic score of DESIGN §3.5 (seed 002): how one application run did
// against the comparable runs of its history (the caller chooses them: planner/scoring).
// The scale, per dimension and for the total:
//     0 = the worst value seen (history and this run), 60 = the baseline, 100 = the best seen.
// A run better than anything in the history is the best seen and scores kMaxScore = 100; no
// score is ever above kMaxScore or below 0.
//
//   γ_j no better than B_j:  Score_j = 60 · (M_j − γ_j) / (M_j − B_j)              ∈ [0, 60]
//   γ_j better than B_j:     Score_j = 60 + 40 · (B_j − γ_j) / (B_j − Best_j)      ∈ (60, 100]
//   B_j = the baseline run's value (mean of the baseline runs when several);
//   M_j = the worst value of dimension j in the history, replaced by γ_j when γ_j is worse;
//   Best_j = the best value of dimension j in the history and γ_j;
//   a dimension without a value (absent, never read as 0) is not scored;
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

// The top of the scale: the best value seen. 60 is the baseline, 0 the worst seen.
inline constexpr double kMaxScore = 100.0;
inline constexpr double kBaselineScore = 60.0;

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
  std::vector<HistoryRun> history;     // comparable runs, the run itself excluded
  // How the history was chosen, for the provisional reasons ("of type io", "named 'Spark Pi'");
  // empty = "of type " + the type.
  std::string history_label;
};

struct DimensionScore {
  std::size_t dimension = 0;
  std::string name;
  std::optional<double> value;     // γ_j
  std::optional<double> baseline;  // B_j
  std::optional<double> worst;     // M_j after the update with γ_j
  std::optional<double> best;      // Best_j (history and γ_j)
  std::optional<double> score;     // Score_j; absent when γ_j is absent
  double weight = 0;               // final w_j
  std::string note;                // e.g. "no resource data", "baseline is the worst value"
};

struct ScoreResult {
  double score = 0;  // FS, in [0, kMaxScore]
  std::size_t comparable_runs = 0;  // runs of the history the score rests on
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
