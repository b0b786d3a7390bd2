// Crash safety of `perfplan ingest spark` (profiles/spark/spark_ingest.cpp): the real binary is killed
// with SIGKILL at random points, resumed, and at the end the store must hold exactly what one
// clean ingestion of the same logs holds (nothing lost, nothing doubled) and pass SQLite's
// integrity check. Also: two ingesters started at once on one store take turns.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>

#include "profiles/spark/spark_store.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/kill_resume.h"
#include "tests/support/store_dump.h"
#include "tests/support/store_query.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles {
namespace {

std::vector<std::string> IngestArgs(const std::string& logs, const std::string& db) {
  return {"ingest", "spark", logs, "--store", db};
}

// Runs an ingestion and kills it after `kill_after_us` (< 0: never). True when it finished.
bool IngestOnce(const std::string& logs, const std::string& db, int kill_after_us) {
  return testing::RunPerfplanKilledAfter(IngestArgs(logs, db), kill_after_us);
}

// Application k of the test: 3 stages of 150 tasks, every third log lz4-framed, every third
// zstd, the rest plain; ids zero-padded so new logs sort after old ones.
void WriteLog(const std::string& dir, int k) {
  char id[32];
  std::snprintf(id, sizeof id, "app-crash-%04d", k);
  const std::string plain = testing::SyntheticEventLog(id, 3, 150);
  if (k % 3 == 1) {
    testing::WriteFile(dir + "/" + id + ".lz4", testing::EncodeLz4Block(plain));
  } else if (k % 3 == 2) {
    testing::WriteFile(dir + "/" + id + ".zstd", testing::EncodeZstdFrames(plain));
  } else {
    testing::WriteFile(dir + "/" + id, plain);
  }
}

std::unique_ptr<Store> Open(const std::string& db) {
  auto store = Store::Open(db, {spark::StoreMigrations()});
  REQUIRE_MESSAGE(store.ok(), store.status().message());
  return std::move(store).value();
}

std::int64_t Attempts(const std::string& db) {
  auto store = Open(db);
  return testing::Count(*store, "SELECT count(*) FROM spark_attempts");
}

TEST_CASE("SIGKILL at random points, resumed, leaves exactly the store of one clean run") {
  const std::string dir = testing::MakeTempDir();
  const std::string logs = dir + "/logs";
  std::filesystem::create_directories(logs);
  int next_log = 0;
  // Kill points uniform over a clean run's length. A run that finishes anyway finds new logs
  // next time (as a live history folder grows), so killing goes on. Fixed seed.
  auto args = [&](const std::string& db) { return IngestArgs(logs, db); };
  auto add_logs = [&](int n) {
    for (int i = 0; i < n; ++i) WriteLog(logs, next_log++);
  };
  const testing::KillReport k = testing::KillAndResume(
      {.kills = 25, .max_runs = 500, .seed = 20261129}, dir, args, add_logs, Attempts);
  REQUIRE(IngestOnce(logs, dir + "/clean.db", -1));

  auto killed = Open(dir + "/killed.db");
  auto clean = Open(dir + "/clean.db");
  CHECK(testing::IntegrityCheck(*killed) == "ok");
  CHECK(Attempts(dir + "/killed.db") == next_log);
  CHECK(testing::DumpTables(*killed, "spark_") == testing::DumpTables(*clean, "spark_"));
  CHECK(k.progressed >= 5);  // kills landed mid-way, after some applications were committed
  MESSAGE("runs " << k.runs << ", kills " << k.kills << " (" << k.progressed << " after progress), "
                  << next_log << " logs, clean run " << k.clean_us << " us");
}

TEST_CASE("two ingesters started at once on one store take turns and store each log once") {
  const std::string dir = testing::MakeTempDir();
  const std::string logs = dir + "/logs";
  std::filesystem::create_directories(logs);
  for (int k = 0; k < 12; ++k) WriteLog(logs, k);
  const std::string db = dir + "/shared.db";  // new: both processes also create the schema
  const int a = testing::StartPerfplan(IngestArgs(logs, db));
  const int b = testing::StartPerfplan(IngestArgs(logs, db));
  CHECK(testing::WaitPerfplan(a) == 0);
  CHECK(testing::WaitPerfplan(b) == 0);
  REQUIRE(IngestOnce(logs, dir + "/clean.db", -1));
  auto shared = Open(db);
  auto clean = Open(dir + "/clean.db");
  CHECK(testing::IntegrityCheck(*shared) == "ok");
  CHECK(testing::DumpTables(*shared, "spark_") == testing::DumpTables(*clean, "spark_"));
}

}  // namespace
}  // namespace perfplan::profiles
