#include "profiles/runtime/runs_csv.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "models/csv_field.h"
#include "models/instance_types.h"
#include "models/text.h"
#include "profiles/detail/yaml_fields.h"

namespace perfplan::profiles {
namespace {

struct CsvRecord {
  int line = 0;
  std::vector<std::string> fields;
};

// RFC 4180 records. A problem is recorded for an unterminated quote or a stray character after a
// closing quote.
std::vector<CsvRecord> SplitCsv(const std::string& text, const std::string& file,
                                std::vector<Problem>* problems) {
  std::vector<CsvRecord> out;
  CsvRecord record;
  std::string field;
  int line = 1;
  record.line = 1;
  bool quoted = false, after_quote = false, record_has_data = false;
  auto end_field = [&] {
    record.fields.push_back(field);
    field.clear();
    after_quote = false;
  };
  auto end_record = [&] {
    end_field();
    // A record that is one empty field is a blank line: skipped.
    if (!(record.fields.size() == 1 && record.fields[0].empty() && !record_has_data)) {
      out.push_back(record);
    }
    record = CsvRecord{};
    record_has_data = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (quoted) {
      if (ch == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
          after_quote = true;
        }
      } else {
        if (ch == '\n') ++line;
        field += ch;
      }
      continue;
    }
    if (ch == '"' && field.empty() && !after_quote) {
      quoted = true;
      record_has_data = true;
    } else if (ch == ',') {
      end_field();
      record_has_data = true;
    } else if (ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      continue;
    } else if (ch == '\n') {
      end_record();
      ++line;
      record.line = line;
    } else {
      if (after_quote) {
        problems->push_back({file, line, "",
                             std::string("unexpected character '") + ch +
                                 "' after a closing quote; a quote inside a quoted field is "
                                 "written \"\""});
        after_quote = false;
      }
      field += ch;
      record_has_data = true;
    }
  }
  if (quoted) {
    problems->push_back({file, record.line, "", "quoted field is not closed before end of file"});
  }
  if (!field.empty() || !record.fields.empty() || record_has_data) end_record();
  return out;
}

bool ParseNumber(const std::string& text, double* out) {
  if (text.empty()) return false;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (*begin == '+') ++begin;
  auto [ptr, ec] = std::from_chars(begin, end, *out);
  return ec == std::errc() && ptr == end && std::isfinite(*out);
}

using models::FormatNumber;
using models::QuoteCsvField;

}  // namespace

const std::vector<std::string>& RunsCsvColumns() {
  static const std::vector<std::string> kColumns = {"workload",        "instance_type",
                                                    "dataset_bytes",   "storage_nodes",
                                                    "compute_nodes",   "bandwidth_bytes_per_second",
                                                    "runtime_seconds", "completed"};
  return kColumns;
}

