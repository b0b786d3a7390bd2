#include "profiles/store.h"

#include <doctest/doctest.h>

#include <filesystem>

#include "tests/support/store_query.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles {
namespace {

const Migrations kDemo = {"demo",
                          {"CREATE TABLE things(id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
                           "ALTER TABLE things ADD COLUMN size_bytes INTEGER"}};

TEST_CASE("Open applies every migration once and records the version") {
  const std::string path = testing::MakeTempDir() + "/store.db";
  {
    auto store = Store::Open(path, {kDemo});
    REQUIRE(store.ok());
    CHECK(store.value()->SchemaVersion("demo") == 2);
    CHECK(store.value()->Exec("INSERT INTO things(name, size_bytes) VALUES('a', 3)").ok());
  }
  auto again = Store::Open(path, {kDemo});
  REQUIRE(again.ok());
  auto st = again.value()->Prepare("SELECT count(*), sum(size_bytes) FROM things");
  REQUIRE(st.ok());
  REQUIRE(st.value().Step());
  CHECK(st.value().ColumnInt(0) == 1);
  CHECK(st.value().ColumnInt(1) == 3);
}

TEST_CASE("A new store has 16 KiB pages; an existing store keeps the pages it has") {
  const std::string path = testing::MakeTempDir() + "/store.db";
  {
    auto store = Store::Open(path, {kDemo});
    REQUIRE(store.ok());
    CHECK(testing::Count(*store.value(), "PRAGMA page_size") == 16384);
    // As a store written before pages were 16 KiB: 4 KiB pages, one row.
    REQUIRE(store.value()
                ->Exec("PRAGMA journal_mode=DELETE; PRAGMA page_size=4096; VACUUM; "
                       "PRAGMA journal_mode=WAL; INSERT INTO things(name) VALUES('old')")
                .ok());
    CHECK(testing::Count(*store.value(), "PRAGMA page_size") == 4096);
  }
  auto again = Store::Open(path, {kDemo});
  REQUIRE(again.ok());
  CHECK(testing::Count(*again.value(), "PRAGMA page_size") == 4096);
  CHECK(testing::Count(*again.value(), "SELECT count(*) FROM things") == 1);
  auto reader = Store::OpenReadOnly(path, {kDemo});
  REQUIRE(reader.ok());
  CHECK(testing::Count(*reader.value(), "SELECT count(*) FROM things") == 1);
}

TEST_CASE("A store newer than this build is refused") {
  const std::string path = testing::MakeTempDir() + "/store.db";
  REQUIRE(Store::Open(path, {kDemo}).ok());
  Migrations older = {"demo", {kDemo.steps[0]}};
  auto store = Store::Open(path, {older});
  REQUIRE_FALSE(store.ok());
  CHECK(store.status().message() ==
        path +
            ": the demo schema is at version 2, newer than this perfplan knows (1); use a "
            "newer perfplan");
}

TEST_CASE("A failing migration leaves the previous version intact") {
  Migrations broken = {"demo", {kDemo.steps[0], kDemo.steps[1], "ALTER TABLE nowhere ADD x"}};
  const std::string path = testing::MakeTempDir() + "/b.db";
  REQUIRE(Store::Open(path, {kDemo}).ok());
  auto bad = Store::Open(path, {broken});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find("migrating demo to version 3 failed") != std::string::npos);
  auto reopened = Store::Open(path, {kDemo});
  REQUIRE(reopened.ok());
  CHECK(reopened.value()->SchemaVersion("demo") == 2);
}

TEST_CASE("A file that is not a database is reported with its path") {
  const std::string path = testing::MakeTempDir() + "/junk.db";
  testing::WriteFile(path, std::string(4096, 'x'));
  auto store = Store::Open(path, {kDemo});
  REQUIRE_FALSE(store.ok());
  CHECK(store.status().message().rfind(path + ": ", 0) == 0);
}

std::int64_t CountThings(Store& store) {
  return testing::Count(store, "SELECT count(*) FROM things");
}

TEST_CASE("OpenReadOnly says 'no such store' for a missing path and creates nothing") {
  const std::string dir = testing::MakeTempDir();
  auto store = Store::OpenReadOnly(dir + "/missing.db", {kDemo});
  REQUIRE_FALSE(store.ok());
  CHECK(store.status().code() == StatusCode::kNotFound);
  CHECK(store.status().message() == dir + "/missing.db: no such store");
  CHECK_FALSE(std::filesystem::exists(dir + "/missing.db"));
  auto nested = Store::OpenReadOnly(dir + "/no/such/dir.db", {kDemo});
  CHECK(nested.status().message() == dir + "/no/such/dir.db: no such store");
  auto directory = Store::OpenReadOnly(dir, {kDemo});
  CHECK(directory.status().message() == dir + ": is a directory, not a store");
}

TEST_CASE("OpenReadOnly reads the committed rows while a writer holds its transaction") {
  const std::string path = testing::MakeTempDir() + "/wal.db";
  auto writer = Store::Open(path, {kDemo});
  REQUIRE(writer.ok());
  REQUIRE(writer.value()->Exec("INSERT INTO things(name) VALUES('committed')").ok());
  REQUIRE(writer.value()->Begin().ok());
  REQUIRE(writer.value()->Exec("INSERT INTO things(name) VALUES('pending')").ok());
  auto reader = Store::OpenReadOnly(path, {kDemo});
  REQUIRE(reader.ok());
  CHECK(CountThings(*reader.value()) == 1);  // a WAL reader: no wait, the committed snapshot
  CHECK_FALSE(reader.value()->Exec("INSERT INTO things(name) VALUES('no')").ok());
  REQUIRE(writer.value()->Commit().ok());
  CHECK(CountThings(*reader.value()) == 2);
  CHECK_FALSE(std::filesystem::exists(path + ".lock"));
}

TEST_CASE("OpenReadOnly upgrades an older writable store once, and refuses a newer one") {
  const std::string path = testing::MakeTempDir() + "/old.db";
  REQUIRE(Store::Open(path, {Migrations{"demo", {kDemo.steps[0]}}}).ok());
  auto store = Store::OpenReadOnly(path, {kDemo});
  REQUIRE(store.ok());
  CHECK(store.value()->SchemaVersion("demo") == 2);
  auto older_build = Store::OpenReadOnly(path, {Migrations{"demo", {kDemo.steps[0]}}});
  REQUIRE_FALSE(older_build.ok());
  CHECK(older_build.status().message() ==
        path +
            ": the demo schema is at version 2, newer than this perfplan knows (1); use a "
            "newer perfplan");
  const std::string junk = testing::MakeTempDir() + "/junk.db";
  testing::WriteFile(junk, std::string(4096, 'x'));
  auto not_store = Store::OpenReadOnly(junk, {kDemo});
  CHECK(not_store.status().message().rfind(junk + ": not a perfplan store: ", 0) == 0);
}

}  // namespace
}  // namespace perfplan::profiles
