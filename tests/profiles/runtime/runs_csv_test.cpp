#include "profiles/runtime/runs_csv.h"

#include <doctest/doctest.h>

#include "tests/support/problem_lines.h"

namespace perfplan::profiles {
namespace {

const char* kHeader =
    "workload,instance_type,dataset_bytes,storage_nodes,compute_nodes,"
    "bandwidth_bytes_per_second,runtime_seconds,completed";

using testing::ProblemLines;

TEST_CASE("runs CSV reads quoted fields, CRLF line ends, extra columns and censored rows") {
  const std::string text =
      std::string(kHeader) + ",note\r\n" +
      "\"lr, spark\",c4.large,1e9,4,4,1.25e8,100.5,true,\"said \"\"hi\"\"\"\r\n"
      "\r\n"
      "lr,m4.large,1e9,8,8,1.25e8,7200,false,\"two\nlines\"\r\n";
  Loaded<RunsTable> t = ParseRunsCsv(text, "runs.csv");
  REQUIRE(t.ok());
  REQUIRE(t.value.runs.size() == 2);
  CHECK(t.value.runs[0].workload == "lr, spark");
  CHECK(t.value.runs[0].runtime_seconds == 100.5);
  CHECK(t.value.runs[0].completed);
  CHECK(t.value.runs[0].vcpus == 2);  // from the instance-type table
  CHECK(t.value.cells[0][8] == "said \"hi\"");
  CHECK(!t.value.runs[1].completed);
  CHECK(t.value.lines == std::vector<int>{2, 4});
  CHECK(t.value.cells[1][8] == "two\nlines");
}

TEST_CASE("runs CSV reports every bad field with file, line and column name") {
  const std::string text = std::string(kHeader) +
                           "\n"
                           "lr,c4.large,abc,4,4,1e8,100,true\n"
                           "lr,c4.large,1e9,4,0,1e8,-3,maybe\n"
                           "lr,c4.large,1e9\n";
  Loaded<RunsTable> t = ParseRunsCsv(text, "runs.csv");
  CHECK(ProblemLines(t) ==
        std::vector<std::string>{"runs.csv:2: dataset_bytes: expected a number, got 'abc'",
                                 "runs.csv:3: compute_nodes: must be > 0, got 0",
                                 "runs.csv:3: runtime_seconds: must be > 0, got -3",
                                 "runs.csv:3: completed: expected true or false, got 'maybe'",
                                 "runs.csv:4: expected 8 fields as in the header, got 3"});
}

TEST_CASE("runs CSV names a missing column and suggests a misspelt one") {
  Loaded<RunsTable> t = ParseRunsCsv(
      "workload,instance_type,dataset_bytes,storage_nodes,compute_nodes,"
      "bandwidth_bytes_per_second,runtime_secs,completed\n",
      "r.csv");
  CHECK(ProblemLines(t) ==
        std::vector<std::string>{"r.csv:1: runtime_seconds: required column is missing from the "
                                 "header; is 'runtime_secs' meant to be it?"});
  CHECK(ProblemLines(ParseRunsCsv("", "e.csv")) ==
        std::vector<std::string>{"e.csv:1: empty file: expected a header row naming the columns "
                                 "workload, instance_type, dataset_bytes, storage_nodes, "
                                 "compute_nodes, bandwidth_bytes_per_second, runtime_seconds, "
                                 "completed"});
  CHECK(ProblemLines(ParseRunsCsv(std::string(kHeader) + "\n", "h.csv")) ==
        std::vector<std::string>{"h.csv:2: no data rows after the header"});
  CHECK(ProblemLines(ParseRunsCsv(std::string(kHeader) + ",workload\n", "d.csv")) ==
        std::vector<std::string>{"d.csv:1: workload: column named twice (columns 1 and 9)"});
}

TEST_CASE("WriteRunsCsv round-trips through ParseRunsCsv") {
  std::vector<models::MeasuredRun> runs = {
      {"join_spark", "r4.xlarge", 48060212000, 4, 4, 156250000, 2222.125, true},
      {"a,b", "x", 0.1, 1, 3, 1e9, 7200.004423753999, false}};
  Loaded<RunsTable> t = ParseRunsCsv(WriteRunsCsv(runs), "w.csv");
  REQUIRE(t.ok());
  REQUIRE(t.value.runs.size() == 2);
  CHECK(t.value.runs[1].workload == "a,b");
  CHECK(t.value.runs[1].runtime_seconds == 7200.004423753999);
  CHECK(t.value.runs[0].dataset_bytes == 48060212000);
  CHECK(!t.value.runs[1].completed);
}

}  // namespace
}  // namespace perfplan::profiles
