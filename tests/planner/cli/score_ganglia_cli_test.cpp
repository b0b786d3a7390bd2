// `perfplan score` on evidence that really overlaps: a real gmond 3.7.2 answer
// (../shared/data/03-ganglia/gmond-3.7.2-loopback.xml, host "localhost", IP 127.0.0.1, LOCALTIME
// 1795956949) stored with `collect ganglia`, and two event logs written here whose application
// windows lie inside that gmond's polling window, their executors named by the FQDN
// "localhost.localdomain" and by the IP 127.0.0.1. The α dimensions must come from the samples.
//
// And the target of issue 21: on every store built from ../shared/data's event logs, no score is
// above the documented maximum (100) or below 0, and no application without tasks is scored.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/test_support.h"

PERFPLAN_REQUIRE_SHARED_DATA();

namespace perfplan {
namespace {

namespace fs = std::filesystem;

// A Spark 3 event log of one application with `tasks` finished tasks on `host`, between
// `start_ms` and `end_ms`.
std::string EventLog(const std::string& app_id, const std::string& host, std::int64_t start_ms,
                     std::int64_t end_ms, int tasks, std::int64_t cpu_ns) {
  std::string log = R"({"Event":"SparkListenerLogStart","Spark Version":"3.3.0"})"
                    "\n";
  log += R"({"Event":"SparkListenerApplicationStart","App Name":"WordCount","App ID":")" + app_id +
         R"(","Timestamp":)" + std::to_string(start_ms) + R"(,"User":"u"})" + "\n";
  log += R"({"Event":"SparkListenerExecutorAdded","Timestamp":)" + std::to_string(start_ms + 100) +
         R"(,"Executor ID":"1","Executor Info":{"Host":")" + host + R"(","Total Cores":2}})" + "\n";
  for (int t = 0; t < tasks; ++t) {
    const std::int64_t launch = start_ms + 1000 + 1000 * t;
    log += R"({"Event":"SparkListenerTaskEnd","Stage ID":0,"Stage Attempt ID":0,"Task Type":"ResultTask","Task End Reason":{"Reason":"Success"},"Task Info":{"Task ID":)" +
           std::to_string(t) + R"(,"Index":)" + std::to_string(t) +
           R"(,"Attempt":0,"Launch Time":)" + std::to_string(launch) +
           R"(,"Executor ID":"1","Host":")" + host + R"(","Locality":"PROCESS_LOCAL","Speculative":false,"Getting Result Time":0,"Finish Time":)" +
           std::to_string(launch + 800) +
           R"(,"Failed":false,"Killed":false},"Task Metrics":{"Executor Deserialize Time":10,"Executor Run Time":700,"Executor CPU Time":)" +
           std::to_string(cpu_ns) +
           R"(,"Result Size":100,"JVM GC Time":20,"Result Serialization Time":1,"Input Metrics":{"Bytes Read":1000000,"Records Read":10}}})" +
           "\n";
  }
  log += R"({"Event":"SparkListenerApplicationEnd","Timestamp":)" + std::to_string(end_ms) + "}\n";
  return log;
}

testing::CliRun Run(const std::string& args) { return testing::RunPerfplan(args, "2>&1"); }

