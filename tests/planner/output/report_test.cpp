// planner/output/svg_chart.cpp, planner/output/report.cpp and `perfplan report`: the charts are well-formed
// (title, axis labels, non-empty marks, escaped text) and a report built from examples/ plus a
// small store (a synthetic Spark log and simulated HDFS logs) has every section.
#include "planner/output/report.h"

#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "planner/output/svg_chart.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan {
namespace {

using Run = testing::CliRun;
using testing::RunPerfplan;

std::vector<std::string> SvgBlocks(const std::string& html) {
  std::vector<std::string> blocks;
  for (std::size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at)) {
    const std::size_t end = html.find("</svg>", at);
    REQUIRE(end != std::string::npos);
    blocks.push_back(html.substr(at, end + 6 - at));
    at = end;
  }
  return blocks;
}

// Every chart: a non-empty <title>, both axis labels, at least one non-empty mark.
void CheckChart(const std::string& svg) {
  CAPTURE(svg.substr(0, 300));
  CHECK(std::regex_search(svg, std::regex("<title>[^<]+</title>")));
  CHECK(std::regex_search(svg, std::regex("class=\"x-label\"[^>]*>[^<]+</text>")));
  CHECK(std::regex_search(svg, std::regex("class=\"y-label\"[^>]*>[^<]+</text>")));
  const bool mark = std::regex_search(svg, std::regex("<path class=\"(series|bar)\" d=\"M[0-9]")) ||
                    std::regex_search(svg, std::regex("<circle class=\"point\" cx=\"[0-9]")) ||
                    std::regex_search(svg, std::regex("<polyline [^>]*points=\"[0-9]"));
  CHECK(mark);
  CHECK(svg.find("nan") == std::string::npos);
  CHECK(svg.find("inf") == std::string::npos);
}

// Runs of w: 50 + 2000/c seconds on type "t1" (as tests/planner/cli/fit_cli_test.cpp).
std::string RunsCsv() {
  std::string csv =
      "workload,instance_type,dataset_bytes,storage_nodes,compute_nodes,"
      "bandwidth_bytes_per_second,runtime_seconds,completed\n";
  for (int c : {4, 8, 16, 32, 64})
    csv += "w,t1,1e10," + std::to_string(c) + "," + std::to_string(c) + ",1e8," +
           std::to_string(50 + 2000.0 / c) + ",true\n";
  return csv;
}

