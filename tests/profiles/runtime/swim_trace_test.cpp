// Specification of profiles/runtime/swim_trace.h: SWIM's six tab-separated columns, every bad line
// reported as file:line: column: message.
#include "profiles/runtime/swim_trace.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/support/problem_lines.h"

namespace perfplan::profiles {
namespace {

using testing::ProblemLines;

TEST_CASE("a SWIM trace gives submit times and the three data sizes of each job") {
  // The first two lines of FB-2009_samples_24_times_1hr_0.tsv.
  Loaded<SwimTrace> t =
      ParseSwimTrace("job0\t9\t9\t1762\t0\t14347\njob1\t18\t9\t970\t609\t697\r\n\n", "fb.tsv");
  REQUIRE(t.ok());
  REQUIRE(t.value.jobs.size() == 2);
  CHECK(t.value.jobs[0].id == "job0");
  CHECK(t.value.jobs[0].submit_seconds == 9);
  CHECK(t.value.jobs[0].map_input_bytes == 1762);
  CHECK(t.value.jobs[0].shuffle_bytes == 0);
  CHECK(t.value.jobs[0].reduce_output_bytes == 14347);
  CHECK(t.value.jobs[1].gap_seconds == 9);
  CHECK(t.value.jobs[1].shuffle_bytes == 609);
  CHECK(t.value.jobs[1].line == 2);
}

TEST_CASE("every bad SWIM line is reported with its line and column") {
  const char* text =
      "job0\t9\t9\t1762\t0\t14347\n"
      "job1\t8\t-1\t970\t609\t697\n"
      "job2\t20\t2\tmany\t0\t0\n"
      "job3\t30\t10\t5\n"
      "job4\t7\t0\t1\t1\t1\n";
  CHECK(ProblemLines(ParseSwimTrace(text, "t.tsv")) ==
        std::vector<std::string>{
            "t.tsv:2: gap_seconds: expected a number >= 0, got \"-1\"",
            "t.tsv:3: map_input_bytes: expected a number >= 0, got \"many\"",
            "t.tsv:4: expected 6 tab-separated columns (job id, submit, gap, map input, shuffle, "
            "reduce output bytes), got 4",
            "t.tsv:5: submit_seconds: submit times are cumulative; 7 is before the previous "
            "job's",
        });
  CHECK(ProblemLines(ParseSwimTrace("\n", "e.tsv")) == std::vector<std::string>{"e.tsv: no jobs"});
}

}  // namespace
}  // namespace perfplan::profiles