TEST_CASE("score takes alpha from real gmond samples, matching executor hosts by FQDN and IP") {
  const std::string dir = testing::MakeTempDir();
  const std::string store = dir + "/s.db";
  const std::string xml = testing::SharedDataDir() + "/03-ganglia/gmond-3.7.2-loopback.xml";
  testing::CliRun collect = Run("collect ganglia --source '" + xml + "' --store '" + store + "'");
  REQUIRE_MESSAGE(collect.exit_code == 0, collect.out);

  // gmond's LOCALTIME is 1795956949; its metrics were updated 19 to 79 seconds before.
  fs::create_directories(dir + "/logs");
  testing::WriteFile(dir + "/logs/app-fqdn",
                     EventLog("app-fqdn", "localhost.localdomain", 1795956860000, 1795956950000,
                              4, 600000000));
  testing::WriteFile(dir + "/logs/app-ip",
                     EventLog("app-ip", "127.0.0.1", 1795956861000, 1795956950000, 3, 500000000));
  testing::CliRun ingest = Run("ingest spark '" + dir + "/logs' --store '" + store + "'");
  REQUIRE_MESSAGE(ingest.exit_code == 0, ingest.out);

  for (const char* app : {"app-fqdn", "app-ip"}) {
    CAPTURE(app);
    testing::CliRun score =
        testing::RunPerfplan(std::string("score ") + app + " --store '" + store + "' --json");
    REQUIRE(score.exit_code == 0);
    const auto j = nlohmann::json::parse(score.out);
    CHECK(j["max_score"] == 100.0);
    CHECK(j["score"].get<double>() >= 0);
    CHECK(j["score"].get<double>() <= 100);
    // The two runs share their name: each is compared with the other.
    CHECK(j["comparable_runs"] == 1);
    CHECK(j["comparison"] == "same application name 'WordCount'");
    const auto& dims = j["dimensions"];
    REQUIRE(dims.size() == 12);
    CHECK(dims[0]["name"] == "cpu_percent");
    REQUIRE(dims[0]["value"].is_number());
    CHECK(dims[0]["value"].get<double>() >= 0);
    CHECK(dims[0]["value"].get<double>() <= 100);
    CHECK(dims[4]["name"] == "memory_used_percent");
    CHECK(dims[4]["value"].is_number());
    CHECK(dims[5]["name"] == "load_per_cpu");
    CHECK(dims[5]["value"].is_number());
    CHECK(dims[6]["name"] == "executor_compute_time_share");
    CHECK(dims[6]["value"].is_number());
    const std::string source = j["alpha_sources"][0];
    CHECK(source.find("cpu_idle") != std::string::npos);
    bool renamed = false;
    for (const auto& w : j["warnings"]) {
      if (w.get<std::string>().find(" is Ganglia host localhost") != std::string::npos) {
        renamed = true;
      }
    }
    CHECK(renamed);
  }

  testing::CliRun text = Run("score app-ip --store '" + store + "'");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.rfind("app-ip: score ", 0) == 0);
  CHECK(text.out.find(" of 100 (task type ") != std::string::npos);
  CHECK(text.out.find("  compared with 1 run(s): same application name 'WordCount'\n") !=
        std::string::npos);
}

// Every folder of event logs in ../shared/data, and all of them together.
std::vector<std::string> EventLogSets() {
  const std::string root = testing::SharedDataDir() + "/01-spark-eventlogs";
  std::vector<std::string> sets = {root};
  for (const auto& entry : fs::directory_iterator(root)) {
    if (entry.is_directory()) sets.push_back(entry.path().string());
  }
  std::sort(sets.begin(), sets.end());
  return sets;
}

TEST_CASE("On every store built from shared data no score leaves [0, 100] and no taskless "
          "application is scored") {
  const std::string dir = testing::MakeTempDir();
  int stores = 0;
  for (const std::string& logs : EventLogSets()) {
    CAPTURE(logs);
    const std::string store = dir + "/" + std::to_string(stores++) + ".db";
    testing::CliRun ingest = Run("ingest spark '" + logs + "' --store '" + store + "'");
    // Some folders hold broken logs on purpose; what was ingested is scored all the same.
    if (!fs::exists(store)) continue;
    testing::CliRun apps = testing::RunPerfplan("apps --store '" + store + "' --json");
    REQUIRE(apps.exit_code == 0);
    std::map<std::string, std::int64_t> tasks;
    const nlohmann::json listed = nlohmann::json::parse(apps.out);
    for (const auto& a : listed["applications"]) {
      tasks[a["app_id"]] += a["tasks"].get<std::int64_t>();
    }
    testing::CliRun scores = testing::RunPerfplan("scores --store '" + store + "' --json");
    if (scores.exit_code != 0) {
      // Only a store without any application with tasks may refuse.
      for (const auto& [app, n] : tasks) CHECK(n == 0);
      continue;
    }
    const nlohmann::json scored = nlohmann::json::parse(scores.out);
    for (const auto& s : scored["applications"]) {
      CAPTURE(s["app_id"]);
      CHECK(s["score"].get<double>() >= 0);
      CHECK(s["score"].get<double>() <= s["max_score"].get<double>());
      CHECK(s["max_score"] == 100.0);
      CHECK(s["kind"] == "spark");  // as the text table's kind column says
      CHECK(tasks.at(s["app_id"]) > 0);
      for (const auto& d : s["dimensions"]) {
        if (d["score"].is_null()) continue;
        CHECK(d["score"].get<double>() >= 0);
        CHECK(d["score"].get<double>() <= 100);
      }
    }
  }
  CHECK(stores >= 6);
}

}  // namespace
}  // namespace perfplan
