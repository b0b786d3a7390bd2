// Specification of `perfplan capacity --store DB` (planner/plan/capacity_store.h): the store's
// MapReduce jobs (submit time, total HDFS_BYTES_READ) and Spark applications (start time, input
// bytes read) become the arrivals, and the capacity answer over them is exactly the answer over a
// SWIM trace holding the same arrivals.
#include "planner/plan/capacity_store.h"

#include <doctest/doctest.h>

#include <cstdio>

#include "planner/plan/capacity.h"
#include "planner/scoring/spark_scoring.h"
#include "profiles/mapreduce/mapreduce_ingest.h"
#include "profiles/mapreduce/mapreduce_store.h"
#include "profiles/spark/spark_ingest.h"
#include "tests/support/result_checks.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

// A Hadoop 1.x JobHistory file of one job submitted at `submit_ms` that read `bytes` from HDFS.
std::string History1(const std::string& job, long long submit_ms, long long bytes) {
  return "Meta VERSION=\"1\" .\n"
         "Job JOBID=\"" + job + "\" JOBNAME=\"sort\" USER=\"bo\" SUBMIT_TIME=\"" +
         std::to_string(submit_ms) + "\" JOBCONF=\"hdfs://nn/job\\.xml\" JOB_QUEUE=\"default\" .\n"
         "Job JOBID=\"" + job + "\" LAUNCH_TIME=\"" + std::to_string(submit_ms + 1000) +
         "\" TOTAL_MAPS=\"1\" TOTAL_REDUCES=\"0\" JOB_STATUS=\"PREP\" .\n"
         "Job JOBID=\"" + job + "\" FINISH_TIME=\"" + std::to_string(submit_ms + 9000) +
         "\" JOB_STATUS=\"SUCCESS\" FINISHED_MAPS=\"1\" FINISHED_REDUCES=\"0\" FAILED_MAPS=\"0\" "
         "FAILED_REDUCES=\"0\" COUNTERS=\"{(FileSystemCounters)(FileSystemCounters)"
         "[(HDFS_BYTES_READ)(HDFS_BYTES_READ)(" + std::to_string(bytes) + ")]}\" .\n";
}

std::string TraceOf(const profiles::SwimTrace& t) {
  std::string tsv;
  for (const profiles::SwimJob& j : t.jobs) {
    char line[256];
    std::snprintf(line, sizeof line, "%s\t%.17g\t%.17g\t%.17g\t0\t0\n", j.id.c_str(),
                  j.submit_seconds, j.gap_seconds, j.map_input_bytes);
    tsv += line;
  }
  return tsv;
}

