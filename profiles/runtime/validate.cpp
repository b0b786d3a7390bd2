#include "profiles/runtime/validate.h"

#include "models/enum_names.h"
#include "profiles/detail/plain_profile.h"
#include "profiles/detail/profile_node.h"
#include "profiles/detail/yaml_fields.h"
#include "profiles/runtime/profile_reader.h"
#include "profiles/runtime/topology.h"

namespace perfplan::profiles {

namespace {
constexpr models::EnumName<DocumentKind> kDocumentKindNames[] = {
    {DocumentKind::kProfile, "profile"},
    {DocumentKind::kTopology, "topology"},
    {DocumentKind::kUnknown, "unknown"}};
}  // namespace

std::string_view ToString(DocumentKind kind) { return models::NameOf(kDocumentKindNames, kind); }

FileValidation ValidateFile(const std::string& path) {
  FileValidation out;
  out.file = path;
  std::optional<std::string> text = detail::ReadWholeFile(path, &out.problems);
  if (!text) return out;
  // A profile perfplan wrote, without problems, is read in one pass (plain_profile.h).
  if (detail::ReadPlainProfile(*text, path)) {
    out.kind = DocumentKind::kProfile;
    return out;
  }
  detail::FieldReader reader(path, &out.problems);
  std::optional<YAML::Node> root = reader.Parse(*text);
  if (!root) return out;
  const YAML::Node& document = *root;  // const: a lookup must not add the key it misses
  if (document["sites"]) {
    out.kind = DocumentKind::kTopology;
    out.problems = ParseTopology(*text, path).problems;
  } else if (document["runs"] || document["application"]) {
    out.kind = DocumentKind::kProfile;
    text.reset();  // the tree holds what the reader needs
    out.problems = detail::ParseProfileNode(document, path).problems;  // parsed once
  } else {
    out.problems.push_back({path, 1, "",
                            "not a perfplan profile (expected a \"runs\" key) or topology "
                            "(expected a \"sites\" key)"});
  }
  return out;
}

}  // namespace perfplan::profiles
