// JSON for `perfplan stragglers` (planner/hindex/stragglers.h). A stage left out of h_job keeps
// every key, with null for the H-index values, `included: false` and `excluded_reason`.
#include <nlohmann/json.hpp>

#include "planner/hindex/stragglers.h"
#include "models/json_text.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

json Optional(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json StageJson(const StageStragglers& s) {
  json j = {{"stage_id", s.stage_id},
            {"attempt_id", s.attempt_id},
            {"n", s.tasks},
            {"max_over_median", Optional(s.max_over_median)},
            {"task_seconds", s.task_seconds},
            {"included", s.included},
            {"weight", s.weight}};
  const char* kHIndexKeys[] = {"gini",       "change_point", "change_point_fraction",
                               "area_l",     "area_lstar",   "h_index",
                               "efficiency", "speedup"};
  if (!s.included) {
    for (const char* key : kHIndexKeys) j[key] = nullptr;
    j["excluded_reason"] = s.excluded_reason;
    return j;
  }
  const models::HIndexResult& r = *s.result;
  j["gini"] = r.gini;
  j["change_point"] = r.change_point;
  j["change_point_fraction"] = r.change_point_fraction;
  j["area_l"] = r.area_l;
  j["area_lstar"] = r.area_lstar;
  j["h_index"] = r.h_index;
  j["efficiency"] = r.efficiency;
  j["speedup"] = r.speedup;
  j["has_change_point"] = r.has_change_point;
  j["degree"] = r.degree;
  j["min_segment"] = r.min_segment;
  j["gini_trapezoid"] = r.gini_trapezoid;
  j["above_1_5x_median"] = r.above_speculation_threshold;  // Spark speculation multiplier
  j["above_5x_median"] = r.above_skew_threshold;           // adaptive skew-join factor
  j["hill_alpha"] = r.hill.available ? json(r.hill.alpha) : json(nullptr);
  j["warnings"] = r.warnings;
  return j;
}

}  // namespace

std::string ToJson(const StragglersAnswer& answer) {
  json stages = json::array();
  for (const StageStragglers& s : answer.stages) stages.push_back(StageJson(s));
  json j = {
      {"application", answer.app_id},
      {"application_attempt", answer.attempt_id.empty() ? json(nullptr) : json(answer.attempt_id)},
      {"stages", std::move(stages)},
      {"h_job", Optional(answer.h_job)},
      {"stages_used", answer.stages_used},
      {"stages_excluded", answer.stages.size() - answer.stages_used}};
  if (!answer.h_job) j["h_job_note"] = answer.h_job_note;
  return JsonLine(j);
}

}  // namespace perfplan::planner
