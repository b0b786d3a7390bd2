// End-to-end specification of the perfplan CLI over examples/: each command's output is compared
// with a checked-in expectation in examples/expected/. Run with PERFPLAN_UPDATE_EXPECTED=1 to
// rewrite the expectations after an intended change (then review the diff).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli_run.h"
#include "tests/support/test_support.h"

namespace perfplan {
namespace {

using testing::CliResult;

// Runs `perfplan ARGS` in the source tree (so example paths are relative and stable).
CliResult RunCli(const std::string& args) { return testing::RunCli(args, testing::SourceDir()); }

void CheckExpected(const std::string& name, const std::string& actual) {
  const std::string path = testing::SourceDir() + "/examples/expected/" + name;
  if (std::getenv("PERFPLAN_UPDATE_EXPECTED")) testing::WriteFile(path, actual);
  CAPTURE(path);
  CHECK(actual == testing::ReadFile(path));
}

TEST_CASE("every example command prints its checked-in expectation") {
  struct Case {
    const char* args;
    const char* expected;
  };
  const Case cases[] = {
      {"predict --profile examples/profiles/kmeans.yaml --dataset-bytes 8e9 --storage-nodes 4 "
       "--compute-nodes 16 --bandwidth-bytes-per-second 125e6 --json",
       "predict-kmeans.json"},
      {"predict --profile examples/em-profile.json --dataset-bytes 8e9 --storage-nodes 4 "
       "--compute-nodes 16 --bandwidth-bytes-per-second 125e6 --cluster examples/topology.yaml "
       "--site anl-cluster --json",
       "predict-em-anl.json"},
      {"predict --profile examples/profiles/defect.yaml --dataset-bytes 4.8e9 --storage-nodes 4 "
       "--compute-nodes 8 --bandwidth-bytes-per-second 1.25e9",
       "predict-defect.txt"},
      {"select --profile examples/profiles/kmeans.yaml --topology examples/topology.yaml "
       "--dataset sky-survey --top 5 --json",
       "select-kmeans.json"},
      {"select --profile examples/profiles/vortex.yaml --topology examples/topology.yaml "
       "--dataset cfd-turbulence --objective node-seconds --max-compute-nodes 16 --top 5",
       "select-vortex.txt"},
      {"validate examples/profiles/kmeans.yaml examples/profiles/em.yaml "
       "examples/em-profile.json examples/profiles/knn.yaml examples/profiles/vortex.yaml "
       "examples/profiles/defect.yaml examples/topology.yaml --json",
       "validate.json"},
      {"demo --examples examples", "demo.txt"},
      {"export --what predictions --profile examples/profiles/kmeans.yaml --dataset-bytes 2e9,8e9 "
       "--storage-nodes 4 --compute-nodes 4,8,16 --bandwidth-bytes-per-second 1.25e8 --format csv",
       "export-predictions.csv"},
      {"export --what selection --profile examples/profiles/knn.yaml --topology "
       "examples/topology.yaml --dataset sensor-archive --top 3 --format json",
       "export-selection.json"},
      {"plan --profile examples/profiles/kmeans.yaml --topology examples/topology.yaml "
       "--dataset sky-survey --prices examples/prices/grid.yaml --objective cost "
       "--deadline-seconds 600 --top 8",
       "plan-kmeans.txt"},
      {"plan --profile examples/profiles/knn.yaml --topology examples/topology.yaml "
       "--dataset sensor-archive --prices examples/prices/grid.yaml --budget 1 --json",
       "plan-knn.json"},
      {"capacity --trace examples/swim/fb2009_first50.tsv --profile examples/profiles/kmeans.yaml "
       "--nodes 2,4,16,64 --prices examples/prices/grid.yaml --price-site osu-cluster "
       "--within-hours 1",
       "capacity-kmeans.txt"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    CliResult r = RunCli(c.args);
    CHECK(r.exit_code == 0);
    CHECK(r.err == "");
    CheckExpected(c.expected, r.out);
  }
}

TEST_CASE("the first selected alternative's breakdown adds up to its runtime") {
  CliResult r = RunCli(
      "select --profile examples/profiles/knn.yaml --topology examples/topology.yaml "
      "--dataset sensor-archive --json");
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  REQUIRE(!j["alternatives"].empty());
  const nlohmann::json& best = j["alternatives"][0];
  double sum = 0;
  for (const char* key : {"disk_seconds", "network_seconds", "compute_seconds", "reduction_seconds",
                          "global_reduction_seconds"}) {
    sum += best["breakdown"][key].get<double>();
  }
  CHECK(sum == doctest::Approx(best["runtime_seconds"].get<double>()).epsilon(1e-12));
  for (const char* key : {"replica_site", "compute_site", "compute_nodes",
                          "bandwidth_bytes_per_second", "runtime_seconds", "node_seconds"}) {
    CAPTURE(key);
    CHECK(best.contains(key));
  }
}

TEST_CASE("bad input exits 2 with file, line and field; a failed plan exits 1") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/bad.yaml",
                     "schema_version: 1\napplication: x\nreduction_object_class: linar\nruns:\n"
                     "  - {dataset_bytes: 0, storage_nodes: 1, compute_nodes: 1,\n"
                     "     bandwidth_bytes_per_second: 1, disk_seconds: 1, network_seconds: 1,\n"
                     "     compute_seconds: 1}\n");
  struct Case {
    std::string args;
    int exit_code;
    std::string out;
    std::string err;
  };
  const Case cases[] = {
      {"validate " + dir + "/bad.yaml", 2,
       dir +
           "/bad.yaml:3: reduction_object_class: expected constant, linear or auto, got "
           "\"linar\"; did you mean \"linear\"?\n" +
           dir + "/bad.yaml:5: runs[0].dataset_bytes: must be > 0, got 0\n",
       "perfplan validate: 2 problem(s) found\n"},
      {"predict --profile " + dir +
           "/bad.yaml --dataset-bytes 1 --storage-nodes 1 "
           "--compute-nodes 1 --bandwidth-bytes-per-second 1",
       2, "",
       "perfplan predict: error: " + dir +
           "/bad.yaml:3: reduction_object_class: expected constant, linear or auto, got "
           "\"linar\"; did you mean \"linear\"?\n" +
           dir + "/bad.yaml:5: runs[0].dataset_bytes: must be > 0, got 0\n"},
      {"predict --profile examples/profiles/kmeans.yaml --dataset-bytes -1 --storage-nodes 1 "
       "--compute-nodes 1 --bandwidth-bytes-per-second 1",
       2, "", "perfplan predict: error: dataset_bytes: must be > 0, got -1\n"},
      {"predict --profile examples/profiles/kmeans.yaml --dataset-bytes 1 --storage-nodes 1 "
       "--compute-nodes 1 --bandwidth-bytes-per-second 1 --site anl-cluster",
       2, "",
       "perfplan predict: error: --cluster and --site go together: give both to apply "
       "heterogeneity factors, or neither\n"},
      {"select --profile examples/profiles/kmeans.yaml --topology examples/topology.yaml "
       "--dataset sky-survy",
       2, "",
       "perfplan select: error: dataset \"sky-survy\" is not in examples/topology.yaml; did you "
       "mean \"sky-survey\"?\n"},
      {"select --profile examples/profiles/kmeans.yaml --topology examples/topology.yaml "
       "--dataset sky-survey --deadline-seconds 1 --json",
       1,
       "{\n  \"error\": \"failed\",\n  \"field\": null,\n  \"message\": \"no alternative meets "
       "the deadline of 1 s (188 evaluated)\"\n}\n",
       "perfplan select: error: no alternative meets the deadline of 1 s (188 evaluated)\n"},
      {"prdict", 2, "",
       "perfplan: unknown command \"prdict\"; did you mean \"predict\"?\nRun 'perfplan --help' "
       "for the list of commands.\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    CliResult r = RunCli(c.args);
    CHECK(r.exit_code == c.exit_code);
    CHECK(r.out == c.out);
    CHECK(r.err == c.err);
  }
}

TEST_CASE("export --out replaces the file whole, and an incomplete sweep is a usage error") {
  const std::string out = testing::MakeTempDir() + "/sel.csv";
  testing::WriteFile(out, "old contents");
  CliResult r = RunCli(
      "export --what selection --profile examples/profiles/knn.yaml --topology "
      "examples/topology.yaml --dataset sensor-archive --top 2 --out " +
      out);
  CHECK(r.exit_code == 0);
  const std::string csv = testing::ReadFile(out);
  CHECK(csv.rfind("rank,application,dataset,replica_site,", 0) == 0);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 3);

  CliResult missing =
      RunCli("export --what predictions --profile examples/profiles/knn.yaml --dataset-bytes 1e9");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err ==
        "perfplan export: error: --what predictions needs --dataset-bytes, --storage-nodes, "
        "--compute-nodes and --bandwidth-bytes-per-second (each a comma-separated list)\n");
}

TEST_CASE("every command has --help") {
  for (std::string command : {"predict", "select", "validate", "demo", "serve", "export"}) {
    CAPTURE(command);
    CliResult r = RunCli(command + " --help");
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("Example") != std::string::npos);
  }
  CliResult top = RunCli("--help");
  CHECK(top.exit_code == 0);
  CHECK(top.out.find("predict") != std::string::npos);
}

TEST_CASE("missing required flags are usage errors") {
  CliResult r = RunCli("predict --profile examples/profiles/kmeans.yaml");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--dataset-bytes is required") != std::string::npos);
}

}  // namespace
}  // namespace perfplan
