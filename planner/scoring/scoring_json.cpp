// JSON of `perfplan label` and `perfplan scores` (planner/scoring/spark_scoring.h).
#include <map>
#include <nlohmann/json.hpp>

#include "planner/scoring/spark_scoring.h"
#include "models/json_text.h"

namespace perfplan::planner {

std::string LabelToJson(const std::string& app_id, models::TaskType type) {
  nlohmann::json j = {
      {"app_id", app_id}, {"task_type", std::string(models::ToString(type))}, {"stored", true}};
  return JsonLine(j);
}

std::string ToJson(const std::vector<ScoreAnswer>& answers) {
  nlohmann::json apps = nlohmann::json::array();
  // Each answer's document is the one `perfplan score --json` prints, so the two never differ.
  for (const ScoreAnswer& a : answers) apps.push_back(nlohmann::json::parse(ToJson(a)));
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
