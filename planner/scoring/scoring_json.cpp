// JSON of `perfplan score`, `perfplan scores` and `perfplan label` (planner/scoring/).
#include <map>
#include <nlohmann/json.hpp>

#include "models/json_fields.h"
#include "models/json_text.h"
#include "planner/mapreduce/mapreduce_api.h"
#include "planner/scoring/spark_scoring.h"
#include "planner/scoring/task_scoring.h"

namespace perfplan::planner {
namespace {

// The document of one score: `perfplan score --json` and each entry of `perfplan scores --json`.
nlohmann::json ScoreJson(const ScoreAnswer& a) {
  const models::ScoreResult& r = a.result;
  nlohmann::json dims = nlohmann::json::array();
  for (const models::DimensionScore& d : r.dimensions) {
    dims.push_back({{"name", d.name},
                    {"value", OrNull(d.value)},
                    {"baseline", OrNull(d.baseline)},
                    {"worst", OrNull(d.worst)},
                    {"best", OrNull(d.best)},
                    {"score", OrNull(d.score)},
                    {"weight", d.weight},
                    {"note", d.note}});
  }
  nlohmann::json explanation = nlohmann::json::array();
  for (std::size_t j : r.worst_first) explanation.push_back(r.dimensions[j].name);
  nlohmann::json j = {{"app_id", a.app_id},
                      {"kind", IsMapReduceJobId(a.app_id) ? "mapreduce" : "spark"},
                      {"score", r.score},
                      {"max_score", models::kMaxScore},
                      {"comparable_runs", r.comparable_runs},
                      {"comparison", a.comparison},
                      {"task_type", std::string(models::ToString(r.type))},
                      {"provisional", r.provisional},
                      {"provisional_reasons", r.provisional_reasons},
                      {"dimensions", dims},
                      {"explanation", explanation},
                      {"alpha_sources", a.alpha_sources},
                      {"warnings", a.warnings}};
  return j;
}

}  // namespace

std::string ToJson(const ScoreAnswer& a) { return JsonLine(ScoreJson(a)); }

std::string LabelToJson(const std::string& app_id, models::TaskType type) {
  nlohmann::json j = {
      {"app_id", app_id}, {"task_type", std::string(models::ToString(type))}, {"stored", true}};
  return JsonLine(j);
}

std::string ToJson(const std::vector<ScoreAnswer>& answers) {
  nlohmann::json apps = nlohmann::json::array();
  // Each answer's document is the one `perfplan score --json` prints, so the two never differ.
  for (const ScoreAnswer& a : answers) apps.push_back(ScoreJson(a));
  nlohmann::json j = {{"applications", apps}};
  return JsonLine(j);
}

std::string ToJson(const ClassifyAnswer& answer) {
  nlohmann::json apps = nlohmann::json::array();
  std::map<int, int> sizes;
  for (const ClassifiedRun& r : answer.runs) {
    ++sizes[r.cluster];
    apps.push_back({{"app_id", r.app_id},
                    {"cluster", r.cluster},
                    {"task_type", std::string(models::ToString(r.type))},
                    {"hint", r.hint ? nlohmann::json(std::string(models::ToString(*r.hint)))
                                    : nlohmann::json(nullptr)}});
  }
  nlohmann::json clusters = nlohmann::json::array();
  for (std::size_t c = 0; c < answer.labels.types.size(); ++c) {
    clusters.push_back({{"cluster", c},
                        {"task_type", std::string(models::ToString(answer.labels.types[c]))},
                        {"size", sizes[static_cast<int>(c)]}});
  }
  nlohmann::json j = {
      {"applications", apps}, {"clusters", clusters}, {"warnings", answer.warnings}};
  return JsonLine(j);
}

}  // namespace perfplan::planner