Loaded<RunsTable> ParseRunsCsv(const std::string& text, const std::string& file) {
  Loaded<RunsTable> out;
  out.value.file = file;
  std::vector<CsvRecord> records = SplitCsv(text, file, &out.problems);
  if (records.empty()) {
    out.problems.push_back({file, 1, "",
                            "empty file: expected a header row naming the columns " +
                                std::string("workload, instance_type, dataset_bytes, "
                                            "storage_nodes, compute_nodes, "
                                            "bandwidth_bytes_per_second, runtime_seconds, "
                                            "completed")});
    return out;
  }
  const CsvRecord& header = records[0];
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < header.fields.size(); ++i) {
    const std::string& name = header.fields[i];
    if (name.empty()) {
      out.problems.push_back(
          {file, header.line, "", "header column " + std::to_string(i + 1) + " has no name"});
    } else if (index.count(name)) {
      out.problems.push_back({file, header.line, name,
                              "column named twice (columns " + std::to_string(index[name] + 1) +
                                  " and " + std::to_string(i + 1) + ")"});
    } else {
      index[name] = i;
    }
  }
  std::vector<std::string_view> present;
  for (const std::string& name : header.fields) present.push_back(name);
  for (const std::string& name : RunsCsvColumns()) {
    if (index.count(name)) continue;
    std::string message = "required column is missing from the header";
    // A misspelt column is likely among the unknown header names.
    std::vector<std::string_view> unknown;
    for (const std::string& h : header.fields) {
      bool known = false;
      for (const std::string& c : RunsCsvColumns()) known |= c == h;
      if (!known) unknown.push_back(h);
    }
    const std::string suggestion = SuggestClosest(name, unknown);
    if (!suggestion.empty()) message += "; is '" + suggestion + "' meant to be it?";
    out.problems.push_back({file, header.line, name, message});
  }
  if (!out.problems.empty()) return out;
  out.value.columns = header.fields;

  for (std::size_t r = 1; r < records.size(); ++r) {
    const CsvRecord& rec = records[r];
    if (rec.fields.size() != header.fields.size()) {
      out.problems.push_back({file, rec.line, "",
                              "expected " + std::to_string(header.fields.size()) +
                                  " fields as in the header, got " +
                                  std::to_string(rec.fields.size())});
      continue;
    }
    models::MeasuredRun run;
    bool ok = true;
    auto cell = [&](const char* name) -> const std::string& { return rec.fields[index[name]]; };
    auto text_field = [&](const char* name, std::string* value) {
      *value = cell(name);
      if (value->empty()) {
        out.problems.push_back({file, rec.line, name, "must not be empty"});
        ok = false;
      }
    };
    auto positive = [&](const char* name, double* value) {
      const std::string& v = cell(name);
      if (!ParseNumber(v, value)) {
        out.problems.push_back({file, rec.line, name, "expected a number, got '" + v + "'"});
        ok = false;
      } else if (*value <= 0) {
        out.problems.push_back({file, rec.line, name, "must be > 0, got " + v});
        ok = false;
      }
    };
    text_field("workload", &run.workload);
    text_field("instance_type", &run.instance_type);
    positive("dataset_bytes", &run.dataset_bytes);
    positive("storage_nodes", &run.storage_nodes);
    positive("compute_nodes", &run.compute_nodes);
    positive("bandwidth_bytes_per_second", &run.bandwidth_bytes_per_second);
    positive("runtime_seconds", &run.runtime_seconds);
    const std::string& completed = cell("completed");
    if (completed == "true" || completed == "1") {
      run.completed = true;
    } else if (completed == "false" || completed == "0") {
      run.completed = false;
    } else {
      out.problems.push_back(
          {file, rec.line, "completed", "expected true or false, got '" + completed + "'"});
      ok = false;
    }
    // Optional hardware columns; otherwise the instance-type table (0 when the type is unknown).
    for (auto [name, value] :
         {std::pair{"vcpus", &run.vcpus}, {"memory_bytes", &run.memory_bytes}}) {
      if (!index.count(name) || rec.fields[index[name]].empty()) continue;
      positive(name, value);
    }
    if (const auto hw = models::FindInstanceType(run.instance_type)) {
      if (run.vcpus == 0) run.vcpus = hw->vcpus;
      if (run.memory_bytes == 0) run.memory_bytes = hw->memory_bytes;
    }
    if (!ok) continue;
    out.value.runs.push_back(run);
    out.value.cells.push_back(rec.fields);
    out.value.lines.push_back(rec.line);
  }
  if (out.problems.empty() && out.value.runs.empty()) {
    out.problems.push_back({file, header.line + 1, "", "no data rows after the header"});
  }
  return out;
}

Loaded<RunsTable> LoadRunsCsv(const std::string& path) {
  return detail::LoadFile(path, ParseRunsCsv);
}

std::string WriteRunsCsv(const std::vector<models::MeasuredRun>& runs) {
  std::string out;
  for (std::size_t i = 0; i < RunsCsvColumns().size(); ++i) {
    out += (i ? "," : "") + RunsCsvColumns()[i];
  }
  out += "\n";
  for (const models::MeasuredRun& r : runs) {
    out += QuoteCsvField(r.workload) + "," + QuoteCsvField(r.instance_type) + "," +
           FormatNumber(r.dataset_bytes) + "," + FormatNumber(r.storage_nodes) + "," +
           FormatNumber(r.compute_nodes) + "," + FormatNumber(r.bandwidth_bytes_per_second) + "," +
           FormatNumber(r.runtime_seconds) + "," + (r.completed ? "true" : "false") + "\n";
  }
  return out;
}

}  // namespace perfplan::profiles
