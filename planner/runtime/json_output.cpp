#include "planner/runtime/json_output.h"

#include <nlohmann/json.hpp>

#include "models/json_fields.h"
#include "models/json_text.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

json BreakdownJson(const models::Breakdown& b) {
  return PERFPLAN_JSON_FIELDS(b, disk_seconds, network_seconds, compute_seconds, reduction_seconds,
                              global_reduction_seconds);
}

json ScalingJson(const models::ScalingFactors& s) {
  return PERFPLAN_JSON_FIELDS(s, disk, network, compute);
}

json ModelJson(const models::ResolvedModel& m) {
  json j = {{"application", m.application},
            {"variant", models::ToString(m.variant)},
            {"retrieval_scales_with_storage_nodes", m.retrieval_scales_with_storage_nodes},
            {"profile_runs", m.runs.size()},
            {"notes", m.notes}};
  if (m.variant == models::ModelVariant::kReductions) {
    j["reduction_object_class"] = models::ToString(m.reduction_object_class);
    j["reduction_object_scaling"] = models::ToString(m.reduction_object_scaling);
    j["global_reduction_class"] = models::ToString(m.global_reduction_class);
    j["reduction_object_class_inferred"] = m.reduction_object_class_inferred;
    j["global_reduction_class_inferred"] = m.global_reduction_class_inferred;
    j["reduction_communication"] = {
        {"seconds_per_byte", m.reduction_communication.seconds_per_byte},
        {"fixed_seconds", m.reduction_communication.fixed_seconds},
        {"fitted", m.reduction_communication_fitted}};
  }
  return j;
}

json RunJson(const models::ProfileRun& r) {
  return PERFPLAN_JSON_FIELDS(r, dataset_bytes, storage_nodes, compute_nodes,
                              bandwidth_bytes_per_second, disk_seconds, network_seconds,
                              compute_seconds, reduction_object_bytes, reduction_seconds,
                              global_reduction_seconds);
}

std::string Dump(const json& j) { return JsonLine(j); }

}  // namespace

std::string ToJson(const PredictAnswer& a) {
  const models::Target& t = a.target;
  json j = {{"application", a.model.application},
            {"runtime_seconds", a.prediction.runtime_seconds},
            {"breakdown", BreakdownJson(a.prediction.breakdown)},
            {"model", ModelJson(a.model)},
            {"reduction_object_bytes", a.prediction.reduction_object_bytes},
            {"inputs",
             {{"profile", a.profile_file},
              {"reference_run", a.prediction.reference_run},
              {"reference", RunJson(a.model.runs[a.prediction.reference_run])},
              {"target", PERFPLAN_JSON_FIELDS(t, dataset_bytes, storage_nodes, compute_nodes,
                                              bandwidth_bytes_per_second)},
              {"scaling", ScalingJson(t.scaling)},
              {"profiled_site", a.profiled_site.empty() ? json(nullptr) : json(a.profiled_site)},
              {"site", a.site.empty() ? json(nullptr) : json(a.site)}}},
            {"warnings", a.prediction.warnings}};
  return Dump(j);
}

std::string ToJson(const SelectAnswer& a) {
  json alternatives = json::array();
  for (const Alternative& alt : a.selection.alternatives) {
    json row = PERFPLAN_JSON_FIELDS(alt, replica_site, compute_site, compute_nodes, storage_nodes,
                                    bandwidth_bytes_per_second, latency_seconds, runtime_seconds,
                                    node_seconds, warnings);
    row["breakdown"] = BreakdownJson(alt.breakdown);
    row["scaling"] = ScalingJson(alt.scaling);
    alternatives.push_back(std::move(row));
  }
  json j = {{"dataset", a.selection.dataset},
            {"dataset_bytes", a.selection.dataset_bytes},
            {"objective", ToString(a.selection.objective)},
            {"evaluated", a.selection.evaluated},
            {"over_deadline", a.selection.over_deadline},
            {"model", ModelJson(a.model)},
            {"inputs", {{"profile", a.profile_file}, {"topology", a.topology_file}}},
            {"alternatives", alternatives}};
  return Dump(j);
}

std::string ToJson(const ValidateAnswer& a) {
  json files = json::array();
  json problems = json::array();
  for (const profiles::FileValidation& f : a.files) {
    files.push_back(
        {{"file", f.file}, {"kind", profiles::ToString(f.kind)}, {"problems", f.problems.size()}});
    for (const profiles::Problem& p : f.problems) {
      problems.push_back(PERFPLAN_JSON_FIELDS(p, file, line, field, message));
    }
  }
  return Dump({{"files", files}, {"problems", problems}});
}

std::string ErrorToJson(const Status& status) {
  std::string code = "failed";
  if (status.code() == StatusCode::kInvalidArgument) code = "invalid_argument";
  if (status.code() == StatusCode::kNotFound) code = "not_found";
  json field = nullptr;
  if (!status.field().empty()) field = status.field();
  return Dump({{"error", code}, {"message", status.message()}, {"field", field}});
}

}  // namespace perfplan::planner
