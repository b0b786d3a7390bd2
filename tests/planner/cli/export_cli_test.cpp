// Specification of `perfplan export --what scores|sensitivity|workload` end to end: each table
// from the evidence a user would have (a Spark store, a saved tuning model, an HDFS store), the
// header row with units, the versioned JSON, and the errors of a missing input.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan {
namespace {

using testing::RunPerfplan;

std::vector<std::string> Lines(const std::string& csv) {
  std::vector<std::string> lines;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

std::string Quote(const std::string& s) { return "'" + s + "'"; }

TEST_CASE("export --what scores writes one row per application with each dimension's score") {
  const std::string dir = testing::MakeTempDir();
  std::string logs;
  for (int i = 1; i <= 3; ++i) {
    const std::string id = "app-export-" + std::to_string(i);
    testing::WriteFile(dir + "/" + id, testing::SyntheticEventLog(id, 1 + i, 10 * i));
    logs += " " + Quote(dir + "/" + id);
  }
  const std::string store = Quote(dir + "/spark.db");
  REQUIRE(RunPerfplan("ingest spark" + logs + " --store " + store).exit_code == 0);

  testing::CliRun csv = RunPerfplan("export --what scores --store " + store);
  REQUIRE(csv.exit_code == 0);
  const std::vector<std::string> lines = Lines(csv.out);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].rfind(
            "application,score,task_type,provisional,provisional_reasons,worst_dimension,", 0) ==
        0);
  CHECK(lines[0].find(",total_time_seconds,total_time_seconds_score,") != std::string::npos);
  CHECK(lines[0].substr(lines[0].size() - 9) == ",warnings");

  testing::CliRun json =
      RunPerfplan("export --what scores app-export-2 --format json --store " + store);
  REQUIRE(json.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(json.out);
  CHECK(j["schema_version"] == 1);
  CHECK(j["what"] == "scores");
  REQUIRE(j["rows"].size() == 1);
  CHECK(j["rows"][0]["application"] == "app-export-2");
  CHECK(j["rows"][0]["score"].get<double>() >= 0);
  CHECK(j["rows"][0]["score"].get<double>() <= 100);
  // Spark logs carry no host metrics: the resource dimensions are empty, not zero.
  CHECK(j["rows"][0]["cpu_percent"].is_null());

  testing::CliRun unknown =
      RunPerfplan("export --what scores app-export-9 --store " + store, "2>&1 >/dev/null");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.out ==
        "perfplan export: error: no Spark application app-export-9 in the store; did you mean "
        "'app-export-1'?\n");
  testing::CliRun missing =
      RunPerfplan("export --what scores --store " + Quote(dir + "/nothing.db"), "2>&1 >/dev/null");
  CHECK(missing.exit_code == 2);
  CHECK(missing.out == "perfplan export: error: " + dir +
                           "/nothing.db: no such store; run `perfplan ingest spark` first\n");
}

TEST_CASE("export --what sensitivity ranks the parameters of a saved model") {
  const std::string dir = testing::MakeTempDir();
  const std::string model = Quote(dir + "/ex.model.json");
  REQUIRE(RunPerfplan("tune train --data " +
                      Quote(testing::SourceDir() + "/examples/tuning/spark_runs.csv") +
                      " --target time_seconds --kinds ridge --out " + model)
              .exit_code == 0);
  testing::CliRun csv = RunPerfplan("export --what sensitivity --model " + model);
  REQUIRE(csv.exit_code == 0);
  const std::vector<std::string> lines = Lines(csv.out);
  REQUIRE(lines.size() > 2);
  CHECK(lines[0] ==
        "rank,target,parameter,unit,value,step,eta,scaled_change,direction,predicted,model,cv_mre");
  CHECK(lines[1].rfind("1,time_seconds,", 0) == 0);

  testing::CliRun none = RunPerfplan("export --what sensitivity", "2>&1 >/dev/null");
  CHECK(none.exit_code == 2);
  CHECK(none.out ==
        "perfplan export: error: --what sensitivity needs --model (a model saved by `perfplan "
        "tune train`)\n");
}

TEST_CASE("export --what workload tabulates the cluster, DataNodes, clients, users") {
  const std::string dir = testing::MakeTempDir();
  testing::CliRun sim = RunPerfplan(
      "simulate hdfs --files 3 --file-size 5000000 --clients 2 --datanodes 3 "
      "--block-size 1048576 --out " +
      Quote(dir + "/logs") + " --json");
  REQUIRE(sim.exit_code == 0);
  const nlohmann::json truth = nlohmann::json::parse(sim.out);
  std::string nodes;
  for (const auto& n : truth["ingest_nodes"]) nodes += " --node " + Quote(n.get<std::string>());
  const std::string store = Quote(dir + "/hdfs.db");
  REQUIRE(RunPerfplan("ingest hdfs" + nodes + " --store " + store).exit_code == 0);

  testing::CliRun json = RunPerfplan("export --what workload --format json --store " + store);
  REQUIRE(json.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(json.out);
  CHECK(j["what"] == "workload");
  REQUIRE(!j["rows"].empty());
  const nlohmann::json& cluster = j["rows"][0];
  CHECK(cluster["kind"] == "cluster");
  CHECK(cluster["read_bytes"] == truth["truth"]["read_bytes"]);
  CHECK(cluster["write_bytes"] == truth["truth"]["write_bytes"]);
  int datanodes = 0, clients = 0;
  for (const auto& row : j["rows"]) {
    datanodes += row["kind"] == "datanode";
    clients += row["kind"] == "client";
    if (row["kind"] == "datanode") CHECK(row["command"].is_null());
  }
  CHECK(datanodes == 3);
  CHECK(clients == 2);

  testing::CliRun csv = RunPerfplan("export --what workload --store " + store);
  REQUIRE(csv.exit_code == 0);
  CHECK(Lines(csv.out)[0].rfind("kind,key,read_ops,write_ops,", 0) == 0);
  CHECK(Lines(csv.out).size() == j["rows"].size() + 1);
}

}  // namespace
}  // namespace perfplan
