// Specification of planner/output/report_plan.h: the report's Spark plan section and decision
// rows say exactly what `perfplan plan --store DB --app NAME` says (executor count, replayed
// runtime, the fitted history's interval, spark-defaults.conf lines, score, stragglers), and
// never price the Spark path.
#include "planner/output/report_plan.h"

#include <doctest/doctest.h>

#include <cstdio>

#include "planner/output/svg_chart.h"
#include "planner/plan/plan.h"
#include "planner/plan/spark_plan.h"
#include "planner/scoring/spark_scoring.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/store.h"
#include "tests/support/result_checks.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

// `runs` runs of application `name` (ids NAME-0 …), run i on executors[i % size] executors;
// spark.executor.memory varies so tuning has a parameter.
std::string MakeStore(const std::string& dir, const std::string& name, int runs,
                      const std::vector<int>& executors) {
  std::vector<std::string> paths;
  const char* memory[] = {"1g", "2g", "512m", "4g", "3g", "1536m", "2g", "4g"};
  for (int i = 0; i < runs; ++i) {
    const std::string id = name + "-" + std::to_string(i);
    std::string log = testing::SyntheticEventLogWithProperties(
        id, 2, 12 + i, {{"spark.executor.memory", memory[i % 8]}, {"spark.master", "yarn"}});
    log = testing::OnExecutors(log, executors[i % executors.size()]);
    // The synthetic log names every application "synthetic"; give this one its own name.
    const std::string from = "\"App Name\":\"synthetic\"";
    if (const std::size_t at = log.find(from); at != std::string::npos) {
      log.replace(at, from.size(), "\"App Name\":\"" + name + "\"");
    }
    testing::WriteFile(dir + "/" + id, log);
    paths.push_back(dir + "/" + id);
  }
  const std::string db = dir + "/s.db";
  const auto store = testing::ValueOf(profiles::Store::Open(db, ScoringMigrations()));
  REQUIRE(profiles::spark::IngestEventLogs(*store, paths).ok());
  return db;
}

