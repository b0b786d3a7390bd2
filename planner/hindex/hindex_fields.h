// The one spelling of a models::HIndexResult outside models/: its keys, in order, with their
// values.
//
// `perfplan hindex --json`, `perfplan stragglers --json` and `perfplan export --what stragglers`
// all write exactly these keys (docs/hindex.md lists them), so the three never disagree: the
// DESIGN §6 keys first, then the diagnostics, the Hill tail index flat as hill_alpha, hill_k,
// hill_rule and hill_note. Lists (warnings, bic) are added by the JSON writers. Plain values;
// thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "models/hindex.h"

namespace perfplan::planner {

// One value: null (monostate), a flag, a count, a number or a text.
using HIndexValue = std::variant<std::monostate, bool, long long, double, std::string>;

struct HIndexField {
  std::string_view key;
  HIndexValue value;
};

// Every key of `result` with its value; null for max_over_median when the median is 0, for
// hill_alpha when the tail index is not available and for hill_note when there is none.
std::vector<HIndexField> HIndexFields(const models::HIndexResult& result);

// The keys HIndexFields gives, in the same order (for the null row of a stage left out).
std::vector<std::string_view> HIndexKeys();

}  // namespace perfplan::planner
