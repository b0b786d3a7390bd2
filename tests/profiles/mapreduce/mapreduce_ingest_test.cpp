// `ingest mapreduce` into the store (profiles/mapreduce/mapreduce_ingest.cpp): a second ingest
// adds nothing, a changed file replaces its job, a configuration attaches to its job by id,
// folders ignore what holds no job; and crash safety — the real binary SIGKILLed at random points
// and resumed leaves exactly the store of one clean run.
#include "profiles/mapreduce/mapreduce_ingest.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "profiles/mapreduce/mapreduce_store.h"
#include "tests/support/cli_run.h"
#include "tests/support/kill_resume.h"
#include "tests/support/store_dump.h"
#include "tests/support/store_query.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles::mapreduce {
namespace {

// A successful job with `maps` map tasks and one reduce, as Hadoop 2.x writes it.
std::string SyntheticJhist(const std::string& id, int maps) {
  const std::string num = id.substr(4);  // "job_" stripped
  auto ev = [](const std::string& type, const std::string& cls, const std::string& body) {
    return "{\"type\":\"" + type + "\",\"event\":{\"org.apache.hadoop.mapreduce.jobhistory." +
           cls + "\":{" + body + "}}}\n";
  };
  std::string s = "Avro-Json\n{\"type\":\"record\",\"name\":\"Event\",\"fields\":[]}\n";
  s += ev("JOB_SUBMITTED", "JobSubmitted",
          "\"jobid\":\"" + id + "\",\"jobName\":\"synthetic\",\"userName\":\"u\",\"submitTime\":1000,"
          "\"jobConfPath\":\"\",\"acls\":{},\"jobQueueName\":\"default\"");
  s += ev("JOB_INITED", "JobInited",
          "\"jobid\":\"" + id + "\",\"launchTime\":2000,\"totalMaps\":" + std::to_string(maps) +
              ",\"totalReduces\":1,\"jobStatus\":\"INITED\",\"uberized\":false");
  for (int m = 0; m <= maps; ++m) {
    const bool reduce = m == maps;
    char t[64];
    std::snprintf(t, sizeof t, "%s_%s_%06d", num.c_str(), reduce ? "r" : "m", reduce ? 0 : m);
    const std::string task = std::string("task_") + t, attempt = std::string("attempt_") + t + "_0";
    const std::string type = reduce ? "REDUCE" : "MAP";
    const long start = 3000 + m, finish = 5000 + 37 * m + (m % 7) * 400;
    s += ev("TASK_STARTED", "TaskStarted",
            "\"taskid\":\"" + task + "\",\"taskType\":\"" + type + "\",\"startTime\":" +
                std::to_string(start) + ",\"splitLocations\":\"\"");
    s += ev(type + "_ATTEMPT_STARTED", "TaskAttemptStarted",
            "\"taskid\":\"" + task + "\",\"taskType\":\"" + type + "\",\"attemptId\":\"" + attempt +
                "\",\"startTime\":" + std::to_string(start) + ",\"trackerName\":\"h" +
                std::to_string(m % 3) + "\"");
    s += ev(type + "_ATTEMPT_FINISHED", reduce ? "ReduceAttemptFinished" : "MapAttemptFinished",
            "\"taskid\":\"" + task + "\",\"attemptId\":\"" + attempt + "\",\"taskType\":\"" + type +
                "\",\"taskStatus\":\"SUCCEEDED\"," +
                (reduce ? "\"shuffleFinishTime\":" + std::to_string(finish - 300) +
                              ",\"sortFinishTime\":" + std::to_string(finish - 100) + ","
                        : "\"mapFinishTime\":" + std::to_string(finish - 10) + ",") +
                "\"finishTime\":" + std::to_string(finish) +
                ",\"hostname\":\"h1\",\"rackname\":\"/r\",\"counters\":{\"name\":\"C\",\"groups\":"
                "[{\"name\":\"g\",\"displayName\":\"g\",\"counts\":[{\"name\":\"CPU_MILLISECONDS\","
                "\"displayName\":\"c\",\"value\":" + std::to_string(10 * m) + "}]}]}");
    s += ev("TASK_FINISHED", "TaskFinished",
            "\"taskid\":\"" + task + "\",\"taskType\":\"" + type + "\",\"finishTime\":" +
                std::to_string(finish) + ",\"status\":\"SUCCEEDED\"");
  }
  s += ev("JOB_FINISHED", "JobFinished",
          "\"jobid\":\"" + id + "\",\"finishTime\":90000,\"finishedMaps\":" + std::to_string(maps) +
              ",\"finishedReduces\":1,\"failedMaps\":0,\"failedReduces\":0");
  return s;
}

std::unique_ptr<Store> Open(const std::string& db) {
  auto store = Store::Open(db, {StoreMigrations()});
  REQUIRE_MESSAGE(store.ok(), store.status().message());
  return std::move(store).value();
}

using testing::Count;

TEST_CASE("A second ingest adds nothing; a changed file replaces its job; conf joins by id") {
  const std::string dir = testing::MakeTempDir();
  const std::string jhist = dir + "/h/job_5_0001-1-u-synthetic.jhist";
  std::filesystem::create_directories(dir + "/h");
  testing::WriteFile(jhist, SyntheticJhist("job_5_0001", 4));
  testing::WriteFile(dir + "/h/job_5_0001_conf.xml",
                     "<?xml version=\"1.0\"?><configuration><property><name>mapreduce.job.reduces"
                     "</name><value>1</value></property></configuration>\n");
  testing::WriteFile(dir + "/h/README", "not a history\n");
  auto store = Open(":memory:");
  auto first = IngestMapReduce(*store, {dir + "/h"});
  REQUIRE(first.ok());
  CHECK(first.value().jobs == 1);
  CHECK(first.value().skipped.empty());
  REQUIRE(first.value().ignored.size() == 1);
  CHECK(first.value().ignored[0].rfind(dir + "/h/README: not a MapReduce job history", 0) == 0);
  const std::string before = testing::DumpTables(*store, "mr_");
  CHECK(Count(*store, "SELECT count(*) FROM mr_tasks") == 5);
  CHECK(Count(*store, "SELECT count(*) FROM mr_attempts") == 5);
  CHECK(Count(*store, "SELECT count(*) FROM mr_conf WHERE job_id = 'job_5_0001'") == 1);

  auto second = IngestMapReduce(*store, {dir + "/h"});
  REQUIRE(second.ok());
  CHECK(second.value().jobs == 0);
  CHECK(second.value().files.size() == 2);
  CHECK(second.value().files[0].unchanged);
  CHECK(testing::DumpTables(*store, "mr_") == before);

  testing::WriteFile(jhist, SyntheticJhist("job_5_0001", 6));  // the job, re-run with 6 maps
  auto third = IngestMapReduce(*store, {jhist});
  REQUIRE(third.ok());
  CHECK(Count(*store, "SELECT count(*) FROM mr_jobs") == 1);
  CHECK(Count(*store, "SELECT count(*) FROM mr_tasks") == 7);
  CHECK(Count(*store, "SELECT count(*) FROM mr_conf") == 1);  // the configuration stays

  auto job = LoadJob(*store, "job_5_0001");
  REQUIRE(job.ok());
  CHECK(job.value().attempts.size() == 7);
  CHECK(job.value().attempts[6].shuffle_finish_ms == 5000 + 37 * 6 + 6 * 400 - 300);
  CHECK(job.value().conf.at(0).first == "mapreduce.job.reduces");
  auto missing = LoadJob(*store, "job_5_0002");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message() ==
        "no MapReduce job job_5_0002 in the store; did you mean \"job_5_0001\"?");
  auto named = IngestMapReduce(*store, {dir + "/h/README", dir + "/nope"});
  REQUIRE(named.ok());
  REQUIRE(named.value().skipped.size() == 2);
  CHECK(FormatProblem(named.value().skipped[0]) == dir + "/nope: no such file or folder");
  CHECK(FormatProblem(named.value().skipped[1]) ==
        dir + "/h/README: not a MapReduce job history, Rumen trace, SLS trace or job "
              "configuration (first line: \"not a history\")");
}

