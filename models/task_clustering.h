// Task-type clustering of DESIGN §3.5 (seed 002): min-max normalization of γ, k-means (K = 2,
// k-means++ seeding, restarts, a seed), clusters labelled IO-intensive or compute-intensive by the
// majority of user-labelled hint runs they contain, and nearest-centroid classification.
//
// Pure functions over plain vectors: no I/O, no globals; randomness comes only from the seed in
// the settings (a fixed-algorithm generator, so results are the same on every platform) and the
// seed is reported back. Thread-safe as any value type. Values are unitless after normalization.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace perfplan::models {

enum class TaskType { kIoIntensive, kComputeIntensive, kUnknown };
// "io", "compute", "unknown" (also used by `perfplan label APP io|compute`).
std::string_view ToString(TaskType type);
std::optional<TaskType> TaskTypeFromString(std::string_view text);

// Per-column min, max and mean of the fitted rows (missing values, NaN, are ignored).
struct MinMaxScaling {
  std::vector<double> min, max, mean;
};
// Fails (InvalidArgument) on no rows or rows of different lengths.
Result<MinMaxScaling> FitMinMax(const std::vector<std::vector<double>>& rows);
// (x − min)/(max − min) per column; 0 for a constant column; a missing value (NaN) is replaced by
// the column's fitted mean before scaling, so it sits at the centre of the known values.
std::vector<double> ApplyMinMax(const MinMaxScaling& scaling, const std::vector<double>& row);

struct KMeansOptions {
  int k = 2;                 // clusters; the paper's IO- vs compute-intensive split needs 2
  int restarts = 10;         // independent k-means++ seedings; the lowest SSE wins
  int max_iterations = 100;  // Lloyd iterations per restart
  double tolerance = 1e-12;  // stop when the SSE improves by less than this
  std::uint64_t seed = 42;   // the only source of randomness
  // InvalidArgument naming the field when k < 1, restarts < 1, max_iterations < 1 or
  // tolerance < 0.
  Status Validate() const;
};

struct KMeansResult {
  std::vector<std::vector<double>> centroids;  // k rows
  std::vector<int> assignment;                 // cluster of each point
  double sse = 0;                              // sum of squared distances to own centroid
  int iterations = 0;                          // of the winning restart
  int best_restart = 0;
  std::uint64_t seed = 0;  // as given
};

// Clusters `points` (all the same length, no NaN: normalize and impute first). Fails
// (InvalidArgument) with fewer points than k, ragged rows, or bad settings.
Result<KMeansResult> KMeans(const std::vector<std::vector<double>>& points,
                            const KMeansOptions& settings);

// Index of the centroid nearest to `point` (Euclidean; ties to the lowest index).
int NearestCentroid(const std::vector<std::vector<double>>& centroids,
                    const std::vector<double>& point);

struct ClusterLabels {
  std::vector<TaskType> types;  // per cluster
  std::vector<int> io_hints;    // hint runs labelled io in each cluster
  std::vector<int> compute_hints;
  std::vector<std::string> notes;  // e.g. a cluster without hints, or a tie
};
// Labels each cluster by the majority of the hint runs it contains (`hints[i]` for point i; nullopt
// = not labelled). More io than compute hints → IO-intensive; more compute → compute-intensive;
// no hints → unknown; a tie → compute-intensive, as the paper's "else" branch, with a note.
ClusterLabels LabelClusters(const std::vector<int>& assignment, int k,
                            const std::vector<std::optional<TaskType>>& hints);

}  // namespace perfplan::models
