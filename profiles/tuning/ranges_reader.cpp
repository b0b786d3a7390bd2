#include "profiles/tuning/ranges_reader.h"

#include <set>

#include "profiles/detail/yaml_fields.h"

namespace perfplan::profiles {
namespace {

using detail::FieldReader;
using detail::Range;

int LineOf(const YAML::Node& n) { return n.Mark().line >= 0 ? n.Mark().line + 1 : 0; }

void ReadRanges(FieldReader& r, const YAML::Node& root, Loaded<RangesFile>& out) {
  if (!root.IsMap()) {
    r.Report(root, "", "expected a mapping of parameter names to {min, max, default}");
    return;
  }
  YAML::Node params = root;
  std::string prefix;
  if (root["parameters"]) {
    if (!r.ExpectMap(root, "", {"schema_version", "parameters"})) return;
    if (root["schema_version"]) r.SchemaVersion(root, 1);
    params = root["parameters"];
    prefix = "parameters";
    if (!params.IsMap()) {
      r.Report(params, prefix, "expected a mapping of parameter names to {min, max, default}");
      return;
    }
  }
  std::set<std::string> seen;
  for (auto it = params.begin(); it != params.end(); ++it) {
    const std::string name = it->first.Scalar();
    const std::string path = FieldReader::Join(prefix, name);
    if (!seen.insert(name).second) {
      r.Report(it->first, path, "given twice");
      continue;
    }
    const YAML::Node node = it->second;
    if (!r.ExpectMap(node, path, {"min", "max", "default"})) {
      if (!node.IsMap()) r.Report(node, path, "expected {min: N, max: N, default: N}");
      continue;
    }
    ParameterRange p;
    p.name = name;
    p.line = LineOf(node);
    auto lo = r.Number(node, path, "min", Range::kAny, true);
    auto hi = r.Number(node, path, "max", Range::kAny, true);
    auto def = r.Number(node, path, "default", Range::kAny, false);
    if (!lo || !hi) continue;
    p.min = *lo;
    p.max = *hi;
    if (p.min > p.max) {
      r.Report(node, path, "min " + node["min"].Scalar() + " is above max " + node["max"].Scalar());
      continue;
    }
    if (def) {
      if (*def < p.min || *def > p.max) {
        r.Report(node["default"], FieldReader::Join(path, "default"),
                 node["default"].Scalar() + " is outside [min, max]");
        continue;
      }
      p.has_default = true;
      p.default_value = *def;
    }
    out.value.parameters.push_back(p);
  }
  if (out.problems.empty() && out.value.parameters.empty()) {
    r.Report(params, prefix, "no parameters");
  }
}

}  // namespace

Loaded<RangesFile> ParseRangesFile(const std::string& text, const std::string& file) {
  return detail::ReadDocument<RangesFile>(text, file, ReadRanges);
}

Loaded<RangesFile> ReadRangesFile(const std::string& path) {
  return detail::LoadFile(path, ParseRangesFile);
}

}  // namespace perfplan::profiles