TEST_CASE("a file a batch stores what one batch stores; a batch below 1 file is refused") {
  const std::string dir = testing::MakeTempDir();
  for (int k = 0; k < 5; ++k) {
    const std::string id = "job_8_000" + std::to_string(k);
    testing::WriteFile(dir + "/" + id + ".jhist", SyntheticJhist(id, 3));
  }
  auto one_batch = Open(":memory:");
  REQUIRE(IngestMapReduce(*one_batch, {dir}).ok());
  IngestOptions one_file;
  one_file.batch_files = 1;
  auto per_file = Open(":memory:");
  auto ingested = IngestMapReduce(*per_file, {dir}, {}, one_file);
  REQUIRE(ingested.ok());
  CHECK(ingested.value().jobs == 5);
  CHECK(testing::DumpTables(*per_file, "mr_") == testing::DumpTables(*one_batch, "mr_"));

  IngestOptions none;
  none.batch_files = 0;
  auto refused = IngestMapReduce(*per_file, {dir}, {}, none);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message() == "batch_files: must be at least 1 (got 0)");
  CHECK(refused.status().field() == "batch_files");
  none = {};
  none.batch_bytes = -1;
  CHECK(IngestMapReduce(*per_file, {dir}, {}, none).status().message() ==
        "batch_bytes: must be at least 1 (got -1)");
  // The CLI names the (hidden) flag and exits 2.
  const testing::CliResult cli = testing::RunCli("ingest mapreduce '" + dir + "' --store '" + dir +
                                                 "/cli.db' --batch-files 0");
  CHECK(cli.exit_code == 2);
  CHECK(cli.err == "perfplan ingest mapreduce: error: --batch-files: must be at least 1 (got 0)\n");
}

