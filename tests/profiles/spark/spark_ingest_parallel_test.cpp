// Parallel ingest (profiles/spark/spark_ingest_parallel.h): N parser threads and one writer leave
// the same store, the same summary and the same skipped lines as the sequential ingest, on a
// folder that exercises every path of the writer (codecs, a file that is no event log, a stale
// incomplete copy refused, a grown copy replacing the stored one, unchanged sources).
#include "profiles/spark/spark_ingest_parallel.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

#include "profiles/spark/spark_store.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/spark_store_fixture.h"
#include "tests/support/store_dump.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles::spark {
namespace {

namespace fs = std::filesystem;

// A folder of logs, sorted by name in the order the cases need.
std::string WriteLogs(const std::string& dir) {
  const std::string logs = dir + "/logs";
  fs::create_directories(logs);
  for (int k = 0; k < 9; ++k) {
    const std::string id = "app-par-" + std::to_string(k);
    const std::string plain =
        k == 4 ? testing::SyntheticEventLogWithProperties(id, 2, 30, {{"spark.executor.cores", "4"}})
               : testing::OnExecutors(testing::SyntheticEventLog(id, 1 + k % 3, 20 + 7 * k), 3);
    if (k % 3 == 1) {
      testing::WriteFile(logs + "/a" + std::to_string(k) + ".lz4", testing::EncodeLz4Block(plain));
    } else if (k % 3 == 2) {
      testing::WriteFile(logs + "/a" + std::to_string(k) + ".zstd",
                         testing::EncodeZstdFrames(plain));
    } else {
      testing::WriteFile(logs + "/a" + std::to_string(k), plain);
    }
  }
  // Not an event log.
  testing::WriteFile(logs + "/b-notes", "hello\nworld\nthis\nis\nnot\na\nlog\n");
  // An incomplete, shorter copy of app-par-0: refused (the stored copy is complete).
  testing::WriteFile(logs + "/c-stale", testing::SyntheticEventLog("app-par-0", 1, 5, false));
  // A longer copy of app-par-3: replaces the stored one.
  testing::WriteFile(logs + "/d-grown", testing::SyntheticEventLog("app-par-3", 3, 40));
  return logs;
}

struct Run {
  std::unique_ptr<Store> store;
  IngestSummary summary;
};

Run Ingest(const std::string& db, const std::string& logs, int jobs) {
  Run run{testing::OpenSparkStore(db), {}};
  auto s = IngestEventLogsParallel(*run.store, {logs}, jobs);
  REQUIRE_MESSAGE(s.ok(), s.status().message());
  run.summary = std::move(s).value();
  return run;
}

// Everything the summary says, as one comparable string.
std::string Describe(const IngestSummary& s) {
  std::string out = std::to_string(s.events) + " events, " + std::to_string(s.lines) + " lines, " +
                    std::to_string(s.bytes_read) + " bytes, " + std::to_string(s.skipped_total) +
                    " skipped\n";
  for (const auto& a : s.applications) {
    out += a.app_id + "/" + a.attempt_id + " " + a.source + " " + std::to_string(a.events) +
           (a.completed ? " completed" : "") + (a.unchanged ? " unchanged" : "") + "\n";
  }
  for (const auto& k : s.skipped) {
    out += "skipped " + k.file + ":" + std::to_string(k.line) + ": " + k.reason + "\n";
  }
  for (const auto& r : s.skipped_reasons) out += r.reason + " x" + std::to_string(r.count) + "\n";
  return out;
}

// The attempt keys and the row order of the rowid tables, which DumpTables does not compare.
std::string RowOrder(Store& store) {
  return testing::QueryLines(
      store, {"SELECT attempt_key || ' ' || app_id FROM spark_attempts ORDER BY 1",
              "SELECT rowid || ' ' || name FROM spark_properties ORDER BY rowid",
              "SELECT rowid || ' ' || executor_id FROM spark_executors ORDER BY rowid",
              "SELECT rowid || ' ' || stage_id FROM spark_stages ORDER BY rowid"});
}

TEST_CASE("Two and five parser threads leave the store and the summary of one") {
  const std::string dir = testing::MakeTempDir();
  const std::string logs = WriteLogs(dir);
  Run one = Ingest(dir + "/one.db", logs, 1);
  // The folder holds what the cases need: 9 applications, the notes file, the refused copy.
  REQUIRE(one.summary.applications.size() == 10);
  CHECK(Describe(one.summary).find("not a Spark event log") != std::string::npos);
  CHECK(Describe(one.summary).find("not replacing application app-par-0") != std::string::npos);
  CHECK(testing::Count(*one.store, "SELECT count(*) FROM spark_properties") > 0);
  const std::string dump = testing::DumpTables(*one.store, "spark_");
  for (int jobs : {2, 5}) {
    CAPTURE(jobs);
    Run many = Ingest(dir + "/many" + std::to_string(jobs) + ".db", logs, jobs);
    CHECK(Describe(many.summary) == Describe(one.summary));
    CHECK(testing::DumpTables(*many.store, "spark_") == dump);
    CHECK(RowOrder(*many.store) == RowOrder(*one.store));
    CHECK(testing::IntegrityCheck(*many.store) == "ok");
  }
  // A second run finds every source unchanged, as the sequential one does.
  auto again_one = IngestEventLogsParallel(*one.store, {logs}, 1);
  Run again = Ingest(dir + "/many2.db", logs, 2);
  REQUIRE(again_one.ok());
  CHECK(again.summary.applications.size() == 10);
  CHECK(Describe(again.summary) == Describe(again_one.value()));
  CHECK(testing::DumpTables(*again.store, "spark_") == dump);
}

TEST_CASE("The same log named twice is read once and then found unchanged, with any job count") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/app-twice", testing::SyntheticEventLog("app-twice", 2, 10));
  const std::string path = dir + "/app-twice";
  Run one{testing::OpenSparkStore(":memory:"), {}};
  auto a = IngestEventLogsParallel(*one.store, {path, path}, 1);
  Run two{testing::OpenSparkStore(":memory:"), {}};
  auto b = IngestEventLogsParallel(*two.store, {path, path}, 2);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(Describe(b.value()) == Describe(a.value()));
  CHECK(testing::DumpTables(*two.store, "spark_") == testing::DumpTables(*one.store, "spark_"));
}

