#include "profiles/runtime/validate.h"

#include "profiles/detail/yaml_fields.h"
#include "profiles/runtime/profile_reader.h"
#include "profiles/runtime/topology.h"

namespace perfplan::profiles {

std::string_view ToString(DocumentKind kind) {
  switch (kind) {
    case DocumentKind::kProfile:
      return "profile";
    case DocumentKind::kTopology:
      return "topology";
    case DocumentKind::kUnknown:
      return "unknown";
  }
  return "unknown";
}

FileValidation ValidateFile(const std::string& path) {
  FileValidation out;
  out.file = path;
  std::optional<std::string> text = detail::ReadWholeFile(path, &out.problems);
  if (!text) return out;
  detail::FieldReader reader(path, &out.problems);
  std::optional<YAML::Node> root = reader.Parse(*text);
  if (!root) return out;
  if ((*root)["sites"]) {
    out.kind = DocumentKind::kTopology;
    out.problems = ParseTopology(*text, path).problems;
  } else if ((*root)["runs"] || (*root)["application"]) {
    out.kind = DocumentKind::kProfile;
    out.problems = ParseProfile(*text, path).problems;
  } else {
    out.problems.push_back({path, 1, "",
                            "not a perfplan profile (expected a \"runs\" key) or topology "
                            "(expected a \"sites\" key)"});
  }
  return out;
}

}  // namespace perfplan::profiles
