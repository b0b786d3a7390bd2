// JSON documents for the straggler-overhead answers of planner/hindex/ (DESIGN §6 keys). Every
// H-index result is written by one function with the keys of planner/hindex/hindex_fields.h:
// `hindex` → those keys (plus warnings, bic, file, format, tasks[] and h_job); `stragglers` (its
// ToJson is declared in stragglers.h) → per stage the same keys plus stage_id, attempt_id,
// task_seconds, included, weight, excluded_reason; `simulate hindex` → true_h_index,
// mean_change_point, mean_h_index, median_h_index (plus the settings and seed). nlohmann::json
// stays in the .cpp file.
#pragma once

#include <string>

#include "planner/hindex/hindex.h"

namespace perfplan::planner {

std::string ToJson(const HIndexAnswer& answer);
std::string ToJson(const SimulateHIndexAnswer& answer);

}  // namespace perfplan::planner