TEST_CASE("Parallel ingest leaves no scratch store behind") {
  const std::string dir = testing::MakeTempDir();
  const std::string logs = WriteLogs(dir);
  const std::string tmp = dir + "/tmp";
  fs::create_directories(tmp);
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old ? old : "";
  ::setenv("TMPDIR", tmp.c_str(), 1);
  // A scratch store of a run that died (no such process) is removed too.
  testing::WriteFile(tmp + "/perfplan-spark-ingest-999999999-3.db", "left by a killed run");
  Run run = Ingest(dir + "/s.db", logs, 3);
  if (old) {
    ::setenv("TMPDIR", saved.c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }
  CHECK(run.summary.applications.size() == 10);
  CHECK(fs::is_empty(tmp));
}

TEST_CASE("Parallel ingest needs no temporary directory") {
  const std::string dir = testing::MakeTempDir();
  const std::string logs = WriteLogs(dir);
  Run one = Ingest(dir + "/one.db", logs, 1);
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old ? old : "";
  ::setenv("TMPDIR", (dir + "/no-such-dir").c_str(), 1);
  Run many = Ingest(dir + "/many.db", logs, 2);
  if (old) {
    ::setenv("TMPDIR", saved.c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }
  CHECK(Describe(many.summary) == Describe(one.summary));
  CHECK(testing::DumpTables(*many.store, "spark_") == testing::DumpTables(*one.store, "spark_"));
}

TEST_CASE("A task id ended twice in one log: the summaries are those of the stored rows") {
  // The parser adds up every row it hands in; the store keeps the first row of a task id, so the
  // writer groups the summaries from the stored rows, as the sequential ingest counts them.
  const std::string dir = testing::MakeTempDir();
  std::string log = testing::SyntheticEventLog("app-dup", 2, 12);
  const std::size_t end = log.find("{\"Event\":\"SparkListenerTaskEnd\"");
  REQUIRE(end != std::string::npos);
  const std::string first_end = log.substr(end, log.find('\n', end) + 1 - end);
  // The same end again (another executor, so that the sums would differ), before the app's end.
  std::string again = first_end;
  const std::size_t exec = again.find("\"Executor ID\":\"");
  REQUIRE(exec != std::string::npos);
  again.insert(exec + 15, "other-");
  log.insert(log.rfind("{\"Event\":\"SparkListenerApplicationEnd\""), again);
  testing::WriteFile(dir + "/app-dup", log);
  Run one = Ingest(dir + "/one.db", dir + "/app-dup", 1);
  Run two = Ingest(dir + "/two.db", dir + "/app-dup", 2);
  CHECK(Describe(two.summary) == Describe(one.summary));
  CHECK(testing::DumpTables(*two.store, "spark_") == testing::DumpTables(*one.store, "spark_"));
  CHECK(testing::Count(*two.store, "SELECT count(*) FROM spark_executor_summaries WHERE "
                                   "executor_id LIKE 'other-%'") == 0);
}

TEST_CASE("A job count outside 1 to 256 is refused naming the field") {
  auto store = testing::OpenSparkStore(":memory:");
  for (int jobs : {0, -1, 257}) {
    auto s = IngestEventLogsParallel(*store, {"/nonexistent"}, jobs);
    REQUIRE_FALSE(s.ok());
    CHECK(s.status().field() == "jobs");
    CHECK(s.status().message() == "jobs: expected 1 to 256, got " + std::to_string(jobs));
  }
  CHECK(DefaultIngestJobs() >= 1);
}

}  // namespace
}  // namespace perfplan::profiles::spark
