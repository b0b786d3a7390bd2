// Specification of planner/cli/options.h: the progress line TerminalProgress prints on a terminal
// while `ingest spark|hdfs|mapreduce` reads its inputs (FormatProgress), and the flags the runtime
// questions (predict, select, plan) share.
#include "planner/cli/options.h"

#include <doctest/doctest.h>

namespace perfplan::cli {
namespace {

TEST_CASE("a progress line names the inputs done, the bytes read and the rate") {
  CHECK(FormatProgress(3, 10, "logs", 52'400'000, 2.0) == "\r[3/10 logs, 52.4 MB, 26.2 MB/s]");
  CHECK(FormatProgress(0, 2, "nodes", 0, 1.0) == "\r[0/2 nodes, 0.0 MB, 0.0 MB/s]");
}

TEST_CASE("the last progress line ends the line") {
  CHECK(FormatProgress(8, 8, "logs", 1'073'741'824, 2.5) ==
        "\r[8/8 logs, 1073.7 MB, 429.5 MB/s]\n");
}

TEST_CASE("no rate is shown before a tenth of a second has passed") {
  CHECK(FormatProgress(1, 4, "files", 5'000'000, 0.05) == "\r[1/4 files, 5.0 MB]");
  CHECK(FormatProgress(1, 4, "files", 5'000'000, 0.1) == "\r[1/4 files, 5.0 MB, 50.0 MB/s]");
}

TEST_CASE("a very long input name is cut, never overflows") {
  const std::string line = FormatProgress(1, 2, std::string(400, 'x'), 7, 1.0);
  CHECK(line.size() < 170);
  CHECK(line.rfind("\r[1/2 xxx", 0) == 0);
  CHECK(line.back() == ']');
}

struct RuntimeFlags {
  std::string model = "auto";
  std::string profiled_site;
  double deadline_seconds = 0;
};

// Parses `args` with the three shared flags of predict, select and plan.
RuntimeFlags ParseRuntimeFlags(const std::string& args) {
  RuntimeFlags f;
  CLI::App app;
  AddModelVariantOption(app, f.model);
  AddProfiledSiteOption(app, f.profiled_site);
  AddDeadlineOption(app, f.deadline_seconds);
  app.parse(args, false);
  return f;
}

TEST_CASE("--model is auto, simple or reductions; --deadline-seconds is not negative") {
  const RuntimeFlags f =
      ParseRuntimeFlags("--model reductions --profiled-site osu --deadline-seconds 600");
  CHECK(f.model == "reductions");
  CHECK(f.profiled_site == "osu");
  CHECK(f.deadline_seconds == 600);
  CHECK(ParseRuntimeFlags("").model == "auto");
  CHECK_THROWS_AS(ParseRuntimeFlags("--model linear"), CLI::ValidationError);
  CHECK_THROWS_AS(ParseRuntimeFlags("--deadline-seconds=-1"), CLI::ValidationError);
}

}  // namespace
}  // namespace perfplan::cli
