#include "profiles/detail/yaml_fields.h"

#include <yaml-cpp/depthguard.h>

#include <cmath>
#include <string>
#include <map>

#include "models/input_file.h"

namespace perfplan::profiles::detail {
namespace {

int LineOf(const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  return mark.line >= 0 ? mark.line + 1 : 0;
}

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

// yaml-cpp tags a quoted scalar "!" and a plain one "?": "4" in JSON or YAML is a string.
bool IsQuoted(const YAML::Node& node) { return node.Tag() == "!"; }

std::string JoinChoices(const std::vector<std::string_view>& choices) {
  std::string out;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (i) out += i + 1 == choices.size() ? " or " : ", ";
    out += choices[i];
  }
  return out;
}

std::string KindName(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Null:
      return "nothing";
    default:
      return Quote(n.Scalar());
  }
}

}  // namespace

std::optional<std::string> ReadWholeFile(const std::string& path, std::vector<Problem>* problems) {
  Result<std::string> text = ReadInputFile(path);
  if (!text.ok()) {
    // The Problem carries the file; the message is the reason after "path: ".
    std::string message = text.status().message();
    if (message.rfind(path + ": ", 0) == 0) message.erase(0, path.size() + 2);
    problems->push_back({path, 0, "", message});
    return std::nullopt;
  }
  return std::move(text).value();
}

std::optional<YAML::Node> FieldReader::Parse(const std::string& text) {
  try {
    YAML::Node root = YAML::Load(text);
    if (!root.IsMap()) {
      problems_->push_back(
          {file_, LineOf(root), "", "expected a mapping at the top level, got " + KindName(root)});
      return std::nullopt;
    }
    return root;
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp stops its recursive descent at a fixed depth (guarding the stack) but says only
    // "bad file".
    problems_->push_back({file_, e.mark.line >= 0 ? e.mark.line + 1 : 0, "",
                          "not valid YAML or JSON: nested too deeply (the parser stops at a "
                          "recursion depth of " +
                              std::to_string(e.depth()) + ")"});
    return std::nullopt;
  } catch (const YAML::Exception& e) {
    problems_->push_back(
        {file_, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", "not valid YAML or JSON: " + e.msg});
    return std::nullopt;
  }
}

void FieldReader::Report(const YAML::Node& at, const std::string& field,
                         const std::string& message) {
  problems_->push_back({file_, LineOf(at), field, message});
}

bool FieldReader::ExpectMap(const YAML::Node& node, const std::string& path,
                            const std::vector<std::string_view>& allowed) {
  if (!node.IsMap()) {
    Report(node, path, "expected a mapping, got " + KindName(node));
    return false;
  }
  std::map<std::string, int> first_line;
  for (const auto& kv : node) {
    const std::string key = kv.first.Scalar();
    if (auto [it, inserted] = first_line.emplace(key, LineOf(kv.first)); !inserted) {
      Report(kv.first, Join(path, key),
             "duplicate key (first given at line " + std::to_string(it->second) + ")");
      continue;
    }
    bool known = false;
    for (std::string_view a : allowed) known |= a == key;
    if (known) continue;
    std::string message = "unknown key";
    const std::string suggestion = SuggestClosest(key, allowed);
    if (!suggestion.empty()) message += "; did you mean \"" + suggestion + "\"?";
    Report(kv.first, Join(path, key), message);
  }
  return true;
}

namespace {

// map[key] when it is there and of the kind `is_kind` tests; else nullopt, reported as `missing`
// (only when required) or as "<expected>, got <kind>".
std::optional<YAML::Node> FieldOfKind(FieldReader& reader, const YAML::Node& map,
                                      const std::string& path, const char* key, bool required,
                                      bool (YAML::Node::*is_kind)() const, const char* missing,
                                      const char* expected) {
  const YAML::Node node = map[key];
  if (!node) {
    if (required) reader.Report(map, FieldReader::Join(path, key), missing);
    return std::nullopt;
  }
  if (!(node.*is_kind)()) {
    reader.Report(node, FieldReader::Join(path, key),
                  std::string(expected) + ", got " + KindName(node));
    return std::nullopt;
  }
  return node;
}

}  // namespace

std::optional<YAML::Node> FieldReader::Sequence(const YAML::Node& map, const std::string& path,
                                                const char* key, bool required) {
  return FieldOfKind(*this, map, path, key, required, &YAML::Node::IsSequence,
                     "missing; expected a list", "expected a list");
}

std::optional<YAML::Node> FieldReader::Scalar(const YAML::Node& map, const std::string& path,
                                              const char* key, bool required) {
  return FieldOfKind(*this, map, path, key, required, &YAML::Node::IsScalar, "missing",
                     "expected a single value");
}

std::optional<double> CheckNumber(const std::string& text, bool quoted, Range range,
                                  std::string* problem) {
  if (quoted) {
    *problem = "expected a number, got the string " + Quote(text);
    return std::nullopt;
  }
  double v = 0;
  std::size_t used = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(v)) {
    *problem = "expected a finite number, got " + Quote(text);
    return std::nullopt;
  }
  if (range == Range::kPositive && v <= 0) {
    *problem = "must be > 0, got " + text;
    return std::nullopt;
  }
  if (range == Range::kNonNegative && v < 0) {
    *problem = "must be >= 0, got " + text;
    return std::nullopt;
  }
  return v;
}

std::optional<long long> CheckInteger(const std::string& text, bool quoted, long long min_value,
                                      long long max_value, std::string* problem) {
  if (quoted) {
    *problem = "expected a whole number, got the string " + Quote(text);
    return std::nullopt;
  }
  long long v = 0;
  std::size_t used = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) {
    *problem = "expected a whole number, got " + Quote(text);
    return std::nullopt;
  }
  if (v < min_value) {
    *problem = "must be >= " + std::to_string(min_value) + ", got " + text;
    return std::nullopt;
  }
  if (v > max_value) {
    *problem = "must be <= " + std::to_string(max_value) + ", got " + text;
    return std::nullopt;
  }
  return v;
}

