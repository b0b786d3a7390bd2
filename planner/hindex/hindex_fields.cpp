#include "planner/hindex/hindex_fields.h"

namespace perfplan::planner {

std::vector<HIndexField> HIndexFields(const models::HIndexResult& r) {
  auto count = [](std::size_t v) { return HIndexValue(static_cast<long long>(v)); };
  const models::HillEstimate& h = r.hill;
  return {
      {"n", count(r.n)},
      {"gini", r.gini},
      {"change_point", count(r.change_point)},
      {"change_point_fraction", r.change_point_fraction},
      {"area_l", r.area_l},
      {"area_lstar", r.area_lstar},
      {"h_index", r.h_index},
      {"efficiency", r.efficiency},
      {"speedup", r.speedup},
      {"gini_trapezoid", r.gini_trapezoid},
      {"area_l_trapezoid", r.area_l_trapezoid},
      {"has_change_point", r.has_change_point},
      {"degree", static_cast<long long>(r.degree)},
      {"min_segment", count(r.min_segment)},
      {"sse", r.sse},
      {"total", r.total},
      {"max_over_median", r.max_over_median ? HIndexValue(*r.max_over_median) : HIndexValue()},
      {"above_1_5x_median", count(r.above_speculation_threshold)},  // Spark speculation multiplier
      {"above_5x_median", count(r.above_skew_threshold)},           // adaptive skew-join factor
      {"hill_alpha", h.available ? HIndexValue(h.alpha) : HIndexValue()},
      {"hill_k", count(h.k)},
      {"hill_rule", std::string(models::ToString(h.rule))},
      {"hill_note", h.note.empty() ? HIndexValue() : HIndexValue(h.note)},
  };
}

std::vector<std::string_view> HIndexKeys() {
  std::vector<std::string_view> keys;
  for (const HIndexField& f : HIndexFields(models::HIndexResult())) keys.push_back(f.key);
  return keys;
}

}  // namespace perfplan::planner
