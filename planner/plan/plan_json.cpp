// ToJson(PlanAnswer): one document, every number next to its source. nlohmann::json stays here.
#include <nlohmann/json.hpp>

#include "models/json_text.h"

#include "planner/plan/plan.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

json SourceJson(const PlanSource& s) {
  return {{"model", s.model},
          {"file", s.file},
          {"runs", s.runs},
          {"command", s.command},
          {"notes", s.notes}};
}

json AlternativeJson(const PlanAlternative& a, const std::string& currency) {
  const Alternative& s = a.select;
  json j = {{"compute_nodes", s.compute_nodes},
            {"storage_nodes", s.storage_nodes},
            {"bandwidth_bytes_per_second", s.bandwidth_bytes_per_second},
            {"runtime_seconds", s.runtime_seconds},
            {"node_seconds", s.node_seconds},
            {"breakdown",
             {{"disk_seconds", s.breakdown.disk_seconds},
              {"network_seconds", s.breakdown.network_seconds},
              {"compute_seconds", s.breakdown.compute_seconds},
              {"reduction_seconds", s.breakdown.reduction_seconds},
              {"global_reduction_seconds", s.breakdown.global_reduction_seconds}}},
            {"select_rank", a.select_rank},
            {"feasible", a.feasible},
            {"within_budget", a.within_budget},
            {"allowed_site", a.allowed_site},
            {"on_front", a.on_front}};
  if (a.instance_type.empty()) {
    j["replica_site"] = s.replica_site;
    j["compute_site"] = s.compute_site;
  } else {
    j["instance_type"] = a.instance_type;
  }
  if (a.interval) {
    j["interval"] = {{"low_seconds", a.interval->low_seconds},
                     {"high_seconds", a.interval->high_seconds},
                     {"widening", a.interval_widening},
                     {"short_of_points", a.interval->short_of_points}};
  } else {
    j["interval"] = nullptr;
  }
  if (a.priced) {
    j["cost"] = {{"cost", a.cost.cost},
                 {"list_cost", a.cost.list_cost},
                 {"currency", currency},
                 {"billed_seconds_per_node", a.cost.billed_seconds_per_node},
                 {"billed_node_hours", a.cost.billed_node_hours}};
  } else {
    j["cost"] = nullptr;
  }
  return j;
}

}  // namespace

std::string ToJson(const PlanAnswer& a) {
  const PlanRequest& r = a.request;
  json alternatives = json::array();
  for (const PlanAlternative& alt : a.alternatives) {
    alternatives.push_back(AlternativeJson(alt, a.currency));
  }
  json front = json::array();
  for (std::size_t i : a.front) front.push_back(i);
  json j = {
      {"dataset", a.dataset},
      {"dataset_bytes", a.dataset_bytes},
      {"objective", ToString(r.objective)},
      {"constraints",
       {{"deadline_seconds", r.deadline_seconds > 0 ? json(r.deadline_seconds) : json(nullptr)},
        {"budget", r.budget > 0 ? json(r.budget) : json(nullptr)},
        {"max_nodes", r.max_nodes > 0 ? json(r.max_nodes) : json(nullptr)},
        {"allowed_sites", r.allowed_sites},
        {"allowed_types", r.allowed_types}}},
      {"evidence", a.evidence == PlanEvidence::kProfile ? "profile" : "runs"},
      {"inputs",
       a.evidence == PlanEvidence::kProfile
           ? json({{"profile", r.profile_file},
                   {"topology", r.topology_file},
                   {"prices", a.price_source.empty() ? json(nullptr) : json(a.price_source)}})
           : json({{"runs", r.runs_file},
                   {"workload", r.workload},
                   {"prices", a.price_source.empty() ? json(nullptr) : json(a.price_source)}})},
      {"currency", a.currency.empty() ? json(nullptr) : json(a.currency)},
      {"interval_level", a.evidence == PlanEvidence::kRunsCsv ? json(a.interval_level)
                                                             : json(nullptr)},
      {"sources",
       {{"runtime", SourceJson(a.runtime_source)},
        {"cost", a.price_source.empty()
                     ? json(nullptr)
                     : json({{"file", a.price_source},
                             {"model",
                              "price per node-hour × billed compute node-hours "
                              "(minimum billing period, increment, discount)"}})}}},
      {"recommendation",
       a.chosen ? json({{"alternative", *a.chosen},
                        {"because", a.chosen_because},
                        {"plan", AlternativeJson(a.alternatives[*a.chosen], a.currency)}})
                : json(nullptr)},
      {"front", front},
      {"counts",
       {{"evaluated", a.evaluated},
        {"over_deadline", a.over_deadline},
        {"over_budget", a.over_budget},
        {"unpriced", a.unpriced},
        {"excluded_sites", a.excluded_sites}}},
      {"alternatives", alternatives},
      {"warnings", a.warnings}};
  return JsonLine(j);
}

}  // namespace perfplan::planner
