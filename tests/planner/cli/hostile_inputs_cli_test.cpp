// Regression cases for issue 17: each input below once aborted perfplan (exit 134, an exception
// escaping main) or blocked it. Each is a few bytes; each run must end with an answer — exit 0 or
// a `file: message` error with exit 2 — and a --json answer must stay parseable JSON. The wider
// generated sweep is tests/hostile/hostile_sweep.py (CTest: hostile_sweep).
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan {
namespace {

using testing::RunPerfplan;
using testing::WriteFile;

std::string Quoted(const std::string& s) { return "'" + s + "'"; }

// A --json answer (stdout only) parses as JSON; bytes that were not UTF-8 arrive as U+FFFD.
bool ParsesAsJson(const std::string& out) { return nlohmann::json::accept(out); }

const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

TEST_CASE("an error message quoting a non-UTF-8 byte is still valid --json") {
  const std::string dir = testing::MakeTempDir();
  WriteFile(dir + "/p.yaml", "schema_version: 1\napplication: x\n\xff: 1\n");
  for (const std::string& args : {"predict --profile " + Quoted(dir + "/p.yaml") +
                                      " --dataset-bytes 8e9 --storage-nodes 4 --compute-nodes 16 "
                                      "--bandwidth-bytes-per-second 125e6 --json",
                                  "validate " + Quoted(dir + "/p.yaml") + " --json"}) {
    CAPTURE(args);
    const testing::CliRun run = RunPerfplan(args);
    CHECK(run.exit_code == 2);
    CHECK(ParsesAsJson(run.out));
    CHECK(run.out.find(kReplacement) != std::string::npos);
  }
}

TEST_CASE("a file name with a non-UTF-8 byte does not break ingest --json or apps --json") {
  const std::string dir = testing::MakeTempDir();
  const std::string log = dir + "/app-\xff-1";
  WriteFile(log, testing::SyntheticEventLog("app-1", 1, 2));
  const testing::CliRun ingest =
      RunPerfplan("ingest spark " + Quoted(log) + " --store " + Quoted(dir + "/s.db") + " --json");
  CHECK(ingest.exit_code == 0);
  CHECK(ParsesAsJson(ingest.out));
  const testing::CliRun apps = RunPerfplan("apps --store " + Quoted(dir + "/s.db") + " --json");
  CHECK(apps.exit_code == 0);
  CHECK(ParsesAsJson(apps.out));
}

TEST_CASE("a stored user name with a non-UTF-8 byte does not break later JSON answers") {
  const std::string dir = testing::MakeTempDir();
  const std::string audit =
      "2015-07-09 00:00:00,172 INFO FSNamesystem.audit: allowed=true\tugi=al\xffice "
      "(auth:SIMPLE)\tip=/10.0.0.7\tcmd=open\tsrc=/data/a\tdst=null\tperm=null\tproto=rpc\n";
  WriteFile(dir + "/hdfs-audit.log", audit);
  const std::string store = Quoted(dir + "/h.db");
  REQUIRE(
      RunPerfplan("ingest hdfs --store " + store + " --node nn1=" + Quoted(dir + "/hdfs-audit.log"))
          .exit_code == 0);
  for (const std::string& args : {"workload --store " + store + " --json",
                                  "export --what workload --store " + store + " --format json"}) {
    CAPTURE(args);
    const testing::CliRun run = RunPerfplan(args);
    CHECK(run.exit_code == 0);
    CHECK(ParsesAsJson(run.out));
    CHECK(run.out.find(kReplacement) != std::string::npos);
  }
  const testing::CliRun reduce =
      RunPerfplan("hdfs map < " + Quoted(dir + "/hdfs-audit.log") + " | LC_ALL=C sort | " +
                  testing::BinaryDir() + "/perfplan hdfs reduce");
  CHECK(reduce.exit_code == 0);
  CHECK(ParsesAsJson(reduce.out));
}

TEST_CASE("a directory given as a file is refused with a message, never an abort") {
  const std::string dir = testing::MakeTempDir();
  const testing::CliRun hindex = RunPerfplan("hindex " + Quoted(dir), "2>&1");
  CHECK(hindex.exit_code == 2);
  CHECK(hindex.out == "perfplan hindex: error: " + dir + ": is a directory, not a file\n");
  for (const char* verb : {"map", "reduce"}) {
    CAPTURE(verb);
    const testing::CliRun run =
        RunPerfplan(std::string("hdfs ") + verb + " < " + Quoted(dir), "2>&1");
    CHECK(run.exit_code == 2);
    CHECK(run.out.find("<stdin>: is a directory, not a file") != std::string::npos);
  }
  const testing::CliRun validate = RunPerfplan("validate " + Quoted(dir), "2>&1");
  CHECK(validate.exit_code == 2);
  CHECK(validate.out.find(dir + ": is a directory, not a file") != std::string::npos);
}

TEST_CASE("a device or a FIFO nobody writes to is refused instead of read forever") {
  const std::string dir = testing::MakeTempDir();
  const std::string fifo = dir + "/fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const auto start = std::chrono::steady_clock::now();
  const testing::CliRun run = RunPerfplan("hindex " + Quoted(fifo), "2>&1");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(run.exit_code == 2);
  CHECK(run.out == "perfplan hindex: error: " + fifo +
                       ": is a pipe with no writer (nothing arrived within 2 s)\n");
  // The wait is kFifoWriterWaitMilliseconds; generous slack for a loaded machine.
  CHECK(seconds < 30);
  const testing::CliRun zero = RunPerfplan("hindex /dev/zero", "2>&1");
  CHECK(zero.exit_code == 2);
  CHECK(zero.out == "perfplan hindex: error: /dev/zero: is a device, not a file\n");
}

TEST_CASE("topology node counts beyond the bound are validate errors, not aborts or wraps") {
  const std::string dir = testing::MakeTempDir();
  struct Case {
    const char* count;
    const char* message;
  };
  for (const Case& c : {Case{"2147483648", "must be <= 1000000, got 2147483648"},
                        Case{"4294967297", "must be <= 1000000, got 4294967297"},
                        Case{"1e8", "expected a whole number, got \"1e8\""}}) {
    CAPTURE(c.count);
    WriteFile(dir + "/t.yaml", std::string("schema_version: 1\nsites:\n  - name: s\n"
                                           "    nodes: [{count: ") +
                                   c.count + "}]\n");
    const testing::CliRun run = RunPerfplan("validate " + Quoted(dir + "/t.yaml"), "2>&1");
    CHECK(run.exit_code == 2);
    CHECK(run.out.find(dir + "/t.yaml:4: sites[0].nodes[0].count: " + c.message) !=
          std::string::npos);
  }
}

TEST_CASE("--version names the version, the commit and the libraries") {
  const testing::CliRun run = RunPerfplan("--version");
  CHECK(run.exit_code == 0);
  CHECK(run.out.rfind("perfplan 0.1.0\ncommit ", 0) == 0);
  CHECK(run.out.find("\nsqlite 3.") != std::string::npos);
  CHECK(run.out.find("\nhttp server: perfplan epoll HTTP/1.1 (built in)\n") != std::string::npos);
}

}  // namespace
}  // namespace perfplan
