// End-to-end: `perfplan plan` and `perfplan capacity` through the real binary. The plan must agree
// with `perfplan select` run separately; bad input is exit 2 with file:line: field: message.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/support/plan_inputs.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan {
namespace {

using testing::RunPerfplan;

std::string Example(const std::string& name) {
  return "'" + testing::SourceDir() + "/examples/" + name + "'";
}

std::string KmeansArgs() {
  return "--profile " + Example("profiles/kmeans.yaml") + " --topology " +
         Example("topology.yaml") + " --dataset sky-survey";
}

// The standard output of a perfplan run that must succeed (exit code 0), as JSON.
nlohmann::json JsonOf(const std::string& args) {
  const testing::CliRun run = RunPerfplan(args);
  INFO("perfplan " << args);
  REQUIRE(run.exit_code == 0);
  return nlohmann::json::parse(run.out);
}

TEST_CASE("plan --objective time recommends what select ranks first, with the same runtime") {
  const nlohmann::json p = JsonOf("plan " + KmeansArgs() + " --json");
  const nlohmann::json s = JsonOf("select " + KmeansArgs() + " --json");
  const auto& chosen = p["recommendation"]["plan"];
  const auto& first = s["alternatives"][0];
  for (const char* key : {"replica_site", "compute_site", "compute_nodes", "runtime_seconds"}) {
    CAPTURE(key);
    CHECK(chosen[key] == first[key]);
  }
  CHECK(p["sources"]["runtime"]["command"] == "perfplan select");
  CHECK(p["sources"]["runtime"]["runs"] == s["model"]["profile_runs"]);
  CHECK(p["recommendation"]["plan"]["cost"].is_null());
}

TEST_CASE("plan --objective node-seconds agrees with select --objective node-seconds") {
  const nlohmann::json p =
      JsonOf("plan " + KmeansArgs() + " --objective node-seconds --max-nodes 8 --json");
  const nlohmann::json s =
      JsonOf("select " + KmeansArgs() + " --objective node-seconds --max-compute-nodes 8 --json");
  CHECK(p["recommendation"]["plan"]["compute_site"] == s["alternatives"][0]["compute_site"]);
  CHECK(p["recommendation"]["plan"]["compute_nodes"] == s["alternatives"][0]["compute_nodes"]);
  CHECK(p["recommendation"]["plan"]["node_seconds"] == s["alternatives"][0]["node_seconds"]);
}

TEST_CASE("plan errors: bad price file is exit 2 with file:line: field, none feasible is exit 1") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/p.yaml",
                     "schema_version: 1\ncurrency: USD\nprices:\n"
                     "  - {site: osu-cluster, price_per_node_hour: -2}\n");
  testing::CliRun bad =
      RunPerfplan("plan " + KmeansArgs() + " --prices '" + dir + "/p.yaml'", "2>&1");
  CHECK(bad.exit_code == 2);
  CHECK(bad.out == "perfplan plan: error: " + dir +
                       "/p.yaml:4: prices[0].price_per_node_hour: must be >= 0, got -2\n");
  testing::CliRun cost = RunPerfplan("plan " + KmeansArgs() + " --objective cost", "2>&1");
  CHECK(cost.exit_code == 2);
  CHECK(cost.out ==
        "perfplan plan: error: objective: cost needs prices (--prices FILE, or \"prices\" in a "
        "/v1/plan request)\n");
  testing::CliRun none = RunPerfplan("plan " + KmeansArgs() + " --prices " +
                                     Example("prices/grid.yaml") + " --budget 0.000001");
  CHECK(none.exit_code == 1);
}