std::optional<bool> CheckBool(const std::string& text, std::string* problem) {
  if (text == "true") return true;
  if (text == "false") return false;
  *problem = "expected true or false, got " + Quote(text);
  return std::nullopt;
}

bool CheckString(const std::string& text, std::string* problem) {
  if (!text.empty()) return true;
  *problem = "must not be empty";
  return false;
}

bool CheckChoice(const std::string& text, const std::vector<std::string_view>& choices,
                 std::string* problem) {
  for (std::string_view c : choices) {
    if (text == c) return true;
  }
  *problem = "expected " + JoinChoices(choices) + ", got " + Quote(text);
  const std::string suggestion = SuggestClosest(text, choices);
  if (!suggestion.empty()) *problem += "; did you mean \"" + suggestion + "\"?";
  return false;
}

bool IsNullScalar(std::string_view plain) {
  // yaml-cpp's IsNullString: the plain scalars its parser turns into a null node.
  return plain.empty() || plain == "~" || plain == "null" || plain == "Null" || plain == "NULL";
}

// Runs `check` on the scalar under map[key]; reports its message at the scalar's line.
template <typename Check>
auto FieldReader::Checked(const YAML::Node& map, const std::string& path, const char* key,
                          bool required, Check check) -> decltype(check(std::string(), false,
                                                                        nullptr)) {
  std::optional<YAML::Node> node = Scalar(map, path, key, required);
  if (!node) return {};
  std::string problem;
  auto v = check(node->Scalar(), IsQuoted(*node), &problem);
  if (!v) Report(*node, Join(path, key), problem);
  return v;
}

std::optional<double> FieldReader::Number(const YAML::Node& map, const std::string& path,
                                          const char* key, Range range, bool required) {
  return Checked(map, path, key, required,
                 [&](const std::string& t, bool quoted, std::string* problem) {
                   return CheckNumber(t, quoted, range, problem);
                 });
}

void FieldReader::SchemaVersion(const YAML::Node& root, long long expected) {
  if (auto v = Integer(root, "", "schema_version", 1, 1'000'000, true); v && *v != expected) {
    Report(root["schema_version"], "schema_version", SchemaVersionProblem(expected, *v));
  }
}

std::string SchemaVersionProblem(long long expected, long long seen) {
  return "this perfplan reads version " + std::to_string(expected) + ", got " +
         std::to_string(seen);
}

std::optional<long long> FieldReader::Integer(const YAML::Node& map, const std::string& path,
                                              const char* key, long long min_value,
                                              long long max_value, bool required) {
  return Checked(map, path, key, required,
                 [&](const std::string& t, bool quoted, std::string* problem) {
                   return CheckInteger(t, quoted, min_value, max_value, problem);
                 });
}

std::optional<std::string> FieldReader::String(const YAML::Node& map, const std::string& path,
                                               const char* key, bool required) {
  return Checked(map, path, key, required,
                 [](const std::string& t, bool, std::string* problem) -> std::optional<std::string> {
                   if (!CheckString(t, problem)) return std::nullopt;
                   return t;
                 });
}

std::optional<bool> FieldReader::Bool(const YAML::Node& map, const std::string& path,
                                      const char* key) {
  return Checked(map, path, key, false, [](const std::string& t, bool, std::string* problem) {
    return CheckBool(t, problem);
  });
}

std::optional<std::string> FieldReader::Choice(const YAML::Node& map, const std::string& path,
                                               const char* key,
                                               const std::vector<std::string_view>& choices,
                                               bool required) {
  return Checked(map, path, key, required,
                 [&](const std::string& t, bool, std::string* problem) -> std::optional<std::string> {
                   if (!CheckChoice(t, choices, problem)) return std::nullopt;
                   return t;
                 });
}

}  // namespace perfplan::profiles::detail
