// Specification of profiles/tuning/ranges_reader.h: a parameter ranges file in either form (a
// plain mapping, or under `parameters:` with an optional schema_version), and what is refused.
#include "profiles/tuning/ranges_reader.h"

#include <doctest/doctest.h>

#include "tests/support/problem_lines.h"

namespace perfplan::profiles {
namespace {

using testing::ProblemText;

TEST_CASE("either form reads each parameter's min, max and optional default, in file order") {
  const Loaded<RangesFile> plain =
      ParseRangesFile("b: {min: 0, max: 1}\na: {min: 1, max: 4, default: 2}\n", "r.yaml");
  REQUIRE_MESSAGE(plain.ok(), ProblemText(plain));
  CHECK(plain.value.file == "r.yaml");
  REQUIRE(plain.value.parameters.size() == 2);
  CHECK(plain.value.parameters[0].name == "b");
  CHECK_FALSE(plain.value.parameters[0].has_default);
  CHECK(plain.value.parameters[1].name == "a");
  CHECK(plain.value.parameters[1].min == 1);
  CHECK(plain.value.parameters[1].max == 4);
  CHECK(plain.value.parameters[1].default_value == 2);
  CHECK(plain.value.parameters[1].line == 2);

  const Loaded<RangesFile> nested = ParseRangesFile(
      "schema_version: 1\nparameters:\n  a: {min: 1, max: 4, default: 2}\n", "r.yaml");
  REQUIRE_MESSAGE(nested.ok(), ProblemText(nested));
  REQUIRE(nested.value.parameters.size() == 1);
  CHECK(nested.value.parameters[0].name == "a");
  CHECK(nested.value.parameters[0].line == 3);
}

TEST_CASE("a missing bound, a file that is not a mapping, and an empty file are refused") {
  CHECK(ProblemText(ParseRangesFile("a: {max: 2}\n", "r.yaml")) == "r.yaml:1: a.min: missing\n");
  CHECK(ProblemText(ParseRangesFile("parameters:\n  a: {min: 1}\n", "r.yaml")) ==
        "r.yaml:2: parameters.a.max: missing\n");
  CHECK(ProblemText(ParseRangesFile("parameters: 3\n", "r.yaml")) ==
        "r.yaml:1: parameters: expected a mapping of parameter names to {min, max, default}\n");
  CHECK(ProblemText(ParseRangesFile("- a\n", "r.yaml")) ==
        "r.yaml:1: expected a mapping at the top level, got a list\n");
  CHECK(ProblemText(ParseRangesFile("{}\n", "r.yaml")) == "r.yaml:1: no parameters\n");
}

}  // namespace
}  // namespace perfplan::profiles