TEST_CASE("XmlEscape escapes the five XML special characters") {
  CHECK(planner::XmlEscape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
}

TEST_CASE("charts carry title, axis labels and marks, with every text escaped") {
  planner::XYChart xy;
  xy.title = "t<1>";
  xy.x_label = "measured & (s)";
  xy.y_label = "predicted (s)";
  xy.identity_line = true;
  xy.series.push_back({"a\"b", {{1, 2}, {3, 4}, {5, 5}}, planner::ChartColor(0)});
  for (const std::string& svg : {planner::LineChartSvg(xy), planner::ScatterChartSvg(xy)}) {
    CheckChart(svg);
    CHECK(svg.find("<title>t&lt;1&gt;</title>") != std::string::npos);
    CHECK(svg.find("measured &amp; (s)") != std::string::npos);
    CHECK(svg.find("a&quot;b") != std::string::npos);
    CHECK(svg.find("class=\"identity\"") != std::string::npos);
    CHECK(svg.find("t<1>") == std::string::npos);
  }
  planner::BarChart bars;
  bars.title = "load";
  bars.x_label = "DataNode";
  bars.y_label = "bytes (MiB)";
  bars.categories = {"dn<1>", "dn2"};
  bars.segment_names = {"read", "write"};
  bars.values = {{1, 2}, {3, 0}};
  const std::string svg = planner::BarChartSvg(bars);
  CheckChart(svg);
  CHECK(svg.find("dn&lt;1&gt;") != std::string::npos);
  // Three non-empty segments (a zero segment draws nothing).
  std::size_t count = 0;
  for (std::size_t at = svg.find("class=\"bar\""); at != std::string::npos;
       at = svg.find("class=\"bar\"", at + 1))
    ++count;
  CHECK(count == 3);
}

TEST_CASE("a report from examples/ and a small store has every section and well-formed charts") {
  const std::string dir = testing::MakeTempDir();
  const std::string examples = testing::SourceDir() + "/examples";
  // Store: one synthetic Spark application (2 stages × 40 tasks) and simulated HDFS logs.
  std::filesystem::create_directories(dir + "/logs");
  testing::WriteFile(dir + "/logs/app-report.lz4",
                     testing::EncodeLz4Block(testing::SyntheticEventLog("app-report", 2, 40)));
  const Run sim = RunPerfplan(
      "simulate hdfs --files 3 --file-size 5000000 --clients 2 --datanodes 3 --block-size 1048576 "
      "--out '" +
      dir + "/hdfs' --json");
  REQUIRE(sim.exit_code == 0);
  std::string nodes;
  const nlohmann::json sim_json = nlohmann::json::parse(sim.out);
  for (const auto& n : sim_json["ingest_nodes"]) nodes += " --node '" + n.get<std::string>() + "'";
  REQUIRE(RunPerfplan("ingest hdfs" + nodes + " --store '" + dir + "/s.db'").exit_code == 0);
  REQUIRE(RunPerfplan("ingest spark '" + dir + "/logs' --store '" + dir + "/s.db'").exit_code == 0);
  testing::WriteFile(dir + "/runs.csv", RunsCsv());

  const std::string out = dir + "/out/r.html";
  std::filesystem::create_directories(dir + "/out");
  const Run r = RunPerfplan("report --out '" + out + "' --store '" + dir + "/s.db' --profiles " +
                            examples + "/profiles/kmeans.yaml " + examples + "/profiles/knn.yaml " +
                            "--topology " + examples + "/topology.yaml --runs '" + dir +
                            "/runs.csv' --workload w --train 'compute_nodes<=16' --json");
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["out"] == out);
  std::vector<std::string> ids;
  for (const auto& s : j["sections"]) ids.push_back(s["id"]);
  CHECK(ids == std::vector<std::string>{"decision", "spark-plan", "stragglers", "datanodes",
                                        "evaluate", "runtime-nodes", "profiles", "selection"});
  CHECK(j["sections"][0]["charts"] == 0);  // the decision table
  CHECK(j["sections"][1]["charts"] == 1);  // runtime against executors of the one application
  CHECK(j["sections"][2]["charts"] == 2);  // one Lorenz figure per stage

  const std::string html = testing::ReadFile(out);
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.find("<script") == std::string::npos);
  // Self-contained: the only URL is the SVG namespace.
  CHECK(std::regex_replace(html, std::regex("http://www\\.w3\\.org/2000/svg"), "").find("://") ==
        std::string::npos);
  const std::vector<std::string> charts = SvgBlocks(html);
  CHECK(charts.size() == j["charts"].get<std::size_t>());
  // Spark plan 1, Lorenz 2, DataNodes 1, evaluate 1, runtime against nodes 1 (type t1),
  // profiles 1, selection: 2 profiles × the 4 datasets of examples/topology.yaml.
  CHECK(charts.size() == 1 + 2 + 1 + 1 + 1 + 1 + 2 * 4);
  CHECK(html.find("<section id=\"decision\">") < html.find("<section id=\"stragglers\">"));
  CHECK(html.find("by perfplan ") != std::string::npos);  // the header names the version
  // knn.yaml has one run: not on the predicted-against-measured chart (it would be in-sample).
  CHECK(html.find("knn.yaml: not on the predicted-against-measured chart") != std::string::npos);
  for (const std::string& svg : charts) CheckChart(svg);
  CHECK(html.find("y = x") != std::string::npos);
  CHECK(html.find("change point") != std::string::npos);
  // No temporary file is left beside the report.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir + "/out")) ++files;
  CHECK(files == 1);
}

TEST_CASE("report refuses missing or partial evidence with exit 2") {
  const std::string dir = testing::MakeTempDir();
  planner::ReportRequest request;
  request.out_file = dir + "/r.html";
  CHECK(planner::AnswerReport(request).status().message() ==
        "nothing to report: give --store, --profiles, --runs or --tune-model");
  request.runs_file = dir + "/runs.csv";
  CHECK(planner::AnswerReport(request).status().message() ==
        "--runs, --workload and --train go together");
  request = {};
  request.out_file = dir + "/r.html";
  request.store_path = dir + "/missing.db";
  CHECK(planner::AnswerReport(request).status().message() == dir + "/missing.db: no such store");
  CHECK(!std::filesystem::exists(dir + "/missing.db"));
  CHECK(RunPerfplan("report --out '" + dir + "/r.html'").exit_code == 2);
  CHECK(!std::filesystem::exists(dir + "/r.html"));
}

