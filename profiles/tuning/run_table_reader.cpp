#include "profiles/tuning/run_table_reader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <string_view>

#include "models/text.h"
#include "profiles/detail/yaml_fields.h"

namespace perfplan::profiles {
namespace {

using models::Lower;
std::string Trim(std::string_view s) { return std::string(models::Trim(s)); }

struct CsvRecord {
  int line = 0;
  std::vector<std::string> fields;
  bool blank = false;
};

// Splits CSV text into records per RFC 4180. Returns false (with a problem) on a malformed record;
// parsing continues at the next line so every bad record is reported.
std::vector<CsvRecord> SplitCsv(const std::string& text, const std::string& file,
                                std::vector<Problem>* problems) {
  std::vector<CsvRecord> records;
  std::size_t i = 0;
  int line = 1;
  const std::size_t n = text.size();
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) i = 3;  // UTF-8 byte order mark
  while (i < n) {
    CsvRecord rec;
    rec.line = line;
    std::string field;
    bool ok = true;
    bool any_char = false;
    while (true) {
      std::size_t ws = i;  // blanks before an opening quote are tolerated
      while (ws < n && (text[ws] == ' ' || text[ws] == '\t')) ++ws;
      if (ws < n && text[ws] == '"') i = ws;
      if (i < n && text[i] == '"' && field.empty()) {
        any_char = true;
        ++i;
        bool closed = false;
        while (i < n) {
          if (text[i] == '"') {
            if (i + 1 < n && text[i + 1] == '"') {
              field += '"';
              i += 2;
              continue;
            }
            ++i;
            closed = true;
            break;
          }
          if (text[i] == '\n') ++line;
          field += text[i++];
        }
        if (!closed) {
          problems->push_back(
              {file, rec.line, "",
               "unterminated quoted field: a '\"' opens a field that never closes"});
          return records;
        }
        if (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
          problems->push_back(
              {file, line, "",
               "text after a closing quote; inside quotes write \"\" for one '\"'"});
          ok = false;
          while (i < n && text[i] != '\n') ++i;
        }
      }
      if (!ok) break;
      while (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
        if (text[i] == '"') {
          problems->push_back(
              {file, line, "", "a '\"' inside an unquoted field; quote the whole field"});
          ok = false;
          while (i < n && text[i] != '\n') ++i;
          break;
        }
        any_char = true;
        field += text[i++];
      }
      if (!ok) break;
      rec.fields.push_back(std::move(field));
      field.clear();
      if (i < n && text[i] == ',') {
        any_char = true;
        ++i;
        continue;
      }
      break;
    }
    if (i < n && text[i] == '\r') ++i;
    if (i < n && text[i] == '\n') ++i;
    ++line;
    if (!ok) continue;
    rec.blank = !any_char;
    if (!rec.blank) records.push_back(std::move(rec));
  }
  return records;
}

}  // namespace

Loaded<models::RunTable> ParseCsvRuns(const std::string& text, const std::string& file) {
  Loaded<models::RunTable> out;
  out.value.source = file;
  std::vector<CsvRecord> records = SplitCsv(text, file, &out.problems);
  if (records.empty()) {
    if (out.problems.empty())
      out.problems.push_back({file, 0, "", "empty file: expected a header row"});
    return out;
  }
  std::set<std::string> seen;
  const CsvRecord& header = records.front();
  for (std::size_t c = 0; c < header.fields.size(); ++c) {
    std::string name = Trim(header.fields[c]);
    if (c == 0 && !name.empty() && name[0] == '#') name = Trim(name.substr(1));
    if (name.empty()) {
      out.problems.push_back(
          {file, header.line, "", "header column " + std::to_string(c + 1) + " has no name"});
    } else if (!seen.insert(name).second) {
      out.problems.push_back({file, header.line, name, "duplicate column name"});
    }
    out.value.columns.push_back({name, models::DeclaredType::kUnknown, {}});
  }
  for (std::size_t r = 1; r < records.size(); ++r) {
    CsvRecord& rec = records[r];
    if (rec.fields.size() != header.fields.size()) {
      out.problems.push_back({file, rec.line, "",
                              "expected " + std::to_string(header.fields.size()) +
                                  " fields (as in the header), saw " +
                                  std::to_string(rec.fields.size())});
      continue;
    }
    for (auto& f : rec.fields) f = Trim(f);
    out.value.rows.push_back({rec.line, std::move(rec.fields)});
  }
  std::stable_sort(out.problems.begin(), out.problems.end(),
                   [](const Problem& a, const Problem& b) { return a.line < b.line; });
  return out;
}