TEST_CASE("plan --runs: one fit per instance type; a plan needs one evidence path") {
  const std::string dir = testing::MakeTempDir();
  std::string csv =
      "workload,instance_type,dataset_bytes,storage_nodes,compute_nodes,"
      "bandwidth_bytes_per_second,runtime_seconds,completed\n";
  for (int c : {2, 4, 8, 16}) {
    csv += "w,small,1e9," + std::to_string(c) + "," + std::to_string(c) + ",1e8," +
           std::to_string(20 + 400.0 / c) + ",true\n";
  }
  testing::WriteFile(dir + "/runs.csv", csv);
  const nlohmann::json j =
      JsonOf("plan --runs '" + dir + "/runs.csv' --workload w --nodes 2,16 --json");
  CHECK(j["evidence"] == "runs");
  CHECK(j["sources"]["runtime"]["command"] == "perfplan fit");
  CHECK(j["recommendation"]["plan"]["instance_type"] == "small");
  CHECK(j["recommendation"]["plan"]["compute_nodes"] == 16);
  CHECK(j["alternatives"].size() == 2);
  testing::CliRun none = RunPerfplan("plan --dataset sky-survey", "2>&1");
  CHECK(none.exit_code == 2);
  CHECK(none.out ==
        "perfplan plan: error: give --profile, --topology and --dataset, or --runs and "
        "--workload, or --store and --app\n");
}

TEST_CASE("plan --store --app: the what-if's counts, the separate commands named, no prices") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/app-a", testing::SyntheticEventLog("app-a", 2, 20));
  testing::WriteFile(dir + "/app-b", testing::SyntheticEventLog("app-b", 2, 24));
  const std::string store = dir + "/s.db";
  REQUIRE(RunPerfplan("ingest spark '" + dir + "/app-a' '" + dir + "/app-b' --store '" + store +
                      "'")
              .exit_code == 0);
  const nlohmann::json p = JsonOf("plan --store '" + store + "' --app synthetic --json");
  CHECK(p["evidence"] == "spark-application");
  CHECK(p["latest_app_id"] == "app-b");
  const nlohmann::json w =
      JsonOf("whatif executors app-b --counts 1,2,4,8 --store '" + store + "' --json");
  REQUIRE(p["executors"]["options"].size() == w["points"].size());
  for (std::size_t i = 0; i < w["points"].size(); ++i) {
    CHECK(p["executors"]["options"][i]["executors"] == w["points"][i]["executors"]);
    CHECK(p["executors"]["options"][i]["whatif_seconds"] == w["points"][i]["predicted_seconds"]);
  }
  CHECK(p["tuning"]["recommended"] == false);
  CHECK(p["tuning"]["runs"] == 2);
  CHECK(p["tuning"]["needed"] == 5);
  const nlohmann::json stragglers = JsonOf("stragglers app-b --store '" + store + "' --json");
  CHECK(p["stragglers"]["h_job"] == stragglers["h_job"]);

  testing::CliRun text = RunPerfplan("plan --store '" + store + "' --app synthetic");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("plan for Spark application \"synthetic\" (2 run(s)") != std::string::npos);
  CHECK(text.out.find("recommendation: run on ") != std::string::npos);
  CHECK(text.out.find("parameters: the application has 2 run(s) in the store; the "
                      "config-sensitivity model needs 5") != std::string::npos);

  testing::CliRun priced = RunPerfplan(
      "plan --store '" + store + "' --app synthetic --objective cost", "2>&1");
  CHECK(priced.exit_code == 2);
  CHECK(priced.out.find("objective: cost: the Spark application path prices nothing") !=
        std::string::npos);
  testing::CliRun unknown = RunPerfplan("plan --store '" + store + "' --app nope", "2>&1");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.out == "perfplan plan: error: app: no Spark application named or with id \"nope\" "
                       "in the store " + store + " (names: \"synthetic\")\n");
}

