#include "planner/hindex/hindex_json.h"

#include <nlohmann/json.hpp>

#include "models/json_text.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

json HillJson(const models::HillEstimate& h) {
  json j = {{"available", h.available},
            {"alpha", h.available ? json(h.alpha) : json(nullptr)},
            {"k", h.k},
            {"rule", models::ToString(h.rule)}};
  if (!h.note.empty()) j["note"] = h.note;
  return j;
}

// The DESIGN §6 keys first, then diagnostics.
json ResultJson(const models::HIndexResult& r) {
  json j = {{"n", r.n},
            {"gini", r.gini},
            {"change_point", r.change_point},
            {"change_point_fraction", r.change_point_fraction},
            {"area_l", r.area_l},
            {"area_lstar", r.area_lstar},
            {"h_index", r.h_index},
            {"efficiency", r.efficiency},
            {"speedup", r.speedup},
            {"gini_trapezoid", r.gini_trapezoid},
            {"area_l_trapezoid", r.area_l_trapezoid},
            {"has_change_point", r.has_change_point},
            {"degree", r.degree},
            {"min_segment", r.min_segment},
            {"sse", r.sse},
            {"total", r.total},
            {"max_over_median", r.max_over_median ? json(*r.max_over_median) : json(nullptr)},
            {"above_1_5x_median", r.above_speculation_threshold},
            {"above_5x_median", r.above_skew_threshold},
            {"hill", HillJson(r.hill)},
            {"warnings", r.warnings}};
  if (!r.bic.empty()) j["bic"] = r.bic;
  return j;
}

}  // namespace

std::string ToJson(const HIndexAnswer& answer) {
  json j = ResultJson(answer.pooled);
  j["file"] = answer.file;
  j["format"] = answer.format;
  json tasks = json::array();
  for (const TaskHIndexAnswer& t : answer.tasks) {
    json tj = ResultJson(t.result);
    tj["task_id"] = t.task_id;
    tj["task_seconds"] = t.task_seconds;
    tj["weight"] = t.weight;
    tasks.push_back(std::move(tj));
  }
  j["tasks"] = std::move(tasks);
  j["h_job"] = answer.h_job ? json(*answer.h_job) : json(nullptr);
  return JsonLine(j);
}

std::string ToJson(const SimulateHIndexAnswer& answer) {
  const models::HIndexSimulationResult& r = answer.result;
  const models::HIndexOptions& h = answer.options.hindex;
  json j = {{"true_h_index", r.truth.h_index},
            {"mean_change_point", r.mean_change_point},
            {"mean_h_index", r.mean_h_index},
            {"median_h_index", r.median_h_index},
            {"sd_h_index", r.sd_h_index},
            {"mean_change_point_fraction", r.mean_change_point_fraction},
            {"mean_gini", r.mean_gini},
            {"true_area_l", r.truth.area_l},
            {"true_area_lstar", r.truth.area_baseline},
            {"mixture", answer.mixture},
            {"n", answer.options.n},
            {"reps", answer.options.reps},
            {"reps_used", r.reps},
            {"failed_reps", r.failed_reps},
            {"reps_without_change_point", r.reps_without_change_point},
            {"degree", h.choose_degree ? json("bic") : json(h.degree)},
            {"min_segment", models::EffectiveMinSegment(h, answer.options.n)},
            {"seed", answer.seed},
            {"warnings", r.warnings}};
  return JsonLine(j);
}

}  // namespace perfplan::planner