namespace {

// Splits an ARFF data line at commas outside quotes; strips quotes and blanks.
bool SplitArffValues(std::string_view s, std::vector<std::string>* out) {
  out->clear();
  std::string cur;
  char quote = 0;
  bool was_quoted = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char ch = s[i];
    if (quote) {
      if (ch == '\\' && i + 1 < s.size()) {
        cur += s[++i];
      } else if (ch == quote) {
        quote = 0;
      } else {
        cur += ch;
      }
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
      was_quoted = true;
    } else if (ch == ',') {
      out->push_back(was_quoted ? cur : Trim(cur));
      cur.clear();
      was_quoted = false;
    } else {
      cur += ch;
    }
  }
  if (quote) return false;
  out->push_back(was_quoted ? cur : Trim(cur));
  return true;
}

// Reads an attribute name (maybe quoted) from the front of `s`; returns the rest.
std::string_view TakeName(std::string_view s, std::string* name) {
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  if (i < s.size() && (s[i] == '\'' || s[i] == '"')) {
    char q = s[i++];
    std::size_t e = s.find(q, i);
    if (e == std::string_view::npos) return {};
    *name = std::string(s.substr(i, e - i));
    return s.substr(e + 1);
  }
  std::size_t b = i;
  while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  *name = std::string(s.substr(b, i - b));
  return s.substr(i);
}

}  // namespace

Loaded<models::RunTable> ParseArffRuns(const std::string& text, const std::string& file) {
  Loaded<models::RunTable> out;
  out.value.source = file;
  bool in_data = false;
  std::set<std::string> seen;
  int line_no = 0;
  std::size_t pos = 0;
  std::vector<std::string> values;
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string_view raw(text.data() + pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    std::string line = Trim(raw);
    if (line.empty() || line[0] == '%') {
      if (nl == text.size()) break;
      continue;
    }
    if (!in_data) {
      const std::string lower = Lower(line);
      if (lower.rfind("@relation", 0) == 0) {
      } else if (lower.rfind("@attribute", 0) == 0) {
        std::string name;
        std::string type = Trim(TakeName(std::string_view(line).substr(10), &name));
        models::RunColumn col{name, models::DeclaredType::kNumeric, {}};
        const std::string ltype = Lower(type);
        if (name.empty()) {
          out.problems.push_back({file, line_no, "", "@attribute without a name"});
        } else if (!seen.insert(name).second) {
          out.problems.push_back({file, line_no, name, "duplicate attribute name"});
        }
        if (ltype == "numeric" || ltype == "real" || ltype == "integer") {
        } else if (ltype == "string") {
          col.declared = models::DeclaredType::kString;
        } else if (!type.empty() && type.front() == '{' && type.back() == '}') {
          col.declared = models::DeclaredType::kNominal;
          SplitArffValues(std::string_view(type).substr(1, type.size() - 2), &col.nominal_values);
        } else {
          out.problems.push_back(
              {file, line_no, name,
               "unsupported attribute type \"" + type +
                   "\"; expected numeric, real, integer, string or {value,...}"});
        }
        out.value.columns.push_back(std::move(col));
      } else if (lower == "@data") {
        in_data = true;
        if (out.value.columns.empty()) {
          out.problems.push_back({file, line_no, "", "@data before any @attribute"});
        }
      } else {
        out.problems.push_back(
            {file, line_no, "",
             "unexpected header line \"" + line + "\"; expected @relation, @attribute or @data"});
      }
    } else {
      if (line[0] == '{') {
        out.problems.push_back({file, line_no, "", "sparse ARFF rows are not supported"});
      } else if (!SplitArffValues(line, &values)) {
        out.problems.push_back({file, line_no, "", "unterminated quoted value"});
      } else if (values.size() != out.value.columns.size()) {
        out.problems.push_back({file, line_no, "",
                                "expected " + std::to_string(out.value.columns.size()) +
                                    " values (one per @attribute), saw " +
                                    std::to_string(values.size())});
      } else {
        out.value.rows.push_back({line_no, values});
      }
    }
    if (nl == text.size()) break;
  }
  if (!in_data && out.problems.empty()) {
    out.problems.push_back({file, 0, "", "no @data section"});
  }
  return out;
}

