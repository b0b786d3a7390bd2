// End-to-end: `perfplan stragglers APP` through the real binary on a synthetic event log built at
// run time (no shared data needed).
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "models/hindex.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan {
namespace {

// The keys of an H-index result in stragglers --json and export (planner/hindex/hindex_fields.h).
const char* const kHIndexKeys[] = {
    "n",          "gini",           "change_point",     "change_point_fraction", "area_l",
    "area_lstar", "h_index",        "efficiency",       "speedup",               "gini_trapezoid",
    "area_l_trapezoid", "has_change_point", "degree",   "min_segment",           "sse",
    "total",      "max_over_median", "above_1_5x_median", "above_5x_median",     "hill_alpha",
    "hill_k",     "hill_rule",      "hill_note"};

using Run = testing::CliRun;
using testing::RunPerfplan;

// A store holding "app-strag": stage 0 with 30 successful tasks (100 + 10·k ms), stage 1 with
// only 5 (the other 25 task ends are dropped from the log).
std::string MakeStore() {
  const std::string dir = testing::MakeTempDir();
  std::istringstream full(testing::SyntheticEventLog("app-strag", 2, 30));
  std::string log, line;
  int stage1_ends = 0;
  while (std::getline(full, line)) {
    if (line.rfind(R"({"Event":"SparkListenerTaskEnd","Stage ID":1,)", 0) == 0 &&
        ++stage1_ends > 5) {
      continue;
    }
    log += line + "\n";
  }
  testing::WriteFile(dir + "/app-strag", log);
  const std::string store = dir + "/s.db";
  REQUIRE(RunPerfplan("ingest spark '" + dir + "/app-strag' --store '" + store + "'").exit_code ==
          0);
  return store;
}

std::vector<double> Stage0Seconds() {
  std::vector<double> v;
  for (int k = 0; k < 30; ++k) v.push_back((100 + 10 * k) / 1000.0);
  return v;
}

// The CLI prints doubles as JSON (round-trip precision); the durations come from integer
// milliseconds, so only summation order can differ.
constexpr double kRoundingTolerance = 1e-9;

TEST_CASE(
    "stragglers --json gives each stage's H-index and H_job over the stages with enough "
    "tasks") {
  const std::string store = MakeStore();
  Run r = RunPerfplan("stragglers app-strag --store '" + store + "' --json");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["application"] == "app-strag");
  REQUIRE(j["stages"].size() == 2);
  const auto& s0 = j["stages"][0];
  const auto& s1 = j["stages"][1];

  auto expected = models::ComputeHIndex(Stage0Seconds(), {});
  REQUIRE(expected.ok());
  CHECK(s0["stage_id"] == 0);
  CHECK(s0["attempt_id"] == 0);
  CHECK(s0["n"] == 30);
  CHECK(s0["included"] == true);
  CHECK(s0["weight"] == 1.0);
  // The H-index keys every H-index answer spells the same way (docs/hindex.md): present in a
  // stage used, null in a stage left out (apart from n and max_over_median, known for both).
  for (const char* key : kHIndexKeys) {
    CHECK_MESSAGE(s0.contains(key), key);
    CHECK_MESSAGE(s1.contains(key), key);
    if (std::string(key) != "n" && std::string(key) != "max_over_median") {
      CHECK_MESSAGE(s1[key].is_null(), key);
    }
  }
  CHECK(s0["hill_rule"].is_string());
  CHECK_FALSE(s0.contains("hill"));
  CHECK(s0["h_index"].get<double>() ==
        doctest::Approx(expected.value().h_index).epsilon(kRoundingTolerance));
  CHECK(s0["gini"].get<double>() ==
        doctest::Approx(expected.value().gini).epsilon(kRoundingTolerance));
  CHECK(s0["change_point"] == expected.value().change_point);
  // median of 100..390 ms is 245 ms
  CHECK(s0["max_over_median"].get<double>() == doctest::Approx(390.0 / 245.0));

  CHECK(s1["stage_id"] == 1);
  CHECK(s1["n"] == 5);
  CHECK(s1["included"] == false);
  CHECK(s1["h_index"].is_null());
  CHECK(s1["weight"] == 0.0);
  CHECK(s1["excluded_reason"] ==
        "5 successful tasks; the change point needs at least 2ω + 2 = 22 (ω = 10)");
  // median of 100..140 ms is 120 ms
  CHECK(s1["max_over_median"].get<double>() == doctest::Approx(140.0 / 120.0));

  CHECK(j["h_job"].get<double>() ==
        doctest::Approx(expected.value().h_index).epsilon(kRoundingTolerance));
  CHECK(j["stages_used"] == 1);
  CHECK(j["stages_excluded"] == 1);
}

TEST_CASE("stragglers reports h_job as null with the reason when no stage has 2ω + 2 tasks") {
  const std::string store = MakeStore();
  Run r = RunPerfplan("stragglers app-strag --store '" + store + "' --omega 15 --json");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["h_job"].is_null());
  CHECK(j["h_job_note"] == "no stage attempt has enough successful tasks for a change point");
  CHECK(j["stages"][0]["excluded_reason"] ==
        "30 successful tasks; the change point needs at least 2ω + 2 = 32 (ω = 15)");
  CHECK(r.out.find("NaN") == std::string::npos);
}

TEST_CASE("stragglers prints a table with H_job and the left-out stages") {
  const std::string store = MakeStore();
  Run r = RunPerfplan("stragglers app-strag --store '" + store + "' --degree auto");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("H_job (weighted by stage task time) = ") != std::string::npos);
  CHECK(r.out.find("stage 1.0 left out: 5 successful tasks") != std::string::npos);
}

TEST_CASE("an unknown application exits 2 and suggests the closest one in the store") {
  const std::string store = MakeStore();
  Run r = RunPerfplan("stragglers app-strg --store '" + store + "'", "2>&1 >/dev/null");
  CHECK(r.exit_code == 2);
  CHECK(r.out ==
        "perfplan stragglers: error: no Spark application app-strg in the store; did you mean "
        "\"app-strag\"?\n");
}

TEST_CASE("export --what stragglers writes one CSV row per stage attempt") {
  const std::string store = MakeStore();
  Run r = RunPerfplan("export --what stragglers app-strag --store '" + store + "'");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  std::istringstream csv(r.out);
  std::string header, row0, row1, extra;
  std::getline(csv, header);
  std::getline(csv, row0);
  std::getline(csv, row1);
  std::string columns = "application,stage_id,attempt_id,tasks,task_seconds,included,"
                        "excluded_reason,weight";
  for (const char* key : kHIndexKeys) {
    if (std::string(key) != "n") columns += std::string(",") + key;
  }
  CHECK(header == columns + ",h_job\r");
  CHECK(row0.rfind("app-strag,0,0,30,", 0) == 0);
  CHECK(row1.rfind("app-strag,1,0,5,", 0) == 0);
  CHECK(!std::getline(csv, extra));
}

}  // namespace
}  // namespace perfplan
