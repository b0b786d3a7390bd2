// Crash safety of `perfplan collect ganglia` (planner/ganglia/ganglia_collect.cpp): polls (saved gmond
// snapshots, one per run) are collected by the real binary, killed with SIGKILL at random points
// and run again until each poll completes; the store must then equal one clean collection of the
// same polls — each poll committed whole or not at all, a re-run never doubling a sample — and
// pass SQLite's integrity check. Also: two collectors on one new store take turns.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <random>

#include "profiles/ganglia/ganglia_store.h"
#include "tests/support/store_dump.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

// A gmond snapshot at 1,000,000 + 15·k seconds: `hosts` hosts × 20 float metrics whose values
// depend on k, plus one string metric.
std::string Snapshot(int k, int hosts) {
  const long now = 1000000 + 15L * k;
  std::string xml =
      "<GANGLIA_XML VERSION=\"3.7.2\" SOURCE=\"gmond\">\n<CLUSTER NAME=\"crash\" "
      "LOCALTIME=\"" +
      std::to_string(now) + "\">\n";
  for (int h = 0; h < hosts; ++h) {
    xml += "<HOST NAME=\"node" + std::to_string(h) + "\" IP=\"10.0." + std::to_string(h / 250) +
           "." + std::to_string(h % 250) + "\" REPORTED=\"" + std::to_string(now) + "\">\n";
    for (int m = 0; m < 20; ++m) {
      xml += "<METRIC NAME=\"metric_" + std::to_string(m) + "\" VAL=\"" +
             std::to_string((k * 31 + h * 7 + m) % 1000) + ".5\" TYPE=\"float\" UNITS=\"%\" TN=\"" +
             std::to_string(m % 5) + "\"/>\n";
    }
    xml += "<METRIC NAME=\"os_name\" VAL=\"Linux\" TYPE=\"string\" UNITS=\"\" TN=\"0\"/>\n";
    xml += "</HOST>\n";
  }
  return xml + "</CLUSTER>\n</GANGLIA_XML>\n";
}

std::vector<std::string> CollectArgs(const std::string& source, const std::string& db) {
  return {"collect", "ganglia", "--source", source, "--store", db};
}

std::unique_ptr<profiles::Store> Open(const std::string& db) {
  auto store = profiles::Store::Open(db, {profiles::GangliaMigrations()});
  REQUIRE_MESSAGE(store.ok(), store.status().message());
  return std::move(store).value();
}

TEST_CASE("SIGKILL at random points, each poll re-run until done, equals one clean collection") {
  const std::string dir = testing::MakeTempDir();
  constexpr int kPolls = 40;
  std::vector<std::string> polls;
  for (int k = 0; k < kPolls; ++k) {
    polls.push_back(dir + "/poll" + std::to_string(k) + ".xml");
    testing::WriteFile(polls.back(), Snapshot(k, 300));
  }
  const auto t0 = std::chrono::steady_clock::now();
  for (const std::string& poll : polls) {
    REQUIRE(testing::RunPerfplanKilledAfter(CollectArgs(poll, dir + "/clean.db"), -1));
  }
  const long poll_us = static_cast<long>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
          .count() /
      kPolls);
  // Kill points uniform over 1.2 polls: most runs die (before, inside or after the poll's
  // transaction), some finish. Fixed seed. Every poll is re-run until a run finishes, as a
  // supervisor restarting the collector would. A run that finishes before its kill point says
  // the polls now run faster than the clean ones did (the machine's load changed): the span
  // shrinks by a quarter, so the kills still come however the load moves.
  std::mt19937 rng(20261129);
  long span_us = poll_us * 6 / 5;
  int kills = 0, runs = 0;
  for (const std::string& poll : polls) {
    for (;;) {
      ++runs;
      REQUIRE(runs < 2000);
      const long after =
          kills < 30 ? std::uniform_int_distribution<long>(0, span_us)(rng) : -1;
      if (testing::RunPerfplanKilledAfter(CollectArgs(poll, dir + "/killed.db"), after)) {
        if (after >= 0) span_us = std::max(1L, span_us * 3 / 4);
        break;
      }
      ++kills;
    }
  }
  CHECK(kills >= 20);
  auto killed = Open(dir + "/killed.db");
  auto clean = Open(dir + "/clean.db");
  CHECK(testing::IntegrityCheck(*killed) == "ok");
  const std::string dump = testing::DumpTables(*clean, "ganglia_");
  CHECK(dump.find("ganglia_samples: " + std::to_string(kPolls * 300 * 21) + " rows") !=
        std::string::npos);
  CHECK(testing::DumpTables(*killed, "ganglia_") == dump);
  MESSAGE("runs " << runs << ", kills " << kills << ", clean poll " << poll_us << " us");
}

TEST_CASE("two collectors started at once on one new store take turns") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/a.xml", Snapshot(1, 200));
  testing::WriteFile(dir + "/b.xml", Snapshot(2, 200));
  const int a = testing::StartPerfplan(CollectArgs(dir + "/a.xml", dir + "/shared.db"));
  const int b = testing::StartPerfplan(CollectArgs(dir + "/b.xml", dir + "/shared.db"));
  CHECK(testing::WaitPerfplan(a) == 0);
  CHECK(testing::WaitPerfplan(b) == 0);
  for (const char* poll : {"/a.xml", "/b.xml"}) {
    REQUIRE(testing::RunPerfplanKilledAfter(CollectArgs(dir + poll, dir + "/clean.db"), -1));
  }
  auto shared = Open(dir + "/shared.db");
  auto clean = Open(dir + "/clean.db");
  CHECK(testing::IntegrityCheck(*shared) == "ok");
  // Host and metric ids depend on which collector came first; the samples' values do not.
  auto samples = [](profiles::Store& store) {
    auto st = store.Prepare(
        "SELECT count(*), sum(time_seconds), sum(coalesce(value, 0)) FROM ganglia_samples");
    REQUIRE(st.ok());
    REQUIRE(st.value().Step());
    return std::to_string(st.value().ColumnInt(0)) + "/" + std::to_string(st.value().ColumnInt(1)) +
           "/" + std::to_string(st.value().ColumnDouble(2));
  };
  CHECK(samples(*shared) == samples(*clean));
  CHECK(samples(*clean).rfind(std::to_string(2 * 200 * 21) + "/", 0) == 0);
}

}  // namespace
}  // namespace perfplan::planner
