#include "profiles/hindex/bucket_times.h"

#include <doctest/doctest.h>

#include <string>

#include "tests/support/problem_lines.h"

namespace perfplan::profiles {
namespace {

using testing::ProblemText;

TEST_CASE("bucket-time CSV groups rows by task in order of first appearance") {
  const Loaded<BucketTimes> r = ParseBucketTimes(
      "task_id,bucket,seconds\r\nt2,0,1.5\r\nt1,0,2\r\n# comment\r\n\r\nt2,1,+3e-1\r\n", "b.csv");
  REQUIRE(r.ok());
  CHECK(r.value.format == BucketTimesFormat::kBucketCsv);
  REQUIRE(r.value.tasks.size() == 2);
  CHECK(r.value.tasks[0].task_id == "t2");
  CHECK(r.value.tasks[0].first_line == 2);
  CHECK(r.value.tasks[0].seconds == std::vector<double>{1.5, 0.3});
  CHECK(r.value.tasks[1].seconds == std::vector<double>{2});
  CHECK(r.value.values == 3);
}

TEST_CASE("CSV columns are found by name, in any order, with extra columns ignored") {
  const Loaded<BucketTimes> r =
      ParseBucketTimes("seconds,host,\"task_id\",bucket\n4,h1,a,7\n", "b.csv");
  REQUIRE(r.ok());
  CHECK(r.value.tasks.at(0).task_id == "a");
  CHECK(r.value.tasks.at(0).seconds == std::vector<double>{4});
}

TEST_CASE("a UTF-8 byte-order mark before the header is skipped") {
  const Loaded<BucketTimes> r =
      ParseBucketTimes("\xEF\xBB\xBFtask_id,bucket,seconds\nt,0,1\n", "b.csv");
  REQUIRE(r.ok());
  CHECK(r.value.tasks.at(0).task_id == "t");
}

TEST_CASE("a plain column, with or without a header word") {
  Loaded<BucketTimes> r = ParseBucketTimes("seconds\n1\n2.5\n\n3\n", "-");
  REQUIRE(r.ok());
  CHECK(r.value.format == BucketTimesFormat::kColumn);
  CHECK(r.value.tasks.at(0).seconds == std::vector<double>{1, 2.5, 3});
  r = ParseBucketTimes("0.5\n0.25", "-");
  REQUIRE(r.ok());
  CHECK(r.value.values == 2);
}

TEST_CASE("every bad cell is reported as file:line: field: message") {
  const Loaded<BucketTimes> r = ParseBucketTimes(
      "task_id,bucket,seconds\n"
      "t1,0,abc\n"
      "t1,1,-2\n"
      "t1,2,inf\n"
      "t1,3\n"
      ",4,1\n"
      "t1,5,\n"
      "t1,6,1\n"
      "t1,6,2\n",
      "b.csv");
  CHECK(ProblemText(r) ==
        "b.csv:2: seconds: 'abc' is not a number; expected seconds ≥ 0\n"
        "b.csv:3: seconds: '-2' is negative; expected seconds ≥ 0\n"
        "b.csv:4: seconds: 'inf' is not finite; expected seconds ≥ 0\n"
        "b.csv:5: expected 3 fields as in the header, found 2\n"
        "b.csv:6: task_id: is empty; expected a task identifier\n"
        "b.csv:7: seconds: is empty; expected a number of seconds ≥ 0\n"
        "b.csv:9: bucket: task 't1' bucket '6' already appeared on line 8\n");
}

TEST_CASE("a CSV header without the three columns, a bad number in a column, no values") {
  CHECK(ProblemText(ParseBucketTimes("task,bucket,secs\nt,1,2\n", "b.csv")) ==
        "b.csv:1: header: expected the columns task_id,bucket,seconds; found 'task,bucket,secs'\n");
  CHECK(ProblemText(ParseBucketTimes("1\n2\n3x\nnan\n", "<stdin>")) ==
        "<stdin>:3: value: '3x' is not a number; expected seconds ≥ 0\n"
        "<stdin>:4: value: 'nan' is not finite; expected seconds ≥ 0\n");
  CHECK(ProblemText(ParseBucketTimes("\n# nothing\n", "e.txt")) ==
        "e.txt: no values; expected a column of numbers or task_id,bucket,seconds rows\n");
}

TEST_CASE("a flood of bad lines is cut at 50 problems with a count of the rest") {
  std::string text;
  for (int i = 0; i < 60; ++i) text += "x\n";
  const Loaded<BucketTimes> r = ParseBucketTimes("1\n" + text, "f");
  REQUIRE(r.problems.size() == 51);
  CHECK(FormatProblem(r.problems.back()) == "f: … and 10 more problems");
}

}  // namespace
}  // namespace perfplan::profiles
