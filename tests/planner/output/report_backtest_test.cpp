#include "planner/output/report_backtest.h"

#include <doctest/doctest.h>

#include <string>

#include "tests/support/result_checks.h"
#include "tests/support/test_support.h"

namespace perfplan {
namespace {

// Amdahl-shaped runs 50 + 2000/m, in a time order that is not the file order.
std::string RunsCsv(bool with_time) {
  std::string csv =
      "workload,instance_type,dataset_bytes,storage_nodes,compute_nodes,"
      "bandwidth_bytes_per_second,runtime_seconds,completed" +
      std::string(with_time ? ",time" : "") + "\n";
  const int nodes[] = {4, 8, 16, 32, 64, 6, 12};
  const int times[] = {10, 20, 30, 70, 60, 50, 40};
  for (int k = 0; k < 7; ++k) {
    csv += "w,t1,1e10," + std::to_string(nodes[k]) + "," + std::to_string(nodes[k]) + ",1e8," +
           std::to_string(50 + 2000.0 / nodes[k]) + ",true" +
           (with_time ? "," + std::to_string(times[k]) : std::string()) + "\n";
  }
  return csv;
}

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_CASE("the backtest section charts out-of-sample predictions against time") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/runs.csv", RunsCsv(true));
  const planner::ReportBacktestSection s =
      testing::ValueOf(planner::BacktestReportSection(dir + "/runs.csv", "w"));
  REQUIRE(s.available);
  CHECK(s.id == "backtest");
  CHECK(s.warnings.empty());
  REQUIRE(s.figures.size() == 2);
  // 7 runs: the first 3 in time order are the warm-up, the other 4 are predicted from earlier runs
  // (exact Amdahl data: every prediction exact to rounding; the intervals are then as narrow as
  // the rounding, so the coverage figure is not checked here).
  const std::string& caption = s.figures[0].caption;
  CHECK(caption.rfind("4 of 7 runs predicted out of sample; median APE 0.0%, P90 0.0%, 90% "
                      "interval coverage ",
                      0) == 0);
  const std::string& svg = s.figures[0].svg;
  CHECK(svg.find("predicted from earlier runs") != std::string::npos);
  CHECK(svg.find("90% interval, low") != std::string::npos);
  CHECK(svg.find("time (column unit)") != std::string::npos);
  CHECK(s.figures[1].svg.find("rolling median APE") != std::string::npos);
  CHECK(Count(s.figures[1].caption, "4 runs") == 1);
}

TEST_CASE("without a time column there is no backtest section, and bad input is an error") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/runs.csv", RunsCsv(false));
  const planner::ReportBacktestSection none =
      testing::ValueOf(planner::BacktestReportSection(dir + "/runs.csv", "w"));
  CHECK(!none.available);
  CHECK(none.figures.empty());

  testing::WriteFile(dir + "/bad.csv", RunsCsv(true) + "w,t1,1e10,2,2,1e8,1050,true,soon\n");
  CHECK(planner::BacktestReportSection(dir + "/bad.csv", "w").status().message() ==
        dir + "/bad.csv:9: time: must be a number, got 'soon'");

  // Too little history for any prediction: a warning, no section.
  testing::WriteFile(dir + "/short.csv",
                     "workload,instance_type,dataset_bytes,storage_nodes,compute_nodes,"
                     "bandwidth_bytes_per_second,runtime_seconds,completed,time\n"
                     "w,t1,1e10,4,4,1e8,550,true,1\nw,t1,1e10,8,8,1e8,300,true,2\n");
  const planner::ReportBacktestSection too_short =
      testing::ValueOf(planner::BacktestReportSection(dir + "/short.csv", "w"));
  CHECK(!too_short.available);
  REQUIRE(too_short.warnings.size() == 1);
  CHECK(too_short.warnings[0] ==
        dir +
            "/short.csv: backtest of w: no run had 3 completed earlier runs to be predicted from");
}

}  // namespace
}  // namespace perfplan
