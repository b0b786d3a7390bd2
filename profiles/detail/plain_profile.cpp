#include "profiles/detail/plain_profile.h"

#include <cstddef>
#include <iterator>
#include <vector>

#include "profiles/detail/profile_node.h"
#include "profiles/detail/yaml_fields.h"

namespace perfplan::profiles::detail {
namespace {

// One scalar as yaml-cpp would give it: its text, whether it was quoted, and whether yaml-cpp
// reads it as null (a plain "", "~", "null", …) rather than as a scalar.
struct Scalar {
  std::string text;
  bool quoted = false;
  bool null = false;
};

constexpr std::size_t kRunFieldCount = std::size(kRunFields);

// The fields of one run, checked as they arrive.
class RunBuilder {
 public:
  // False when the key is unknown, given twice, or its value has a problem.
  bool Set(std::string_view key, const Scalar& value) {
    for (std::size_t i = 0; i < kRunFieldCount; ++i) {
      const RunField& f = kRunFields[i];
      if (key != f.key) continue;
      if (!Mark(i) || value.null) return false;
      std::string problem;
      std::optional<double> v = CheckRunField(f, value.text, value.quoted, &problem);
      if (!v) return false;
      run_.*f.member = *v;
      return true;
    }
    return key == kRunNoteKey && Mark(kRunFieldCount);  // free text, not read
  }
  // A note that is not a scalar (JSON only; it is not read either).
  bool SetNote() { return Mark(kRunFieldCount); }

  // The run, or nullopt when a required field is missing.
  std::optional<models::ProfileRun> Finish() const {
    for (std::size_t i = 0; i < kRunFieldCount; ++i) {
      if (kRunFields[i].required && !(seen_ & (1u << i))) return std::nullopt;
    }
    return run_;
  }

 private:
  bool Mark(std::size_t i) {
    if (seen_ & (1u << i)) return false;
    seen_ |= 1u << i;
    return true;
  }
  models::ProfileRun run_;
  unsigned seen_ = 0;
};

// The top level of one profile, checked at the end as ParseProfileNode checks it.
class ProfileBuilder {
 public:
  // Marks a top-level key as given; false when it is unknown or given twice.
  bool Mark(std::string_view key) {
    for (std::size_t i = 0; i < kProfileTopKeys.size(); ++i) {
      if (key != kProfileTopKeys[i]) continue;
      if (seen_[i]) return false;
      seen_[i] = true;
      return true;
    }
    return false;
  }
  // A scalar-valued top-level key (not runs, reduction_communication or fit).
  bool SetScalar(std::string_view key, Scalar value) {
    if (key == "runs" || key == "reduction_communication" || key == "fit" || !Mark(key)) {
      return false;
    }
    scalars_.push_back({std::string(key), std::move(value)});
    return true;
  }
  // One key of reduction_communication; false when it is unknown or given twice.
  bool SetCommunication(std::string_view key, Scalar value) {
    std::optional<Scalar>* slot = key == "seconds_per_byte" ? &seconds_per_byte_
                                  : key == "fixed_seconds"  ? &fixed_seconds_
                                                            : nullptr;
    if (!slot || slot->has_value()) return false;
    *slot = std::move(value);
    return true;
  }
  void AddRun(const models::ProfileRun& run) { runs_.push_back(run); }

  std::optional<ProfileDocument> Finish(const std::string& file);

 private:
  const Scalar* Find(std::string_view key) const {
    for (const auto& [k, v] : scalars_) {
      if (k == key) return &v;
    }
    return nullptr;
  }
  bool Seen(std::string_view key) const {
    for (std::size_t i = 0; i < kProfileTopKeys.size(); ++i) {
      if (kProfileTopKeys[i] == key) return seen_[i];
    }
    return false;
  }