TEST_CASE("export --what plan: the plan's alternatives, or the Spark plan's parts, as rows") {
  // Profile path: one row per alternative, every row with every column, the plan's numbers.
  const std::string with_prices = KmeansArgs() + " --prices " + Example("prices/grid.yaml");
  const nlohmann::json p = JsonOf("plan " + with_prices + " --objective cost --json");
  const nlohmann::json t =
      JsonOf("export --what plan " + with_prices + " --objective cost --format json");
  CHECK(t["what"] == "plan");
  CHECK(t["columns"].back() == "instance_type");
  REQUIRE(t["rows"].size() == p["alternatives"].size());
  for (std::size_t i = 0; i < t["rows"].size(); ++i) {
    const auto& row = t["rows"][i];
    CHECK(row.size() == t["columns"].size());
    for (const char* key : {"replica_site", "compute_site", "compute_nodes", "runtime_seconds"}) {
      CAPTURE(key);
      CHECK(row[key] == p["alternatives"][i][key]);
    }
    const auto& cost = p["alternatives"][i]["cost"];
    CHECK(row["cost"] == (cost.is_null() ? nlohmann::json() : cost["cost"]));
    CHECK(row["on_front"] == (p["alternatives"][i]["on_front"].get<bool>() ? 1 : 0));
    CHECK(row["chosen"] == (p["recommendation"]["alternative"] == i ? 1 : 0));
  }

  // Spark application path: the executor options, the chosen count and the slowest stages of
  // `perfplan plan --store --app`, with the same executor counts.
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/app-a", testing::SyntheticEventLog("app-a", 2, 20));
  testing::WriteFile(dir + "/app-b", testing::SyntheticEventLog("app-b", 3, 24));
  const std::string store = "'" + dir + "/s.db'";
  REQUIRE(RunPerfplan("ingest spark '" + dir + "/app-a' '" + dir + "/app-b' --store " + store)
              .exit_code == 0);
  const nlohmann::json sp =
      JsonOf("plan --store " + store + " --app synthetic --nodes 1,3,6 --json");
  const nlohmann::json r =
      JsonOf("export --what plan synthetic --store " + store + " --nodes 1,3,6 --format json");
  CHECK(r["columns"][0] == "kind");
  std::size_t executors = 0, stages = 0;
  for (const auto& row : r["rows"]) {
    CHECK(row.size() == r["columns"].size());
    CHECK(row["application"] == "app-b");
    if (row["kind"] == "executors") {
      const auto& o = sp["executors"]["options"][executors++];
      CHECK(row["executors"] == o["executors"]);
      CHECK(row["whatif_seconds"] == o["whatif_seconds"]);
      CHECK(row["executor_seconds"] == o["executor_seconds"]);
      CHECK(row["chosen"] == (sp["recommendation"]["executors"] == o["executors"] ? 1 : 0));
    } else if (row["kind"] == "stage") {
      const auto& st = sp["stragglers"]["slowest_stages"][stages++];
      CHECK(row["stage"] == std::to_string(st["stage_id"].get<int>()) + "." +
                                std::to_string(st["attempt_id"].get<int>()));
      CHECK(row["task_seconds"] == st["task_seconds"]);
      CHECK(row["h_index"] == st["h_index"]);
    }
  }
  CHECK(executors == 3);
  CHECK(stages == sp["stragglers"]["slowest_stages"].size());
  CHECK(stages == 3);
  // The Spark path still prices nothing.
  testing::CliRun priced = RunPerfplan("export --what plan synthetic --store " + store +
                                           " --objective cost",
                                       "2>&1");
  CHECK(priced.exit_code == 2);
  CHECK(priced.out.find("the Spark application path prices nothing") != std::string::npos);
}

// Inputs of the runs and Spark-application paths in a fresh folder `dir`: runs.csv of kmeans on m5
// (`runs` names it and the workload) and the store `store` (quoted) with one ingested synthetic
// application whose event log is `log`.
struct PathInputs {
  std::string dir;
  std::string store;
  std::string runs;
};
PathInputs RunsAndStore(const std::string& log) {
  PathInputs in;
  in.dir = testing::MakeTempDir();
  testing::WriteFile(in.dir + "/runs.csv",
                     testing::LinearRunsCsv("kmeans", {{"m5", 40, 1500}}, {4, 8, 16, 32}));
  testing::WriteFile(in.dir + "/" + log, testing::SyntheticEventLog(log, 2, 16));
  in.store = "'" + in.dir + "/s.db'";
  REQUIRE(RunPerfplan("ingest spark '" + in.dir + "/" + log + "' --store " + in.store).exit_code ==
          0);
  in.runs = " --runs '" + in.dir + "/runs.csv' --workload kmeans";
  return in;
}