TEST_CASE("the store's jobs and applications are the arrivals, in submit order") {
  const std::string dir = testing::MakeTempDir();
  const std::string db = dir + "/s.db";
  // Two MapReduce jobs, 10 min apart, 2 GB and 512 MB read; one Spark application between.
  testing::WriteFile(dir + "/a.log", History1("job_201301010000_0001", 1357000000000, 2000000000));
  testing::WriteFile(dir + "/b.log", History1("job_201301010000_0002", 1357000600000, 536870912));
  {
    const auto store =
        testing::ValueOf(profiles::Store::Open(db, {profiles::mapreduce::StoreMigrations()}));
    auto ingested = profiles::mapreduce::IngestMapReduce(*store, {dir + "/a.log", dir + "/b.log"});
    REQUIRE(ingested.ok());
    REQUIRE(ingested.value().jobs == 2);
  }
  testing::WriteFile(dir + "/app-cap", testing::SyntheticEventLog("app-cap", 2, 10));
  {
    const auto store = testing::ValueOf(profiles::Store::Open(db, ScoringMigrations()));
    REQUIRE(profiles::spark::IngestEventLogs(*store, {dir + "/app-cap"}).ok());
  }
  std::vector<std::string> warnings;
  Result<profiles::SwimTrace> jobs = StoreJobs(db, &warnings);
  REQUIRE(jobs.ok());
  CHECK(warnings.empty());
  REQUIRE(jobs.value().jobs.size() == 3);
  const auto& j = jobs.value().jobs;
  // The synthetic Spark log starts at 1700000000000 ms (2023), after both 2013 jobs.
  CHECK(j[0].id == "job_201301010000_0001");
  CHECK(j[0].submit_seconds == 0);
  CHECK(j[0].map_input_bytes == 2000000000);
  CHECK(j[1].id == "job_201301010000_0002");
  CHECK(j[1].submit_seconds == 600);
  CHECK(j[1].gap_seconds == 600);
  CHECK(j[1].map_input_bytes == 536870912);
  CHECK(j[2].id == "app-cap");
  CHECK(j[2].submit_seconds > 600);

  // Capacity over the store = capacity over a SWIM trace of the same arrivals.
  testing::WriteFile(dir + "/same.tsv", TraceOf(jobs.value()));
  CapacityRequest by_store;
  by_store.store_path = db;
  by_store.window.hours = 0;  // every job: the 2013 jobs and the 2023 application
  by_store.profile_file = testing::SourceDir() + "/examples/profiles/kmeans.yaml";
  by_store.cluster_nodes = {1, 4, 16};
  CapacityRequest by_trace = by_store;
  by_trace.store_path.clear();
  by_trace.trace_file = dir + "/same.tsv";
  Result<CapacityAnswer> a = AnswerCapacity(by_store);
  Result<CapacityAnswer> b = AnswerCapacity(by_trace);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a.value().jobs == 3);
  CHECK(a.value().map_input_bytes == b.value().map_input_bytes);
  REQUIRE(a.value().rows.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(a.value().rows[i].replay.makespan_seconds == b.value().rows[i].replay.makespan_seconds);
    CHECK(a.value().rows[i].replay.mean_queue_seconds ==
          b.value().rows[i].replay.mean_queue_seconds);
    CHECK(a.value().rows[i].replay.utilisation == b.value().rows[i].replay.utilisation);
  }
}

// A store of MapReduce jobs submitted at `submit_ms` (1 GB read each).
std::string StoreOf(const std::string& dir, const std::vector<long long>& submit_ms) {
  std::vector<std::string> files;
  for (std::size_t i = 0; i < submit_ms.size(); ++i) {
    char id[64];
    std::snprintf(id, sizeof id, "job_201301010000_%04zu", i + 1);
    files.push_back(dir + "/" + id + ".log");
    testing::WriteFile(files.back(), History1(id, submit_ms[i], 1000000000));
  }
  const std::string db = dir + "/w.db";
  const auto store =
      testing::ValueOf(profiles::Store::Open(db, {profiles::mapreduce::StoreMigrations()}));
  REQUIRE(profiles::mapreduce::IngestMapReduce(*store, files).ok());
  return db;
}

std::vector<std::string> Ids(const WindowedJobs& w) {
  std::vector<std::string> ids;
  for (const profiles::SwimJob& j : w.trace.jobs) ids.push_back(j.id.substr(17));
  return ids;
}

