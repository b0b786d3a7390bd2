// `perfplan stragglers` on a real Spark event log from ../shared/data (its own executable:
// skipped when that folder is absent).
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/test_support.h"

PERFPLAN_REQUIRE_SHARED_DATA();

namespace perfplan {
namespace {

using Run = testing::CliRun;
using testing::RunPerfplan;

TEST_CASE("stragglers on a real log: stage 0's 100 tasks give m̂ = 87 and H = 0.335") {
  const std::string dir = testing::MakeTempDir();
  const std::string log = testing::SharedDataDir() +
                          "/01-spark-eventlogs/apache-spark/spark-events/local-1430917381534";
  REQUIRE(RunPerfplan("ingest spark '" + log + "' --store '" + dir + "/s.db'").exit_code == 0);
  Run r = RunPerfplan("stragglers local-1430917381534 --store '" + dir + "/s.db' --json");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(!j["stages"].empty());
  const auto& s0 = j["stages"][0];
  // The same values as models/hindex on this stage (tests/models/hindex_real_data_test.cpp).
  CHECK(s0["stage_id"] == 0);
  CHECK(s0["n"] == 100);
  CHECK(s0["included"] == true);
  CHECK(s0["change_point"] == 87);
  CHECK(s0["h_index"].get<double>() == doctest::Approx(0.3354).epsilon(1e-3));
  CHECK(s0["gini"].get<double>() == doctest::Approx(0.4866).epsilon(1e-3));
  CHECK(s0["above_5x_median"] == 8);
  CHECK(s0["max_over_median"].get<double>() == doctest::Approx(10.88).epsilon(1e-3));
  CHECK(j["h_job"].is_number());
}

}  // namespace
}  // namespace perfplan