TEST_CASE("plan over a profile, a runs CSV and a store at once: each part is its own plan") {
  const auto [dir, store, runs] = RunsAndStore("app-c");
  const std::string app = " --store " + store + " --app synthetic";

  const nlohmann::json c = JsonOf("plan " + KmeansArgs() + runs + app + " --json");
  const nlohmann::json profile = JsonOf("plan " + KmeansArgs() + " --json");
  const nlohmann::json by_runs = JsonOf("plan" + runs + " --json");
  const nlohmann::json spark = JsonOf("plan" + app + " --json");
  CHECK(c["evidence"] == "combined");
  CHECK(c["parts"]["profile"] == profile);
  CHECK(c["parts"]["runs"] == by_runs);
  CHECK(c["parts"]["spark_application"] == spark);
  const auto& rec = c["recommendation"];
  const auto& chosen = c["parts"][rec["part"].get<std::string>()]["recommendation"]["plan"];
  CHECK(rec["plan"] == chosen);
  const double other =
      c["parts"][rec["part"] == "profile" ? "runs" : "profile"]["recommendation"]["plan"]
       ["runtime_seconds"];
  CHECK(chosen["runtime_seconds"].get<double>() <= other);
  CHECK(rec["spark"]["executors"] == spark["recommendation"]["executors"]);

  testing::CliRun text = RunPerfplan("plan " + KmeansArgs() + runs + app);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.rfind("combined plan over 3 evidence paths, objective time\n", 0) == 0);
  CHECK(text.out.find("== profile part") != std::string::npos);
  CHECK(text.out.find("== runs part") != std::string::npos);
  CHECK(text.out.find("== Spark application part") != std::string::npos);
  // Bad input in one part is that path's exit-2 error.
  testing::CliRun bad = RunPerfplan("plan " + KmeansArgs() + " --runs '" + dir + "/runs.csv'",
                                    "2>&1");
  CHECK(bad.exit_code == 2);
  CHECK(bad.out == "perfplan plan: error: workload: required with a runs CSV\n");
}

TEST_CASE("export --what plan over several paths: each part's rows are its own export's") {
  const auto [dir, store, runs] = RunsAndStore("app-e");
  const std::string app = " synthetic --store " + store;
  const std::string prices = " --prices " + Example("prices/grid.yaml");

  const nlohmann::json c =
      JsonOf("export --what plan " + KmeansArgs() + runs + app + " --format json");
  const nlohmann::json profile = JsonOf("export --what plan " + KmeansArgs() + " --format json");
  const nlohmann::json by_runs = JsonOf("export --what plan" + runs + " --format json");
  const nlohmann::json spark = JsonOf("export --what plan" + app + " --format json");
  CHECK(c["what"] == "plan");
  const std::vector<std::string> first = {"part", "alternative", "combined_chosen",
                                          "combined_on_front"};
  CHECK(std::vector<std::string>(c["columns"].begin(), c["columns"].begin() + 4) == first);
  // Each part's rows, on that part's columns, are the rows of the part's own export.
  std::size_t chosen = 0;
  for (const auto& [part, alone] : {std::pair{"profile", &profile}, std::pair{"runs", &by_runs},
                                    std::pair{"spark-application", &spark}}) {
    CAPTURE(part);
    const nlohmann::json& a = *alone;
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : c["rows"]) {
      if (row["part"] != part) continue;
      nlohmann::json projected = nlohmann::json::object();
      for (const auto& column : a["columns"]) {
        projected[column.get<std::string>()] = row[column.get<std::string>()];
      }
      rows.push_back(projected);
      chosen += row["combined_chosen"] == 1;
    }
    CHECK(rows == a["rows"]);
  }
  // One placement chosen, plus the Spark part's executor count.
  CHECK(chosen == 2);

  // CSV: the same columns, one line per row.
  testing::CliRun as_csv = RunPerfplan("export --what plan " + KmeansArgs() + runs + prices);
  REQUIRE(as_csv.exit_code == 0);
  CHECK(as_csv.out.rfind("part,alternative,combined_chosen,combined_on_front,replica_site,", 0) ==
        0);
  std::size_t lines = 0, on_front = 0;
  for (std::size_t at = as_csv.out.find("\r\n"); at != std::string::npos;
       at = as_csv.out.find("\r\n", at + 2)) {
    ++lines;
  }
  const nlohmann::json p = JsonOf("plan " + KmeansArgs() + runs + prices + " --json");
  on_front = p["front"].size();
  CHECK(on_front > 0);
  CHECK(lines == 1 + p["parts"]["profile"]["alternatives"].size() +
                     p["parts"]["runs"]["alternatives"].size());
}

