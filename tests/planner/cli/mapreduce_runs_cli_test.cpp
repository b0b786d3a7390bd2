// End-to-end: ingested MapReduce jobs feed the models (issue 19, deliver item 3) and the
// straggler answers (item 2): `tune … --store`, `score JOB`, `export --what runs` read back by
// `fit` and `backtest`, `export --what stragglers JOB`, and the report's MapReduce section.
// The jobs are written from the .jhist format (tests/support/mapreduce_jobs.h).
#include <doctest/doctest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "profiles/runtime/runs_csv.h"
#include "tests/support/fast_tune.h"
#include "tests/support/mapreduce_jobs.h"
#include "tests/support/score_json.h"
#include "tests/support/test_support.h"

namespace perfplan {
namespace {

using testing::CliRun;
using testing::kFastTune;
using testing::RunPerfplan;

// 8 runs of one wordcount: more reduces → a shorter job; io.sort.mb varies too. Job 8 has 30
// maps with one straggler, so its map phase has a change point.
std::string IngestedJobs(const std::string& dir) {
  const std::string logs = dir + "/history";
  std::filesystem::create_directories(logs);
  const int reduces[] = {1, 2, 4, 8, 2, 4, 1, 8};
  const int sort_mb[] = {100, 200, 100, 50, 100, 200, 100, 50};
  for (int i = 0; i < 8; ++i) {
    testing::SyntheticJob job;
    job.job_id = "job_1500000000000_000" + std::to_string(i + 1);
    job.submit_ms = 1500000000000 + 3600000LL * i;
    job.reduces = reduces[i];
    job.runtime_ms = 20000 + 80000 / reduces[i] + 10 * sort_mb[i];
    job.totals = {
        {"org.apache.hadoop.mapreduce.FileSystemCounter", {"HDFS_BYTES_READ", 1000000 * (i + 1)}},
        {"org.apache.hadoop.mapreduce.TaskCounter", {"CPU_MILLISECONDS", 20000 + 1000 * i}},
        {"org.apache.hadoop.mapreduce.TaskCounter", {"GC_TIME_MILLIS", 500}},
        {"org.apache.hadoop.mapreduce.TaskCounter", {"SPILLED_RECORDS", 1000 * sort_mb[i]}},
        {"org.apache.hadoop.mapreduce.TaskCounter", {"REDUCE_SHUFFLE_BYTES", 4096 * reduces[i]}}};
    if (i == 7) {
      job.maps = 30;
      for (int m = 0; m < 30; ++m) job.map_durations_ms.push_back(m == 29 ? 60000 : 4000 + 50 * m);
    }
    testing::WriteFile(logs + "/" + job.job_id + "-1-u-wordcount-2-1-SUCCEEDED-default.jhist",
                       testing::SyntheticJhistText(job));
    testing::WriteFile(logs + "/" + job.job_id + "_conf.xml",
                       testing::SyntheticConfXml(
                           {{"mapreduce.job.reduces", std::to_string(reduces[i])},
                            {"mapreduce.task.io.sort.mb", std::to_string(sort_mb[i])},
                            {"mapreduce.map.memory.mb", "1024"},
                            {"mapreduce.job.dir", "/tmp/staging/" + job.job_id},
                            {"yarn.nodemanager.resource.memory-mb", "4096"},
                            {"yarn.nodemanager.resource.cpu-vcores", "4"}}));
  }
  const CliRun ingest = RunPerfplan("ingest mapreduce '" + logs + "' --store '" + dir + "/mr.db'");
  REQUIRE(ingest.exit_code == 0);
  return dir + "/mr.db";
}

TEST_CASE("tune --store learns from the MapReduce jobs: conf.xml parameters, counter metrics") {
  const std::string dir = testing::MakeTempDir();
  const std::string db = IngestedJobs(dir);
  const CliRun cv =
      RunPerfplan("tune cv --store '" + db + "' --target total_time_seconds" + kFastTune);
  REQUIRE_MESSAGE(cv.exit_code == 0, cv.out);
  const auto j = nlohmann::json::parse(cv.out);
  CHECK(j["runs"] == 8);
  CHECK(j["parameters"] == 2);  // mapreduce.job.reduces, mapreduce.task.io.sort.mb
  CHECK(j["source"] == "store:" + db);
  const CliRun some =
      RunPerfplan("tune cv --store '" + db +
                  "' --apps job_1500000000000_0001,"
                  "job_1500000000000_0002,job_1500000000000_0003,job_1500000000000_0004,"
                  "job_1500000000000_0005 --target cpu_seconds" +
                  kFastTune);
  REQUIRE_MESSAGE(some.exit_code == 0, some.out);
  CHECK(nlohmann::json::parse(some.out)["runs"] == 5);
  const CliRun unknown =
      RunPerfplan("tune cv --store '" + db +
                  "' --apps job_1500000000000_0009 --target cpu_seconds" + kFastTune);
  INFO(unknown.out);
  CHECK(unknown.exit_code == 2);
  CHECK(nlohmann::json::parse(unknown.out)["message"] ==
        "--apps: job job_1500000000000_0009 not in the store " + db);
  // Two jobs with the same settings: nothing varies, and the message says what would help.
  const CliRun same = RunPerfplan("tune cv --store '" + db +
                                  "' --apps job_1500000000000_0001,job_1500000000000_0007 "
                                  "--target cpu_seconds --folds 2 --json", "2>&1");
  INFO(same.out);
  CHECK(same.exit_code == 2);
  CHECK(same.out.find("nothing to tune cpu_seconds on: no conf.xml property is set in every one "
                      "of the 2 job(s) with different values") != std::string::npos);
}

TEST_CASE("score JOB: γ from the counters, compared with the other jobs of its name") {
  const std::string dir = testing::MakeTempDir();
  const std::string db = IngestedJobs(dir);
  const CliRun s = RunPerfplan("score job_1500000000000_0003 --store '" + db + "' --json");
  REQUIRE_MESSAGE(s.exit_code == 0, s.out);
  const auto j = nlohmann::json::parse(s.out);
  CHECK(j["app_id"] == "job_1500000000000_0003");
  CHECK(j["comparable_runs"] == 7);
  CHECK(j["comparison"].get<std::string>().find("wordcount") != std::string::npos);
  bool gc = false;
  for (const auto& d : j["dimensions"]) {
    if (d["name"] != "gc_time_share") continue;
    gc = true;
    // GC_TIME_MILLIS 500 over Σ attempt time: 4 maps × 5 s + 4 reduces × 9 s = 56 s.
    CHECK(d["value"].get<double>() == doctest::Approx(0.5 / 56));
  }
  CHECK(gc);
  const CliRun missing = RunPerfplan("score job_1500000000000_0042 --store '" + db + "' --json");
  INFO(missing.out);
  CHECK(missing.exit_code != 0);
  CHECK(nlohmann::json::parse(missing.out)["message"].get<std::string>().rfind(
            "no MapReduce job job_1500000000000_0042 in the store", 0) == 0);
}

TEST_CASE("scores lists the MapReduce jobs, kind mapreduce, each as score JOB scores it") {
  const std::string dir = testing::MakeTempDir();
  const std::string db = IngestedJobs(dir);
  const CliRun text = RunPerfplan("scores --store '" + db + "' --sort app");
  REQUIRE_MESSAGE(text.exit_code == 0, text.out);
  CHECK(text.out.rfind("application", 0) == 0);
  CHECK(text.out.find("kind") != std::string::npos);
  std::size_t rows = 0;
  for (std::size_t p = text.out.find("job_1500000000000_000"); p != std::string::npos;
       p = text.out.find("job_1500000000000_000", p + 1)) {
    const std::string line = text.out.substr(p, text.out.find('\n', p) - p);
    CHECK_MESSAGE(line.find("  mapreduce  ") != std::string::npos, line);
    ++rows;
  }
  CHECK(rows == 8);
  const CliRun json = RunPerfplan("scores --store '" + db + "' --sort app --json");
  REQUIRE(json.exit_code == 0);
  const auto all = nlohmann::json::parse(json.out)["applications"];
  REQUIRE(all.size() == 8);
  for (const auto& a : all) CHECK(a["kind"] == "mapreduce");  // the JSON says what the text says
  const CliRun one = RunPerfplan("score job_1500000000000_0003 --store '" + db + "' --json");
  REQUIRE(one.exit_code == 0);
  CHECK(all[2]["app_id"] == "job_1500000000000_0003");
  CHECK(all[2]["score"] == nlohmann::json::parse(one.out)["score"]);
}

TEST_CASE("tune sensitivity --store without --target: the latest job's worst dimension") {
  const std::string dir = testing::MakeTempDir();
  const std::string db = IngestedJobs(dir);
  const CliRun sens = RunPerfplan("tune sensitivity --store '" + db + "'" + kFastTune);
  REQUIRE_MESSAGE(sens.exit_code == 0, sens.out);
  const auto j = nlohmann::json::parse(sens.out);
  const std::string note = j["warnings"][0];
  const std::string head = "target " + j["target"].get<std::string>() +
                           ": the worst-scoring dimension of job_1500000000000_0008 is ";
  REQUIRE_MESSAGE(note.rfind(head, 0) == 0, note);
  const std::string dimension = note.substr(head.size(), note.find(" (score ") - head.size());
  // The first scored dimension of `score` (worst first) that a job metric stands for.
  const CliRun score = RunPerfplan("score job_1500000000000_0008 --store '" + db + "' --json");
  REQUIRE(score.exit_code == 0);
  const auto sj = nlohmann::json::parse(score.out);
  const std::map<std::string, std::string> metric = {{"shuffle_time_share", "shuffle_seconds"},
                                                     {"shuffle_bytes", "shuffle_bytes"},
                                                     {"gc_time_share", "gc_time_seconds"},
                                                     {"total_time_seconds", "total_time_seconds"}};
  const std::string expected = testing::FirstScoredDimension(sj, metric);
  REQUIRE(!expected.empty());
  CHECK(dimension == expected);
  CHECK(j["target"] == metric.at(expected));
}

TEST_CASE("export --what runs is a runs CSV that fit and backtest read") {
  const std::string dir = testing::MakeTempDir();
  const std::string db = IngestedJobs(dir);
  const std::string csv = dir + "/runs.csv";
  const CliRun e = RunPerfplan("export --what runs --store '" + db + "' --out '" + csv + "'");
  REQUIRE(e.exit_code == 0);
  auto parsed = profiles::LoadRunsCsv(csv);
  REQUIRE(parsed.ok());
  REQUIRE(parsed.value.runs.size() == 8);
  const models::MeasuredRun& first = parsed.value.runs[0];
  CHECK(first.workload == "wordcount");
  CHECK(first.dataset_bytes == 1000000);
  CHECK(first.runtime_seconds == doctest::Approx(101));  // 20 + 80 + 1 s
  CHECK(first.compute_nodes == 3);
  CHECK(first.vcpus == 4);
  CHECK(parsed.value.columns.back() == "memory_bytes");
  const CliRun fit = RunPerfplan("fit --runs '" + csv + "' --workload wordcount --json");
  CHECK_MESSAGE(fit.exit_code == 0, fit.out);
  const CliRun bt = RunPerfplan("backtest --runs '" + csv +
                                "' --workload wordcount --time-column submit_time_seconds "
                                "--min-history 3 --json");
  CHECK_MESSAGE(bt.exit_code == 0, bt.out);
}

TEST_CASE("export --what stragglers JOB and the report's Lorenz charts for MapReduce jobs") {
  const std::string dir = testing::MakeTempDir();
  const std::string db = IngestedJobs(dir);
  const CliRun e = RunPerfplan("export --what stragglers job_1500000000000_0008 --store '" + db +
                               "' --format json");
  REQUIRE_MESSAGE(e.exit_code == 0, e.out);
  const auto j = nlohmann::json::parse(e.out);
  CHECK(j["what"] == "stragglers");
  const auto& columns = j["columns"];
  CHECK(columns[0] == "job");
  CHECK(columns[1] == "phase");
  CHECK(columns[2] == "tasks");
  const auto& rows = j["rows"];
  REQUIRE(rows.size() == 5);
  CHECK(rows[0]["phase"] == "map");
  CHECK(rows[0]["tasks"] == 30);
  CHECK(rows[0]["included"] == "true");
  CHECK(rows[1]["phase"] == "reduce");
  CHECK(rows[1]["included"] == "false");  // 8 reduces < 2ω + 2
  CHECK(rows[4]["phase"] == "reduce.reduce");
  CHECK(rows[0]["h_job"] == rows[0]["h_index"]);  // only the map phase enters H_job

  const std::string html = dir + "/r.html";
  const CliRun r = RunPerfplan("report --store '" + db + "' --out '" + html + "' --json");
  REQUIRE_MESSAGE(r.exit_code == 0, r.out);
  const std::string page = testing::ReadFile(html);
  CHECK(page.find("<section id=\"mapreduce-stragglers\">") != std::string::npos);
  CHECK(page.find("job_1500000000000_0008 map phase: 30 attempts") != std::string::npos);
  // The small phases are warnings, never figures.
  CHECK(page.find("job_1500000000000_0001 map phase: 4 attempts") == std::string::npos);
  const CliRun one = RunPerfplan("report --store '" + db + "' --app job_1500000000000_0008 --out '" +
                                 html + "' --json");
  REQUIRE_MESSAGE(one.exit_code == 0, one.out);
  CHECK(testing::ReadFile(html).find("job_1500000000000_0001") == std::string::npos);
}

}  // namespace
}  // namespace perfplan
