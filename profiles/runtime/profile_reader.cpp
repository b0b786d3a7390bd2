#include "profiles/runtime/profile_reader.h"

#include "profiles/detail/profile_node.h"
#include "profiles/detail/yaml_fields.h"
#include "profiles/runtime/topology.h"

namespace perfplan::profiles {
namespace {

using detail::FieldReader;
using detail::Range;

const std::vector<std::string_view> kTopKeys = {
    "schema_version", "application", "description", "profiled_site", "reduction_object_class",
    "reduction_object_scaling", "global_reduction_class", "retrieval_scales_with_storage_nodes",
    "reduction_communication", "runs",
    // written by `perfplan fit --json` (residuals,
    // runs used); informational, not read
    "fit"};
const std::vector<std::string_view> kRunKeys = {"dataset_bytes",
                                                "storage_nodes",
                                                "compute_nodes",
                                                "bandwidth_bytes_per_second",
                                                "disk_seconds",
                                                "network_seconds",
                                                "compute_seconds",
                                                "reduction_object_bytes",
                                                "reduction_seconds",
                                                "global_reduction_seconds",
                                                "note"};

// Reads one run; problems go to the reader, fields with problems keep their defaults.
void ReadRun(FieldReader& r, const YAML::Node& node, const std::string& path,
             models::ProfileRun* run) {
  if (!r.ExpectMap(node, path, kRunKeys)) return;
  auto positive = [&](const char* key, double* out) {
    if (auto v = r.Number(node, path, key, Range::kPositive, true)) *out = *v;
  };
  auto non_negative = [&](const char* key, double* out, bool required) {
    if (auto v = r.Number(node, path, key, Range::kNonNegative, required)) *out = *v;
  };
  positive("dataset_bytes", &run->dataset_bytes);
  auto count = [&](const char* key, double* out) {
    if (auto v = r.Integer(node, path, key, 1, kMaxNodeCount, true)) *out = static_cast<double>(*v);
  };
  count("storage_nodes", &run->storage_nodes);
  count("compute_nodes", &run->compute_nodes);
  positive("bandwidth_bytes_per_second", &run->bandwidth_bytes_per_second);
  non_negative("disk_seconds", &run->disk_seconds, true);
  non_negative("network_seconds", &run->network_seconds, true);
  non_negative("compute_seconds", &run->compute_seconds, true);
  non_negative("reduction_object_bytes", &run->reduction_object_bytes, false);
  non_negative("reduction_seconds", &run->reduction_seconds, false);
  non_negative("global_reduction_seconds", &run->global_reduction_seconds, false);
}

// The model reports "runs[I].FIELD: message" or "FIELD: message"; point at that node.
Problem LocateModelProblem(const Status& status, const YAML::Node& root, const std::string& file) {
  const std::string& text = status.message();
  Problem problem{file, root.Mark().line + 1, "", text};
  const std::size_t colon = text.find(": ");
  if (colon == std::string::npos) return problem;
  const std::string field = text.substr(0, colon);
  YAML::Node node;
  if (field.rfind("runs[", 0) == 0) {
    const std::size_t close = field.find("].");
    if (close == std::string::npos) return problem;
    const std::size_t index = std::stoul(field.substr(5, close - 5));
    node = root["runs"][index][field.substr(close + 2)];
  } else {
    node = root[field];
  }
  if (!node) return problem;
  return {file, node.Mark().line + 1, field, text.substr(colon + 2)};
}

}  // namespace

Loaded<ProfileDocument> ParseProfile(const std::string& text, const std::string& file) {
  Loaded<ProfileDocument> out;
  out.value.file = file;
  FieldReader r(file, &out.problems);
  std::optional<YAML::Node> root = r.Parse(text);
  if (!root) return out;
  return detail::ParseProfileNode(*root, file);
}

Loaded<ProfileDocument> detail::ParseProfileNode(const YAML::Node& root,
                                                 const std::string& file) {
  Loaded<ProfileDocument> out;
  out.value.file = file;
  FieldReader r(file, &out.problems);
  r.ExpectMap(root, "", kTopKeys);

  r.SchemaVersion(root, kProfileSchemaVersion);
  models::RuntimeProfile& p = out.value.profile;
  if (auto v = r.String(root, "", "application", true)) p.application = *v;
  if (auto v = r.String(root, "", "profiled_site", false)) out.value.profiled_site = *v;
  if (auto v =
          r.Choice(root, "", "reduction_object_class", {"constant", "linear", "auto"}, false)) {
    models::ReductionObjectClass c;
    if (models::Parse(*v, &c)) p.reduction_object_class = c;  // "auto" leaves it open
  }
  if (auto v =
          r.Choice(root, "", "reduction_object_scaling", {"dataset", "compute-nodes"}, false)) {
    models::Parse(*v, &p.reduction_object_scaling);
  }
  if (auto v = r.Choice(root, "", "global_reduction_class",
                        {"linear-constant", "constant-linear", "auto"}, false)) {
    models::GlobalReductionClass c;
    if (models::Parse(*v, &c)) p.global_reduction_class = c;  // "auto" leaves it open
  }
  if (auto v = r.Bool(root, "", "retrieval_scales_with_storage_nodes")) {
    p.retrieval_scales_with_storage_nodes = *v;
  }
  if (const YAML::Node rc = root["reduction_communication"]) {
    if (r.ExpectMap(rc, "reduction_communication", {"seconds_per_byte", "fixed_seconds"})) {
      auto a =
          r.Number(rc, "reduction_communication", "seconds_per_byte", Range::kNonNegative, true);
      auto b = r.Number(rc, "reduction_communication", "fixed_seconds", Range::kNonNegative, true);
      if (a && b) p.reduction_communication = models::ReductionCommunication{*a, *b};
    }
  }
  if (std::optional<YAML::Node> runs = r.Sequence(root, "", "runs", true)) {
    if (runs->size() == 0) r.Report(*runs, "runs", "expected at least 1 profile run, got 0");
    for (std::size_t i = 0; i < runs->size(); ++i) {
      models::ProfileRun run;
      ReadRun(r, (*runs)[i], FieldReader::Index("runs", i), &run);
      p.runs.push_back(run);
    }
  }
  if (out.ok()) {
    // Cross-field checks belong to the model (compute time includes the reductions, class
    // inference needs varied runs, …); locate its message in the document when it names a run.
    Result<models::ResolvedModel> resolved = models::ResolveModel(p);
    if (!resolved.ok()) out.problems.push_back(LocateModelProblem(resolved.status(), root, file));
  }
  return out;
}

Loaded<ProfileDocument> LoadProfile(const std::string& path) {
  Loaded<ProfileDocument> out;
  std::optional<std::string> text = detail::ReadWholeFile(path, &out.problems);
  if (!text) return out;
  return ParseProfile(*text, path);
}

}  // namespace perfplan::profiles
