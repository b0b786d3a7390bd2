// JSON documents for the straggler-overhead answers of planner/hindex/hindex.h (DESIGN §6 keys):
// `hindex` → n, gini, change_point, change_point_fraction, area_l, area_lstar, h_index,
// efficiency, speedup (plus diagnostics, tasks[] and h_job); `simulate hindex` → true_h_index,
// mean_change_point, mean_h_index, median_h_index (plus the settings and seed). nlohmann::json
// stays in the .cpp file.
#pragma once

#include <string>

#include "planner/hindex/hindex.h"

namespace perfplan::planner {

std::string ToJson(const HIndexAnswer& answer);
std::string ToJson(const SimulateHIndexAnswer& answer);

}  // namespace perfplan::planner
