// End-to-end: `perfplan spark map` | sort | `perfplan spark reduce --store` (issue 16, item 6),
// and the commands that read a summary-only store (scores, tune --store, backtest --store,
// export --what backtest) answering exactly as on the store `ingest spark` fills from the same logs.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli_run.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan {
namespace {

using testing::RunCli;
using testing::RunShell;

std::string Bin() { return "'" + testing::BinaryDir() + "/perfplan'"; }

// 6 applications of one name with different executor memory, cores and work.
std::string Logs() {
  const std::string logs = testing::MakeTempDir();
  const char* memory[] = {"1g", "2g", "512m", "4g", "3g", "2g"};
  const int cores[] = {1, 2, 1, 4, 2, 3};
  const int tasks[] = {12, 8, 14, 3, 6, 7};
  for (int i = 0; i < 6; ++i) {
    const std::string id = "app-" + std::to_string(i);
    testing::WriteFile(logs + "/" + id,
                       testing::OnExecutors(testing::SyntheticEventLogWithProperties(
                                                id, 2, tasks[i],
                                                {{"spark.executor.memory", memory[i]},
                                                 {"spark.executor.cores", std::to_string(cores[i])},
                                                 {"spark.master", "yarn"}}),
                                            1 + i % 3));
  }
  return logs;
}

TEST_CASE("spark map | sort | spark reduce --store loads every application once") {
  const std::string logs = Logs();
  const std::string db = testing::MakeTempDir() + "/fleet.db";
  const std::string pipeline = Bin() + " spark map " + logs + " 2>/dev/null | LC_ALL=C sort | " +
                               Bin() + " spark reduce --store " + db;
  const testing::CliRun first = RunShell(pipeline);
  REQUIRE(first.exit_code == 0);
  CHECK(first.out.find("loaded app-0 from " + logs + "/app-0 (") == 0);
  CHECK(first.out.find("\n6 loaded, 0 unchanged, 0 kept, from 18 record(s) into " + db + "\n") !=
        std::string::npos);
  const testing::CliRun second = RunShell(pipeline);
  REQUIRE(second.exit_code == 0);
  CHECK(second.out.find("unchanged app-0 from " + logs + "/app-0 (") == 0);
  CHECK(second.out.find("\n0 loaded, 6 unchanged, 0 kept, from 18 record(s) into " + db + "\n") !=
        std::string::npos);

  // The map's stderr: one count line.
  const testing::CliResult map = RunCli("spark map " + logs);
  REQUIRE(map.exit_code == 0);
  CHECK(map.err == "spark map: 6 log(s), 6 application(s), 18 record(s), 0 skipped\n");
  // The paths on stdin, as Hadoop's NLineInputFormat hands them ("OFFSET\tPATH"), map the same.
  const testing::CliResult list = RunCli("spark map --list " + logs);
  REQUIRE(list.exit_code == 0);
  CHECK(list.out.find(logs + "/app-0\n" + logs + "/app-1\n") == 0);
  const testing::CliRun piped =
      RunShell("printf '0\\t%s\\n' " + logs + "/app-* | " + Bin() + " spark map - 2>/dev/null");
  CHECK(piped.out == map.out);
  // The reducer's own output is valid input and reduces to itself.
  const testing::CliRun reduced =
      RunShell(Bin() + " spark map " + logs + " 2>/dev/null | " + Bin() + " spark reduce");
  const std::string reduced_file = testing::MakeTempDir() + "/r.txt";
  testing::WriteFile(reduced_file, reduced.out);
  CHECK(RunShell(Bin() + " spark reduce < " + reduced_file).out == reduced.out);
}

TEST_CASE("A summary-only store scores, tunes and backtests as the fully ingested one") {
  const std::string logs = Logs();
  const std::string dir = testing::MakeTempDir();
  REQUIRE(RunCli("ingest spark " + logs + " --store " + dir + "/full.db").exit_code == 0);
  REQUIRE(RunShell(Bin() + " spark map " + logs + " 2>/dev/null | " + Bin() +
                   " spark reduce --store " + dir + "/fleet.db")
              .exit_code == 0);
  for (const std::string& args :
       {std::string("scores --json"), std::string("score app-3 --json"),
        std::string("tune cv --target total_time_seconds --folds 3 --kinds ridge,mean "
                    "--budget-seconds 30 --json"),
        std::string("backtest --app-name synthetic --min-history 2 --json"),
        std::string("export --what backtest --app-name synthetic --format csv"),
        std::string("stragglers app-2 --json"), std::string("apps --json")}) {
    CAPTURE(args);
    const testing::CliResult full = RunCli(args + " --store " + dir + "/full.db");
    const testing::CliResult fleet = RunCli(args + " --store " + dir + "/fleet.db");
    REQUIRE(full.exit_code == 0);
    CHECK(fleet.exit_code == 0);
    std::string expected = full.out;
    // The answers that name their store differ in that name only.
    for (std::size_t at; (at = expected.find("full.db")) != std::string::npos;) {
      expected.replace(at, 7, "fleet.db");
    }
    CHECK(fleet.out == expected);
  }
}

TEST_CASE("spark reduce refuses what is not a record, and task answers say summary only") {
  const std::string dir = testing::MakeTempDir();
  const std::string bad = dir + "/bad.txt";
  testing::WriteFile(bad, "app-1/\tnot json\n");
  const testing::CliResult r = RunCli("spark reduce --store " + dir + "/x.db < " + bad);
  CHECK(r.exit_code == 2);
  CHECK(r.err.rfind("perfplan spark reduce: error: stdin:1: invalid JSON: ", 0) == 0);
  const testing::CliResult j = RunCli("spark reduce --json --store " + dir + "/x.db < " + bad);
  CHECK(j.exit_code == 2);
  const auto error = nlohmann::json::parse(j.out);
  CHECK(error["error"] == "invalid_argument");
  CHECK(error["message"].get<std::string>().rfind("stdin:1: invalid JSON: ", 0) == 0);

  const std::string logs = Logs();
  REQUIRE(RunShell(Bin() + " spark map " + logs + "/app-1 2>/dev/null | " + Bin() +
                   " spark reduce --store " + dir + "/fleet.db")
              .exit_code == 0);
  const testing::CliResult tasks =
      RunCli("spark api applications/app-1/stages/0/0/taskList --store " + dir + "/fleet.db");
  CHECK(tasks.exit_code == 2);
  CHECK(tasks.err ==
        "perfplan spark api: error: app-1 is summary only (loaded by spark reduce): the store has "
        "its stage and executor summaries, not its tasks; ingest its event log with ingest spark "
        "for task-level answers\n");
  const testing::CliResult missing = RunCli("spark map /nonexistent/fleet");
  CHECK(missing.exit_code == 0);
  CHECK(missing.out.empty());
  CHECK(missing.err ==
        "spark map: skipped /nonexistent/fleet: no such file or folder\n"
        "spark map: 0 log(s), 0 application(s), 0 record(s), 1 skipped\n");
}

}  // namespace
}  // namespace perfplan
