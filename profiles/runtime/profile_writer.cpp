#include "profiles/runtime/profile_writer.h"

#include <cstdio>
#include <sstream>

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

}  // namespace

std::string WriteProfileYaml(const models::RuntimeProfile& p, const std::string& profiled_site,
                             const std::string& description,
                             const std::vector<std::string>& comments) {
  std::ostringstream os;
  for (const std::string& c : comments) os << "# " << c << "\n";
  os << "schema_version: " << kProfileSchemaVersion << "\n";
  os << "application: " << Quoted(p.application) << "\n";
  if (!description.empty()) os << "description: " << Quoted(description) << "\n";
  if (!profiled_site.empty()) os << "profiled_site: " << Quoted(profiled_site) << "\n";
  const models::ReductionObjectClass object =
      p.reduction_object_class.value_or(models::ReductionObjectClass::kConstant);
  const models::GlobalReductionClass global =
      p.global_reduction_class.value_or(models::GlobalReductionClass::kLinearConstant);
  os << "reduction_object_class: " << models::ToString(object) << "\n";
  os << "reduction_object_scaling: " << models::ToString(p.reduction_object_scaling) << "\n";
  os << "global_reduction_class: " << models::ToString(global) << "\n";
  os << "retrieval_scales_with_storage_nodes: "
     << (p.retrieval_scales_with_storage_nodes ? "true" : "false") << "\n";
  if (p.reduction_communication) {
    os << "reduction_communication:\n"
       << "  seconds_per_byte: " << FormatNumber(p.reduction_communication->seconds_per_byte)
       << "\n"
       << "  fixed_seconds: " << FormatNumber(p.reduction_communication->fixed_seconds) << "\n";
  }
  os << "runs:\n";
  for (const models::ProfileRun& r : p.runs) {
    os << "  - dataset_bytes: " << FormatNumber(r.dataset_bytes) << "\n"
       << "    storage_nodes: " << FormatNumber(r.storage_nodes) << "\n"
       << "    compute_nodes: " << FormatNumber(r.compute_nodes) << "\n"
       << "    bandwidth_bytes_per_second: " << FormatNumber(r.bandwidth_bytes_per_second) << "\n"
       << "    disk_seconds: " << FormatNumber(r.disk_seconds) << "\n"
       << "    network_seconds: " << FormatNumber(r.network_seconds) << "\n"
       << "    compute_seconds: " << FormatNumber(r.compute_seconds) << "\n"
       << "    reduction_object_bytes: " << FormatNumber(r.reduction_object_bytes) << "\n"
       << "    reduction_seconds: " << FormatNumber(r.reduction_seconds) << "\n"
       << "    global_reduction_seconds: " << FormatNumber(r.global_reduction_seconds) << "\n";
  }
  return os.str();
}

}  // namespace perfplan::profiles