std::int64_t Jobs(const std::string& db) {
  auto store = Open(db);
  return Count(*store, "SELECT count(*) FROM mr_jobs");
}

void WriteJob(const std::string& dir, int k) {
  char id[32];
  std::snprintf(id, sizeof id, "job_9_%04d", k);
  testing::WriteFile(dir + "/" + id + ".jhist", SyntheticJhist(id, 60));
}

TEST_CASE("SIGKILL at random points, resumed, leaves exactly the store of one clean run") {
  const std::string dir = testing::MakeTempDir();
  const std::string logs = dir + "/history";
  std::filesystem::create_directories(logs);
  int next = 0;
  // One file per transaction (the hidden --batch-files; 256 by default), so the 24 files commit
  // one by one and most kills land between two commits.
  auto args = [&](const std::string& db) {
    return std::vector<std::string>{"ingest", "mapreduce",     logs, "--store",
                                    db,       "--batch-files", "1"};
  };
  auto add_jobs = [&](int n) {
    for (int i = 0; i < n; ++i) WriteJob(logs, next++);
  };
  const testing::KillReport k = testing::KillAndResume(
      {.kills = 20, .max_runs = 400, .seed = 20261201}, dir, args, add_jobs, Jobs);
  REQUIRE(testing::RunPerfplanKilledAfter(args(dir + "/clean.db"), -1));
  auto killed = Open(dir + "/killed.db");
  auto clean = Open(dir + "/clean.db");
  CHECK(testing::IntegrityCheck(*killed) == "ok");
  CHECK(Jobs(dir + "/killed.db") == next);
  CHECK(testing::DumpTables(*killed, "mr_") == testing::DumpTables(*clean, "mr_"));
  // At least 3 of the 20 kills came after a commit that the kill before had not seen: kills
  // land between commits, not only before the first one or after the last.
  CHECK(k.progressed >= 3);
  MESSAGE("runs " << k.runs << ", kills " << k.kills << " (" << k.progressed << " after progress), "
                  << next << " files, clean run " << k.clean_us << " us");
}

TEST_CASE("the v2 migration packs a v1 store's counter rows, in order, escapes and all") {
  const std::string db = testing::MakeTempDir() + "/v1.db";
  {
    auto v1 = Store::Open(db, {Migrations{"mapreduce", {StoreMigrations().steps.at(0)}}});
    REQUIRE(v1.ok());
    REQUIRE(v1.value()
                ->Exec("INSERT INTO mr_jobs(job_key, job_id, format, events, source) "
                       "VALUES(1, 'job_1_0001', 'jhist', 0, 'f');"
                       "INSERT INTO mr_tasks(job_key, task_id, ord) VALUES(1, 'task_1_0001_m_0', 0);"
                       // Rows out of order on purpose: ord, not insertion, is the order.
                       "INSERT INTO mr_counters VALUES(1, 'task', 'task_1_0001_m_0', 2, 'g2', "
                       "'tab' || char(9) || 'and\\back', -7);"
                       "INSERT INTO mr_counters VALUES(1, 'task', 'task_1_0001_m_0', 0, 'g1', 'A', 1);"
                       "INSERT INTO mr_counters VALUES(1, 'task', 'task_1_0001_m_0', 1, 'g1', 'B', 2);"
                       "INSERT INTO mr_counters VALUES(1, 'task', 'task_1_0001_m_0', 3, '', 'E', 3);"
                       "INSERT INTO mr_counters VALUES(1, 'total', '', 0, 'g1', 'A', 40);")
                .ok());
  }
  auto store = Open(db);
  auto job = LoadJob(*store, "job_1_0001");
  REQUIRE_MESSAGE(job.ok(), job.status().message());
  REQUIRE(job.value().tasks.size() == 1);
  const auto& c = job.value().tasks[0].counters;
  REQUIRE(c.size() == 4);
  CHECK((c[0].group == "g1" && c[0].name == "A" && c[0].value == 1));
  CHECK((c[1].group == "g1" && c[1].name == "B" && c[1].value == 2));
  CHECK((c[2].group == "g2" && c[2].name == "tab\tand\\back" && c[2].value == -7));
  CHECK((c[3].group == "" && c[3].name == "E" && c[3].value == 3));
  REQUIRE(job.value().counters.at("total").size() == 1);
  CHECK(job.value().counters.at("total")[0].value == 40);
  CHECK(Count(*store, "SELECT count(*) FROM sqlite_master WHERE name = 'mr_counters'") == 0);
}

