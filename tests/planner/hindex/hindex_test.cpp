// planner/hindex/hindex.cpp, planner/hindex/hindex_json.cpp, planner/output/hindex_svg.cpp and the
// `perfplan hindex` / `perfplan simulate hindex` commands end to end.
#include "planner/hindex/hindex.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

// 90 buckets of 1 s then 10 of 20 s per task, times `scale`: change point 90, H in closed form.
std::string StepCsv(const std::vector<std::pair<std::string, double>>& tasks) {
  std::string csv = "task_id,bucket,seconds\n";
  for (const auto& [task, scale] : tasks) {
    for (int b = 0; b < 100; ++b) {
      csv += task + "," + std::to_string(b) + "," + std::to_string((b < 90 ? 1.0 : 20.0) * scale) +
             "\n";
    }
  }
  return csv;
}

struct Run {
  int exit_code = 0;
  std::string out, err;
};

Run RunPerfplan(const std::string& args, const std::string& stdin_file = "") {
  const std::string dir = testing::MakeTempDir();
  const std::string cmd = testing::BinaryDir() + "/perfplan " + args + " > " + dir + "/out 2> " +
                          dir + "/err" + (stdin_file.empty() ? "" : " < " + stdin_file);
  const int status = std::system(cmd.c_str());
  Run r;
  r.exit_code = WEXITSTATUS(status);
  r.out = testing::ReadFile(dir + "/out");
  r.err = testing::ReadFile(dir + "/err");
  return r;
}

TEST_CASE("per-task H, the pooled curve and H_job weighted by task time") {
  std::istringstream in(StepCsv({{"a", 1.0}, {"b", 3.0}}));
  HIndexRequest request;
  request.file = "-";
  request.input = &in;
  Result<HIndexAnswer> r = AnswerHIndex(request);
  REQUIRE(r.ok());
  const HIndexAnswer& a = r.value();
  CHECK(a.file == "<stdin>");
  CHECK(a.format == "bucket-csv");
  REQUIRE(a.tasks.size() == 2);
  CHECK(a.tasks[0].task_seconds == doctest::Approx(290));
  CHECK(a.tasks[1].task_seconds == doctest::Approx(870));
  CHECK(a.tasks[1].weight == doctest::Approx(0.75));
  // Both tasks have the same shape, so the same H; H_job is that H.
  CHECK(a.tasks[0].result.h_index == doctest::Approx(a.tasks[1].result.h_index));
  CHECK(*a.h_job == doctest::Approx(a.tasks[0].result.h_index));
  CHECK(a.pooled.n == 200);
}

TEST_CASE("a task with too few buckets is named with its first line") {
  std::istringstream in("task_id,bucket,seconds\nshort,0,1\nshort,1,2\n");
  HIndexRequest request;
  request.file = "-";
  request.input = &in;
  CHECK(AnswerHIndex(request).status().message() ==
        "<stdin>: task 'short' (line 2): need at least 2ω + 2 = 22 values (ω = 10); got 2");
}

TEST_CASE("a missing file is NotFound") {
  HIndexRequest request;
  request.file = "/nonexistent/buckets.csv";
  Result<HIndexAnswer> r = AnswerHIndex(request);
  CHECK(r.status().code() == StatusCode::kNotFound);
  CHECK(r.status().message() ==
        "/nonexistent/buckets.csv: cannot open (No such file or directory)");
}

TEST_CASE("the JSON document has the DESIGN §6 keys at the top level") {
  std::istringstream in(StepCsv({{"a", 1.0}}));
  HIndexRequest request;
  request.file = "-";
  request.input = &in;
  const nlohmann::json j = nlohmann::json::parse(ToJson(AnswerHIndex(request).value()));
  for (const char* key : {"n", "gini", "change_point", "change_point_fraction", "area_l",
                          "area_lstar", "h_index", "efficiency", "speedup"}) {
    CAPTURE(key);
    CHECK(j.contains(key));
    CHECK(j[key].is_number());
  }
  CHECK(j["change_point"] == 90);
  // The Hill tail index is spelled flat, as in stragglers and export (planner/hindex/hindex_fields.h).
  for (const char* key : {"hill_alpha", "hill_k", "hill_rule", "hill_note", "sse", "total"}) {
    CAPTURE(key);
    CHECK(j.contains(key));
    CHECK(j["tasks"][0].contains(key));
  }
  CHECK_FALSE(j.contains("hill"));
  CHECK(j["tasks"].size() == 1);
  CHECK(j["tasks"][0]["task_id"] == "a");
  CHECK(j["h_job"].is_number());
}

TEST_CASE("the figure shows L, L*, y = x, the change point and H") {
  std::istringstream in(StepCsv({{"a", 1.0}}));
  HIndexRequest request;
  request.file = "-";
  request.input = &in;
  request.svg = true;
  const std::string svg = AnswerHIndex(request).value().svg;
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(svg.find("L*: ideal (no overhead)") != std::string::npos);
  CHECK(svg.find("y = x: oracle") != std::string::npos);
  CHECK(svg.find("change point 0.900") != std::string::npos);
  CHECK(svg.find("m̂ = 90 of 100") != std::string::npos);
  CHECK(svg.find("fraction of values, m/n") != std::string::npos);
  CHECK(svg.find("nan") == std::string::npos);
}

