// Row filters over a runs CSV (DESIGN §6 `--train EXPR`): a conjunction of `column OP value` terms
// joined by `and`, OP one of = != < <= > >=, e.g. "instance_type=c4.large and compute_nodes<=8".
//
// A value compares as a number when both it and the cell parse as numbers, otherwise as text
// (text allows only = and !=). Values may be quoted with ' or " to hold spaces. Errors name the
// term and the 1-based character column of the bad token in the expression. Thread-safe.
#pragma once

#include <string>
#include <vector>

#include "models/status.h"

namespace perfplan::profiles {

enum class CompareOp { kEq, kNe, kLt, kLe, kGt, kGe };

struct RowFilter {
  struct Term {
    std::string column;
    std::size_t column_index = 0;  // position in the table's header
    CompareOp op = CompareOp::kEq;
    std::string value;
    bool value_is_number = false;
    double number = 0;
  };
  std::vector<Term> terms;
};

// Parses `expression` against the table's header `columns`. Errors are InvalidArgument about
// `field` (the input the expression came from), e.g. "train: column 1: unknown column
// 'instnce_type'; did you mean 'instance_type'?".
Result<RowFilter> ParseRowFilter(const std::string& expression,
                                 const std::vector<std::string>& columns,
                                 const std::string& field = "train");

// True when every term holds for the row's cells.
bool MatchesRow(const RowFilter& filter, const std::vector<std::string>& cells);

}  // namespace perfplan::profiles
