// End-to-end: `perfplan ingest spark` and `perfplan spark api` through the real binary, on
// synthetic logs built at run time (no shared data needed).
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan {
namespace {

using Run = testing::CliRun;
using testing::RunPerfplan;

// A temp folder whose store s.db holds the synthetic application `app` of `stages` stages of
// `tasks` tasks, ingested from dir/logs through the binary.
std::string IngestSynthetic(const std::string& app, int stages, int tasks) {
  const std::string dir = testing::MakeTempDir();
  std::filesystem::create_directories(dir + "/logs");
  testing::WriteFile(dir + "/logs/" + app, testing::SyntheticEventLog(app, stages, tasks));
  REQUIRE(RunPerfplan("ingest spark '" + dir + "/logs' --store '" + dir + "/s.db'").exit_code == 0);
  return dir;
}

TEST_CASE("ingest spark --json reports applications, events and skipped lines") {
  const std::string dir = testing::MakeTempDir();
  std::string log = testing::SyntheticEventLog("app-cli", 2, 3);
  log.insert(log.find('\n') + 1, "not json\n");
  testing::WriteFile(dir + "/app-cli.lz4", testing::EncodeLz4Block(log));
  Run r = RunPerfplan("ingest spark '" + dir + "' --store '" + dir + "/s.db' --json");
  REQUIRE(r.exit_code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["applications"] == 1);
  CHECK(j["events"] == 2 + 1 + 2 * (2 + 2 * 3) + 1 + 1);
  INFO(r.out);
  REQUIRE(j["skipped"].size() == 1);
  CHECK(j["skipped"][0]["file"] == dir + "/app-cli.lz4");
  CHECK(j["skipped"][0]["line"] == 2);
  CHECK(j["skipped"][0]["reason"] == "invalid JSON");

  Run again = RunPerfplan("ingest spark '" + dir + "' --store '" + dir + "/s.db' --json");
  REQUIRE(again.exit_code == 0);
  CHECK(nlohmann::json::parse(again.out)["applications_ingested"][0]["unchanged"] == true);

  Run jobs = RunPerfplan("spark api applications/app-cli/jobs --store '" + dir + "/s.db'");
  REQUIRE(jobs.exit_code == 0);
  auto list = nlohmann::json::parse(jobs.out);
  REQUIRE(list.size() == 1);
  CHECK(list[0]["status"] == "SUCCEEDED");
  CHECK(list[0]["numCompletedTasks"] == 6);
  CHECK(list[0]["numCompletedStages"] == 2);
}

TEST_CASE("apps and app list what was ingested, with per-stage task statistics") {
  const std::string dir = IngestSynthetic("app-a", 2, 5);
  Run apps = RunPerfplan("apps --store '" + dir + "/s.db' --json");
  REQUIRE(apps.exit_code == 0);
  auto list = nlohmann::json::parse(apps.out)["applications"];
  REQUIRE(list.size() == 1);
  CHECK(list[0]["app_id"] == "app-a");
  CHECK(list[0]["tasks"] == 10);
  CHECK(list[0]["completed"] == true);
  Run app = RunPerfplan("app app-a --store '" + dir + "/s.db' --json");
  REQUIRE(app.exit_code == 0);
  auto stages = nlohmann::json::parse(app.out)["stages"];
  REQUIRE(stages.size() == 2);
  CHECK(stages[1]["task_seconds_median"] == doctest::Approx(0.12));
  CHECK(stages[1]["task_seconds_max"] == doctest::Approx(0.14));
  CHECK(RunPerfplan("app nope --store '" + dir + "/s.db'").exit_code == 2);
}

TEST_CASE("whatif executors replays the recorded tasks: fewer slots never finish sooner") {
  const std::string dir = IngestSynthetic("app-w", 3, 6);
  Run r = RunPerfplan("whatif executors app-w --counts 1,2,4 --store '" + dir + "/s.db' --json");
  REQUIRE(r.exit_code == 0);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["points"].size() == 3);
  CHECK(j["points"][0]["executors"] == 1);
  const double one = j["points"][0]["predicted_seconds"];
  const double four = j["points"][2]["predicted_seconds"];
  CHECK(one >= four);
  CHECK(four >= j["critical_path_seconds"].get<double>());
  CHECK(j["measured_seconds"].get<double>() > 0);
  CHECK(j.contains("relative_error_at_observed"));
  CHECK(RunPerfplan("whatif executors app-w --counts 0 --store '" + dir + "/s.db'").exit_code == 2);
}

TEST_CASE("spark profile derives a FREERIDE-G profile that perfplan predict accepts") {
  const std::string dir = IngestSynthetic("app-p", 2, 4);
  Run profile =
      RunPerfplan("spark profile app-p --store '" + dir + "/s.db' --out '" + dir + "/p.yaml'");
  REQUIRE(profile.exit_code == 0);
  const std::string yaml = testing::ReadFile(dir + "/p.yaml");
  CHECK(yaml.find("dataset_bytes: 32768") != std::string::npos);  // 8 tasks x 4096 bytes
  Run predict = RunPerfplan("predict --profile '" + dir +
                         "/p.yaml' --dataset-bytes 65536 --storage-nodes 1 --compute-nodes 2 "
                         "--bandwidth-bytes-per-second 125e6 --json");
  REQUIRE(predict.exit_code == 0);
  CHECK(nlohmann::json::parse(predict.out)["runtime_seconds"].get<double>() > 0);
  // The driver's serial time is not a per-node cost: more compute nodes never add time.
  double previous = 1e300;
  for (int nodes : {1, 2, 4, 8, 16}) {
    CAPTURE(nodes);
    Run p = RunPerfplan("predict --profile '" + dir +
                        "/p.yaml' --dataset-bytes 32768 --storage-nodes 1 --compute-nodes " +
                        std::to_string(nodes) + " --bandwidth-bytes-per-second 125e6 --json");
    REQUIRE(p.exit_code == 0);
    const auto j = nlohmann::json::parse(p.out);
    CHECK(j["breakdown"]["global_reduction_seconds"].get<double>() == 0);
    const double t = j["runtime_seconds"].get<double>();
    CHECK(t <= previous);
    previous = t;
  }
}

TEST_CASE("spark api exits 2 with the History Server's message for an unknown application") {
  const std::string dir = IngestSynthetic("app-n", 1, 2);
  Run r = RunPerfplan("spark api applications/nope --store '" + dir + "/s.db'");
  CHECK(r.exit_code == 2);
  CHECK(nlohmann::json::parse(r.out)["message"] == "unknown app: nope");
}

TEST_CASE("Read commands say 'no such store' for a missing store and do not create it") {
  const std::string dir = testing::MakeTempDir();
  Run api = RunPerfplan("spark api applications --store '" + dir + "/s.db'");
  CHECK(api.exit_code == 2);
  CHECK(nlohmann::json::parse(api.out)["message"] == dir + "/s.db: no such store");
  Run apps = RunPerfplan("apps --store '" + dir + "/s.db' --json");
  CHECK(apps.exit_code == 2);
  CHECK(nlohmann::json::parse(apps.out)["message"] == dir + "/s.db: no such store");
  CHECK_FALSE(std::filesystem::exists(dir + "/s.db"));
}

}  // namespace
}  // namespace perfplan
