#include "models/task_clustering.h"

#include <cmath>
#include <limits>

#include "models/enum_names.h"
#include "models/random.h"

namespace perfplan::models {

constexpr EnumName<TaskType> kTaskTypeNames[] = {{TaskType::kIoIntensive, "io"},
                                                 {TaskType::kComputeIntensive, "compute"},
                                                 {TaskType::kUnknown, "unknown"}};

std::string_view ToString(TaskType type) { return NameOf(kTaskTypeNames, type); }

std::optional<TaskType> TaskTypeFromString(std::string_view text) {
  return ValueNamed(kTaskTypeNames, text);
}

Result<MinMaxScaling> FitMinMax(const std::vector<std::vector<double>>& rows) {
  if (rows.empty()) return Status::InvalidArgument("min-max scaling: no rows to fit");
  const std::size_t n = rows[0].size();
  MinMaxScaling s;
  s.min.assign(n, std::numeric_limits<double>::infinity());
  s.max.assign(n, -std::numeric_limits<double>::infinity());
  s.mean.assign(n, 0);
  std::vector<int> count(n, 0);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != n) {
      return Status::InvalidArgument("min-max scaling: row " + std::to_string(r) + " has " +
                                     std::to_string(rows[r].size()) + " values, row 0 has " +
                                     std::to_string(n));
    }
    for (std::size_t c = 0; c < n; ++c) {
      const double v = rows[r][c];
      if (std::isnan(v)) continue;
      s.min[c] = std::min(s.min[c], v);
      s.max[c] = std::max(s.max[c], v);
      s.mean[c] += v;
      ++count[c];
    }
  }
  for (std::size_t c = 0; c < n; ++c) {
    if (count[c] == 0) {  // a column with no value at all: everything maps to 0
      s.min[c] = s.max[c] = s.mean[c] = 0;
    } else {
      s.mean[c] /= count[c];
    }
  }
  return s;
}

std::vector<double> ApplyMinMax(const MinMaxScaling& s, const std::vector<double>& row) {
  std::vector<double> out(row.size(), 0.0);
  for (std::size_t c = 0; c < row.size() && c < s.min.size(); ++c) {
    const double v = std::isnan(row[c]) ? s.mean[c] : row[c];
    const double range = s.max[c] - s.min[c];
    out[c] = range > 0 ? (v - s.min[c]) / range : 0.0;
  }
  return out;
}

Status KMeansOptions::Validate() const {
  if (k < 1) return Status::InvalidArgument("k-means: k = " + std::to_string(k) + " (need >= 1)");
  if (restarts < 1) {
    return Status::InvalidArgument("k-means: restarts = " + std::to_string(restarts) +
                                   " (need >= 1)");
  }
  if (max_iterations < 1) {
    return Status::InvalidArgument("k-means: max_iterations = " + std::to_string(max_iterations) +
                                   " (need >= 1)");
  }
  if (!(tolerance >= 0)) return Status::InvalidArgument("k-means: tolerance must be >= 0");
  return Status::Ok();
}

namespace {

double Distance2(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d += (a[i] - b[i]) * (a[i] - b[i]);
  return d;
}

// k-means++: the first centre uniformly, each next one with probability ∝ D(x)².
std::vector<std::vector<double>> SeedPlusPlus(const std::vector<std::vector<double>>& points, int k,
                                              Rng& rng) {
  std::vector<std::vector<double>> centres;
  centres.push_back(points[static_cast<std::size_t>(rng.Uniform() * points.size())]);
  std::vector<double> d2(points.size());
  while (static_cast<int>(centres.size()) < k) {
    double total = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      d2[i] = std::numeric_limits<double>::infinity();
      for (const auto& c : centres) d2[i] = std::min(d2[i], Distance2(points[i], c));
      total += d2[i];
    }
    std::size_t pick = 0;
    if (total > 0) {
      double target = rng.Uniform() * total;
      for (pick = 0; pick + 1 < points.size(); ++pick) {
        target -= d2[pick];
        if (target < 0) break;
      }
    } else {  // every point coincides with a centre: any point will do
      pick = static_cast<std::size_t>(rng.Uniform() * points.size());
    }
    centres.push_back(points[pick]);
  }
  return centres;
}

}  // namespace

