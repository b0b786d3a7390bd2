#include "profiles/problem.h"

#include <doctest/doctest.h>

namespace perfplan::profiles {
namespace {

TEST_CASE("FormatProblem leaves out the line and field it does not know") {
  CHECK(FormatProblem({"a.yaml", 3, "runs[1].compute_nodes", "must be > 0, got 0"}) ==
        "a.yaml:3: runs[1].compute_nodes: must be > 0, got 0");
  CHECK(FormatProblem({"a.yaml", 0, "", "cannot open"}) == "a.yaml: cannot open");
}

TEST_CASE("ToStatus lists every problem and keeps the first field") {
  const Status s = ToStatus({{"a.csv", 0, "", "no header"},
                             {"a.csv", 4, "runtime_seconds", "expected a number, got \"x\""},
                             {"b.csv", 2, "workload", "empty"}});
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message() ==
        "a.csv: no header\n"
        "a.csv:4: runtime_seconds: expected a number, got \"x\"\n"
        "b.csv:2: workload: empty");
  CHECK(s.field() == "runtime_seconds");
  CHECK(ToStatus({}).ok());
}

TEST_CASE("Status::InvalidField names its field in the message and in field()") {
  const Status s = Status::InvalidField("sources", "\"=x\": expected NAME=PATH");
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message() == "sources: \"=x\": expected NAME=PATH");
  CHECK(s.field() == "sources");
  const Status renamed = s.WithMessage("--node: \"=x\": expected NAME=PATH");
  CHECK(renamed.field() == "sources");
  CHECK(renamed.code() == StatusCode::kInvalidArgument);
  CHECK(Status::Failed("disk full").field() == "");
}

}  // namespace
}  // namespace perfplan::profiles