TEST_CASE("capacity --runs: the fitted history predicts the jobs; --from/--to bound --store") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/runs.csv",
                     testing::LinearRunsCsv("sort", {{"m5", 20, 600}}, {4, 8, 16, 32}, "2e9"));
  const nlohmann::json j =
      JsonOf("capacity --trace " + Example("swim/fb2009_first50.tsv") + " --runs '" + dir +
             "/runs.csv' --workload sort --nodes 4,16 --json");
  CHECK(j["inputs"]["profile"].is_null());
  CHECK(j["inputs"]["workload"] == "sort");
  CHECK(j["sources"]["runtime"].get<std::string>().rfind(
            "fitted runtime model (perfplan fit) of workload sort on m5 from ", 0) == 0);
  CHECK(j["window"].is_null());
  CHECK(j["sizes"][0]["makespan_seconds"].get<double>() >=
        j["sizes"][1]["makespan_seconds"].get<double>());
  testing::CliRun both = RunPerfplan(
      "capacity --trace t.tsv --runs '" + dir + "/runs.csv' --workload sort --profile " +
          Example("profiles/kmeans.yaml") + " --nodes 4",
      "2>&1");
  CHECK(both.exit_code == 2);
  CHECK(both.out ==
        "perfplan capacity: error: profile: give one runtime model: a profile (--profile) or a "
        "runs CSV with its workload (--runs, --workload)\n");
  testing::CliRun window = RunPerfplan(
      "capacity --store '" + dir + "/none.db' --profile " + Example("profiles/kmeans.yaml") +
          " --nodes 4 --from 2013-01-02 --to 2013-01-01",
      "2>&1");
  CHECK(window.exit_code == 2);
  CHECK(window.out == "perfplan capacity: error: --to: must be after --from\n");
  testing::CliRun bad_time = RunPerfplan(
      "capacity --store '" + dir + "/none.db' --profile " + Example("profiles/kmeans.yaml") +
          " --nodes 4 --from yesterday",
      "2>&1");
  CHECK(bad_time.exit_code == 2);
  CHECK(bad_time.out.rfind("perfplan capacity: error: --from", 0) == 0);
}

TEST_CASE("capacity: more nodes never finish the trace later, and the JSON has every size") {
  const nlohmann::json j =
      JsonOf("capacity --trace " + Example("swim/fb2009_first50.tsv") + " --profile " +
             Example("profiles/kmeans.yaml") + " --nodes 1,4,16 --json");
  CHECK(j["jobs"] == 50);
  REQUIRE(j["sizes"].size() == 3);
  CHECK(j["sizes"][0]["nodes"] == 1);
  CHECK(j["sizes"][0]["makespan_seconds"].get<double>() >=
        j["sizes"][1]["makespan_seconds"].get<double>());
  CHECK(j["sizes"][1]["makespan_seconds"].get<double>() >=
        j["sizes"][2]["makespan_seconds"].get<double>());
  CHECK(j["sizes"][0]["cost"].is_null());
  // On one node every job of more than one 128 MiB split is wider than the cluster.
  std::istringstream trace(
      testing::ReadFile(testing::SourceDir() + "/examples/swim/fb2009_first50.tsv"));
  std::string id;
  double submit = 0, gap = 0, input = 0, shuffle = 0, output = 0;
  int wide = 0;
  while (trace >> id >> submit >> gap >> input >> shuffle >> output) wide += input > 134217728.0;
  CHECK(wide > 0);
  CHECK(j["sizes"][0]["clamped_jobs"] == wide);
}

TEST_CASE("capacity errors name the trace line and column") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/t.tsv", "job0\t1\t1\t10\t0\t0\njob1\tsoon\t1\t10\t0\t0\n");
  testing::CliRun r = RunPerfplan("capacity --trace '" + dir + "/t.tsv' --profile " +
                                      Example("profiles/kmeans.yaml") + " --nodes 4",
                                  "2>&1");
  CHECK(r.exit_code == 2);
  CHECK(r.out == "perfplan capacity: error: " + dir +
                     "/t.tsv:2: submit_seconds: expected a number >= 0, got \"soon\"\n");
}

}  // namespace
}  // namespace perfplan
