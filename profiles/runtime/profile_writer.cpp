#include "profiles/runtime/profile_writer.h"

#include <cstdio>
#include <sstream>
#include <string_view>
#include <utility>

#include "models/text.h"
#include "profiles/runtime/profile_reader.h"

namespace perfplan::profiles {
namespace {

using models::FormatNumber;

// A double-quoted YAML scalar (valid JSON string too).
std::string Quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

ProfileEntry Text(std::string key, std::string value) {
  return {std::move(key), ProfileEntry::Kind::kText, std::move(value)};
}
ProfileEntry Word(std::string key, std::string_view value) {
  return {std::move(key), ProfileEntry::Kind::kWord, std::string(value)};
}
ProfileEntry Number(std::string key, double value, bool count = false) {
  return {std::move(key), count ? ProfileEntry::Kind::kCount : ProfileEntry::Kind::kNumber, "",
          value};
}
ProfileEntry Flag(std::string key, bool value) {
  return {std::move(key), ProfileEntry::Kind::kFlag, "", 0, value};
}

std::string YamlValue(const ProfileEntry& e) {
  switch (e.kind) {
    case ProfileEntry::Kind::kText: return Quoted(e.text);
    case ProfileEntry::Kind::kWord: return e.text;
    case ProfileEntry::Kind::kFlag: return e.flag ? "true" : "false";
    case ProfileEntry::Kind::kNumber:
    case ProfileEntry::Kind::kCount: return FormatNumber(e.number);
  }
  return "";
}

}  // namespace

ProfileEntries ListProfileEntries(const models::RuntimeProfile& p, const std::string& profiled_site,
                                  const std::string& description) {
  ProfileEntries doc;
  doc.top.push_back(Number("schema_version", kProfileSchemaVersion, true));
  doc.top.push_back(Text("application", p.application));
  if (!description.empty()) doc.top.push_back(Text("description", description));
  if (!profiled_site.empty()) doc.top.push_back(Text("profiled_site", profiled_site));
  doc.top.push_back(Word("reduction_object_class",
                         models::ToString(p.reduction_object_class.value_or(
                             models::ReductionObjectClass::kConstant))));
  doc.top.push_back(Word("reduction_object_scaling", models::ToString(p.reduction_object_scaling)));
  doc.top.push_back(Word("global_reduction_class",
                         models::ToString(p.global_reduction_class.value_or(
                             models::GlobalReductionClass::kLinearConstant))));
  doc.top.push_back(
      Flag("retrieval_scales_with_storage_nodes", p.retrieval_scales_with_storage_nodes));
  if (p.reduction_communication) {
    doc.reduction_communication = {
        Number("seconds_per_byte", p.reduction_communication->seconds_per_byte),
        Number("fixed_seconds", p.reduction_communication->fixed_seconds)};
  }
  for (const models::ProfileRun& r : p.runs) {
    doc.runs.push_back({Number("dataset_bytes", r.dataset_bytes),
                        Number("storage_nodes", r.storage_nodes, true),
                        Number("compute_nodes", r.compute_nodes, true),
                        Number("bandwidth_bytes_per_second", r.bandwidth_bytes_per_second),
                        Number("disk_seconds", r.disk_seconds),
                        Number("network_seconds", r.network_seconds),
                        Number("compute_seconds", r.compute_seconds),
                        Number("reduction_object_bytes", r.reduction_object_bytes),
                        Number("reduction_seconds", r.reduction_seconds),
                        Number("global_reduction_seconds", r.global_reduction_seconds)});
  }
  return doc;
}

std::string WriteProfileYaml(const models::RuntimeProfile& p, const std::string& profiled_site,
                             const std::string& description,
                             const std::vector<std::string>& comments) {
  const ProfileEntries doc = ListProfileEntries(p, profiled_site, description);
  std::ostringstream os;
  for (const std::string& c : comments) os << "# " << c << "\n";
  for (const ProfileEntry& e : doc.top) os << e.key << ": " << YamlValue(e) << "\n";
  if (!doc.reduction_communication.empty()) {
    os << "reduction_communication:\n";
    for (const ProfileEntry& e : doc.reduction_communication) {
      os << "  " << e.key << ": " << YamlValue(e) << "\n";
    }
  }
  os << "runs:\n";
  for (const std::vector<ProfileEntry>& run : doc.runs) {
    for (std::size_t i = 0; i < run.size(); ++i) {
      os << (i == 0 ? "  - " : "    ") << run[i].key << ": " << YamlValue(run[i]) << "\n";
    }
  }
  return os.str();
}

}  // namespace perfplan::profiles