TEST_CASE("the default window is the busiest 24 h; --from, --to and --window-hours bound it") {
  const std::string dir = testing::MakeTempDir();
  constexpr long long kHour = 3600000, t0 = 1357000000000;
  // One job years earlier, three within 20 h, one 30 h after the first of them.
  const std::string db =
      StoreOf(dir, {t0 - 40000 * kHour, t0, t0 + 10 * kHour, t0 + 20 * kHour, t0 + 30 * kHour});
  std::vector<std::string> warnings;
  const WindowedJobs busiest = testing::ValueOf(StoreJobs(db, CapacityWindow{}, &warnings));
  CHECK(busiest.stored_jobs == 5);
  CHECK(Ids(busiest) == std::vector<std::string>{"0002", "0003", "0004"});
  CHECK(busiest.from_ms == t0);
  CHECK(busiest.to_ms == t0 + 24 * kHour);
  CHECK(busiest.chosen_by == "busiest 24 h of the 40030 h the stored jobs span");
  // Submit times count from the window's first job.
  CHECK(busiest.trace.jobs[0].submit_seconds == 0);
  CHECK(busiest.trace.jobs[2].submit_seconds == 20 * 3600);

  CapacityWindow from;
  from.from_ms = t0 + 10 * kHour;
  const WindowedJobs a = testing::ValueOf(StoreJobs(db, from, &warnings));
  CHECK(Ids(a) == std::vector<std::string>{"0003", "0004", "0005"});  // [t0+10h, t0+34h)
  CHECK(a.chosen_by == "given start");
  CapacityWindow to;
  to.to_ms = t0 + 20 * kHour;
  to.hours = 48;
  const WindowedJobs b = testing::ValueOf(StoreJobs(db, to, &warnings));
  CHECK(Ids(b) == std::vector<std::string>{"0002", "0003"});  // [t0−28h, t0+20h)
  CapacityWindow both;
  both.from_ms = t0 - 40000 * kHour;
  both.to_ms = t0 + 1;
  const WindowedJobs c = testing::ValueOf(StoreJobs(db, both, &warnings));
  CHECK(Ids(c) == std::vector<std::string>{"0001", "0002"});
  CapacityWindow every;
  every.hours = 0;
  const WindowedJobs d = testing::ValueOf(StoreJobs(db, every, &warnings));
  CHECK(d.trace.jobs.size() == 5);
  CHECK(d.chosen_by == "every job");

  CapacityWindow empty;
  empty.from_ms = t0 + 100 * kHour;
  const Status none = testing::ErrorOf(StoreJobs(db, empty, &warnings));
  CHECK(none.field() == "window");
  CHECK(none.message() ==
        "window: no job of " + db + " was submitted in [" + std::to_string(t0 + 100 * kHour) +
            ", " + std::to_string(t0 + 124 * kHour) + ") ms; its 5 jobs were submitted from " +
            std::to_string(t0 - 40000 * kHour) + " to " + std::to_string(t0 + 30 * kHour) + " ms");

  // The capacity answer says which window it replayed.
  CapacityRequest request;
  request.store_path = db;
  request.profile_file = testing::SourceDir() + "/examples/profiles/kmeans.yaml";
  request.cluster_nodes = {8};
  const CapacityAnswer answer = testing::ValueOf(AnswerCapacity(request));
  CHECK(answer.jobs == 3);
  CHECK(answer.stored_jobs == 5);
  CHECK(answer.window_from_ms == t0);
  CHECK(answer.trace_span_seconds == 20 * 3600);
  request.window.to_ms = t0;
  request.window.from_ms = t0;
  CHECK(AnswerCapacity(request).status().message() == "to_ms: must be after from_ms");
  request.window = {};
  request.window.hours = -1;
  CHECK(AnswerCapacity(request).status().message() ==
        "window_hours: must be >= 0 (0 = no window)");
  CapacityRequest trace;
  trace.trace_file = dir + "/t.tsv";
  trace.profile_file = "p.yaml";
  trace.cluster_nodes = {4};
  trace.window.from_ms = t0;
  CHECK(trace.Validate().message() ==
        "from_ms: a window applies to the jobs of a store (--store)");
}

TEST_CASE("capacity --store errors: no store, an empty store, two sources of jobs") {
  const std::string dir = testing::MakeTempDir();
  std::vector<std::string> warnings;
  const Status none = testing::ErrorOf(StoreJobs(dir + "/no.db", &warnings));
  CHECK(none.code() == StatusCode::kNotFound);
  {
    REQUIRE(
        profiles::Store::Open(dir + "/empty.db", {profiles::mapreduce::StoreMigrations()}).ok());
  }
  const Status empty = testing::ErrorOf(StoreJobs(dir + "/empty.db", &warnings));
  CHECK(empty.field() == "store");
  CHECK(empty.message() ==
        "store: " + dir +
            "/empty.db: no MapReduce job or Spark application with a submit time; ingest some "
            "first");
  CapacityRequest both;
  both.store_path = dir + "/empty.db";
  both.trace_file = dir + "/t.tsv";
  both.profile_file = "p.yaml";
  both.cluster_nodes = {4};
  CHECK(both.Validate().message() ==
        "trace: give one source of jobs: a SWIM .tsv file or a store of ingested jobs");
}

}  // namespace
}  // namespace perfplan::planner
