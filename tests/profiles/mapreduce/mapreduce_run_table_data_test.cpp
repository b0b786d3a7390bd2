// The real Hadoop 2.x histories of ../shared/data as runs (profiles/mapreduce/mapreduce_run_table):
// every metric equals what a reader written here from the .jhist format finds — submit and finish
// times, JobFinished's totalCounters, Σ successful attempt time — and the configuration is the
// conf.xml beside the history. Skipped when the data is absent.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "profiles/mapreduce/mapreduce_ingest.h"
#include "profiles/mapreduce/mapreduce_run_table.h"
#include "profiles/mapreduce/mapreduce_store.h"
#include "tests/support/test_support.h"

PERFPLAN_REQUIRE_SHARED_DATA();

namespace perfplan::profiles::mapreduce {
namespace {

std::string HistoryDir() {
  return testing::SharedDataDir() + "/04-workload-runtime-traces/hadoop-jobhistory";
}

// What the test's own reader finds in one .jhist.
struct Expected {
  std::string job_id;
  std::int64_t submit = 0, finish = 0;
  std::map<std::string, std::int64_t> totals;  // counter name → value (JobFinished)
  double attempt_seconds = 0;                  // Σ successful attempt durations
};

Expected ReadExpected(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // Avro-Json
  std::getline(in, line);  // schema
  Expected e;
  std::map<std::string, std::int64_t> starts;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const nlohmann::json j = nlohmann::json::parse(line);
    const std::string type = j["type"];
    const nlohmann::json& body = j["event"].begin().value();
    if (type == "JOB_SUBMITTED") {
      e.job_id = body["jobid"];
      e.submit = body["submitTime"];
    } else if (type == "JOB_FINISHED") {
      e.finish = body["finishTime"];
      const nlohmann::json& groups = body["totalCounters"]["groups"];
      for (const auto& g : groups) {
        for (const auto& c : g["counts"]) e.totals[c["name"]] += c["value"].get<std::int64_t>();
      }
    } else if (type.size() > 16 && type.substr(type.size() - 16) == "_ATTEMPT_STARTED") {
      starts[body["attemptId"]] = body["startTime"];
    } else if (type.size() > 17 && type.substr(type.size() - 17) == "_ATTEMPT_FINISHED" &&
               body["taskStatus"] == "SUCCEEDED") {
      e.attempt_seconds +=
          (body["finishTime"].get<std::int64_t>() - starts.at(body["attemptId"])) / 1000.0;
    }
  }
  return e;
}

TEST_CASE("the shared .jhist jobs as runs: times, counters and attempt time as the file says") {
  const std::string dir = testing::MakeTempDir();
  auto store = Store::Open(dir + "/s.db", {StoreMigrations()});
  REQUIRE(store.ok());
  auto ingested = IngestMapReduce(*store.value(), {HistoryDir()});
  REQUIRE(ingested.ok());
  auto runs = LoadJobRuns(*store.value(), {});
  REQUIRE(runs.ok());
  std::size_t checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(HistoryDir())) {
    if (entry.path().extension() != ".jhist") continue;
    const Expected e = ReadExpected(entry.path().string());
    const JobRun* run = nullptr;
    for (const JobRun& r : runs.value()) {
      if (r.job_id == e.job_id) run = &r;
    }
    INFO(entry.path().string());
    REQUIRE(run != nullptr);
    REQUIRE(run->total_seconds.has_value());
    CHECK(*run->total_seconds == doctest::Approx((e.finish - e.submit) / 1000.0));
    CHECK(run->cpu_seconds.value_or(-1) ==
          doctest::Approx(e.totals.at("CPU_MILLISECONDS") / 1000.0));
    if (e.totals.count("GC_TIME_MILLIS")) {
      CHECK(run->gc_seconds.value_or(-1) == doctest::Approx(e.totals.at("GC_TIME_MILLIS") / 1000.0));
    }
    CHECK(run->spilled_records.value_or(-1) == doctest::Approx(e.totals.at("SPILLED_RECORDS")));
    if (e.totals.count("REDUCE_SHUFFLE_BYTES")) {
      CHECK(run->shuffle_bytes.value_or(-1) == doctest::Approx(e.totals.at("REDUCE_SHUFFLE_BYTES")));
    } else {
      CHECK_FALSE(run->shuffle_bytes.has_value());  // a map-only job (TeraGen)
    }
    CHECK(run->input_bytes.value_or(-1) == doctest::Approx(e.totals.at("HDFS_BYTES_READ")));
    CHECK(run->task_seconds == doctest::Approx(e.attempt_seconds));
    CHECK_FALSE(run->counters_from_attempts);
    ++checked;
  }
  CHECK(checked == 3);

  // The Sleep job's conf.xml: its map memory as Hadoop writes it (MiB, no unit suffix).
  const std::string conf = testing::ReadFile(HistoryDir() + "/job_1329348432655_0001_conf.xml");
  std::smatch m;
  REQUIRE(std::regex_search(
      conf, m, std::regex("<name>mapreduce.map.memory.mb</name><value>([^<]*)</value>")));
  bool found = false;
  for (const JobRun& r : runs.value()) {
    if (r.job_id != "job_1329348432655_0001") continue;
    for (const auto& [name, value] : r.conf) {
      if (name == "mapreduce.map.memory.mb") found = value == m[1].str();
    }
  }
  CHECK(found);

  // The runs CSV rows: one per job (the 0.20 and Rumen jobs are in other folders).
  const JobRunsCsv csv = ToRunsCsvRows(runs.value());
  CHECK(csv.rows.size() == runs.value().size());
}

}  // namespace
}  // namespace perfplan::profiles::mapreduce
