// `perfplan collect ganglia` end to end on every Ganglia file of ../shared/data, plus its exit
// codes for bad input (2) and an unreachable gmond (1).
#include <doctest/doctest.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "tests/support/cli_run.h"
#include "tests/support/test_support.h"

namespace perfplan {
namespace {

PERFPLAN_REQUIRE_SHARED_DATA();

using testing::CliResult;
using testing::RunCli;

TEST_CASE("Every Ganglia file in the shared data is collected once, and only once") {
  struct Case {
    const char* file;
    const char* kind;
    int samples;
    std::size_t hosts;
    std::size_t metrics;
  };
  const Case cases[] = {
      {"gmond-3.7.2-loopback.xml", "xml-file", 32, 1, 32},
      {"ambari/temporal_ganglia_data.txt", "ambari-rrd-text", 845, 4, 5},
      {"ambari/host_temporal_ganglia_data.txt", "ambari-rrd-text", 452, 4, 2},
      {"ambari/journalnode_ganglia_data.txt", "ambari-rrd-text", 106, 1, 120},
      {"ambari/temporal_ganglia_report_data.json", "ganglia-web-json", 928, 1, 4},
  };
  const std::string db = testing::MakeTempDir() + "/store.db";
  for (const Case& c : cases) {
    CAPTURE(c.file);
    const std::string args = "collect ganglia --source '" + testing::SharedDataDir() +
                             "/03-ganglia/" + c.file + "' --store '" + db + "' --json";
    CliResult first = RunCli(args);
    CAPTURE(first.err);
    REQUIRE(first.exit_code == 0);
    const nlohmann::json j = nlohmann::json::parse(first.out);
    CHECK(j["kind"] == c.kind);
    CHECK(j["samples"] == c.samples);
    CHECK(j["samples_seen"] == c.samples);
    CHECK(j["hosts"].size() == c.hosts);
    CHECK(j["metrics"].size() == c.metrics);
    CliResult again = RunCli(args);
    REQUIRE(again.exit_code == 0);
    CHECK(nlohmann::json::parse(again.out)["samples"] == 0);
  }
}

TEST_CASE("Bad input exits 2 and an unreachable gmond exits 1, each with its message") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/bad.xml", "<GANGLIA_XML>\n<CLUSTER NAME=\"c\">\n");
  CliResult bad = RunCli("collect ganglia --source " + dir + "/bad.xml --store " + dir + "/s.db");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err == "perfplan collect ganglia: error: " + dir +
                       "/bad.xml:2:19 (byte 32): malformed XML: Start-end tags mismatch\n");
  CliResult down = RunCli("collect ganglia --source 127.0.0.1:1 --store " + dir + "/s.db --json");
  CHECK(down.exit_code == 1);
  CHECK(down.err ==
        "perfplan collect ganglia: error: 127.0.0.1:1: cannot connect: Connection refused\n");
  CHECK(nlohmann::json::parse(down.out)["error"] == "failed");
  CliResult usage = RunCli("collect ganglia --source 127.0.0.1:1 --interval 0");
  CHECK(usage.exit_code == 2);
  CHECK(usage.err ==
        "perfplan collect ganglia: error: --interval: 0 is not a number > 0 of seconds\n");
}

}  // namespace
}  // namespace perfplan
