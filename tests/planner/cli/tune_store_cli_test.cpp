// End-to-end: `perfplan tune ... --store DB` learns from ingested Spark event logs.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/fast_tune.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/score_json.h"
#include "tests/support/test_support.h"

namespace perfplan {
namespace {

using Run = testing::CliRun;
using testing::kFastTune;
using testing::RunPerfplan;

// 8 applications: more executor memory and cores → fewer (equal-length) tasks → shorter run.
std::string IngestedStore() {
  const std::string dir = testing::MakeTempDir();
  const std::string logs = testing::MakeTempDir();
  const char* memory[] = {"1g", "2g", "512m", "4g", "3g", "1536m", "2g", "4g"};
  const int cores[] = {1, 2, 1, 4, 2, 3, 4, 1};
  const int tasks[] = {12, 8, 14, 3, 6, 7, 5, 9};
  for (int i = 0; i < 8; ++i) {
    const std::string id = "app-" + std::to_string(i);
    testing::WriteFile(logs + "/" + id, testing::SyntheticEventLogWithProperties(
                                            id, 2, tasks[i],
                                            {{"spark.executor.memory", memory[i]},
                                             {"spark.executor.cores", std::to_string(cores[i])},
                                             {"spark.master", "yarn"}}));
  }
  const Run ingest = RunPerfplan("ingest spark " + logs + " --store " + dir + "/s.db --json");
  REQUIRE(ingest.exit_code == 0);
  return dir + "/s.db";
}

TEST_CASE("tune cv and train read one run per application from the store") {
  const std::string db = IngestedStore();
  const Run cv = RunPerfplan("tune cv --store " + db + " --target total_time_seconds" + kFastTune);
  REQUIRE(cv.exit_code == 0);
  const auto j = nlohmann::json::parse(cv.out);
  CHECK(j["runs"] == 8);
  CHECK(j["parameters"] == 2);
  CHECK(j["source"] == "store:" + db);
  const std::string model = testing::MakeTempDir() + "/m.json";
  const Run train = RunPerfplan("tune train --store " + db + " --target total_time_seconds --out " +
                                model + kFastTune);
  REQUIRE(train.exit_code == 0);
  const Run sens = RunPerfplan("tune sensitivity --model " + model + " --json");
  REQUIRE(sens.exit_code == 0);
  CHECK(nlohmann::json::parse(sens.out)["parameters"].size() == 2);
  const Run rec = RunPerfplan("tune recommend --store " + db +
                              " --target total_time_seconds --samples 200" + kFastTune);
  REQUIRE(rec.exit_code == 0);
  CHECK(nlohmann::json::parse(rec.out)["config_text"].contains("spark.executor.memory"));
  const Run some =
      RunPerfplan("tune cv --store " + db +
                  " --apps app-0,app-1,app-2,app-3,app-4 --target total_time_seconds" + kFastTune);
  REQUIRE(some.exit_code == 0);
  CHECK(nlohmann::json::parse(some.out)["runs"] == 5);
}

TEST_CASE("tune --store errors: missing store, unknown target, both or neither source") {
  // A store without applications is spark_run_table_test's; a missing one is not created.
  const std::string missing = testing::MakeTempDir() + "/empty.db";
  const Run none =
      RunPerfplan("tune cv --store " + missing + " --target total_time_seconds --json");
  CHECK(none.exit_code == 2);
  CHECK(nlohmann::json::parse(none.out)["message"] == missing + ": no such store");
  CHECK_FALSE(std::filesystem::exists(missing));

  const std::string db = IngestedStore();
  const Run typo = RunPerfplan("tune cv --store " + db + " --target total_time_second --json");
  CHECK(typo.exit_code == 2);
  const std::string message = nlohmann::json::parse(typo.out)["message"];
  CHECK(message.rfind("store:" + db +
                          ": target column \"total_time_second\" not found; did you mean "
                          "\"total_time_seconds\"? Known: spark.executor.cores, "
                          "spark.executor.memory, total_time_seconds,",
                      0) == 0);

  const Run both = RunPerfplan("tune cv --store " + db + " --data x.csv --target t --json");
  CHECK(both.exit_code == 2);
  CHECK(nlohmann::json::parse(both.out)["message"] == "give --data FILE or --store DB, not both");
  const Run neither = RunPerfplan("tune cv --target t --json");
  CHECK(neither.exit_code == 2);
  CHECK(nlohmann::json::parse(neither.out)["message"] ==
        "give --data FILE or --store DB (one of them)");
}

TEST_CASE("tune --store on applications that all ran alike says why and what would help") {
  const std::string dir = testing::MakeTempDir();
  const std::string logs = testing::MakeTempDir();
  for (int i = 0; i < 3; ++i) {
    const std::string id = "app-" + std::to_string(i);
    testing::WriteFile(logs + "/" + id,
                       testing::SyntheticEventLogWithProperties(
                           id, 2, 4 + i, {{"spark.executor.memory", "2g"}, {"spark.master", "yarn"}}));
  }
  REQUIRE(RunPerfplan("ingest spark " + logs + " --store " + dir + "/s.db --json").exit_code == 0);
  const Run r = RunPerfplan("tune cv --store " + dir + "/s.db --target total_time_seconds --json");
  CHECK(r.exit_code == 2);
  const std::string message = nlohmann::json::parse(r.out)["message"];
  CAPTURE(message);
  CHECK(message.rfind("store:" + dir + "/s.db: nothing to tune total_time_seconds on: no spark.* "
                      "property is set in every one of the 3 application(s) with different "
                      "values\n  store: 3 application(s): ",
                      0) == 0);
  CHECK(message.find("properties with the same value in every application are not parameters: ") !=
        std::string::npos);
  CHECK(message.find("spark.executor.memory") != std::string::npos);
  CHECK(message.find("at least as many as the cross-validation folds (--folds, 5 by default)") !=
        std::string::npos);
}


TEST_CASE("tune sensitivity --store without --target explains the worst-scoring dimension") {
  const std::string db = IngestedStore();
  const Run sens = RunPerfplan("tune sensitivity --store " + db + kFastTune);
  REQUIRE(sens.exit_code == 0);
  const auto j = nlohmann::json::parse(sens.out);
  const std::string note = j["warnings"][0];
  // "target METRIC: the worst-scoring dimension of APP is DIMENSION (score S); give --target …"
  const std::string head = "target " + j["target"].get<std::string>() +
                           ": the worst-scoring dimension of ";
  REQUIRE(note.rfind(head, 0) == 0);
  const std::string rest = note.substr(head.size());
  const std::string app = rest.substr(0, rest.find(' '));
  const std::string dimension =
      rest.substr(app.size() + 4, rest.find(" (score ") - app.size() - 4);
  CHECK(note.find("); give --target to choose another") != std::string::npos);
  // The same application and dimension as `perfplan score` explains, worst first: the first
  // scored dimension that the store has a per-application metric for.
  const Run score = RunPerfplan("score " + app + " --store " + db + " --json");
  REQUIRE(score.exit_code == 0);
  const auto sj = nlohmann::json::parse(score.out);
  const std::map<std::string, std::string> metric = {
      {"executor_compute_time_share", "beta_compute_share"},
      {"shuffle_time_share", "beta_shuffle_share"},
      {"shuffle_bytes", "beta_shuffle_bytes"},
      {"gc_time_share", "beta_gc_share"},
      {"total_time_seconds", "total_time_seconds"},
      {"result_serialization_share", "beta_result_serialization_share"}};
  const std::string expected = testing::FirstScoredDimension(sj, metric);
  CHECK(dimension == expected);
  CHECK(j["target"] == metric.at(expected));
  // --target still wins, with no such note.
  const Run given =
      RunPerfplan("tune sensitivity --store " + db + " --target total_time_seconds" + kFastTune);
  REQUIRE(given.exit_code == 0);
  const nlohmann::json given_json = nlohmann::json::parse(given.out);  // outlives the loop
  for (const auto& w : given_json.at("warnings")) {
    CHECK(w.get<std::string>().rfind("target ", 0) != 0);
  }
  // From a file there is no score to take it from.
  const Run file = RunPerfplan("tune sensitivity --data " + testing::SourceDir() +
                               "/examples/tuning/spark_runs.csv --json");
  CHECK(file.exit_code == 2);
  CHECK(nlohmann::json::parse(file.out)["message"] ==
        "give --model FILE, or --data FILE (or --store DB) and --target NAME");
}

}  // namespace
}  // namespace perfplan
