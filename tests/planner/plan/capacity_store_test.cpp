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
    auto store = profiles::Store::Open(db, {profiles::mapreduce::StoreMigrations()});
    REQUIRE(store.ok());
    auto ingested =
        profiles::mapreduce::IngestMapReduce(*store.value(), {dir + "/a.log", dir + "/b.log"});
    REQUIRE(ingested.ok());
    REQUIRE(ingested.value().jobs == 2);
  }
  testing::WriteFile(dir + "/app-cap", testing::SyntheticEventLog("app-cap", 2, 10));
  {
    auto store = profiles::Store::Open(db, ScoringMigrations());
    REQUIRE(store.ok());
    REQUIRE(profiles::spark::IngestEventLogs(*store.value(), {dir + "/app-cap"}).ok());
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

TEST_CASE("capacity --store errors: no store, an empty store, two sources of jobs") {
  const std::string dir = testing::MakeTempDir();
  std::vector<std::string> warnings;
  Result<profiles::SwimTrace> none = StoreJobs(dir + "/no.db", &warnings);
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().code() == StatusCode::kNotFound);
  {
    auto store = profiles::Store::Open(dir + "/empty.db", {profiles::mapreduce::StoreMigrations()});
    REQUIRE(store.ok());
  }
  Result<profiles::SwimTrace> empty = StoreJobs(dir + "/empty.db", &warnings);
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.status().field() == "store");
  CHECK(empty.status().message() ==
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
