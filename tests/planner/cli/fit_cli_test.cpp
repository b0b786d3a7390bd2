// End-to-end: `perfplan fit`, `evaluate`, `backtest` and `import scout` through the real CLI.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace perfplan {
namespace {

using Run = testing::CliRun;

// Runs the perfplan binary with `args` (already shell-quoted); stderr goes to `err_file`.
Run Perfplan(const std::string& args, const std::string& err_file) {
  return testing::RunPerfplan(args, "2>" + err_file);
}

// Runs perfplan with `args` and checks it refused them: exit 2 and exactly `message` on stderr
// (kept in `dir`/err).
void CheckRefused(const std::string& args, const std::string& dir, const std::string& message) {
  const Run run = Perfplan(args, dir + "/err");
  CHECK(run.exit_code == 2);
  CHECK(testing::ReadFile(dir + "/err") == message);
}

// Runs of w: 50 + 2000/c seconds on type "t1", plus a run that failed early at 2 nodes (its 900 s
// bound is below the model's 1050 s, so it must not move the fit).
constexpr char kRunsHeader[] =
    "workload,instance_type,dataset_bytes,storage_nodes,compute_nodes,"
    "bandwidth_bytes_per_second,runtime_seconds,completed\n";

// One completed run of workload w on c nodes of `type` (10 GB, 1e8 bytes/s).
std::string CompletedRun(const std::string& type, int c, double seconds) {
  return "w," + type + ",1e10," + std::to_string(c) + "," + std::to_string(c) + ",1e8," +
         std::to_string(seconds) + ",true\n";
}

std::string RunsCsv(const std::string& type = "t1") {
  std::string csv = kRunsHeader;
  for (int c : {4, 8, 16, 32, 64}) csv += CompletedRun(type, c, 50 + 2000.0 / c);
  csv += "w," + type + ",1e10,2,2,1e8,900,false\n";
  return csv;
}

// A fresh folder holding one file, `name`, with `contents`.
std::string FolderWith(const std::string& name, const std::string& contents) {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/" + name, contents);
  return dir;
}

TEST_CASE("fit writes a profile that predict reproduces") {
  const std::string dir = FolderWith("runs.csv", RunsCsv());
  const Run fit = Perfplan("fit --runs " + dir +
                               "/runs.csv --workload w --train "
                               "\"compute_nodes<=16\" --out " +
                               dir + "/w.yaml --json",
                           dir + "/err");
  REQUIRE(fit.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(fit.out);
  CHECK(j["application"] == "w");
  CHECK(j["fit"]["runs_used"].size() == 4);  // 4, 8, 16 and the censored 2
  CHECK(j["fit"]["residual_seconds"].size() == 4);
  CHECK(j["fit"]["runs_used"][0]["line"] == 2);

  // The JSON document is itself a profile, and so is the YAML file.
  testing::WriteFile(dir + "/w.json", fit.out);
  for (const std::string& profile : {dir + "/w.yaml", dir + "/w.json"}) {
    CAPTURE(profile);
    const Run predict = Perfplan("predict --profile " + profile +
                                     " --dataset-bytes 1e10 --storage-nodes 32 --compute-nodes 32"
                                     " --bandwidth-bytes-per-second 1e8 --json",
                                 dir + "/err");
    REQUIRE(predict.exit_code == 0);
    CHECK(nlohmann::json::parse(predict.out)["runtime_seconds"].get<double>() ==
          doctest::Approx(50 + 2000.0 / 32).epsilon(1e-6));
  }
}

TEST_CASE("evaluate prints the contract keys") {
  const std::string dir = FolderWith("runs.csv", RunsCsv());
  const Run ev = Perfplan(
      "evaluate --runs " + dir + "/runs.csv --workload w --train \"compute_nodes<=16\" --json",
      dir + "/err");
  REQUIRE(ev.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(ev.out);
  for (const char* key : {"predictions", "median_ape", "p90_ape", "baselines", "interval",
                          "censored", "selection", "fits", "notes"}) {
    CAPTURE(key);
    CHECK(j.contains(key));
  }
  // The node-seconds selection check (docs/fit.md): the pick against the best measured run.
  REQUIRE(j["selection"].is_object());
  CHECK(j["selection"]["objective"] == "node-seconds");
  CHECK(j["selection"]["picked"].contains("measured_node_seconds"));
  CHECK(j["selection"]["best_measured"].contains("line"));
  CHECK(j["selection"]["gap"].is_number());
  CHECK(j["baselines"].contains("ernest"));
  CHECK(j["baselines"].contains("amdahl"));
  CHECK(j["interval"]["method"] == "cv+ on log residuals");
  // t1 has no hardware figures: per-type FREERIDE-G fits, no model choice.
  CHECK(j["model_choice"].is_null());
  REQUIRE(j["predictions"].size() == 2);  // 32 and 64 nodes
  const nlohmann::json& p = j["predictions"][0];
  for (const char* key : {"compute_nodes", "instance_type", "measured_seconds", "predicted_seconds",
                          "ape", "interval", "ernest_ape", "amdahl_ape"}) {
    CAPTURE(key);
    CHECK(p.contains(key));
  }
  CHECK(p["ape"].get<double>() < 1e-6);
  for (const nlohmann::json& row : j["predictions"]) {
    CHECK(row["interval"]["low_seconds"].get<double>() <= row["predicted_seconds"].get<double>());
    CHECK(row["predicted_seconds"].get<double>() <= row["interval"]["high_seconds"].get<double>());
  }
}

TEST_CASE("evaluate and fit report every candidate form's CV error and the chosen one") {
  // A known instance type: hardware figures.
  const std::string dir = FolderWith("runs.csv", RunsCsv("m4.large"));
  const Run ev = Perfplan(
      "evaluate --runs " + dir + "/runs.csv --workload w --train \"compute_nodes<=16\" --json",
      dir + "/err");
  REQUIRE(ev.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(ev.out);
  REQUIRE(j["model_choice"].is_object());
  // Amdahl-shaped runs: the simplest form that fits them exactly.
  CHECK(j["model_choice"]["chosen"] == "serial-floor");
  CHECK(j["model_choice"]["scheme"] == "leave-one-node-count-out");
  CHECK(j["model_choice"]["folds"] == 3);
  REQUIRE(j["model_choice"]["candidates"].size() == 7);
  // 3 training runs: only serial-floor's 2 coefficients are over-determined; every richer form
  // passes through the 3 points and is not eligible (the average then has one member).
  for (const nlohmann::json& c : j["model_choice"]["candidates"]) {
    CAPTURE(c.dump());
    CHECK(c["eligible"] == (c["form"] == "serial-floor"));
    CHECK(c["cv_error"].is_number() == (c["form"] == "serial-floor"));  // null when not eligible
    if (c["form"] == "log-nodes") {
      CHECK(c["note"] ==
            "3 coefficients on 3 distinct completed configurations: the fit passes "
            "through them, so cross-validation cannot judge how it extrapolates");
    }
  }
  CHECK(j["model_choice"]["partial_pooling"].is_null());  // one training type: not tried
  CHECK(j["predictions"][0]["method"] == "hardware-aware serial-floor");
  // 32 and 64 nodes lie beyond the trained 4..16: the intervals are widened, and a note says so.
  // √(1 + log 2 / log 4) and √(1 + log 4 / log 4).
  CHECK(j["predictions"][0]["interval_widening"].get<double>() == doctest::Approx(std::sqrt(1.5)));
  CHECK(j["predictions"][1]["interval_widening"].get<double>() == doctest::Approx(std::sqrt(2.0)));
  CHECK(j["notes"][0].get<std::string>().rfind(
            "intervals widened on 2 of 2 rows beyond the trained node range", 0) == 0);

  const Run text =
      Perfplan("evaluate --runs " + dir + "/runs.csv --workload w --train \"compute_nodes<=16\"",
               dir + "/err");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("\nmodel serial-floor: lowest leave-one-node-count-out error on the 3 "
                      "completed training runs (3 folds)") != std::string::npos);

  const Run fit = Perfplan("fit --runs " + dir + "/runs.csv --workload w --json", dir + "/err");
  REQUIRE(fit.exit_code == 0);
  const nlohmann::json f = nlohmann::json::parse(fit.out);
  CHECK(f["fit"]["model_choice"]["chosen"] == "serial-floor");
  CHECK(f["fit"]["model_choice"]["candidates"].size() == 7);
}

TEST_CASE("evaluate reports partial pooling of a serial-floor over two types") {
  // m4.large (2 vCPUs): 50 + 2000/m; c4.xlarge (4 vCPUs): 50 + 500/m, a quarter of m4.large's
  // parallel time where its vCPU ratio says a half. A common floor, one parallel-work coefficient
  // per type: partial pooling fits the training runs, the pooled serial-floor does not. Over every
  // form, serial-floor wins because it is scored by its partially pooled procedure (session 15;
  // fully pooled, communication's rising term won the choice on these 6 runs).
  std::string csv = kRunsHeader;
  for (int c : {4, 8, 16, 32}) {
    csv += CompletedRun("m4.large", c, 50 + 2000.0 / c);
    csv += CompletedRun("c4.xlarge", c, 50 + 500.0 / c);
  }
  const std::string dir = FolderWith("runs.csv", csv);
  const Run ev = Perfplan(
      "evaluate --runs " + dir +
          "/runs.csv --workload w --train \"compute_nodes<=16\" --json",
      dir + "/err");
  REQUIRE(ev.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(ev.out);
  CAPTURE(j["model_choice"].dump());
  CHECK(j["model_choice"]["chosen"] == "serial-floor");
  const nlohmann::json& pooling = j["model_choice"]["partial_pooling"];
  REQUIRE(pooling.is_object());
  CHECK(pooling["grid"].size() == 7);
  CHECK(pooling["grid"][0]["penalty"] == 0.0625);
  CHECK(pooling["penalty"].is_number());
  CHECK(pooling["pooled_cv_error"].get<double>() > pooling["grid"][0]["cv_error"].get<double>());
  // The 32-node rows, predicted with each type's own parallel work, within 2% of the truth.
  for (const nlohmann::json& row : j["predictions"]) {
    CAPTURE(row.dump());
    CHECK(row["ape"].get<double>() < 0.02);
    CHECK(row["interval"]["low_seconds"].get<double>() <= row["predicted_seconds"].get<double>());
    CHECK(row["predicted_seconds"].get<double>() <= row["interval"]["high_seconds"].get<double>());
  }
  const Run text = Perfplan("evaluate --runs " + dir +
                                "/runs.csv --workload w --train \"compute_nodes<=16\"",
                            dir + "/err");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("; per-type deviations shrunk toward it with penalty ") != std::string::npos);
  CHECK(text.out.find("\nmodel serial-floor: lowest leave-one-node-count-out error on the 6 "
                      "completed training runs (3 folds), mean |log error| ") != std::string::npos);
  CHECK(text.out.find(" with partial pooling, its penalty chosen inside each fold (fully pooled ") !=
        std::string::npos);
}

TEST_CASE(
    "evaluate trained on one type: a transfer's interval spans the scalings it cannot tell "
    "apart, and a note says by how much") {
  // m4.large runs (2 vCPUs, 8 GiB) and one r4.large run (2 vCPUs, 15.25 GiB, same bandwidth
  // column): vCPUs and bandwidth say 50 + 2000/8 = 300 s at 8 nodes, memory 50 + 250/1.90625.
  const std::string dir =
      FolderWith("runs.csv", RunsCsv("m4.large") + "w,r4.large,1e10,8,8,1e8,400,true\n");
  const Run ev = Perfplan("evaluate --runs " + dir +
                              "/runs.csv --workload w --train "
                              "\"instance_type=m4.large and compute_nodes<=16\" --json",
                          dir + "/err");
  REQUIRE(ev.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(ev.out);
  const double memory = 50 + 250 / 1.90625;
  nlohmann::json transfer;
  for (const nlohmann::json& p : j["predictions"]) {
    if (p["transfer"] == true) transfer = p;
  }
  REQUIRE(transfer.is_object());
  CHECK(transfer["predicted_seconds"].get<double>() == doctest::Approx(300));
  CHECK(transfer["interval"]["low_seconds"].get<double>() == doctest::Approx(memory));
  CHECK(transfer["interval"]["high_seconds"].get<double>() == doctest::Approx(300));
  CHECK(transfer["scaling_spread"].get<double>() == doctest::Approx(300 / memory));
  CHECK(transfer["interval_widening"].get<double>() == doctest::Approx(1));  // no +1
  CHECK(j["interval"]["scaling_rows"] == 1);
  // One workload in the file: no reference's type-to-type ratio joins the span (step 8).
  CHECK(j["interval"]["scaling_references"] == nlohmann::json::array());
  const std::string note =
      "1 interval(s) on types reached by transfer span serial-floor with its hardware ratio from "
      "vCPUs, memory, network bandwidth: the training runs, all of m4.large, cannot tell them "
      "apart; their predictions differ by up to 1.66x (median 1.66x), the point prediction is "
      "the vCPU one";
  CHECK(std::find(j["notes"].begin(), j["notes"].end(), note) != j["notes"].end());
}

TEST_CASE("bad input exits 2 with a message that says what to fix") {
  const std::string dir = FolderWith("runs.csv", RunsCsv());
  const std::string runs = " --runs " + dir + "/runs.csv";
  CheckRefused("evaluate" + runs + " --workload w --train \"nodes<=8\"", dir,
               "perfplan evaluate: error: --train: column 1: unknown column 'nodes'\n");
  CheckRefused(
      "fit" + runs + " --workload w --train \"compute_nodes<=4\"", dir,
      "perfplan fit: error: " + dir +
          "/runs.csv: fit of w on t1 needs at least 3 completed runs, got 1 (1 censored)\n");
  CheckRefused(
      "fit" + runs + " --workload v", dir,
      "perfplan fit: error: " + dir +
          "/runs.csv: no run of workload 'v'; did you mean 'w'? (workloads in the file: w)\n");
  testing::WriteFile(dir + "/bad.csv", "workload,instance_type\nw,t1\n");
  const Run bad_csv = Perfplan("fit --runs " + dir + "/bad.csv --workload w", dir + "/err");
  CHECK(bad_csv.exit_code == 2);
  CHECK(testing::ReadFile(dir + "/err")
            .rfind("perfplan fit: error: " + dir +
                       "/bad.csv:1: dataset_bytes: required column is missing from the header\n",
                   0) == 0);
}

TEST_CASE("import scout writes a runs CSV that fit reads") {
  const std::string dir = testing::MakeTempDir();
  int nodes[] = {4, 6, 8, 10};
  double seconds[] = {1800, 1300, 1050, 900};
  for (int k = 0; k < 4; ++k) {
    const std::string folder =
        dir + "/scout/" + std::to_string(nodes[k]) + "_r4.xlarge_terasort_hadoop_bigdata_1";
    std::filesystem::create_directories(folder);
    testing::WriteFile(folder + "/report.json",
                       "{\"completed\": true, \"elapsed_time\": \"" + std::to_string(seconds[k]) +
                           "\", \"framework\": \"hadoop\", \"input_size\": \"100000000000\", "
                           "\"workload\": \"terasort\"}");
  }
  const Run import = Perfplan("import scout " + dir + "/scout", dir + "/err");
  REQUIRE(import.exit_code == 0);
  CHECK(import.out.rfind("workload,instance_type,dataset_bytes,storage_nodes,compute_nodes,"
                         "bandwidth_bytes_per_second,runtime_seconds,completed\n"
                         "terasort_hadoop,r4.xlarge,1e+11,10,10,1.5625e+08,900,true\n",
                         0) == 0);
  testing::WriteFile(dir + "/runs.csv", import.out);
  const Run fit =
      Perfplan("fit --runs " + dir + "/runs.csv --workload terasort_hadoop --json", dir + "/err");
  REQUIRE(fit.exit_code == 0);
  CHECK(nlohmann::json::parse(fit.out)["profiled_site"] == "r4.xlarge");
}

TEST_CASE("import scout --dataset-bytes sizes a workload whose reports record none") {
  const std::string dir = testing::MakeTempDir();
  const std::string folder = dir + "/scout/6_c4.large_kmeans_spark1.5_bigdata_1";
  std::filesystem::create_directories(folder);
  testing::WriteFile(folder + "/report.json",
                     "{\"completed\": true, \"elapsed_time\": \"812.4\", \"framework\": "
                     "\"spark1.5\", \"input_size\": -1, \"workload\": \"kmeans\"}");
  CheckRefused(
      "import scout " + dir + "/scout", dir,
      "perfplan import scout: error: " + dir +
          "/scout: input_size: workload kmeans_spark1.5 records no input size (input_size <= 0 "
          "in all 1 of its runs) and none was given for it; give it with --dataset-bytes "
          "kmeans_spark1.5=BYTES\n");
  const Run sized =
      Perfplan("import scout " + dir + "/scout --dataset-bytes kmeans_spark1.5=2e10", dir + "/err");
  REQUIRE(sized.exit_code == 0);
  CHECK(sized.out.find("\nkmeans_spark1.5,c4.large,2e+10,6,6,6.25e+07,812.4,true\n") !=
        std::string::npos);
  CheckRefused(
      "import scout " + dir +
          "/scout --dataset-bytes kmeans_spark1.5=2e10 "
          "--dataset-bytes kmeans=2e10",
      dir,
      "perfplan import scout: error: --dataset-bytes: no workload kmeans in " + dir + "/scout\n");
  const Run bad =
      Perfplan("import scout " + dir + "/scout --dataset-bytes kmeans_spark1.5=big", dir + "/err");
  CHECK(bad.exit_code == 2);
  CHECK(testing::ReadFile(dir + "/err") ==
        "perfplan import scout: error: --dataset-bytes: \"kmeans_spark1.5=big\": BYTES must be a "
        "number > 0, got \"big\"\n");
}

// A history of w on m4.large: 50 + 2000/c seconds, submitted at t = 10·(row number), node counts
// out of order.
std::string HistoryCsv() {
  std::string csv =
      "workload,instance_type,dataset_bytes,storage_nodes,compute_nodes,"
      "bandwidth_bytes_per_second,runtime_seconds,completed,time\n";
  int t = 0;
  for (int c : {8, 4, 16, 6, 32, 12}) {
    t += 10;
    csv += "w,m4.large,1e10," + std::to_string(c) + "," + std::to_string(c) + ",1e8," +
           std::to_string(50 + 2000.0 / c) + ",true," + std::to_string(t) + "\n";
  }
  return csv;
}

TEST_CASE("backtest replays the runs in time order and predicts each from the earlier ones") {
  const std::string dir = FolderWith("history.csv", HistoryCsv());
  const Run bt =
      Perfplan("backtest --runs " + dir + "/history.csv --workload w --json", dir + "/err");
  REQUIRE(bt.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(bt.out);
  CHECK(j["time_column"] == "time");
  REQUIRE(j["runs"].size() == 6);
  for (int k = 0; k < 3; ++k) CHECK(j["runs"][k]["predicted_seconds"].is_null());
  CHECK(j["runs"][2]["note"] == "warm-up: 2 completed earlier run(s), 3 needed");
  for (int k = 3; k < 6; ++k) {
    CAPTURE(k);
    CHECK(j["runs"][k]["line"] == k + 2);
    CHECK(j["runs"][k]["ape"].get<double>() < 1e-6);
    CHECK(j["runs"][k]["interval"]["low_seconds"].get<double>() <=
          j["runs"][k]["predicted_seconds"].get<double>());
  }
  CHECK(j["summary"]["predicted_rows"] == 3);

  const Run text = Perfplan("backtest --runs " + dir + "/history.csv --workload w", dir + "/err");
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.rfind("w: 6 runs replayed in order of column 'time', each predicted from the "
                       "runs before it\n",
                       0) == 0);

  CheckRefused("backtest --runs " + dir + "/history.csv --workload w --time-column submitted", dir,
               "perfplan backtest: error: " + dir +
                   "/history.csv:1: submitted: no such column (columns: workload, instance_type, "
                   "dataset_bytes, storage_nodes, compute_nodes, bandwidth_bytes_per_second, "
                   "runtime_seconds, completed, time)\n");
  const Run blocks = Perfplan(
      "backtest --runs " + dir + "/history.csv --workload w --refit-every 2 --json", dir + "/err");
  REQUIRE(blocks.exit_code == 0);
  const nlohmann::json jb = nlohmann::json::parse(blocks.out);
  CHECK(jb["refit_every"] == 2);
  CHECK(j["refit_every"] == 1);
  // Blocks 4..5 and 6: the 5th run is predicted from the 3 runs before its block.
  CHECK(jb["runs"][4]["history_runs"] == 3);
  CHECK(jb["runs"][5]["history_runs"] == 5);
  const Run blocks_text = Perfplan(
      "backtest --runs " + dir + "/history.csv --workload w --refit-every 2", dir + "/err");
  CHECK(blocks_text.out.rfind("w: 6 runs replayed in order of column 'time', each predicted from "
                              "the runs before it (refit every 2 runs: from the runs before its "
                              "block)\n",
                              0) == 0);
  CheckRefused("backtest --runs " + dir + "/history.csv --workload w --refit-every 0", dir,
               "--refit-every: Value 0 not in range 1 to 1000000\n"
               "Run with --help or --help-all for more information.\n");

  std::string bad = HistoryCsv();
  bad.replace(bad.rfind(",60\n"), 4, ",soon\n");
  testing::WriteFile(dir + "/bad.csv", bad);
  CheckRefused(
      "backtest --runs " + dir + "/bad.csv --workload w", dir,
      "perfplan backtest: error: " + dir + "/bad.csv:7: time: must be a number, got 'soon'\n");
}

TEST_CASE("export --what backtest writes the replayed runs as CSV and JSON") {
  const std::string dir = FolderWith("history.csv", HistoryCsv());
  const Run csv =
      Perfplan("export --what backtest --runs " + dir + "/history.csv --workload w", dir + "/err");
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out.rfind("run,time,workload,instance_type,compute_nodes,vcpus,memory_bytes,"
                      "dataset_bytes,measured_seconds,completed,history_runs,predicted_seconds,"
                      "ape,interval_low_seconds,interval_high_seconds,inside_interval,form,note,"
                      "rolling_median_ape,rolling_coverage\r\n",
                      0) == 0);
  std::size_t lines = 0;
  for (char c : csv.out) lines += c == '\n';
  CHECK(lines == 7);  // header + 6 runs
  const Run json =
      Perfplan("export --what backtest --runs " + dir + "/history.csv --workload w --format json",
               dir + "/err");
  REQUIRE(json.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(json.out);
  CHECK(j["what"] == "backtest");
  REQUIRE(j["rows"].size() == 6);
  CHECK(j["rows"][0]["run"] == 2);  // CSV line
  CHECK(j["rows"][0]["predicted_seconds"].is_null());
  CHECK(j["rows"][5]["ape"].get<double>() < 1e-6);
  CheckRefused(
      "export --what backtest", dir,
      "perfplan export: error: --what backtest needs --runs FILE --workload W or --app-name "
      "NAME (with --store)\n");
}

}  // namespace
}  // namespace perfplan