std::string Num(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

SparkPlanAnswer PlanOf(const std::string& db, const std::string& app) {
  PlanRequest r;
  r.store_path = db;
  r.app = app;
  const SparkPlanAnswer plan = testing::ValueOf(AnswerSparkPlan(r));
  return plan;
}

TEST_CASE("the section and its decision row are perfplan plan --store --app's answer") {
  const std::string dir = testing::MakeTempDir();
  const std::string db = MakeStore(dir, "etl", 3, {1, 2});
  const SparkPlanAnswer plan = PlanOf(db, "etl");
  REQUIRE(plan.chosen.has_value());
  REQUIRE(plan.history.fitted);
  const SparkExecutorOption& c = plan.options[*plan.chosen];
  REQUIRE(c.history_interval.has_value());

  const ReportPart part = SparkPlanReport(db, "");
  CHECK(part.section.id == "spark-plan");
  CHECK(part.section.charts == 1);
  REQUIRE(part.decisions.size() == 1);
  const std::vector<std::string>& row = part.decisions.front();
  REQUIRE(row.size() == 8);
  CHECK(row[0] == "etl");
  CHECK(row[1] == "Spark application, 3 run(s)");
  CHECK(row[2] == "executors x " + std::to_string(plan.whatif.cores_per_executor) + " core(s)");
  CHECK(row[3] == std::to_string(c.executors));
  CHECK(row[4] == Num(c.whatif_seconds, 1));
  CHECK(row[5] == Num(c.history_interval->low_seconds, 1) + " to " +
                      Num(c.history_interval->high_seconds, 1));
  CHECK(row[6] == "n/a (the store records no prices)");
  // Three runs are fewer than the tuning's folds: the note says how many it has and needs.
  CHECK_FALSE(plan.tuning.recommended);
  CHECK(row[7] == "no parameters: " + plan.tuning.note + " (perfplan plan --store --app)");

  const std::string& html = part.html;
  CHECK(html.rfind("<section id=\"spark-plan\">", 0) == 0);
  // Every executor count of the plan is a row of its table, the chosen one marked.
  for (const SparkExecutorOption& o : plan.options) {
    CHECK(html.find("<tr><td>" + std::to_string(o.executors) + "</td><td>" +
                    Num(o.whatif_seconds, 1) + "</td>") != std::string::npos);
  }
  CHECK(html.find("<td>chosen</td>") != std::string::npos);
  CHECK(html.find(XmlEscape("Because: " + plan.chosen_because)) != std::string::npos);
  CHECK(html.find(XmlEscape(plan.tuning.note)) != std::string::npos);
  CHECK(html.find("score (perfplan score " + plan.latest_app_id + "): ") != std::string::npos);
  if (plan.stragglers.h_job) {
    CHECK(html.find("H_job " + Num(*plan.stragglers.h_job, 3)) != std::string::npos);
  }
  for (const SparkStageStragglers& s : plan.stragglers.slowest) {
    CHECK(html.find("<tr><td>" + std::to_string(s.stage_id) + "." +
                    std::to_string(s.attempt_id) + "</td>") != std::string::npos);
  }
  // The chart: the replay, the fitted history and its interval, the measured runs.
  CHECK(html.find("Runtime against executor count, etl") != std::string::npos);
  for (const char* legend : {">replay</text>", ">history</text>", ">interval low</text>",
                             ">interval high</text>", ">measured</text>", ">chosen</text>"}) {
    CHECK(html.find(legend) != std::string::npos);
  }
  CHECK(html.find("the fitted history and its interval, 3 measured run(s)") != std::string::npos);
}

TEST_CASE("enough runs: the section lists the plan's spark-defaults.conf lines") {
  const std::string dir = testing::MakeTempDir();
  const std::string db = MakeStore(dir, "etl", 6, {2});
  const SparkPlanAnswer plan = PlanOf(db, "etl");
  REQUIRE(plan.tuning.recommendation.has_value());
  const ReportPart part = SparkPlanReport(db, "");
  std::string lines;
  for (const std::string& l : plan.tuning.recommendation->spark_defaults) {
    lines += XmlEscape(l) + "\n";
  }
  CHECK(part.html.find("<pre>" + lines + "</pre>") != std::string::npos);
  REQUIRE(part.decisions.size() == 1);
  CHECK(part.decisions[0][7] ==
        std::to_string(plan.tuning.recommendation->spark_defaults.size()) +
            " spark-defaults.conf line(s) (perfplan plan --store --app)");
  for (const auto& [name, direction] : plan.tuning.top_parameters) {
    CHECK(part.html.find(XmlEscape(name + " (" + direction + ")")) != std::string::npos);
  }
}

TEST_CASE("one plan per application name, at most max_apps, an unknown --app a warning") {
  const std::string dir = testing::MakeTempDir();
  MakeStore(dir + "", "etl", 2, {2});
  const std::string db = MakeStore(dir, "report", 2, {2});  // the same store, a second name
  const ReportPart both = SparkPlanReport(db, "");
  REQUIRE(both.decisions.size() == 2);
  CHECK(both.section.charts == 2);
  const ReportPart one = SparkPlanReport(db, "", 1);
  CHECK(one.decisions.size() == 1);
  REQUIRE(one.warnings.size() >= 1);
  CHECK(one.warnings.front() == db + ": Spark plan: only the latest 1 of 2 applications are "
                                     "planned; give --app for another");
  const ReportPart by_id = SparkPlanReport(db, "etl-1");
  REQUIRE(by_id.decisions.size() == 1);
  CHECK(by_id.decisions[0][0] == "etl");
  const ReportPart unknown = SparkPlanReport(db, "nope");
  CHECK(unknown.html.empty());
  CHECK(unknown.decisions.empty());
  REQUIRE(unknown.warnings.size() == 1);
  CHECK(unknown.warnings[0].rfind("nope: Spark plan: ", 0) == 0);
}

TEST_CASE("the chosen marker's label stays inside the chart at the largest executor count") {
  XYChart chart;
  chart.title = "t";
  chart.x_label = "executors";
  chart.y_label = "runtime (s)";
  chart.series.push_back({"replay", {{1, 10}, {64, 2}}, ChartColor(0)});
  chart.x_markers.emplace_back(64, "chosen");
  const std::string svg = LineChartSvg(chart);
  const std::size_t at = svg.find("\">chosen</text>");
  REQUIRE(at != std::string::npos);
  const std::size_t x = svg.rfind("<text x=\"", at);
  REQUIRE(x != std::string::npos);
  const double left = std::stod(svg.substr(x + 9));
  // 6 characters at 0.62 em of 12 px: the label ends left of the 720 px wide frame.
  CHECK(left + 6 * 0.62 * 12 <= 716);
  CHECK(left > 0);
}

TEST_CASE("perfplan report --store puts the Spark plan after the decision table") {
  const std::string dir = testing::MakeTempDir();
  const std::string db = MakeStore(dir, "etl", 3, {1, 2});
  ReportRequest request;
  request.store_path = db;
  request.out_file = dir + "/r.html";
  const ReportAnswer a = testing::ValueOf(BuildReport(request));
  REQUIRE(a.sections.size() >= 3);
  CHECK(a.sections[0].id == "decision");
  CHECK(a.sections[1].id == "spark-plan");
  CHECK(a.sections[1].charts == 1);
  CHECK(a.sections[2].id == "stragglers");
  const SparkPlanAnswer plan = PlanOf(db, "etl");
  CHECK(a.html.find("<tr><td>etl</td><td>Spark application, 3 run(s)</td>") != std::string::npos);
  CHECK(a.html.find("<section id=\"decision\">") < a.html.find("<section id=\"spark-plan\">"));
  CHECK(a.html.find("<section id=\"spark-plan\">") < a.html.find("<section id=\"stragglers\">"));
}

}  // namespace
}  // namespace perfplan::planner