  std::vector<bool> seen_ = std::vector<bool>(kProfileTopKeys.size(), false);
  std::vector<std::pair<std::string, Scalar>> scalars_;
  std::optional<Scalar> seconds_per_byte_, fixed_seconds_;
  std::vector<models::ProfileRun> runs_;
};

std::optional<ProfileDocument> ProfileBuilder::Finish(const std::string& file) {
  std::string problem;
  // A present scalar that is not null, or nullptr; a null one (yaml-cpp reports it) sets `bad`.
  bool bad = false;
  auto get = [&](std::string_view key) -> const Scalar* {
    const Scalar* s = Find(key);
    if (s && s->null) bad = true;
    return s && !s->null ? s : nullptr;
  };
  ProfileDocument doc;
  doc.file = file;
  doc.read_in_one_pass = true;
  models::RuntimeProfile& p = doc.profile;
  const Scalar* version = get("schema_version");
  if (!version) return std::nullopt;
  std::optional<long long> v = CheckInteger(version->text, version->quoted, 1, 1'000'000, &problem);
  if (!v || *v != kProfileSchemaVersion) return std::nullopt;
  const Scalar* application = get("application");
  if (!application || !CheckString(application->text, &problem)) return std::nullopt;
  p.application = application->text;
  if (const Scalar* site = get("profiled_site")) {
    if (!CheckString(site->text, &problem)) return std::nullopt;
    doc.profiled_site = site->text;
  }
  if (const Scalar* c = get("reduction_object_class")) {
    if (!CheckChoice(c->text, kObjectClassChoices, &problem)) return std::nullopt;
    models::ReductionObjectClass value;
    if (models::Parse(c->text, &value)) p.reduction_object_class = value;  // "auto": open
  }
  if (const Scalar* c = get("reduction_object_scaling")) {
    if (!CheckChoice(c->text, kObjectScalingChoices, &problem)) return std::nullopt;
    models::Parse(c->text, &p.reduction_object_scaling);
  }
  if (const Scalar* c = get("global_reduction_class")) {
    if (!CheckChoice(c->text, kGlobalClassChoices, &problem)) return std::nullopt;
    models::GlobalReductionClass value;
    if (models::Parse(c->text, &value)) p.global_reduction_class = value;  // "auto": open
  }
  if (const Scalar* c = get("retrieval_scales_with_storage_nodes")) {
    std::optional<bool> b = CheckBool(c->text, &problem);
    if (!b) return std::nullopt;
    p.retrieval_scales_with_storage_nodes = *b;
  }
  if (bad) return std::nullopt;
  if (Seen("reduction_communication")) {
    auto number = [&](const std::optional<Scalar>& s) -> std::optional<double> {
      if (!s || s->null) return std::nullopt;
      return CheckNumber(s->text, s->quoted, Range::kNonNegative, &problem);
    };
    std::optional<double> a = number(seconds_per_byte_);
    std::optional<double> b = number(fixed_seconds_);
    if (!a || !b) return std::nullopt;
    p.reduction_communication = models::ReductionCommunication{*a, *b};
  }
  if (!Seen("runs") || runs_.empty()) return std::nullopt;
  p.runs = std::move(runs_);
  // The model's cross-field checks: a document they reject is reported by the YAML path.
  if (!models::ResolveModel(p).ok()) return std::nullopt;
  return doc;
}

// ---- block YAML ----

bool IsKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// One line that holds something: its indentation and the rest (never empty, never a comment).
struct Line {
  std::size_t indent = 0;
  std::string_view body;
};

class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {}
  // The next line that is not blank and not a comment; false at the end.
  bool Next(Line* line) {
    while (pos_ < text_.size()) {
      std::size_t end = text_.find('\n', pos_);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view l = text_.substr(pos_, end - pos_);
      pos_ = end + 1;
      std::size_t indent = 0;
      while (indent < l.size() && l[indent] == ' ') ++indent;
      if (indent == l.size() || l[indent] == '#') continue;
      *line = {indent, l.substr(indent)};
      return true;
    }
    return false;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

// Parses the value after "key:" (and its spaces). Returns false for anything outside the
// subset; sets *nested when nothing but a comment follows (a block below, or null).
bool BlockValue(std::string_view s, Scalar* out, bool* nested) {
  *nested = s.empty() || s[0] == '#';
  if (*nested) return true;
  if (s[0] == '"') {
    std::size_t i = 1;
    for (; i < s.size() && s[i] != '"'; ++i) {
      if (s[i] != '\\') {
        out->text += s[i];
        continue;
      }
      if (++i == s.size()) return false;
      switch (s[i]) {
        case '"': out->text += '"'; break;
        case '\\': out->text += '\\'; break;
        case 'n': out->text += '\n'; break;
        default: return false;
      }
    }
    if (i == s.size()) return false;  // a quoted scalar running over lines
    std::size_t after = i + 1;
    while (after < s.size() && s[after] == ' ') ++after;
    if (after < s.size() && (after == i + 1 || s[after] != '#')) return false;
    out->quoted = true;
    return true;
  }
  // Plain: not starting with an indicator, ending at " #" or the line's end, never holding a
  // ": " or ending in ":" (a mapping yaml-cpp would see or reject).
  const char first = s[0];
  if (std::string_view(",[]{}#&*!|>'%@`?:").find(first) != std::string_view::npos) return false;
  if (first == '-' && (s.size() == 1 || s[1] == ' ')) return false;
  std::size_t end = s.size();
  for (std::size_t i = 1; i < s.size(); ++i) {
    if (s[i] == '#' && s[i - 1] == ' ') {
      end = i;
      break;
    }
    if (s[i] == ':' && (i + 1 == s.size() || s[i + 1] == ' ')) return false;
  }
  while (end > 0 && s[end - 1] == ' ') --end;
  out->text = std::string(s.substr(0, end));
  out->null = IsNullScalar(out->text);
  return true;
}

// Splits "key: value" into the key and the value's text (spaces after the colon skipped).
bool SplitKey(std::string_view body, std::string_view* key, std::string_view* value) {
  std::size_t i = 0;
  while (i < body.size() && IsKeyChar(body[i])) ++i;
  if (i == 0 || i == body.size() || body[i] != ':') return false;
  if (i + 1 < body.size() && body[i + 1] != ' ') return false;
  *key = body.substr(0, i);
  std::size_t v = i + 1;
  while (v < body.size() && body[v] == ' ') ++v;
  *value = body.substr(v);
  return true;
}

// "key: scalar" on one line (no block below it).
bool KeyScalar(std::string_view body, std::string_view* key, Scalar* value) {
  std::string_view rest;
  bool nested = false;
  if (!SplitKey(body, key, &rest) || !BlockValue(rest, value, &nested)) return false;
  if (nested) value->null = true;  // nothing on the line: null unless a block follows
  return true;
}

std::optional<ProfileDocument> ReadBlock(std::string_view text, const std::string& file) {
  ProfileBuilder profile;
  Lines lines(text);
  Line cur;
  bool have = lines.Next(&cur);
  while (have) {
    if (cur.indent != 0) return std::nullopt;
    std::string_view key, rest;
    if (!SplitKey(cur.body, &key, &rest)) return std::nullopt;
    Scalar value;
    bool nested = false;
    if (!BlockValue(rest, &value, &nested)) return std::nullopt;
    have = lines.Next(&cur);
    if (!nested) {
      if (!profile.SetScalar(key, std::move(value))) return std::nullopt;
      continue;
    }
    if (key == "runs") {
      // `- key: value` items at one indentation, their other keys two columns further in.
      if (!profile.Mark(key) || !have || cur.body.substr(0, 2) != "- ") return std::nullopt;
      const std::size_t dash = cur.indent;
      while (have && cur.indent == dash && cur.body.substr(0, 2) == "- ") {
        RunBuilder run;
        std::string_view field;
        Scalar v;
        if (!KeyScalar(cur.body.substr(2), &field, &v) || !run.Set(field, v)) return std::nullopt;
        have = lines.Next(&cur);
        while (have && cur.indent == dash + 2) {
          Scalar w;
          if (!KeyScalar(cur.body, &field, &w) || !run.Set(field, w)) return std::nullopt;
          have = lines.Next(&cur);
        }
        std::optional<models::ProfileRun> done = run.Finish();
        if (!done) return std::nullopt;
        profile.AddRun(*done);
      }
    } else if (key == "reduction_communication") {
      if (!profile.Mark(key) || !have || cur.indent == 0) return std::nullopt;
      const std::size_t indent = cur.indent;
      while (have && cur.indent == indent) {
        std::string_view field;
        Scalar v;
        if (!KeyScalar(cur.body, &field, &v) || !profile.SetCommunication(field, std::move(v))) {
          return std::nullopt;
        }
        have = lines.Next(&cur);
      }
    } else {
      // A null description is not read; any other key with nothing on its line is left to
      // yaml-cpp (a block below it, or a null where a value is required).
      if (key != "description" || (have && cur.indent != 0)) return std::nullopt;
      if (!profile.SetScalar(key, Scalar{"", false, true})) return std::nullopt;
    }
  }
  return profile.Finish(file);
}

// ---- JSON ----

class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : t_(text) {}

  std::optional<ProfileDocument> Read(const std::string& file) {
    ProfileBuilder profile;
    const bool ok = Object([&](const std::string& key) {
      if (key == "runs") return profile.Mark(key) && Runs(&profile);
      if (key == "reduction_communication") {
        return profile.Mark(key) && Object([&](const std::string& field) {
                 Scalar v;
                 return ScalarValue(&v) && profile.SetCommunication(field, std::move(v));
               });
      }
      if (key == "fit" || key == "description") return profile.Mark(key) && Skip(1);
      Scalar v;
      return ScalarValue(&v) && profile.SetScalar(key, std::move(v));
    });
    Ws();
    if (!ok || i_ != t_.size()) return std::nullopt;
    return profile.Finish(file);
  }

 private:
  void Ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n')) ++i_;
  }
  bool Eat(char c) {
    Ws();
    if (i_ == t_.size() || t_[i_] != c) return false;
    ++i_;
    return true;
  }
  bool Peek(char c) {
    Ws();
    return i_ < t_.size() && t_[i_] == c;
  }
  // A double-quoted string with the escapes perfplan writes (\" \\ \/ \n).
  bool String(std::string* out) {
    if (!Eat('"')) return false;
    for (; i_ < t_.size() && t_[i_] != '"'; ++i_) {
      if (t_[i_] == '\n') return false;  // JSON strings hold no line break (yaml-cpp folds it)
      if (t_[i_] != '\\') {
        *out += t_[i_];
        continue;
      }
      if (++i_ == t_.size()) return false;
      switch (t_[i_]) {
        case '"': *out += '"'; break;
        case '\\': *out += '\\'; break;
        case '/': *out += '/'; break;
        case 'n': *out += '\n'; break;
        default: return false;
      }
    }
    if (i_ == t_.size()) return false;
    ++i_;
    return true;
  }
  static bool Digit(char c) { return c >= '0' && c <= '9'; }
  // A JSON number, true, false or null (as yaml-cpp's plain scalar: the token's text).
  bool Plain(std::string* out) {
    Ws();
    for (std::string_view word : {"true", "false", "null"}) {
      if (t_.substr(i_, word.size()) == word) {
        i_ += word.size();
        *out = std::string(word);
        return true;
      }
    }
    const std::size_t start = i_;
    auto digits = [&] {
      const std::size_t from = i_;
      while (i_ < t_.size() && Digit(t_[i_])) ++i_;
      return i_ > from;
    };
    if (i_ < t_.size() && t_[i_] == '-') ++i_;
    if (i_ < t_.size() && t_[i_] == '0') {
      ++i_;
    } else if (!digits()) {
      return false;
    }
    if (i_ < t_.size() && t_[i_] == '.') {
      ++i_;
      if (!digits()) return false;
    }
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      ++i_;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
      if (!digits()) return false;
    }
    *out = std::string(t_.substr(start, i_ - start));
    return true;
  }
  bool ScalarValue(Scalar* out) {
    if (Peek('"')) {
      out->quoted = true;
      return String(&out->text);
    }
    if (!Plain(&out->text)) return false;
    out->null = IsNullScalar(out->text);
    return true;
  }
  // {"key": value, …}: `member` reads each value after its key.
  template <typename Member>
  bool Object(Member member) {
    if (!Eat('{')) return false;
    if (Eat('}')) return true;
    do {
      // YAML reads a key as an implicit key: on one line with its colon, and short.
      std::string key;
      if (!Peek('"')) return false;
      const std::size_t start = i_;
      if (!String(&key) || i_ - start > kMaxKeyChars) return false;
      while (i_ < t_.size() && t_[i_] == ' ') ++i_;
      if (i_ == t_.size() || t_[i_] != ':') return false;
      ++i_;
      if (!member(key)) return false;
    } while (Eat(','));
    return Eat('}');
  }
  template <typename Element>
  bool Array(Element element) {
    if (!Eat('[')) return false;
    if (Eat(']')) return true;
    do {
      if (!element()) return false;
    } while (Eat(','));
    return Eat(']');
  }
  bool Runs(ProfileBuilder* profile) {
    return Array([&] {
      RunBuilder run;
      if (!Object([&](const std::string& key) {
            if (key == kRunNoteKey && !Peek('"')) return run.SetNote() && Skip(1);
            Scalar v;
            return ScalarValue(&v) && run.Set(key, v);
          })) {
        return false;
      }
      std::optional<models::ProfileRun> done = run.Finish();
      if (!done) return false;
      profile->AddRun(*done);
      return true;
    });
  }
  // Any value (not read); deeper than kPlainMaxDepth is left to yaml-cpp's depth guard.
  bool Skip(int depth) {
    if (depth > kPlainMaxDepth) return false;
    std::string ignored;
    if (Peek('"')) return String(&ignored);
    if (Peek('{')) return Object([&](const std::string&) { return Skip(depth + 1); });
    if (Peek('[')) return Array([&] { return Skip(depth + 1); });
    return Plain(&ignored);
  }

  static constexpr std::size_t kMaxKeyChars = 128;
  std::string_view t_;
  std::size_t i_ = 0;
};

}  // namespace

std::optional<ProfileDocument> ReadPlainProfile(std::string_view text, const std::string& file) {
  // Printable ASCII and newlines only: tabs, CR, a BOM, NUL and UTF-8 go to yaml-cpp.
  for (char c : text) {
    if (c != '\n' && (c < 0x20 || c > 0x7e)) return std::nullopt;
  }
  std::size_t first = 0;
  while (first < text.size() && (text[first] == ' ' || text[first] == '\n')) ++first;
  if (first < text.size() && text[first] == '{') return JsonReader(text).Read(file);
  return ReadBlock(text, file);
}

}  // namespace perfplan::profiles::detail
