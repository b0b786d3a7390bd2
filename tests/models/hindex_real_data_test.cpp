// models/hindex.cpp on the task durations of a real Spark stage (../shared/data): the shape of
// input the `perfplan stragglers` command will feed in, straight from a std::vector<double>.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/hindex.h"
#include "tests/support/test_support.h"

PERFPLAN_REQUIRE_SHARED_DATA();

namespace perfplan::models {
namespace {

// Duration (Finish Time − Launch Time, seconds) of every successful task of one stage.
std::vector<double> StageTaskSeconds(const std::string& log, int stage) {
  std::ifstream in(log);
  REQUIRE(in);
  std::vector<double> seconds;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("\"SparkListenerTaskEnd\"") == std::string::npos) continue;
    const nlohmann::json event = nlohmann::json::parse(line);
    if (event["Stage ID"] != stage) continue;
    const nlohmann::json& info = event["Task Info"];
    if (info.value("Failed", false)) continue;
    seconds.push_back((info["Finish Time"].get<double>() - info["Launch Time"].get<double>()) /
                      1000);
  }
  return seconds;
}

TEST_CASE("a real Spark stage of 100 tasks: 8 stragglers at 0.42 s among tasks of 0.02–0.14 s") {
  const std::vector<double> seconds =
      StageTaskSeconds(testing::SharedDataDir() +
                           "/01-spark-eventlogs/apache-spark/spark-events/local-1430917381534",
                       0);
  REQUIRE(seconds.size() == 100);
  Result<HIndexResult> r = ComputeHIndex(seconds, {});
  REQUIRE(r.ok());
  const HIndexResult& h = r.value();
  // Regression values; `jq … | perfplan hindex -` (docs/hindex.md) gives the same. The 8 tasks
  // of 0.414–0.435 s are the ones above 5× the median.
  CHECK(h.n == 100);
  CHECK(h.total == doctest::Approx(7.759));
  CHECK(h.change_point == 87);
  CHECK(h.gini == doctest::Approx(0.4866).epsilon(1e-3));
  CHECK(h.h_index == doctest::Approx(0.3354).epsilon(1e-3));
  CHECK(h.speedup == doctest::Approx(1.505).epsilon(1e-3));
  CHECK(h.above_skew_threshold == 8);
  CHECK(h.max_over_median.value() == doctest::Approx(10.88).epsilon(1e-3));
}

}  // namespace
}  // namespace perfplan::models
