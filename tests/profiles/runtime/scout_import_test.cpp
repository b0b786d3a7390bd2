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


// Spark 1.5's HiBench runs (k-means, naive Bayes, regression) write input_size -1 in every report,
// completed or not (oxhead/scout, e.g. 10_c4.large_kmeans_spark1.5_bigdata_1).
void UnsizedKmeans(const std::string& dir) {
  Report(dir, "6_c4.large_kmeans_spark1.5_bigdata_1",
         R"({"completed": true, "elapsed_time": "812.4", "framework": "spark1.5",
             "input_size": -1, "workload": "kmeans"})");
  Report(dir, "4_c4.large_kmeans_spark1.5_bigdata_1",
         R"({"completed": false, "elapsed_time": 7200.004, "framework": "spark1.5",
             "input_size": -1, "workload": "kmeans"})");
}

TEST_CASE("a workload that records no input size is one problem naming the flag, or takes the size given") {
  const std::string dir = testing::MakeTempDir();
  UnsizedKmeans(dir);
  Loaded<std::vector<models::MeasuredRun>> runs = ImportScout(dir);
  REQUIRE(runs.problems.size() == 1);
  CHECK(FormatProblem(runs.problems[0]) ==
        dir +
            ": input_size: workload kmeans_spark1.5 records no input size (input_size <= 0 in "
            "all 2 of its runs) and none was given for it");

  runs = ImportScout(dir, {{"kmeans_spark1.5", 2e10}});
  REQUIRE(runs.ok());
  REQUIRE(runs.value.size() == 2);
  CHECK(runs.value[0].dataset_bytes == 2e10);  // the censored run at 4 nodes
  CHECK(!runs.value[0].completed);
  CHECK(runs.value[1].dataset_bytes == 2e10);
  CHECK(runs.value[1].runtime_seconds == 812.4);
}

TEST_CASE("a size the reports record wins over a given one; unsized completed runs take the median") {
  const std::string dir = testing::MakeTempDir();
  Report(dir, "6_m4.large_lr_spark_bigdata_1",
         R"({"completed": true, "elapsed_time": "7101", "input_size": "48060212000"})");
  Report(dir, "8_m4.large_lr_spark_bigdata_1",
         R"({"completed": true, "elapsed_time": "5415", "input_size": -1})");
  Loaded<std::vector<models::MeasuredRun>> runs = ImportScout(dir);
  REQUIRE(runs.ok());
  CHECK(runs.value[1].dataset_bytes == 48060212000);
  runs = ImportScout(dir, {{"lr_spark", 1e9}});
  REQUIRE(runs.ok());
  CHECK(runs.value[0].dataset_bytes == 48060212000);
  CHECK(runs.value[1].dataset_bytes == 1e9);
}

TEST_CASE("folder links are followed, and a link back up is walked once") {
  const std::string shared = testing::MakeTempDir();
  Report(shared, "6_c4.large_lr_spark_bigdata_1",
         R"({"completed": true, "elapsed_time": "6927.5", "input_size": "48060212000"})");
  const std::string mine = testing::MakeTempDir();
  std::filesystem::create_directory_symlink(shared + "/6_c4.large_lr_spark_bigdata_1",
                                            mine + "/6_c4.large_lr_spark_bigdata_1");
  std::filesystem::create_directory_symlink(mine, mine + "/loop");
  Loaded<std::vector<models::MeasuredRun>> runs = ImportScout(mine);
  REQUIRE(runs.ok());
  REQUIRE(runs.value.size() == 1);
  CHECK(runs.value[0].runtime_seconds == 6927.5);
}

}  // namespace
}  // namespace perfplan::profiles