int NearestCentroid(const std::vector<std::vector<double>>& centroids,
                    const std::vector<double>& point) {
  int best = 0;
  double best_d = std::numeric_limits<double>::infinity();
  for (std::size_t c = 0; c < centroids.size(); ++c) {
    const double d = Distance2(centroids[c], point);
    if (d < best_d) {
      best_d = d;
      best = static_cast<int>(c);
    }
  }
  return best;
}

Result<KMeansResult> KMeans(const std::vector<std::vector<double>>& points,
                            const KMeansOptions& settings) {
  if (Status s = settings.Validate(); !s.ok()) return s;
  if (static_cast<int>(points.size()) < settings.k) {
    return Status::InvalidArgument("k-means: " + std::to_string(points.size()) +
                                   " point(s), fewer than k = " + std::to_string(settings.k));
  }
  const std::size_t dims = points[0].size();
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].size() != dims) {
      return Status::InvalidArgument("k-means: point " + std::to_string(i) + " has " +
                                     std::to_string(points[i].size()) +
                                     " dimensions, point 0 has " + std::to_string(dims));
    }
  }
  Rng rng(settings.seed);
  KMeansResult best;
  best.sse = std::numeric_limits<double>::infinity();
  best.seed = settings.seed;
  for (int restart = 0; restart < settings.restarts; ++restart) {
    std::vector<std::vector<double>> centres = SeedPlusPlus(points, settings.k, rng);
    std::vector<int> assign(points.size(), 0);
    double sse = std::numeric_limits<double>::infinity();
    int it = 0;
    for (it = 1; it <= settings.max_iterations; ++it) {
      double now = 0;
      for (std::size_t i = 0; i < points.size(); ++i) {
        assign[i] = NearestCentroid(centres, points[i]);
        now += Distance2(points[i], centres[assign[i]]);
      }
      // Update step; an empty cluster keeps its centre.
      std::vector<std::vector<double>> sums(settings.k, std::vector<double>(dims, 0.0));
      std::vector<int> counts(settings.k, 0);
      for (std::size_t i = 0; i < points.size(); ++i) {
        for (std::size_t d = 0; d < dims; ++d) sums[assign[i]][d] += points[i][d];
        ++counts[assign[i]];
      }
      for (int c = 0; c < settings.k; ++c) {
        if (counts[c] == 0) continue;
        for (std::size_t d = 0; d < dims; ++d) centres[c][d] = sums[c][d] / counts[c];
      }
      const bool converged = sse - now < settings.tolerance;
      sse = now;
      if (converged) break;
    }
    // SSE against the final centres.
    double final_sse = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      assign[i] = NearestCentroid(centres, points[i]);
      final_sse += Distance2(points[i], centres[assign[i]]);
    }
    if (final_sse < best.sse) {
      best.sse = final_sse;
      best.centroids = centres;
      best.assignment = assign;
      best.iterations = std::min(it, settings.max_iterations);
      best.best_restart = restart;
    }
  }
  return best;
}

ClusterLabels LabelClusters(const std::vector<int>& assignment, int k,
                            const std::vector<std::optional<TaskType>>& hints) {
  ClusterLabels out;
  out.types.assign(k, TaskType::kUnknown);
  out.io_hints.assign(k, 0);
  out.compute_hints.assign(k, 0);
  for (std::size_t i = 0; i < assignment.size() && i < hints.size(); ++i) {
    const int c = assignment[i];
    if (c < 0 || c >= k || !hints[i]) continue;
    if (*hints[i] == TaskType::kIoIntensive) ++out.io_hints[c];
    if (*hints[i] == TaskType::kComputeIntensive) ++out.compute_hints[c];
  }
  for (int c = 0; c < k; ++c) {
    const int io = out.io_hints[c], compute = out.compute_hints[c];
    if (io == 0 && compute == 0) {
      out.notes.push_back("cluster " + std::to_string(c) +
                          " contains no labelled run: type unknown (label one with "
                          "`perfplan label APP io|compute`)");
    } else if (io > compute) {
      out.types[c] = TaskType::kIoIntensive;
    } else {
      out.types[c] = TaskType::kComputeIntensive;
      if (io == compute) {
        out.notes.push_back("cluster " + std::to_string(c) + ": " + std::to_string(io) +
                            " io and " + std::to_string(compute) +
                            " compute hints tie; labelled compute");
      }
    }
  }
  return out;
}

}  // namespace perfplan::models
