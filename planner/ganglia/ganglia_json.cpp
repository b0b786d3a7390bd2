// JSON documents for the Ganglia answers (DESIGN §6: collect ganglia → samples, hosts, metrics).
#include <nlohmann/json.hpp>

#include "planner/ganglia/ganglia_collect.h"
#include "planner/scoring/task_scoring.h"
#include "models/json_text.h"

namespace perfplan::planner {

std::string ToJson(const CollectAnswer& a) {
  nlohmann::json j = {{"source", a.source},
                      {"kind", a.kind},
                      {"samples", a.samples},
                      {"samples_seen", a.samples_seen},
                      {"hosts", a.hosts},
                      {"metrics", a.metrics},
                      {"polls", a.polls},
                      {"failed_polls", a.failed_polls},
                      {"interrupted", a.interrupted},
                      {"warnings", a.warnings}};
  return JsonLine(j);
}

namespace {
nlohmann::json Optional(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}
}  // namespace

std::string ToJson(const ScoreAnswer& a) {
  const models::ScoreResult& r = a.result;
  nlohmann::json dims = nlohmann::json::array();
  for (const models::DimensionScore& d : r.dimensions) {
    dims.push_back({{"name", d.name},
                    {"value", Optional(d.value)},
                    {"baseline", Optional(d.baseline)},
                    {"worst", Optional(d.worst)},
                    {"score", Optional(d.score)},
                    {"weight", d.weight},
                    {"note", d.note}});
  }
  nlohmann::json explanation = nlohmann::json::array();
  for (std::size_t j : r.worst_first) explanation.push_back(r.dimensions[j].name);
  nlohmann::json j = {{"app_id", a.app_id},
                      {"score", r.score},
                      {"task_type", std::string(models::ToString(r.type))},
                      {"provisional", r.provisional},
                      {"provisional_reasons", r.provisional_reasons},
                      {"dimensions", dims},
                      {"explanation", explanation},
                      {"alpha_sources", a.alpha_sources},
                      {"warnings", a.warnings}};
  return JsonLine(j);
}

}  // namespace perfplan::planner
