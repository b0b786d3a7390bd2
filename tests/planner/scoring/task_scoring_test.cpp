#include "planner/scoring/task_scoring.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "profiles/ganglia/ganglia_store.h"
#include "profiles/ganglia/task_type_hints.h"

namespace perfplan::planner {
namespace {

constexpr double kTolerance = 1e-9;  // averages and ratios of short decimals

std::unique_ptr<profiles::Store> OpenStore() {
  auto store =
      profiles::Store::Open(":memory:", {profiles::GangliaMigrations(), profiles::TaskTypeMigrations()});
  REQUIRE(store.ok());
  return std::move(store).value();
}

// Host h1 is busy (cpu_idle 20) from 100 to 200 and idle (cpu_idle 90) from 300 to 400.
void StoreSamples(profiles::Store& store) {
  profiles::GangliaExport e;
  e.series.push_back(
      {"c", "h1", "cpu_idle", "sum", 50, {{100, 20}, {150, 20}, {300, 90}, {350, 90}}, 0});
  e.series.push_back({"c", "h2", "cpu_idle", "sum", 50, {{100, 50}}, 0});
  REQUIRE(profiles::StoreGangliaExport(store, e).ok());
}

ApplicationRun Run(const std::string& id, std::int64_t from, std::int64_t to, double total,
                   bool baseline = false) {
  ApplicationRun r;
  r.app_id = id;
  r.start_epoch = from;
  r.end_epoch = to;
  r.hosts = {"h1"};
  r.beta.total_time_seconds = total;
  r.baseline = baseline;
  return r;
}

TEST_CASE("Each run's alpha comes from its own window and hosts; labels are stored hints") {
  auto store = OpenStore();
  StoreSamples(*store);
  REQUIRE(profiles::SaveTaskTypeHint(*store, "busy", models::TaskType::kComputeIntensive).ok());
  REQUIRE(profiles::SaveTaskTypeHint(*store, "busy", models::TaskType::kIoIntensive).ok());  // replaces
  CHECK(profiles::SaveTaskTypeHint(*store, "x", models::TaskType::kUnknown).message() ==
        "label x: the type must be io or compute");
  auto vectors = BuildRunVectors(
      *store, {Run("busy", 100, 200, 10), Run("idle", 300, 400, 20), Run("dark", 500, 600, 30)});
  REQUIRE(vectors.ok());
  const auto& v = vectors.value();
  CHECK(v[0].gamma[models::Dimension::kCpuPercent].value() ==
        doctest::Approx(80).epsilon(kTolerance));
  CHECK(v[0].hint == models::TaskType::kIoIntensive);
  CHECK(v[1].gamma[models::Dimension::kCpuPercent].value() ==
        doctest::Approx(10).epsilon(kTolerance));
  CHECK_FALSE(v[1].hint.has_value());
  CHECK_FALSE(v[2].gamma[models::Dimension::kCpuPercent].has_value());
  CHECK(v[2].alpha.sources[0] == "no resource data: no Ganglia samples in the window");
}

TEST_CASE("Runs cluster into two types labelled by hints, and a run scores within its type") {
  auto store = OpenStore();
  StoreSamples(*store);
  // Two busy runs (cpu 80 %) and two idle ones (cpu 10 %); one hint in each group.
  REQUIRE(profiles::SaveTaskTypeHint(*store, "busy-1", models::TaskType::kComputeIntensive).ok());
  REQUIRE(profiles::SaveTaskTypeHint(*store, "idle-1", models::TaskType::kIoIntensive).ok());
  auto vectors =
      BuildRunVectors(*store, {Run("busy-1", 100, 200, 100, true), Run("busy-2", 100, 200, 80),
                               Run("idle-1", 300, 400, 1000, true), Run("idle-2", 300, 400, 1100)});
  REQUIRE(vectors.ok());
  auto classes = ClassifyRuns(vectors.value());
  REQUIRE(classes.ok());
  const auto& c = classes.value().runs;
  CHECK(c[0].type == models::TaskType::kComputeIntensive);
  CHECK(c[1].type == models::TaskType::kComputeIntensive);
  CHECK(c[2].type == models::TaskType::kIoIntensive);
  CHECK(c[3].type == models::TaskType::kIoIntensive);
  CHECK(c[0].cluster == c[1].cluster);
  CHECK(c[0].cluster != c[2].cluster);

  auto score = ScoreRun(vectors.value(), classes.value(), "busy-2");
  REQUIRE(score.ok());
  const models::ScoreResult& r = score.value().result;
  CHECK(r.type == models::TaskType::kComputeIntensive);
  // History of its type: busy-1 only (baseline, 100 s, cpu 80 %). Total time 80 s is better
  // than a baseline that is also the worst: 100. CPU equals the baseline: 60.
  CHECK(r.dimensions[models::Index(models::Dimension::kTotalTimeSeconds)].score == 100.0);
  CHECK(r.dimensions[models::Index(models::Dimension::kCpuPercent)].score == 60.0);
  CHECK(r.provisional);

  const nlohmann::json j = nlohmann::json::parse(ToJson(score.value()));
  CHECK(j["task_type"] == "compute");
  CHECK(j["dimensions"].size() == 12);
  for (const char* key : {"name", "value", "baseline", "worst", "score", "weight"}) {
    CAPTURE(key);
    CHECK(j["dimensions"][0].contains(key));
  }
  CHECK(j["dimensions"][1]["value"].is_null());  // no disk throughput metric: a gap, not 0
  CHECK(j["explanation"][0] == "cpu_percent");

  CHECK(ScoreRun(vectors.value(), classes.value(), "nope").status().message() ==
        "application nope is not in the store");
}

TEST_CASE("Too few runs to cluster keep their own labels, with a warning") {
  auto store = OpenStore();
  StoreSamples(*store);
  REQUIRE(profiles::SaveTaskTypeHint(*store, "only", models::TaskType::kIoIntensive).ok());
  auto vectors = BuildRunVectors(*store, {Run("only", 100, 200, 10)});
  REQUIRE(vectors.ok());
  auto classes = ClassifyRuns(vectors.value());
  REQUIRE(classes.ok());
  CHECK(classes.value().runs[0].type == models::TaskType::kIoIntensive);
  CHECK(classes.value().warnings ==
        std::vector<std::string>{
            "1 run(s), fewer than k = 2: not clustered; each run takes its own label or unknown"});
}

}  // namespace
}  // namespace perfplan::planner
