// End-to-end on real data: the Apache Spark test event logs are ingested into a temp store, two of
// them labelled as hint runs, and `perfplan score` / `perfplan scores` run through the real binary.
// The store has no Ganglia samples for these 2015–2020 windows, so every α dimension must say
// "no resource data" (never a zero).
#include <doctest/doctest.h>

#include <filesystem>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/support/cli_run.h"
#include "tests/support/test_support.h"

PERFPLAN_REQUIRE_SHARED_DATA();

namespace perfplan {
namespace {

using Run = testing::CliResult;

// Runs the perfplan binary with `args` (already shell-quoted), capturing stdout and stderr.
Run Perfplan(const std::string& args) { return testing::RunCli(args); }

constexpr const char* kScored = "local-1430917381534";

// A temp store holding the 12 logs (10 application ids) of apache-spark/spark-events, two of them
// labelled.
std::string IngestedStore(const std::string& dir) {
  const std::string logs =
      testing::SharedDataDir() + "/01-spark-eventlogs/apache-spark/spark-events";
  const std::string store = dir + "/s.db";
  Run ingest = Perfplan("ingest spark '" + logs + "' --store '" + store + "'");
  REQUIRE_MESSAGE(ingest.exit_code == 0, ingest.err);
  Run io = Perfplan("label local-1422981759269 io --store '" + store + "'");
  REQUIRE_MESSAGE(io.exit_code == 0, io.err);
  CHECK(io.out == "local-1422981759269 labelled io\n");
  Run compute =
      Perfplan(std::string("label ") + kScored + " compute --store '" + store + "' --json");
  REQUIRE_MESSAGE(compute.exit_code == 0, compute.err);
  CHECK(nlohmann::json::parse(compute.out) ==
        nlohmann::json{{"app_id", kScored}, {"task_type", "compute"}, {"stored", true}});
  return store;
}

TEST_CASE("score on ingested real event logs prints a score with its explanation") {
  const std::string dir = testing::MakeTempDir();
  const std::string store = IngestedStore(dir);

  Run text = Perfplan(std::string("score ") + kScored + " --store '" + store + "'");
  REQUIRE_MESSAGE(text.exit_code == 0, text.err);
  MESSAGE(text.out);
  CHECK(text.out.rfind(std::string(kScored) + ": score ", 0) == 0);
  CHECK(text.out.find("explanation, worst dimension first:") != std::string::npos);
  CHECK(text.out.find("cpu_percent") != std::string::npos);
  CHECK(text.out.find("no resource data") != std::string::npos);

  Run json = Perfplan(std::string("score ") + kScored + " --store '" + store + "' --json");
  REQUIRE_MESSAGE(json.exit_code == 0, json.err);
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j["app_id"] == kScored);
  CHECK(j["score"].is_number());
  CHECK(j["task_type"].is_string());
  CHECK(j["provisional"].is_boolean());
  REQUIRE(j["dimensions"].size() == 12);
  for (std::size_t d = 0; d < 6; ++d) {  // α: no Ganglia samples cover the window
    CAPTURE(j["dimensions"][d]["name"]);
    CHECK(j["dimensions"][d]["value"].is_null());
    CHECK(j["dimensions"][d]["score"].is_null());
    CHECK(j["dimensions"][d]["note"] == "no resource data");
  }
  CHECK(j["dimensions"][10]["name"] == "total_time_seconds");
  CHECK(j["dimensions"][10]["value"].is_number());
  CHECK(j["dimensions"][10]["value"].get<double>() > 0);
  CHECK(j["explanation"].size() == 12);
  for (const char* key : {"name", "value", "baseline", "worst", "score", "weight"}) {
    CHECK(j["dimensions"][7].contains(key));
  }

  Run classify = Perfplan("classify --store '" + store + "' --json");
  REQUIRE_MESSAGE(classify.exit_code == 0, classify.err);
  const auto classes = nlohmann::json::parse(classify.out);
  REQUIRE(classes["applications"].size() == 10);
  CHECK(classes["clusters"].size() == 2);
  for (const auto& a : classes["applications"]) {
    if (a["app_id"] == kScored) CHECK(a["hint"] == "compute");
    if (a["app_id"] == "local-1422981759269") CHECK(a["hint"] == "io");
  }

  Run all = Perfplan("scores --store '" + store + "' --sort app --json");
  REQUIRE_MESSAGE(all.exit_code == 0, all.err);
  const auto list = nlohmann::json::parse(all.out)["applications"];
  // 12 logs, 10 application ids (one has two attempts); local-1430917381535 ran no task, so it
  // is not scored (issue 21).
  CHECK(list.size() == 9);
  for (const auto& a : list) CHECK(a["app_id"] != "local-1430917381535");
  CHECK(list[0]["app_id"] <= list[1]["app_id"]);
}

TEST_CASE("score and label reject unknown applications and bad types with exact messages") {
  const std::string dir = testing::MakeTempDir();
  const std::string store = IngestedStore(dir);

  Run unknown = Perfplan("score local-143091738154 --store '" + store + "'");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.out.empty());
  CHECK(unknown.err ==
        "perfplan score: error: no Spark application local-143091738154 in the store; did you "
        "mean 'local-1430917381534'?\n");

  Run label_unknown = Perfplan("label nothing-like-it io --store '" + store + "'");
  CHECK(label_unknown.exit_code == 2);
  CHECK(label_unknown.err ==
        "perfplan label: error: no Spark application nothing-like-it in the store\n");

  Run bad_type = Perfplan(std::string("label ") + kScored + " cpu --store '" + store + "'");
  CHECK(bad_type.exit_code == 2);
  CHECK(bad_type.err == "perfplan label: error: task type 'cpu' is not io or compute\n");

  Run unknown_type =
      Perfplan(std::string("label ") + kScored + " unknown --store '" + store + "'");
  CHECK(unknown_type.exit_code == 2);
  CHECK(unknown_type.err == "perfplan label: error: task type 'unknown' is not io or compute\n");

  const std::string empty = dir + "/empty.db";
  Run none = Perfplan("score x --store '" + empty + "'");
  CHECK(none.exit_code == 2);
  CHECK(none.err == "perfplan score: error: " + empty +
                        ": no such store; run `perfplan ingest spark` first\n");
  CHECK(!std::filesystem::exists(empty));  // a read never creates a store
}

}  // namespace
}  // namespace perfplan