Loaded<models::RunTable> ParseLibsvmRuns(const std::string& text, const std::string& file) {
  Loaded<models::RunTable> out;
  out.value.source = file;
  std::vector<std::vector<std::pair<int, std::string>>> sparse;
  int max_index = 0;
  int line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string line = Trim(std::string_view(text).substr(pos, nl - pos));
    pos = nl + 1;
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string::npos)
      line = Trim(line.substr(0, hash));
    if (line.empty()) continue;
    std::vector<std::string> tokens;
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      std::size_t b = i;
      while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      if (i > b) tokens.push_back(line.substr(b, i - b));
    }
    models::RunRow row;
    row.line = line_no;
    row.cells.push_back(tokens[0]);
    std::vector<std::pair<int, std::string>> features;
    int last = 0;
    bool ok = true;
    for (std::size_t t = 1; t < tokens.size() && ok; ++t) {
      const auto colon = tokens[t].find(':');
      // The whole text before ':' must be the index ("2;:1" or "8x:1" are not indices).
      int index = 0;
      if (colon != std::string::npos) {
        const char* end = tokens[t].data() + colon;
        const auto [ptr, ec] = std::from_chars(tokens[t].data(), end, index);
        if (ec != std::errc() || ptr != end) index = 0;
      }
      if (index > kMaxLibsvmFeatures) {
        out.problems.push_back({file, line_no, "",
                                "\"" + tokens[t] + "\": feature index above the limit of " +
                                    std::to_string(kMaxLibsvmFeatures) +
                                    " (the table is dense in memory)"});
        ok = false;
        break;
      }
      if (index <= last) {
        out.problems.push_back(
            {file, line_no, "",
             "\"" + tokens[t] + "\": expected INDEX:VALUE with indices >= 1 and increasing"});
        ok = false;
        break;
      }
      last = index;
      max_index = std::max(max_index, index);
      features.emplace_back(index, tokens[t].substr(colon + 1));
    }
    if (!ok) continue;
    sparse.push_back(std::move(features));
    out.value.rows.push_back(std::move(row));
  }
  if (const std::size_t cells = (static_cast<std::size_t>(max_index) + 1) * out.value.rows.size();
      cells > kMaxLibsvmCells) {
    out.problems.push_back(
        {file, 0, "",
         std::to_string(out.value.rows.size()) + " rows x " + std::to_string(max_index) +
             " features is " + std::to_string(cells) + " cells, above the limit of " +
             std::to_string(kMaxLibsvmCells) + " (the table is dense in memory)"});
    out.value.rows.clear();
    return out;
  }
  out.value.columns.push_back({"label", models::DeclaredType::kNumeric, {}});
  for (int j = 1; j <= max_index; ++j) {
    out.value.columns.push_back({"f" + std::to_string(j), models::DeclaredType::kNumeric, {}});
  }
  for (std::size_t r = 0; r < out.value.rows.size(); ++r) {
    auto& cells = out.value.rows[r].cells;
    cells.resize(static_cast<std::size_t>(max_index) + 1, "0");
    for (const auto& [index, value] : sparse[r]) cells[index] = value;
  }
  if (out.value.rows.empty() && out.problems.empty()) {
    out.problems.push_back({file, 0, "", "no rows: expected LABEL INDEX:VALUE ... lines"});
  }
  return out;
}

Loaded<models::RunTable> ReadRunTable(const std::string& path) {
  Loaded<models::RunTable> out;
  const std::string lower = Lower(path);
  auto ends_with = [&](std::string_view suffix) {
    return lower.size() >= suffix.size() &&
           lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  const bool csv = ends_with(".csv");
  const bool arff = ends_with(".arff");
  const std::string base = lower.substr(lower.find_last_of('/') + 1);
  const bool libsvm = ends_with(".libsvm") || ends_with(".svm") || ends_with(".txt") ||
                      base.find('.') == std::string::npos;
  if (!csv && !arff && !libsvm) {
    out.problems.push_back({path, 0, "",
                            "unknown run-table format; expected a .csv, .arff or libsvm "
                            "(.libsvm, .svm, .txt, no extension) file"});
    return out;
  }
  std::optional<std::string> text = detail::ReadWholeFile(path, &out.problems);
  if (!text) return out;
  if (csv) return ParseCsvRuns(*text, path);
  return arff ? ParseArffRuns(*text, path) : ParseLibsvmRuns(*text, path);
}

}  // namespace perfplan::profiles
