#include "profiles/store.h"

#include <doctest/doctest.h>

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

}  // namespace
}  // namespace perfplan::profiles