TEST_CASE("--dataset limits the selection charts to one dataset of the topology") {
  const std::string dir = testing::MakeTempDir();
  const std::string examples = testing::SourceDir() + "/examples";
  const std::string common = "report --out '" + dir + "/r.html' --profiles " + examples +
                             "/profiles/kmeans.yaml --topology " + examples + "/topology.yaml";
  const Run r = RunPerfplan(common + " --dataset sensor-archive --json");
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  REQUIRE(j["sections"].size() == 3);
  CHECK(j["sections"][0]["id"] == "decision");
  CHECK(j["sections"][2]["id"] == "selection");
  CHECK(j["sections"][2]["charts"] == 1);
  CHECK(testing::ReadFile(dir + "/r.html").find("on sensor-archive") != std::string::npos);

  const Run unknown = RunPerfplan(common + " --dataset sensor-archiv", "2>&1 >/dev/null");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.out == "perfplan report: error: --dataset: no dataset \"sensor-archiv\" in " +
                           examples + "/topology.yaml; did you mean \"sensor-archive\"?\n");
  planner::ReportRequest request;
  request.out_file = dir + "/r2.html";
  request.profile_files = {examples + "/profiles/kmeans.yaml"};
  request.dataset = "sky-survey";
  CHECK(planner::AnswerReport(request).status().message() == "--dataset needs --topology");
}

TEST_CASE("--prices: the decision's cost is the plan's, and cost against time shows its front") {
  const std::string dir = testing::MakeTempDir();
  const std::string examples = testing::SourceDir() + "/examples";
  const std::string inputs = " --profiles " + examples + "/profiles/kmeans.yaml --topology " +
                             examples + "/topology.yaml --dataset sky-survey";
  const std::string prices = " --prices " + examples + "/prices/grid.yaml";
  const Run r = RunPerfplan("report --out '" + dir + "/r.html'" + inputs + prices + " --json");
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  std::vector<std::string> ids;
  for (const auto& s : j["sections"]) ids.push_back(s["id"]);
  CHECK(ids == std::vector<std::string>{"decision", "pareto", "profiles", "selection"});
  CHECK(j["sections"][1]["charts"] == 1);

  const Run plan = RunPerfplan("plan --profile " + examples + "/profiles/kmeans.yaml --topology " +
                               examples + "/topology.yaml --dataset sky-survey" + prices +
                               " --json");
  REQUIRE(plan.exit_code == 0);
  const nlohmann::json p = nlohmann::json::parse(plan.out);
  const std::string html = testing::ReadFile(dir + "/r.html");
  char cost[64];
  std::snprintf(cost, sizeof cost, "%.4f", p["recommendation"]["plan"]["cost"]["cost"].get<double>());
  CHECK(html.find("<td>" + std::string(cost) + " USD</td>") != std::string::npos);
  CHECK(html.find("<th>cost</th>") != std::string::npos);
  // The chart: one ring per priced alternative plus the marked choice, the front's count.
  std::size_t priced = 0;
  for (const auto& a : p["alternatives"]) priced += a["cost"].is_null() ? 0 : 1;
  const std::size_t from = html.find("<section id=\"pareto\">");
  REQUIRE(from != std::string::npos);
  CHECK(from < html.find("<section id=\"profiles\">"));
  const std::string section = html.substr(from, html.find("</section>", from) - from);
  const std::vector<std::string> svgs = SvgBlocks(section);
  REQUIRE(svgs.size() == 1);
  CheckChart(svgs[0]);
  std::size_t circles = 0;
  for (std::size_t at = svgs[0].find("<circle class=\"point\""); at != std::string::npos;
       at = svgs[0].find("<circle class=\"point\"", at + 1))
    ++circles;
  CHECK(circles == priced + 1);
  CHECK(section.find(std::to_string(priced) + " priced alternatives, " +
                     std::to_string(p["front"].size()) + " on the front") != std::string::npos);

  // Without prices: no chart, and the cost cell says why.
  const Run bare = RunPerfplan("report --out '" + dir + "/b.html'" + inputs + " --json");
  REQUIRE(bare.exit_code == 0);
  CHECK(testing::ReadFile(dir + "/b.html").find("<td>n/a (no --prices)</td>") !=
        std::string::npos);
  CHECK(testing::ReadFile(dir + "/b.html").find("id=\"pareto\"") == std::string::npos);
  // Prices need something to price.
  const Run alone = RunPerfplan("report --out '" + dir + "/c.html' --profiles " + examples +
                                    "/profiles/kmeans.yaml" + prices,
                                "2>&1 >/dev/null");
  CHECK(alone.exit_code == 2);
  CHECK(alone.out ==
        "perfplan report: error: --prices needs --runs or --topology (the plans it prices)\n");
}

