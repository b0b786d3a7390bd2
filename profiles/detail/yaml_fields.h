// Internal to profiles/: reads typed, range-checked fields out of a YAML (or JSON) document,
// recording every problem with file, line and dotted field path. yaml-cpp types stay in profiles/.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profiles/problem.h"

namespace perfplan::profiles::detail {

enum class Range { kAny, kPositive, kNonNegative };

class FieldReader {
 public:
  FieldReader(std::string file, std::vector<Problem>* problems)
      : file_(std::move(file)), problems_(problems) {}

  // Parses `text`; on a syntax error records it (with line) and returns nullopt.
  std::optional<YAML::Node> Parse(const std::string& text);

  // Records a problem at the node's line.
  void Report(const YAML::Node& at, const std::string& field, const std::string& message);

  // Checks that `node` is a mapping and that every key is in `allowed`; unknown keys are
  // reported with a "did you mean" suggestion, a key given twice is reported at its second
  // occurrence (yaml-cpp keeps both; readers would silently take the first). Returns false when
  // `node` is not a mapping.
  bool ExpectMap(const YAML::Node& node, const std::string& path,
                 const std::vector<std::string_view>& allowed);
  // Returns the sequence under `key` (reporting when it is missing and required, or not a list).
  std::optional<YAML::Node> Sequence(const YAML::Node& map, const std::string& path,
                                     const char* key, bool required);

  // A number: a plain (unquoted) scalar that parses whole as a finite double. A quoted "4" is a
  // string and is reported as one (JSON and YAML both say so by quoting).
  std::optional<double> Number(const YAML::Node& map, const std::string& path, const char* key,
                               Range range, bool required);
  // A whole number in [min_value, max_value]: "2.5", "1e8" and quoted values are reported, and
  // so is anything beyond max_value (never wrapped into a smaller type by the caller).
  std::optional<long long> Integer(const YAML::Node& map, const std::string& path, const char* key,
                                   long long min_value, long long max_value, bool required);
  // The required top-level `schema_version`: a whole number, reported when it is not `expected`
  // ("this perfplan reads version E, got V").
  void SchemaVersion(const YAML::Node& root, long long expected);
  std::optional<std::string> String(const YAML::Node& map, const std::string& path, const char* key,
                                    bool required);
  std::optional<bool> Bool(const YAML::Node& map, const std::string& path, const char* key);

  // A string that must be one of `choices`; reports the choices when it is not.
  std::optional<std::string> Choice(const YAML::Node& map, const std::string& path, const char* key,
                                    const std::vector<std::string_view>& choices, bool required);

  static std::string Join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }
  static std::string Index(const std::string& path, std::size_t i) {
    return path + "[" + std::to_string(i) + "]";
  }

  const std::string& file() const { return file_; }

 private:
  std::optional<YAML::Node> Scalar(const YAML::Node& map, const std::string& path, const char* key,
                                   bool required);
  template <typename Check>
  auto Checked(const YAML::Node& map, const std::string& path, const char* key, bool required,
               Check check) -> decltype(check(std::string(), false, nullptr));
  std::string file_;
  std::vector<Problem>* problems_;
};

// The checks behind FieldReader's typed reads, on a scalar's text alone (`quoted`: the scalar was
// written in quotes). Each returns the value, or nullopt with the message FieldReader reports
// (without the field) in *problem. The fast profile reader (plain_profile.h) accepts a value only
// when these do, so both readers agree on every document.
std::optional<double> CheckNumber(const std::string& text, bool quoted, Range range,
                                  std::string* problem);
std::optional<long long> CheckInteger(const std::string& text, bool quoted, long long min_value,
                                      long long max_value, std::string* problem);
std::optional<bool> CheckBool(const std::string& text, std::string* problem);
bool CheckString(const std::string& text, std::string* problem);
bool CheckChoice(const std::string& text, const std::vector<std::string_view>& choices,
                 std::string* problem);
// yaml-cpp reads these plain (unquoted) scalars as null, not as text.
bool IsNullScalar(std::string_view plain);
// SchemaVersion's message for a document of another version.
std::string SchemaVersionProblem(long long expected, long long seen);

// Reads a whole file; on failure records "cannot read: <reason>" and returns nullopt.
std::optional<std::string> ReadWholeFile(const std::string& path, std::vector<Problem>* problems);

// Every YAML reader's Parse*: a value naming `file`, filled by `read(reader, root, out)` from the
// document's top-level mapping once the text parses (else it holds the syntax problem).
template <typename T, typename Read>
Loaded<T> ReadDocument(const std::string& text, const std::string& file, const Read& read) {
  Loaded<T> out;
  out.value.file = file;
  FieldReader r(file, &out.problems);
  if (std::optional<YAML::Node> root = r.Parse(text)) read(r, *root, out);
  return out;
}

// Every reader's Load*/Read* of a path: the whole file (ReadWholeFile's problem when it cannot be
// read, with an empty value) parsed by `parse(text, path)`.
template <typename T>
Loaded<T> LoadFile(const std::string& path,
                   Loaded<T> (*parse)(const std::string& text, const std::string& file)) {
  Loaded<T> out;
  std::optional<std::string> text = ReadWholeFile(path, &out.problems);
  if (!text) return out;
  return parse(*text, path);
}

}  // namespace perfplan::profiles::detail
