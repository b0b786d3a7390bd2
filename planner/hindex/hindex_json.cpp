#include <nlohmann/json.hpp>
#include <type_traits>
#include <variant>

#include "models/json_fields.h"
#include "models/json_text.h"
#include "planner/hindex/hindex.h"
#include "planner/hindex/hindex_fields.h"
#include "planner/hindex/hindex_json_object.h"
#include "planner/hindex/stragglers.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

json Value(const HIndexValue& v) {
  return std::visit(
      [](const auto& x) -> json {
        if constexpr (std::is_same_v<std::decay_t<decltype(x)>, std::monostate>) {
          return nullptr;
        } else {
          return x;
        }
      },
      v);
}

// The H-index keys of one result (planner/hindex/hindex_fields.h), warnings, and bic when the
// degree was chosen.
json ResultJson(const models::HIndexResult& r) {
  json j = json::object();
  for (const HIndexField& f : HIndexFields(r)) j[std::string(f.key)] = Value(f.value);
  j["warnings"] = r.warnings;
  if (!r.bic.empty()) j["bic"] = r.bic;
  return j;
}

}  // namespace

// A stage attempt of `perfplan stragglers`: its own keys, then the H-index keys of its result
// (every one null for a stage left out of h_job, which says why in excluded_reason).
json StageStragglersJson(const StageStragglers& s) {
  json j = PERFPLAN_JSON_FIELDS(s, stage_id, attempt_id, task_seconds, included, weight);
  j["n"] = s.tasks;
  j["max_over_median"] = OrNull(s.max_over_median);
  if (!s.included) {
    for (std::string_view key : HIndexKeys()) j.emplace(std::string(key), nullptr);
    j["warnings"] = json::array();
    j["excluded_reason"] = s.excluded_reason;
    return j;
  }
  const json result = ResultJson(*s.result);
  for (const auto& item : result.items()) j.emplace(item.key(), item.value());
  return j;
}


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
  j["h_job"] = OrNull(answer.h_job);
  return JsonLine(j);
}

std::string ToJson(const SimulateHIndexAnswer& answer) {
  const models::HIndexSimulationResult& r = answer.result;
  const models::HIndexOptions& h = answer.options.hindex;
  json j = PERFPLAN_JSON_FIELDS(r, mean_change_point, mean_h_index, median_h_index, sd_h_index,
                                mean_change_point_fraction, mean_gini, failed_reps,
                                reps_without_change_point, warnings);
  j.update(PERFPLAN_JSON_FIELDS(answer, mixture, seed));
  j.update(PERFPLAN_JSON_FIELDS(answer.options, n, reps));
  j["true_h_index"] = r.truth.h_index;
  j["true_area_l"] = r.truth.area_l;
  j["true_area_lstar"] = r.truth.area_baseline;
  j["reps_used"] = r.reps;
  j["degree"] = h.choose_degree ? json("bic") : json(h.degree);
  j["min_segment"] = models::EffectiveMinSegment(h, answer.options.n);
  return JsonLine(j);
}

std::string ToJson(const StragglersAnswer& answer) {
  json stages = json::array();
  for (const StageStragglers& s : answer.stages) stages.push_back(StageStragglersJson(s));
  json j = {
      {"application", answer.app_id},
      {"application_attempt", answer.attempt_id.empty() ? json(nullptr) : json(answer.attempt_id)},
      {"stages", std::move(stages)},
      {"h_job", OrNull(answer.h_job)},
      {"stages_used", answer.stages_used},
      {"stages_excluded", answer.stages.size() - answer.stages_used}};
  if (!answer.h_job) j["h_job_note"] = answer.h_job_note;
  return JsonLine(j);
}

}  // namespace perfplan::planner
