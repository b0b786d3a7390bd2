// Held-out MapReduce files (tests/profiles/mapreduce/heldout/): written from the formats'
// specifications — Hadoop's Events.avpr and JobHistoryEventHandler for 2.x/3.x `.jhist`, the
// 1.x JobHistory writer (JobHistory.java's logFailed/logKilled records), Rumen's LoggedJob — for
// job shapes the ingester was not developed on: a job that succeeded through failed and
// speculative attempts (Hadoop 2.7), a job killed by its user and one failed by a reduce that
// failed four times (Hadoop 3.3), a 1.x job whose map failed four times, a Rumen trace with
// failed and killed attempts. Every count and status below was counted by hand from the file.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "profiles/mapreduce/mapreduce_history.h"
#include "profiles/mapreduce/mapreduce_ingest.h"
#include "profiles/mapreduce/mapreduce_store.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles::mapreduce {
namespace {

std::string HeldOut() { return testing::SourceDir() + "/tests/profiles/mapreduce/heldout"; }

HistoryFile Read(const std::string& name) {
  auto r = ReadHistoryFile(HeldOut() + "/" + name);
  REQUIRE_MESSAGE(r.ok(), r.status().message());
  for (const auto& p : r.value().problems) CHECK_MESSAGE(false, FormatProblem(p));
  return r.value();
}
// A file of one job read with no problem and `events` events (records).
Job ReadJob(const std::string& name, std::int64_t events) {
  const HistoryFile h = Read(name);
  CHECK(h.events == events);
  REQUIRE(h.jobs.size() == 1);
  return h.jobs[0];
}

// "STATUS:count …" of the attempts (or tasks) of a job, in status order.
template <typename T>
std::string Statuses(const std::vector<T>& items) {
  std::map<std::string, int> n;
  for (const T& i : items) ++n[i.status.empty() ? "(none)" : i.status];
  std::string out;
  for (const auto& [s, k] : n) out += (out.empty() ? "" : " ") + s + ":" + std::to_string(k);
  return out;
}
std::string TaskTypes(const Job& job) {
  std::map<std::string, int> n;
  for (const Task& t : job.tasks) ++n[t.task_type];
  std::string out;
  for (const auto& [s, k] : n) out += (out.empty() ? "" : " ") + s + ":" + std::to_string(k);
  return out;
}
// "STATUS | task types | task statuses | attempt statuses" of a job.
std::string Shape(const Job& job) {
  return job.status + " | " + TaskTypes(job) + " | " + Statuses(job.tasks) + " | " +
         Statuses(job.attempts);
}
const Task& TaskOf(const Job& job, const std::string& id) {
  auto it = std::find_if(job.tasks.begin(), job.tasks.end(),
                         [&](const Task& t) { return t.task_id == id; });
  REQUIRE_MESSAGE(it != job.tasks.end(), id);
  return *it;
}
const Attempt& AttemptOf(const Job& job, const std::string& id) {
  auto it = std::find_if(job.attempts.begin(), job.attempts.end(),
                         [&](const Attempt& a) { return a.attempt_id == id; });
  REQUIRE_MESSAGE(it != job.attempts.end(), id);
  return *it;
}

TEST_CASE("Hadoop 2.7: a job that succeeded through failed and speculative attempts") {
  // 34 events: the file's 36 lines less the two header lines.
  const Job j = ReadJob(
      "job_1458000000000_0113-1458000100000-etl-nightly%2Djoin-1458000125000-3-2-SUCCEEDED-root."
      "batch.high-1458000101000.jhist",
      34);
  CHECK(j.job_id == "job_1458000000000_0113");
  CHECK(Shape(j) == "SUCCEEDED | MAP:3 REDUCE:2 | SUCCEEDED:5 | FAILED:2 KILLED:2 SUCCEEDED:5");
  CHECK(j.queue == "root.batch.high");  // JOB_QUEUE_CHANGED after JOB_SUBMITTED
  CHECK(j.submit_ms == 1458000100000);
  CHECK(j.launch_ms == 1458000101000);  // JOB_INFO_CHANGED after JOB_INITED
  CHECK(j.finish_ms == 1458000125000);
  CHECK(j.total_maps == 3);
  CHECK(j.total_reduces == 2);
  CHECK(j.failed_maps == 0);
  CHECK(j.killed_reduces == 0);
  CHECK(j.attempts.size() == 9);
  CHECK(j.event_counts.at("AM_STARTED") == 1);
  CHECK(j.event_counts.at("MAP_ATTEMPT_STARTED") == 5);
  CHECK(j.event_counts.at("REDUCE_ATTEMPT_STARTED") == 4);
  CHECK(j.event_counts.at("TASK_FINISHED") == 5);
  // The speculative map attempt won; the original was killed after it.
  CHECK(TaskOf(j, "task_1458000000000_0113_m_000001").successful_attempt ==
        "attempt_1458000000000_0113_m_000001_1");
  const Attempt& slow = AttemptOf(j, "attempt_1458000000000_0113_m_000001_0");
  CHECK(slow.status == "KILLED");
  CHECK(slow.start_ms == 1458000103001);
  CHECK(slow.finish_ms == 1458000115300);
  CHECK(slow.host == "nm-2");
  CHECK(slow.error == "Speculation: attempt_1458000000000_0113_m_000001_1 succeeded first!");
  const Attempt& oom = AttemptOf(j, "attempt_1458000000000_0113_m_000000_0");
  CHECK(oom.status == "FAILED");
  CHECK(oom.counters.size() == 3);  // counters of an unsuccessful attempt: an Avro union
  const Attempt& r = AttemptOf(j, "attempt_1458000000000_0113_r_000001_1");
  CHECK(r.shuffle_finish_ms == 1458000118000);
  CHECK(r.sort_finish_ms == 1458000118500);
  CHECK(r.finish_ms == 1458000124000);
  CHECK(j.counters.at("total").size() == 2);
}

TEST_CASE("Hadoop 3.3: a job killed by its user; killed tasks are TASK_FAILED with KILLED") {
  const Job j = ReadJob(
      "job_1712345678901_0042-1712345700000-bo-adhoc+scan-1712345708100-1-0-KILLED-default-"
      "1712345700800.jhist",
      18);
  CHECK(Shape(j) == "KILLED | MAP:2 REDUCE:1 | KILLED:2 SUCCEEDED:1 | KILLED:2 SUCCEEDED:1");
  CHECK(j.finish_ms == 1712345708100);
  CHECK(j.finished_maps == 1);
  CHECK(j.killed_maps == 1);
  CHECK(j.killed_reduces == 1);
  CHECK(j.diagnostics ==
        "Kill job job_1712345678901_0042 received from bo (auth:SIMPLE) at 10.1.2.3\nJob received "
        "Kill while in RUNNING state.\n");
  CHECK(TaskOf(j, "task_1712345678901_0042_r_000000").finish_ms == 1712345708003);
  CHECK(TaskOf(j, "task_1712345678901_0042_m_000001").counters.size() == 3);
  CHECK(j.event_counts.at("JOB_STATUS_CHANGED") == 1);
  CHECK(j.event_counts.at("JOB_KILLED") == 1);
}

TEST_CASE("Hadoop 3.3: a job failed by a reduce that failed on every attempt") {
  const Job j = ReadJob(
      "job_1712345678901_0057-1712349000000-cy-agg-1712349016500-1-0-FAILED-root.users.cy-"
      "1712349000500.jhist",
      18);
  CHECK(Shape(j) == "FAILED | MAP:1 REDUCE:1 | FAILED:1 SUCCEEDED:1 | FAILED:4 SUCCEEDED:1");
  CHECK(j.failed_reduces == 1);
  const Task& r = TaskOf(j, "task_1712345678901_0057_r_000000");
  CHECK(r.status == "FAILED");
  CHECK(r.error == "Error: java.lang.ArithmeticException: / by zero");
  CHECK(r.successful_attempt.empty());
  CHECK(r.start_ms == 1712349004100);
  CHECK(r.finish_ms == 1712349016000);
}

TEST_CASE("Hadoop 1.x: a job FAILED by a map that failed four times; the reduce killed") {
  // 31 records on 34 lines: one record's ERROR runs over four.
  const Job j = ReadJob("job_201204121419_0003_1334240712345_hdfs_grep-search", 31);
  CHECK(j.job_id == "job_201204121419_0003");
  // The reduce's Task record never ends: the file gives it no status.
  CHECK(Shape(j) == "FAILED | CLEANUP:1 MAP:2 REDUCE:1 SETUP:1 | (none):1 FAILED:1 SUCCESS:3 | "
                    "FAILED:4 KILLED:1 SUCCESS:3");
  CHECK(j.finished_maps == 1);
  CHECK(j.finished_reduces == 0);
  CHECK(j.finish_ms == 1334240730200);
  CHECK(j.attempts.size() == 8);
  const Task& m0 = TaskOf(j, "task_201204121419_0003_m_000000");
  CHECK(m0.status == "FAILED");
  // A failed Task record's TASK_ATTEMPT_ID is the attempt it failed by, not a successful one.
  CHECK(m0.successful_attempt.empty());
  CHECK(m0.error == "java.lang.RuntimeException: bad record at offset 4096");
  const Attempt& first = AttemptOf(j, "attempt_201204121419_0003_m_000000_0");
  CHECK(first.status == "FAILED");
  CHECK(first.host == "dn1.example.com");
  CHECK(first.error ==
        "java.lang.RuntimeException: bad record at offset 4096\n\tat "
        "org.example.GrepMapper.map(GrepMapper.java:42)\n\tat "
        "org.apache.hadoop.mapred.MapRunner.run(MapRunner.java:50)\n");
  const Attempt& m1 = AttemptOf(j, "attempt_201204121419_0003_m_000001_0");
  CHECK(m1.rack == "/rack2");
  CHECK(m1.host == "dn2.example.com");
  REQUIRE(m1.counters.size() == 3);
  CHECK(m1.counters[2].value == 3150);
  // 1.x's successful Task record names no attempt (JobHistory.Task.logFinished).
  CHECK(TaskOf(j, "task_201204121419_0003_m_000001").successful_attempt.empty());
  CHECK(AttemptOf(j, "attempt_201204121419_0003_r_000000_0").status == "KILLED");
}

TEST_CASE("Rumen: a failed job's failed and killed attempts, then a job with a killed spare") {
  const HistoryFile h = Read("failed-attempts-rumen.json");
  CHECK(h.format == Format::kRumen);
  CHECK(h.lines == 186);
  REQUIRE(h.jobs.size() == 2);
  const Job& a = h.jobs[0];
  CHECK(a.job_id == "job_1400000000000_0009");
  CHECK(Shape(a) == "FAILED | MAP:2 REDUCE:1 SETUP:1 | FAILED:1 KILLED:1 SUCCESS:2 | "
                    "FAILED:3 KILLED:2 SUCCESS:2");
  const Attempt& never = AttemptOf(a, "attempt_1400000000000_0009_m_000001_2");
  CHECK(never.host.empty());  // "hostName" : null
  CHECK(!never.start_ms);     // -1: never started
  CHECK(never.finish_ms == 1400000150000);
  CHECK(TaskOf(a, "task_1400000000000_0009_m_000000").successful_attempt ==
        "attempt_1400000000000_0009_m_000000_1");
  CHECK(TaskOf(a, "task_1400000000000_0009_m_000001").successful_attempt.empty());
  CHECK(a.conf.size() == 2);
  const Job& b = h.jobs[1];
  CHECK(Shape(b) == "SUCCESS | MAP:1 | SUCCESS:1 | KILLED:1 SUCCESS:1");
}

TEST_CASE("The held-out folder ingests with no problem; the store's summaries count the same") {
  auto store = Store::Open(":memory:", {StoreMigrations()});
  REQUIRE(store.ok());
  auto s = IngestMapReduce(*store.value(), {HeldOut()});
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  CHECK(s.value().skipped_total == 0);
  CHECK(s.value().ignored.empty());
  CHECK(s.value().jobs == 6);
  auto jobs = ListJobs(*store.value());
  REQUIRE(jobs.ok());
  std::map<std::string, std::string> row;
  for (const JobSummary& j : jobs.value()) {
    row[j.job_id] = j.status + " maps " + std::to_string(j.maps) + " reduces " +
                    std::to_string(j.reduces) + " other " + std::to_string(j.other_tasks) +
                    " attempts " + std::to_string(j.attempts) + " failed " +
                    std::to_string(j.failed_attempts) + " killed " +
                    std::to_string(j.killed_attempts);
  }
  CHECK(row.size() == 6);
  CHECK(row["job_1458000000000_0113"] ==
        "SUCCEEDED maps 3 reduces 2 other 0 attempts 9 failed 2 killed 2");
  CHECK(row["job_1712345678901_0042"] ==
        "KILLED maps 2 reduces 1 other 0 attempts 3 failed 0 killed 2");
  CHECK(row["job_1712345678901_0057"] ==
        "FAILED maps 1 reduces 1 other 0 attempts 5 failed 4 killed 0");
  CHECK(row["job_201204121419_0003"] ==
        "FAILED maps 2 reduces 1 other 2 attempts 8 failed 4 killed 1");
  CHECK(row["job_1400000000000_0009"] ==
        "FAILED maps 2 reduces 1 other 1 attempts 7 failed 3 killed 2");
  CHECK(row["job_1400000000000_0010"] ==
        "SUCCESS maps 1 reduces 0 other 0 attempts 2 failed 0 killed 1");
}

}  // namespace
}  // namespace perfplan::profiles::mapreduce
