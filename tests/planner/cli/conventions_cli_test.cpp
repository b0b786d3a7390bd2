// The command-line conventions operators expect (issue 17, Deliver 3): `-` is standard output for
// an --out flag, a full device is an error, and a usage error still answers --json in JSON.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/test_support.h"

namespace perfplan {
namespace {

using testing::RunPerfplan;

// Absolute paths: the test runs in the build tree.
std::string PredictionsExport() {
  return "export --what predictions --profile '" + testing::SourceDir() +
         "/examples/profiles/kmeans.yaml' --dataset-bytes 8e9 --storage-nodes 4 "
         "--compute-nodes 16 --bandwidth-bytes-per-second 125e6 --format csv";
}

TEST_CASE("--out - writes the answer to standard output, not to a file named '-'") {
  const testing::CliRun plain = RunPerfplan(PredictionsExport());
  REQUIRE(plain.exit_code == 0);
  REQUIRE(!plain.out.empty());
  const testing::CliRun dash = RunPerfplan(PredictionsExport() + " --out -");
  CHECK(dash.exit_code == 0);
  CHECK(dash.out == plain.out);
}

TEST_CASE("an answer that cannot be written to a full device exits 1 with the reason") {
  const testing::CliRun run = RunPerfplan("--version > /dev/full 2>&1; echo \"exit $?\"", "");
  // The shell's echo reports perfplan's exit status; the message went to stderr (into /dev/full
  // too), so only the code is checked here, and the message below.
  CHECK(run.out == "exit 1\n");
  // stderr to the pipe first, then stdout to the full device.
  const testing::CliRun message = RunPerfplan("--version 2>&1 > /dev/full", "");
  CHECK(message.out ==
        "perfplan: error: writing standard output failed (No space left on device)\n");
}

TEST_CASE("a usage error answers --json with a JSON error document on stdout") {
  const testing::CliRun run = RunPerfplan("validate '" + testing::SourceDir() +
                                          "/examples/topology.yaml' --json --no-such-flag");
  CHECK(run.exit_code == 2);
  REQUIRE(nlohmann::json::accept(run.out));
  const nlohmann::json doc = nlohmann::json::parse(run.out);
  CHECK(doc["error"] == "invalid_argument");
  CHECK(doc["message"] == "The following argument was not expected: --no-such-flag");
}

TEST_CASE("ingest with only missing inputs is bad input (exit 2), not an empty success") {
  const std::string dir = testing::MakeTempDir();
  const testing::CliRun spark =
      RunPerfplan("ingest spark '" + dir + "/nonexistent' --store '" + dir + "/s.db'", "2>&1");
  CHECK(spark.exit_code == 2);
  CHECK(spark.out.find("perfplan ingest spark: error: no event log could be read (1 skipped)\n") !=
        std::string::npos);
  const testing::CliRun hdfs = RunPerfplan(
      "ingest hdfs --node nn1='" + dir + "/nonexistent.log' --store '" + dir + "/h.db'", "2>&1");
  CHECK(hdfs.exit_code == 2);
  CHECK(hdfs.out.find("perfplan ingest hdfs: error: no log file could be read (1 skipped)\n") !=
        std::string::npos);
}

TEST_CASE("serve starts with any subset of --profiles, --store and --models, not with none") {
  const testing::CliRun none = RunPerfplan("serve --listen 127.0.0.1:0", "2>&1");
  CHECK(none.exit_code == 2);
  CHECK(none.out ==
        "perfplan serve: error: nothing to serve: give --profiles, --store or --models (any "
        "subset)\n");
  // A store alone: the service comes up (and stops on SIGTERM).
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/s.db", "");  // an empty file is an empty SQLite database
  const testing::CliRun store_only = RunPerfplan(
      "serve --listen 127.0.0.1:0 --store '" + dir + "/s.db' 2>&1 & sleep 5; kill $!; wait", "");
  CHECK(store_only.out.find("perfplan serve: listening on http://127.0.0.1:") != std::string::npos);
}

}  // namespace
}  // namespace perfplan