TEST_CASE("simulate answers carry the canonical mixture and the seed") {
  SimulateHIndexRequest request;
  request.mixture = "0.9 * pareto(4, 0.1) + 0.1 * pareto(1.7, 1)";
  request.seed = 3;
  request.options.reps = 10;
  Result<SimulateHIndexAnswer> r = AnswerSimulateHIndex(request);
  REQUIRE(r.ok());
  const nlohmann::json j = nlohmann::json::parse(ToJson(r.value()));
  for (const char* key : {"true_h_index", "mean_change_point", "mean_h_index", "median_h_index"}) {
    CAPTURE(key);
    CHECK(j[key].is_number());
  }
  CHECK(j["mixture"] == "0.9*pareto(4,0.1)+0.1*pareto(1.7,1)");
  CHECK(j["seed"] == 3);
  request.mixture = "0.9*pareto(4,0.1)+0.1*pareto(1.7;1)";
  CHECK(AnswerSimulateHIndex(request).status().message() ==
        "--mixture: column 33: expected ',' after pareto alpha, found ';1'");
}

TEST_CASE("perfplan hindex reads a file and stdin and prints JSON") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/b.csv", StepCsv({{"a", 1.0}, {"b", 2.0}}));
  Run r = RunPerfplan("hindex " + dir + "/b.csv --json --svg " + dir + "/f.svg");
  CHECK(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["n"] == 200);
  CHECK(j["tasks"].size() == 2);
  CHECK(testing::ReadFile(dir + "/f.svg").find("</svg>") != std::string::npos);

  std::string column;
  for (int i = 0; i < 100; ++i) column += i < 90 ? "1\n" : "20\n";
  testing::WriteFile(dir + "/col.txt", column);
  r = RunPerfplan("hindex - --degree 2 --omega 12", dir + "/col.txt");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("<stdin>: one column of values") != std::string::npos);
  CHECK(r.out.find("degree 2, ω = 12") != std::string::npos);
}

TEST_CASE("perfplan hindex exits 2 with file:line:field for a bad cell") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/bad.csv", "task_id,bucket,seconds\nt,0,1\nt,1,x\n");
  const Run r = RunPerfplan("hindex " + dir + "/bad.csv");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "perfplan hindex: error: " + dir +
                     "/bad.csv:3: seconds: 'x' is not a number; expected seconds ≥ 0\n");
  CHECK(r.out.empty());
}

TEST_CASE("perfplan simulate hindex prints the DESIGN §6 keys") {
  const Run r = RunPerfplan(
      "simulate hindex --mixture \"0.9*pareto(4,0.1)+0.1*pareto(1.7,1)\" --n 1000 --reps 50 "
      "--seed 11 --json");
  CHECK(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["true_h_index"].get<double>() == doctest::Approx(0.5797).epsilon(0.001));
  CHECK(j["reps"] == 50);
  CHECK(j["degree"] == 1);
  const Run bad = RunPerfplan("simulate hindex --mixture \"0.9*pareto(4,0.1)\" --seed 1");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err ==
        "perfplan simulate hindex: error: --mixture: weights sum to 0.9; they must sum to 1\n");
}

// The checked-in examples run through the real CLI and match their expectations. Values are
// compared to 1e-9 relative: the same formulas, but libm may differ in the last bits elsewhere.
constexpr double kExampleTolerance = 1e-9;

void CheckSame(const nlohmann::json& expected, const nlohmann::json& actual,
               const std::string& at) {
  for (const auto& [key, value] : expected.items()) {
    const std::string where = at + "." + key;
    CAPTURE(where);
    REQUIRE(actual.contains(key));
    if (value.is_array()) {
      REQUIRE(actual[key].size() == value.size());
      for (std::size_t i = 0; i < value.size(); ++i) {
        CheckSame(value[i], actual[key][i], where + "[" + std::to_string(i) + "]");
      }
    } else if (value.is_number_float()) {
      CHECK(actual[key].get<double>() ==
            doctest::Approx(value.get<double>()).epsilon(kExampleTolerance));
    } else {
      CHECK(actual[key] == value);
    }
  }
}

TEST_CASE("the examples in examples/hindex reproduce their expected answers") {
  for (const char* stem : {"buckets", "stage_tasks"}) {
    CAPTURE(stem);
    const nlohmann::json spec = nlohmann::json::parse(
        testing::ReadFile(testing::SourceDir() + "/examples/hindex/" + stem + ".expected.json"));
    std::string command = spec["command"];
    REQUIRE(command.rfind("perfplan ", 0) == 0);
    command = command.substr(9);
    const std::string examples = "examples/hindex/";
    command.replace(command.find(examples), examples.size(), testing::SourceDir() + "/" + examples);
    const Run r = RunPerfplan(command);
    REQUIRE(r.exit_code == 0);
    CheckSame(spec["expected"], nlohmann::json::parse(r.out), stem);
  }
}

}  // namespace
}  // namespace perfplan::planner
