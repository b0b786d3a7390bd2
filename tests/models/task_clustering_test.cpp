#include "models/task_clustering.h"

#include <doctest/doctest.h>

#include <cmath>

#include "tests/support/result_checks.h"

namespace perfplan::models {
namespace {

constexpr double kTolerance = 1e-12;  // sums of a handful of small fractions

TEST_CASE("Min-max scaling maps each column to [0, 1] and puts missing values at the mean") {
  const double nan = std::nan("");
  const auto s = testing::ValueOf(FitMinMax({{0, 10}, {5, 10}, {10, nan}}));
  CHECK(s.min == std::vector<double>{0, 10});
  CHECK(s.max == std::vector<double>{10, 10});
  CHECK(s.mean == std::vector<double>{5, 10});
  CHECK(ApplyMinMax(s, {5, nan}) == std::vector<double>{0.5, 0});
  CHECK(ApplyMinMax(s, {nan, 10}) == std::vector<double>{0.5, 0});
  CHECK(FitMinMax({{1}, {1, 2}}).status().message() ==
        "min-max scaling: row 1 has 2 values, row 0 has 1");
}

TEST_CASE("K-means with k-means++ separates two blobs, reproducibly from its seed") {
  const std::vector<std::vector<double>> points = {{0, 0},   {0, 1},   {1, 0},
                                                   {10, 10}, {10, 11}, {11, 10}};
  KMeansOptions settings;
  settings.seed = 7;
  const auto r = testing::ValueOf(KMeans(points, settings));
  const auto& a = r.assignment;
  CHECK(a[0] == a[1]);
  CHECK(a[1] == a[2]);
  CHECK(a[3] == a[4]);
  CHECK(a[4] == a[5]);
  CHECK(a[0] != a[3]);
  // Each blob: centroid (1/3, 1/3) off its corner; squared distances 2/9 + 5/9 + 5/9.
  CHECK(r.sse == doctest::Approx(8.0 / 3.0).epsilon(kTolerance));
  CHECK(r.seed == 7);
  const auto again = testing::ValueOf(KMeans(points, settings));
  CHECK(again.assignment == a);
  CHECK(again.centroids == r.centroids);
  CHECK(NearestCentroid(r.centroids, {9, 9}) == a[3]);
}

TEST_CASE("K-means refuses fewer points than clusters and bad settings") {
  CHECK(KMeans({{1.0}}, {}).status().message() == "k-means: 1 point(s), fewer than k = 2");
  KMeansOptions bad;
  bad.restarts = 0;
  CHECK(KMeans({{1.0}, {2.0}}, bad).status().message() == "k-means: restarts = 0 (need >= 1)");
  CHECK(KMeans({{1.0}, {2.0, 3.0}}, {}).status().message() ==
        "k-means: point 1 has 2 dimensions, point 0 has 1");
}

TEST_CASE("Clusters are labelled by the majority of their hint runs") {
  const auto io = TaskType::kIoIntensive;
  const auto compute = TaskType::kComputeIntensive;
  const ClusterLabels l = LabelClusters(
      {0, 0, 0, 1, 1, 1, 2, 2, 3}, 4,
      {io, io, compute, compute, std::nullopt, std::nullopt, std::nullopt, std::nullopt, io});
  CHECK(l.types == std::vector<TaskType>{io, compute, TaskType::kUnknown, io});
  CHECK(l.io_hints == std::vector<int>{2, 0, 0, 1});
  CHECK(l.compute_hints == std::vector<int>{1, 1, 0, 0});
  CHECK(l.notes ==
        std::vector<std::string>{"cluster 2 contains no labelled run: type unknown (label one with "
                                 "`perfplan label APP io|compute`)"});
  const ClusterLabels tie = LabelClusters({0, 0}, 1, {io, compute});
  CHECK(tie.types == std::vector<TaskType>{compute});
  CHECK(tie.notes ==
        std::vector<std::string>{"cluster 0: 1 io and 1 compute hints tie; labelled compute"});
}

TEST_CASE("Task types round-trip through their names") {
  for (TaskType t : {TaskType::kIoIntensive, TaskType::kComputeIntensive, TaskType::kUnknown}) {
    CHECK(TaskTypeFromString(ToString(t)) == t);
  }
  CHECK_FALSE(TaskTypeFromString("IO").has_value());
}

}  // namespace
}  // namespace perfplan::models