TEST_CASE("a cost-against-time chart of thousands of alternatives draws the front and 1 in k") {
  const std::string dir = testing::MakeTempDir();
  const std::string examples = testing::SourceDir() + "/examples";
  // The example grid with 3,000 nodes at anl-cluster: ~6,000 priced alternatives.
  std::string topology = testing::ReadFile(examples + "/topology.yaml");
  const std::string from = "{name: anl-node, count: 64,";
  REQUIRE(topology.find(from) != std::string::npos);
  topology.replace(topology.find(from), from.size(), "{name: anl-node, count: 3000,");
  testing::WriteFile(dir + "/big.yaml", topology);
  const std::string inputs = " --profile " + examples + "/profiles/kmeans.yaml --topology '" +
                             dir + "/big.yaml' --dataset sky-survey --prices " + examples +
                             "/prices/grid.yaml";
  const Run plan = RunPerfplan("plan" + inputs + " --json");
  REQUIRE(plan.exit_code == 0);
  const nlohmann::json p = nlohmann::json::parse(plan.out);
  std::size_t priced = 0, off_front = 0;
  for (const auto& a : p["alternatives"]) {
    priced += a["cost"].is_null() ? 0 : 1;
    off_front += !a["cost"].is_null() && !a["on_front"].get<bool>() ? 1 : 0;
  }
  REQUIRE(off_front > 2000);
  const std::size_t stride = (off_front + 999) / 1000;
  const Run r = RunPerfplan("report --out '" + dir + "/r.html' --profiles " + examples +
                            "/profiles/kmeans.yaml --topology '" + dir +
                            "/big.yaml' --dataset sky-survey --prices " + examples +
                            "/prices/grid.yaml");
  REQUIRE(r.exit_code == 0);
  const std::string html = testing::ReadFile(dir + "/r.html");
  const std::size_t at = html.find("<section id=\"pareto\">");
  REQUIRE(at != std::string::npos);
  const std::string section = html.substr(at, html.find("</section>", at) - at);
  std::size_t circles = 0;
  for (std::size_t c = section.find("<circle class=\"point\""); c != std::string::npos;
       c = section.find("<circle class=\"point\"", c + 1))
    ++circles;
  // Every front point (as a dot and on the line), 1 in `stride` of the others, the choice.
  CHECK(circles == p["front"].size() + (off_front + stride - 1) / stride + 1);
  CHECK(circles < 1500);
  CHECK(section.find(std::to_string(priced) + " priced alternatives, " +
                     std::to_string(p["front"].size()) + " on the front; 1 in " +
                     std::to_string(stride) + " of the " + std::to_string(off_front) +
                     " off the front drawn") != std::string::npos);
}

TEST_CASE("a saved tuning model gives sensitivity bars, most influential first") {
  const std::string dir = testing::MakeTempDir();
  std::string csv = "spark.executor.memory,spark.executor.cores,time_seconds\n";
  for (int i = 0; i < 30; ++i) {
    const int mem_gb = 1 + (i * 7) % 16, cores = 1 + (i * 5) % 8;
    csv += std::to_string(mem_gb) + "g," + std::to_string(cores) + "," +
           std::to_string(50 + 400.0 / (mem_gb + 2) + 200.0 / cores) + "\n";
  }
  testing::WriteFile(dir + "/runs.csv", csv);
  REQUIRE(RunPerfplan("tune train --data '" + dir +
                      "/runs.csv' --target time_seconds --kinds ridge "
                      "--out '" +
                      dir + "/m.json'")
              .exit_code == 0);
  const Run r =
      RunPerfplan("report --out '" + dir + "/r.html' --tune-model '" + dir + "/m.json' --json");
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  REQUIRE(j["sections"].size() == 1);
  CHECK(j["sections"][0]["id"] == "sensitivity");
  const std::vector<std::string> charts = SvgBlocks(testing::ReadFile(dir + "/r.html"));
  REQUIRE(charts.size() == 1);
  CheckChart(charts[0]);
  CHECK(charts[0].find("spark.executor.") != std::string::npos);
}

}  // namespace
}  // namespace perfplan
