#include "profiles/runtime/run_filter.h"

#include <doctest/doctest.h>

namespace perfplan::profiles {
namespace {

const std::vector<std::string> kColumns = {"workload", "instance_type", "compute_nodes",
                                           "completed"};

bool Match(const std::string& expr, const std::vector<std::string>& cells) {
  Result<RowFilter> f = ParseRowFilter(expr, kColumns);
  REQUIRE(f.ok());
  return MatchesRow(f.value(), cells);
}

TEST_CASE("filters compare numbers as numbers and text as text, joined by and") {
  const std::vector<std::string> row = {"lr_spark", "c4.large", "8", "true"};
  CHECK(Match("instance_type=c4.large and compute_nodes<=8", row));
  CHECK(!Match("instance_type=c4.large and compute_nodes<8", row));
  CHECK(Match("compute_nodes > 6 and compute_nodes != 10 and completed=true", row));
  CHECK(Match("compute_nodes>=8.0", row));  // 8 == 8.0 as numbers
  CHECK(Match("workload='lr_spark'", row));
  CHECK(!Match("instance_type!=c4.large", row));
}

TEST_CASE("filter errors name the column position of the bad token") {
  CHECK(ParseRowFilter("instnce_type=c4.large", kColumns).status().message() ==
        "train: column 1: unknown column 'instnce_type'; did you mean 'instance_type'?");
  CHECK(ParseRowFilter("compute_nodes<=8 and workload", kColumns).status().message() ==
        "train: column 22: term 'workload' has no operator; expected 'column OP value' with "
        "OP one of = != < <= > >=");
  CHECK(ParseRowFilter("compute_nodes < big", kColumns).status().message() ==
        "train: column 17: '<' needs a number, got 'big'");
  CHECK(ParseRowFilter("compute_nodes => 3", kColumns).status().message() ==
        "train: column 16: bad value '> 3' after 'compute_nodes ='; expected one value (quote "
        "it to hold spaces)");
  CHECK(ParseRowFilter("compute_nodes=3 and", kColumns).status().message() ==
        "train: column 20: empty term 2; expected 'column OP value' terms joined by 'and', OP "
        "one of = != < <= > >=");
}

}  // namespace
}  // namespace perfplan::profiles
