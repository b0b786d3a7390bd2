#include "profiles/runtime/scout_import.h"

#include <doctest/doctest.h>

#include <filesystem>

#include "tests/support/test_support.h"

namespace perfplan::profiles {
namespace {

void Report(const std::string& root, const std::string& folder, const std::string& json) {
  std::filesystem::create_directories(root + "/" + folder);
  testing::WriteFile(root + "/" + folder + "/report.json", json);
}

TEST_CASE("Scout reports become runs: strings and numbers, censored runs without a size") {
  const std::string dir = testing::MakeTempDir();
  Report(dir, "6_c4.large_lr_spark_bigdata_1",
         R"({"completed": true, "elapsed_time": "6927.5", "framework": "spark",
             "input_size": "48060212000", "workload": "lr"})");
  Report(dir, "8_c4.large_lr_spark_bigdata_1",
         R"({"completed": true, "elapsed_time": "5310", "framework": "spark",
             "input_size": "48060212010", "workload": "lr"})");
  Report(dir, "4_c4.large_lr_spark_bigdata_1",
         R"({"completed": false, "elapsed_time": 7200.004, "framework": "spark",
             "input_size": -1, "workload": "lr"})");
  Loaded<std::vector<models::MeasuredRun>> runs = ImportScout(dir);
  REQUIRE(runs.ok());
  REQUIRE(runs.value.size() == 3);
  const models::MeasuredRun& censored = runs.value[0];  // sorted by path: "4_..." first
  CHECK(censored.workload == "lr_spark");
  CHECK(censored.instance_type == "c4.large");
  CHECK(censored.compute_nodes == 4);
  CHECK(censored.storage_nodes == 4);
  CHECK(!censored.completed);
  CHECK(censored.runtime_seconds == 7200.004);
  CHECK(censored.dataset_bytes == 48060212010);  // median of the completed runs (upper middle)
  CHECK(censored.bandwidth_bytes_per_second == 62500000);
  CHECK(runs.value[1].runtime_seconds == 6927.5);
  CHECK(runs.value[1].dataset_bytes == 48060212000);
}

TEST_CASE("Scout import reports a bad folder name, an unknown type and a bad value") {
  const std::string dir = testing::MakeTempDir();
  Report(dir, "x_c4.large_lr_spark", R"({"completed": true})");
  Report(dir, "4_z9.huge_lr_spark_bigdata_1", R"({"completed": true})");
  Report(dir, "4_m4.large_lr_spark_bigdata_1",
         "{\"completed\": true,\n \"elapsed_time\": \"fast\", \"input_size\": \"1\"}");
  Loaded<std::vector<models::MeasuredRun>> runs = ImportScout(dir);
  REQUIRE(runs.problems.size() == 3);
  CHECK(FormatProblem(runs.problems[0]) ==
        dir +
            "/4_m4.large_lr_spark_bigdata_1/report.json:2: elapsed_time: expected a number, "
            "got \"fast\"");
  CHECK(runs.problems[1].message ==
        "unknown instance type 'z9.huge' in the folder name; the table in "
        "models/instance_types.h knows the nine Scout types");
  CHECK(runs.problems[2].message ==
        "folder name 'x_c4.large_lr_spark' is not <nodes>_<instance type>_<workload>_"
        "<framework>_...");
}

}  // namespace
}  // namespace perfplan::profiles