TEST_CASE("counters with tabs, backslashes, newlines and an empty group survive the store") {
  const std::string dir = testing::MakeTempDir();
  std::string text = SyntheticJhist("job_6_0001", 1);
  // The first attempt's single counter group becomes three odd ones.
  const std::string plain =
      "[{\"name\":\"g\",\"displayName\":\"g\",\"counts\":[{\"name\":\"CPU_MILLISECONDS\","
      "\"displayName\":\"c\",\"value\":0}]}]";
  const std::string odd =
      "[{\"name\":\"g\\\\e\",\"displayName\":\"g\",\"counts\":[{\"name\":\"a\\tb\","
      "\"displayName\":\"c\",\"value\":5},{\"name\":\"n\\nl\",\"displayName\":\"c\",\"value\":6}]},"
      "{\"name\":\"\",\"displayName\":\"\",\"counts\":[{\"name\":\"\\\\\",\"displayName\":\"c\","
      "\"value\":-9}]},{\"name\":\"\",\"displayName\":\"\",\"counts\":[{\"name\":\"x\","
      "\"displayName\":\"c\",\"value\":9223372036854775807}]}]";
  REQUIRE(text.find(plain) != std::string::npos);
  text.replace(text.find(plain), plain.size(), odd);
  testing::WriteFile(dir + "/job_6_0001.jhist", text);
  auto store = Open(":memory:");
  REQUIRE(IngestMapReduce(*store, {dir + "/job_6_0001.jhist"}).ok());
  auto job = LoadJob(*store, "job_6_0001");
  REQUIRE(job.ok());
  const auto& c = job.value().attempts.at(0).counters;
  REQUIRE(c.size() == 4);
  CHECK((c[0].group == "g\\e" && c[0].name == "a\tb" && c[0].value == 5));
  CHECK((c[1].group == "g\\e" && c[1].name == "n\nl" && c[1].value == 6));
  CHECK((c[2].group == "" && c[2].name == "\\" && c[2].value == -9));
  CHECK((c[3].group == "" && c[3].name == "x" && c[3].value == 9223372036854775807LL));
}

TEST_CASE("two ingesters started at once on one store take turns and store each job once") {
  const std::string dir = testing::MakeTempDir();
  const std::string logs = dir + "/history";
  std::filesystem::create_directories(logs);
  for (int k = 0; k < 16; ++k) WriteJob(logs, k);
  // One file per transaction (the hidden --batch-files; 256 by default), so the 24 files commit
  // one by one and most kills land between two commits.
  auto args = [&](const std::string& db) {
    return std::vector<std::string>{"ingest", "mapreduce",     logs, "--store",
                                    db,       "--batch-files", "1"};
  };
  const std::string db = dir + "/shared.db";  // new: both processes also create the schema
  const int a = testing::StartPerfplan(args(db));
  const int b = testing::StartPerfplan(args(db));
  CHECK(testing::WaitPerfplan(a) == 0);
  CHECK(testing::WaitPerfplan(b) == 0);
  REQUIRE(testing::RunPerfplanKilledAfter(args(dir + "/clean.db"), -1));
  auto shared = Open(db);
  auto clean = Open(dir + "/clean.db");
  CHECK(testing::IntegrityCheck(*shared) == "ok");
  CHECK(Jobs(db) == 16);
  CHECK(testing::DumpTables(*shared, "mr_") == testing::DumpTables(*clean, "mr_"));
}

TEST_CASE("a second ingester that waits too long is refused with the store and the lock named") {
  const std::string dir = testing::MakeTempDir();
  const std::string db = dir + "/held.db";
  auto holder = Open(db);
  auto lock = holder->LockExclusively("ingest mapreduce");  // as a running ingester holds it
  REQUIRE(lock.ok());
  const std::string jhist = dir + "/job_7_0001.jhist";
  testing::WriteFile(jhist, SyntheticJhist("job_7_0001", 2));
  const auto t0 = std::chrono::steady_clock::now();
  auto second = Open(db);
  auto refused = IngestMapReduce(*second, {jhist});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message() ==
        db + ": another perfplan ingest mapreduce is running on this store (it holds " + db +
            ".lock) and did not finish within 30 s; try again when it is done");
  CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::seconds(29));
  CHECK(Count(*second, "SELECT count(*) FROM mr_jobs") == 0);  // nothing written while refused
}

}  // namespace
}  // namespace perfplan::profiles::mapreduce
