// End-to-end: `perfplan tune ...` through the real binary — JSON keys of DESIGN §6, exit codes
// for bad input, and repeatable output for a seed.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/test_support.h"

namespace perfplan {
namespace {

using Run = testing::CliRun;
using testing::RunPerfplan;

// 30 runs of a made-up Spark job whose time falls with memory and cores.
std::string RunsCsv() {
  std::string csv = "spark.executor.memory,spark.executor.cores,spark.locality.wait,time_seconds\n";
  for (int i = 0; i < 30; ++i) {
    const int mem_gb = 1 + (i * 7) % 16;
    const int cores = 1 + (i * 5) % 8;
    const int wait_ms = 100 * (1 + (i * 3) % 10);
    const double time = 50 + 400.0 / (mem_gb + 2) + 200.0 / cores + 0.01 * wait_ms;
    char line[128];
    std::snprintf(line, sizeof line, "%dg,%d,%dms,%.3f\n", mem_gb, cores, wait_ms, time);
    csv += line;
  }
  return csv;
}

struct Fixture {
  std::string dir = testing::MakeTempDir();
  std::string csv = dir + "/runs.csv";
  std::string common = "--data " + csv +
                       " --target time_seconds --kinds eps-svr-rbf,ridge,mean --budget-seconds "
                       "600 --json";
  Fixture() { testing::WriteFile(csv, RunsCsv()); }
};

TEST_CASE("tune cv prints models[] {kind, mre} and is repeatable for a seed") {
  Fixture f;
  const Run a = RunPerfplan("tune cv " + f.common + " --seed 3");
  REQUIRE(a.exit_code == 0);
  const auto j = nlohmann::json::parse(a.out);
  REQUIRE(j["models"].size() == 3);
  CHECK(j["models"][0]["kind"] == "eps-svr-rbf");
  CHECK(j["models"][0]["mre"].is_number());
  CHECK(j["chosen"]["kind"] != "mean");
  CHECK(j["seed"] == 3);
  CHECK(RunPerfplan("tune cv " + f.common + " --seed 3").out == a.out);
}

TEST_CASE("tune train saves a model that sensitivity and recommend use") {
  Fixture f;
  const std::string model = f.dir + "/m.json";
  REQUIRE(RunPerfplan("tune train " + f.common + " --out " + model).exit_code == 0);

  const Run s = RunPerfplan("tune sensitivity --model " + model + " --json");
  REQUIRE(s.exit_code == 0);
  const auto sj = nlohmann::json::parse(s.out);
  REQUIRE(sj["parameters"].size() == 3);
  for (const auto& p : sj["parameters"]) {
    CHECK(p.contains("name"));
    CHECK(p["eta"].is_number());
    CHECK(p.contains("direction"));
    CHECK(p["rank"].is_number_integer());
  }
  CHECK(sj["parameters"][0]["rank"] == 1);

  const Run r = RunPerfplan("tune recommend --model " + model +
                         " --constraint 'spark.executor.memory * spark.executor.cores <= 64g' "
                         "--json");
  REQUIRE(r.exit_code == 0);
  const auto rj = nlohmann::json::parse(r.out);
  CHECK(rj["config"].contains("spark.executor.memory"));
  CHECK(rj["predicted"].get<double>() <= rj["baseline_predicted"].get<double>());
  CHECK(rj["predicted_gain"].is_number());
  CHECK(rj["cv_mre"].is_number());
  CHECK(rj["spark_defaults"][0].get<std::string>().rfind("spark.executor.memory ", 0) == 0);
  const double mem = rj["config"]["spark.executor.memory"];
  const double cores = rj["config"]["spark.executor.cores"];
  CHECK(mem * cores <= 64.0 * 1024 * 1024 * 1024);

  CHECK(RunPerfplan("tune sensitivity --model " + model + " --at spark.executor.memry=4g").exit_code ==
        2);
  const Run human = RunPerfplan("tune recommend --model " + model);
  CHECK(human.exit_code == 0);
  CHECK(human.out.find("\nspark.executor.memory ") != std::string::npos);
}

TEST_CASE("tune classify reports precision, recall and F1 per class from a score column") {
  const std::string dir = testing::MakeTempDir();
  std::string csv = "spark.executor.memory,spark.executor.cores,score\n";
  for (int i = 0; i < 40; ++i) {
    const int mem = 1 + (i * 7) % 16, cores = 1 + (i * 5) % 8;
    csv += std::to_string(mem) + "g," + std::to_string(cores) + "," +
           std::to_string(30 + 3 * mem + 4 * cores) + "\n";
  }
  testing::WriteFile(dir + "/scores.csv", csv);
  const Run r =
      RunPerfplan("tune classify --data " + dir + "/scores.csv --target score --kinds ridge --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["classes"].size() == 2);
  for (const auto& c : j["classes"]) {
    CHECK(c.contains("precision"));
    CHECK(c.contains("recall"));
    CHECK(c.contains("f1"));
  }
  CHECK(j["threshold"] == 60.0);
}

TEST_CASE("Bad input exits 2 with an error document") {
  Fixture f;
  struct Case {
    const char* name;
    std::string csv;
    std::string extra;
  };
  const Case cases[] = {
      {"missing target", "a,b\n1,2\n2,3\n", ""},
      {"NaN", "a,time_seconds\n1,2\nNaN,3\n2,4\n", ""},
      {"constant column", "a,c,time_seconds\n1,5,2\n2,5,3\n3,5,4\n", ""},
      {"fewer runs than folds", "a,time_seconds\n1,2\n2,3\n3,4\n", ""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const std::string path = f.dir + "/bad.csv";
    testing::WriteFile(path, c.csv);
    const Run r = RunPerfplan("tune cv --data " + path + " --target time_seconds --json");
    CHECK(r.exit_code == 2);
    CHECK(nlohmann::json::parse(r.out)["error"] == "invalid_argument");
  }
  testing::WriteFile(f.dir + "/corrupt.json", "{\"format\": \"perfplan-tuning-model\"");
  CHECK(RunPerfplan("tune sensitivity --model " + f.dir + "/corrupt.json").exit_code == 2);
  testing::WriteFile(f.dir + "/v9.json",
                     "{\"format\": \"perfplan-tuning-model\", \"format_version\": 9}");
  CHECK(RunPerfplan("tune recommend --model " + f.dir + "/v9.json").exit_code == 2);
  CHECK(RunPerfplan("tune cv --data " + f.csv + " --target time_seconds --kinds svm").exit_code == 2);
}

}  // namespace
}  // namespace perfplan

namespace perfplan {
namespace {

TEST_CASE("The documented example recommends a configuration within the constraints") {
  const std::string data = testing::SourceDir() + "/examples/tuning/spark_runs.csv";
  const Run r = RunPerfplan("tune recommend --data " + data +
                         " --target time_seconds --budget-seconds 600 "
                         "--constraint 'spark.executor.memory * spark.executor.instances <= 24g' "
                         "--constraint 'spark.executor.cores * spark.executor.instances <= 16' "
                         "--json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  const auto& c = j["config"];
  CHECK(c["spark.executor.memory"].get<double>() * c["spark.executor.instances"].get<double>() <=
        24.0 * 1024 * 1024 * 1024);
  CHECK(c["spark.executor.cores"].get<double>() * c["spark.executor.instances"].get<double>() <=
        16);
  CHECK(j["predicted"].get<double>() < j["baseline_predicted"].get<double>());
  CHECK(j["predicted_gain"].get<double>() > 0);
  const std::string codec = j["config_text"]["spark.io.compression.codec"];
  CHECK((codec == "lz4" || codec == "snappy" || codec == "zstd"));
}

}  // namespace
}  // namespace perfplan
