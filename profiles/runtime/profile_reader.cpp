#include "profiles/runtime/profile_reader.h"

#include "profiles/detail/plain_profile.h"
#include "profiles/detail/profile_node.h"
#include "profiles/detail/yaml_fields.h"
#include "profiles/runtime/topology.h"

namespace perfplan::profiles {
namespace {

using detail::FieldReader;
using detail::Range;

// Reads one run; problems go to the reader, fields with problems keep their defaults.
void ReadRun(FieldReader& r, const YAML::Node& node, const std::string& path,
             models::ProfileRun* run) {
  if (!r.ExpectMap(node, path, detail::RunKeys())) return;
  for (const detail::RunField& f : detail::kRunFields) {
    const char* key = f.key.data();  // each key is a string literal
    std::optional<double> v;
    if (f.check == detail::RunField::Check::kNodeCount) {
      if (auto n = r.Integer(node, path, key, 1, kMaxNodeCount, f.required)) {
        v = static_cast<double>(*n);
      }
    } else {
      v = r.Number(node, path, key,
                   f.check == detail::RunField::Check::kPositive ? Range::kPositive
                                                                 : Range::kNonNegative,
                   f.required);
    }
    if (v) run->*f.member = *v;
  }
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

const std::vector<std::string_view>& detail::RunKeys() {
  static const std::vector<std::string_view> keys = [] {
    std::vector<std::string_view> out;
    for (const RunField& f : kRunFields) out.push_back(f.key);
    out.push_back(kRunNoteKey);
    return out;
  }();
  return keys;
}

std::optional<double> detail::CheckRunField(const RunField& field, const std::string& text,
                                            bool quoted, std::string* problem) {
  if (field.check == RunField::Check::kNodeCount) {
    std::optional<long long> n = CheckInteger(text, quoted, 1, kMaxNodeCount, problem);
    if (!n) return std::nullopt;
    return static_cast<double>(*n);
  }
  return CheckNumber(text, quoted,
                     field.check == RunField::Check::kPositive ? Range::kPositive
                                                               : Range::kNonNegative,
                     problem);
}

Loaded<ProfileDocument> ParseProfile(const std::string& text, const std::string& file) {
  // The documents perfplan writes are read in one pass; anything else, and any document with a
  // problem, by yaml-cpp (which reports the problems).
  if (std::optional<ProfileDocument> plain = detail::ReadPlainProfile(text, file)) {
    return {std::move(*plain), {}};
  }
  return detail::ReadDocument<ProfileDocument>(
      text, file, [&file](FieldReader&, const YAML::Node& root, Loaded<ProfileDocument>& out) {
        out = detail::ParseProfileNode(root, file);
      });
}

Loaded<ProfileDocument> detail::ParseProfileNode(const YAML::Node& root,
                                                 const std::string& file) {
  Loaded<ProfileDocument> out;
  out.value.file = file;
  FieldReader r(file, &out.problems);
  r.ExpectMap(root, "", kProfileTopKeys);

  r.SchemaVersion(root, kProfileSchemaVersion);
  models::RuntimeProfile& p = out.value.profile;
  if (auto v = r.String(root, "", "application", true)) p.application = *v;
  if (auto v = r.String(root, "", "profiled_site", false)) out.value.profiled_site = *v;
  if (auto v =
          r.Choice(root, "", "reduction_object_class", kObjectClassChoices, false)) {
    models::ReductionObjectClass c;
    if (models::Parse(*v, &c)) p.reduction_object_class = c;  // "auto" leaves it open
  }
  if (auto v =
          r.Choice(root, "", "reduction_object_scaling", kObjectScalingChoices, false)) {
    models::Parse(*v, &p.reduction_object_scaling);
  }
  if (auto v = r.Choice(root, "", "global_reduction_class", kGlobalClassChoices, false)) {
    models::GlobalReductionClass c;
    if (models::Parse(*v, &c)) p.global_reduction_class = c;  // "auto" leaves it open
  }
  if (auto v = r.Bool(root, "", "retrieval_scales_with_storage_nodes")) {
    p.retrieval_scales_with_storage_nodes = *v;
  }
  if (const YAML::Node rc = root["reduction_communication"]) {
    if (r.ExpectMap(rc, "reduction_communication", kReductionCommunicationKeys)) {
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
  return detail::LoadFile(path, ParseProfile);
}

}  // namespace perfplan::profiles
