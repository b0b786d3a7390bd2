// ToJson(CapacityAnswer). nlohmann::json stays here.
#include <nlohmann/json.hpp>

#include "models/json_text.h"

#include "planner/plan/capacity.h"

namespace perfplan::planner {

std::string ToJson(const CapacityAnswer& a) {
  using nlohmann::json;
  json rows = json::array();
  for (const CapacityRow& r : a.rows) {
    json row = {{"nodes", r.nodes},
                {"makespan_seconds", r.replay.makespan_seconds},
                {"mean_queue_seconds", r.replay.mean_queue_seconds},
                {"p95_queue_seconds", r.replay.p95_queue_seconds},
                {"max_queue_seconds", r.replay.max_queue_seconds},
                {"utilisation", r.replay.utilisation},
                {"busy_node_seconds", r.replay.busy_slot_seconds},
                {"clamped_jobs", r.replay.clamped_jobs},
                {"extrapolated_jobs", r.extrapolated_jobs},
                {"within_target", r.within_target}};
    row["cost"] = r.priced ? json({{"cost", r.cost.cost},
                                   {"list_cost", r.cost.list_cost},
                                   {"billed_node_hours", r.cost.billed_node_hours}})
                           : json(nullptr);
    rows.push_back(row);
  }
  const CapacityRequest& q = a.request;
  json j = {{"inputs",
             {{"trace", q.trace_file.empty() ? json(nullptr) : json(q.trace_file)},
              {"store", q.store_path.empty() ? json(nullptr) : json(q.store_path)},
              {"profile", q.profile_file.empty() ? json(nullptr) : json(q.profile_file)},
              {"runs", q.runs_file.empty() ? json(nullptr) : json(q.runs_file)},
              {"workload", q.workload.empty() ? json(nullptr) : json(q.workload)},
              {"prices", q.price_file.empty() ? json(nullptr) : json(q.price_file)},
              {"price_site", q.price_site.empty() ? json(nullptr) : json(q.price_site)}}},
            {"jobs", a.jobs},
            {"window",
             q.store_path.empty()
                 ? json(nullptr)
                 : json({{"stored_jobs", a.stored_jobs},
                         {"from_ms", a.window_from_ms ? json(*a.window_from_ms) : json(nullptr)},
                         {"to_ms", a.window_to_ms ? json(*a.window_to_ms) : json(nullptr)},
                         {"chosen_by", a.window_chosen_by}})},
            {"trace_span_seconds", a.trace_span_seconds},
            {"map_input_bytes", a.map_input_bytes},
            {"split_bytes", q.split_bytes},
            {"sources",
             {{"runtime", a.runtime_model},
              {"schedule",
               "FIFO replay of the jobs' submit times over the cluster's nodes "
               "(one split per node, jobs wider than the cluster clamped)"}}},
            {"currency", a.currency.empty() ? json(nullptr) : json(a.currency)},
            {"within_hours", q.within_hours > 0 ? json(q.within_hours) : json(nullptr)},
            {"smallest_within", a.smallest_within ? json(*a.smallest_within) : json(nullptr)},
            {"sizes", rows},
            {"warnings", a.warnings}};
  return JsonLine(j);
}

}  // namespace perfplan::planner
