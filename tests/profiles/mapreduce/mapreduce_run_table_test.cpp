// MapReduce jobs as runs (profiles/mapreduce/mapreduce_run_table.cpp): the metrics of one job
// from its counters and attempts, the run table's parameters (what varies, what is left out and
// why), and the runs-CSV rows.
#include <doctest/doctest.h>

#include <algorithm>

#include "profiles/mapreduce/mapreduce_run_table.h"
#include "profiles/mapreduce/mapreduce_ingest.h"
#include "profiles/mapreduce/mapreduce_store.h"
#include "tests/support/mapreduce_jobs.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles::mapreduce {
namespace {

Attempt MakeAttempt(const std::string& id, const std::string& type, const std::string& status,
                    const std::string& host, std::int64_t start, std::int64_t finish) {
  Attempt a;
  a.attempt_id = id;
  a.task_id = "task_" + id;
  a.task_type = type;
  a.status = status;
  a.host = host;
  a.start_ms = start;
  a.finish_ms = finish;
  return a;
}

// Line by line, so a difference prints the two lines.
void CheckLines(const std::vector<std::string>& actual, const std::vector<std::string>& expected) {
  for (std::size_t i = 0; i < std::max(actual.size(), expected.size()); ++i) {
    CHECK((i < actual.size() ? actual[i] : "(none)") ==
          (i < expected.size() ? expected[i] : "(none)"));
  }
}

Job TwoPhaseJob() {
  Job job;
  job.job_id = "job_1_0001";
  job.name = "sort";
  job.status = "SUCCEEDED";
  job.submit_ms = 10000;
  job.launch_ms = 11000;
  job.finish_ms = 70500;
  for (const char* type : {"MAP", "MAP", "REDUCE"}) {
    Task& t = job.tasks.emplace_back();
    t.task_id = "task_" + std::to_string(job.tasks.size());
    t.task_type = type;
  }
  job.attempts = {MakeAttempt("m0_0", "MAP", "SUCCEEDED", "a", 12000, 20000),
                  MakeAttempt("m1_0", "MAP", "FAILED", "b", 12000, 13000),
                  MakeAttempt("m1_1", "MAP", "SUCCEEDED", "b", 13000, 19000),
                  MakeAttempt("r0_0", "REDUCE", "SUCCEEDED", "a", 21000, 60000)};
  job.attempts[3].shuffle_finish_ms = 31000;
  job.counters["total"] = {{"org.apache.hadoop.mapreduce.FileSystemCounter", "FILE_BYTES_READ", 7},
                           {"org.apache.hadoop.mapreduce.FileSystemCounter", "HDFS_BYTES_READ", 1000},
                           {"org.apache.hadoop.mapreduce.FileSystemCounter", "S3A_BYTES_READ", 24},
                           {"org.apache.hadoop.mapreduce.TaskCounter", "CPU_MILLISECONDS", 12500},
                           {"org.apache.hadoop.mapreduce.TaskCounter", "GC_TIME_MILLIS", 750},
                           {"org.apache.hadoop.mapreduce.TaskCounter", "SPILLED_RECORDS", 300}};
  job.conf = {{"mapreduce.job.reduces", "1"}, {"mapreduce.task.io.sort.mb", "100"}};
  return job;
}

TEST_CASE("a job's run: time from submit to finish, counters from the totals, attempt time") {
  const JobRun r = ToJobRun(TwoPhaseJob());
  CHECK(r.job_id == "job_1_0001");
  CHECK(r.total_seconds == doctest::Approx(60.5));
  CHECK(r.cpu_seconds == doctest::Approx(12.5));
  CHECK(r.gc_seconds == doctest::Approx(0.75));
  CHECK(r.spilled_records == doctest::Approx(300));
  CHECK_FALSE(r.shuffle_bytes.has_value());  // no REDUCE_SHUFFLE_BYTES: absent, not 0
  CHECK(r.input_bytes == doctest::Approx(1024));  // HDFS + S3A, never FILE_BYTES_READ
  // Successful attempts only: 8 + 6 + 39 s; the reduce's shuffle 10 s.
  CHECK(r.task_seconds == doctest::Approx(53));
  CHECK(r.shuffle_seconds == doctest::Approx(10));
  CHECK(r.maps == 2);
  CHECK(r.reduces == 1);
  CHECK(r.hosts == std::vector<std::string>{"a", "b"});
  CHECK_FALSE(r.counters_from_attempts);
  CHECK(JobSucceeded(r));
}

TEST_CASE("without JobFinished totals the counters are the successful attempts' sum") {
  Job job = TwoPhaseJob();
  job.counters.clear();
  job.submit_ms.reset();  // the launch time starts the job then
  job.attempts[0].counters = {{"TaskCounter", "CPU_MILLISECONDS", 100}};
  job.attempts[1].counters = {{"TaskCounter", "CPU_MILLISECONDS", 5000}};  // FAILED: not counted
  job.attempts[2].counters = {{"TaskCounter", "CPU_MILLISECONDS", 200},
                              {"FileSystemCounters", "HDFS_BYTES_READ", 64}};
  const JobRun r = ToJobRun(job);
  CHECK(r.counters_from_attempts);
  CHECK(r.cpu_seconds == doctest::Approx(0.3));
  CHECK(r.input_bytes == doctest::Approx(64));
  CHECK_FALSE(r.gc_seconds.has_value());
  CHECK(r.total_seconds == doctest::Approx(59.5));
}

TEST_CASE("the run table: varying properties are parameters; the rest are named in notes") {
  std::vector<JobRun> runs;
  for (int i = 0; i < 3; ++i) {
    Job job = TwoPhaseJob();
    job.job_id = "job_1_000" + std::to_string(i + 1);
    job.conf = {{"mapreduce.job.reduces", std::to_string(i + 1)},
                {"mapreduce.task.io.sort.mb", "100"},
                {"mapreduce.job.dir", "/tmp/staging/" + job.job_id},
                {"yarn.app.mapreduce.am.staging-dir", "/tmp/staging"},
                {"mapreduce.job.name", "sort " + std::to_string(i)}};
    if (i == 0) job.conf.emplace_back("mapreduce.map.memory.mb", "2048");
    if (i == 2) job.counters.clear();
    runs.push_back(ToJobRun(job));
  }
  const spark::StoreRunTable t = JobRunTable(runs, "store:x.db");
  CHECK(t.table.source == "store:x.db");
  REQUIRE(t.table.columns.size() == 1 + JobMetricColumns().size());
  CHECK(t.table.columns[0].name == "mapreduce.job.reduces");
  CHECK(t.table.columns[1].name == "total_time_seconds");
  REQUIRE(t.table.rows.size() == 3);
  CHECK(t.table.rows[1].cells[0] == "2");
  CHECK(t.table.rows[1].line == 2);
  CHECK(t.table.rows[0].cells[1] == "60.5");
  // No totals and no attempt counters: the counter metrics are empty cells.
  CHECK(t.table.rows[2].cells[2] == "");
  CheckLines(t.notes, {
                       "store: 3 MapReduce job(s): job_1_0001, job_1_0002, job_1_0003",
                       "store: 1 job(s) have no JobFinished counters; their counters are the sum "
                       "over their successful attempts",
                       "store: properties with the same value in every job are not parameters: "
                       "mapreduce.task.io.sort.mb",
                       "store: properties missing in some jobs are not parameters (ingest each "
                       "job's conf.xml): mapreduce.map.memory.mb",
                       "store: identity properties are not parameters: mapreduce.job.dir, "
                       "yarn.app.mapreduce.am.staging-dir, mapreduce.job.name"});
}

TEST_CASE("a note names the first 20 properties of its kind and counts the rest") {
  std::vector<JobRun> runs(2, ToJobRun(TwoPhaseJob()));
  runs[1].job_id = "job_1_0002";
  runs[0].conf.clear();
  runs[1].conf.clear();
  for (int i = 0; i < 25; ++i) runs[0].conf.emplace_back("p" + std::to_string(i), "1");
  const spark::StoreRunTable t = JobRunTable(runs, "store:x.db");
  REQUIRE(t.notes.size() == 2);
  CHECK(t.notes[1] ==
        "store: properties missing in some jobs are not parameters (ingest each job's conf.xml): "
        "p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17, p18, p19 "
        "and 5 more");
}

TEST_CASE("runs-CSV rows: nodes are the attempt hosts, hardware from YARN's node resources") {
  std::vector<JobRun> runs;
  Job with_yarn = TwoPhaseJob();
  with_yarn.conf = {{"yarn.nodemanager.resource.memory-mb", "4096"},
                    {"yarn.nodemanager.resource.cpu-vcores", "4"}};
  runs.push_back(ToJobRun(with_yarn));
  Job generator = TwoPhaseJob();  // TeraGen-like: reads nothing, no YARN settings
  generator.job_id = "job_1_0002";
  generator.name = "";
  generator.status = "FAILED";
  generator.counters["total"] = {{"TaskCounter", "CPU_MILLISECONDS", 1}};
  runs.push_back(ToJobRun(generator));
  Job running = TwoPhaseJob();
  running.job_id = "job_1_0003";
  running.finish_ms.reset();
  runs.push_back(ToJobRun(running));

  const JobRunsCsv csv = ToRunsCsvRows(runs);
  REQUIRE(csv.rows.size() == 2);
  const models::MeasuredRun& a = csv.rows[0].run;
  CHECK(a.workload == "sort");
  CHECK(a.instance_type == "yarn-4096mb-4vcore");
  CHECK(a.vcpus == 4);
  CHECK(a.memory_bytes == doctest::Approx(4096.0 * 1024 * 1024));
  CHECK(a.dataset_bytes == doctest::Approx(1024));
  CHECK(a.storage_nodes == 2);
  CHECK(a.compute_nodes == 2);
  CHECK(a.runtime_seconds == doctest::Approx(60.5));
  CHECK(a.completed);
  CHECK(csv.rows[0].maps == 2);
  CHECK(csv.rows[0].reduces == 1);
  CHECK(csv.rows[0].submit_time_seconds == doctest::Approx(10));
  const models::MeasuredRun& b = csv.rows[1].run;
  CHECK(b.workload == "job_1_0002");
  CHECK(b.dataset_bytes == 1);
  CHECK(b.instance_type == "yarn-8192mb-8vcore");
  CHECK_FALSE(b.completed);
  CheckLines(csv.notes, {
            "jobs without a start and finish time are not runs: job_1_0003",
            "jobs that read no input (no FileSystem *_BYTES_READ counter other than "
            "FILE_BYTES_READ) have dataset_bytes 1: job_1_0002",
            "jobs whose configuration lacks yarn.nodemanager.resource.memory-mb or cpu-vcores "
            "take YARN's defaults (8192 MiB, 8 vcores): job_1_0002"});
}

TEST_CASE("LoadJobRuns reads the stored jobs with their configuration; selection errors") {
  const std::string dir = testing::MakeTempDir();
  testing::SyntheticJob job;
  job.totals = {{"org.apache.hadoop.mapreduce.TaskCounter", {"CPU_MILLISECONDS", 4000}},
                {"org.apache.hadoop.mapreduce.TaskCounter", {"REDUCE_SHUFFLE_BYTES", 512}}};
  testing::WriteFile(dir + "/" + job.job_id + "-1-u-wordcount.jhist",
                     testing::SyntheticJhistText(job));
  testing::WriteFile(dir + "/" + job.job_id + "_conf.xml",
                     testing::SyntheticConfXml({{"mapreduce.job.reduces", "1"}}));
  auto store = Store::Open(dir + "/s.db", {StoreMigrations()});
  REQUIRE(store.ok());
  auto empty = LoadJobRuns(*store.value(), {});
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.status().message() ==
        "no MapReduce jobs in the store " + dir +
            "/s.db; ingest job histories into it first (perfplan ingest mapreduce)");
  auto ingested = IngestMapReduce(*store.value(), {dir});
  REQUIRE(ingested.ok());
  auto runs = LoadJobRuns(*store.value(), {});
  REQUIRE(runs.ok());
  REQUIRE(runs.value().size() == 1);
  const JobRun& r = runs.value()[0];
  CHECK(r.total_seconds == doctest::Approx(60));
  CHECK(r.cpu_seconds == doctest::Approx(4));
  CHECK(r.shuffle_bytes == doctest::Approx(512));
  CHECK(r.task_seconds == doctest::Approx(4 * 5 + 9));
  CHECK(r.shuffle_seconds == doctest::Approx(3));
  CHECK(r.hosts == std::vector<std::string>{"node1", "node2", "node3"});
  CHECK(r.conf == std::vector<std::pair<std::string, std::string>>{{"mapreduce.job.reduces", "1"}});

  auto unknown = LoadJobRuns(*store.value(), {{"job_9_9"}, ""});
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.status().field() == "app_ids");
  CHECK(unknown.status().message() == "app_ids: job job_9_9 not in the store " + dir + "/s.db");
  auto none = LoadJobRuns(*store.value(), {{}, "terasort"});
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().message() ==
        "name_contains: no job in the store " + dir + "/s.db matches \"terasort\"");
}

}  // namespace
}  // namespace perfplan::profiles::mapreduce
