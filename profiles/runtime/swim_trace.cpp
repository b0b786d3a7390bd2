#include "profiles/runtime/swim_trace.h"

#include <charconv>
#include <cmath>
#include <string_view>

#include "profiles/detail/yaml_fields.h"

namespace perfplan::profiles {
namespace {

constexpr const char* kColumns[6] = {"job_id",          "submit_seconds", "gap_seconds",
                                     "map_input_bytes", "shuffle_bytes",  "reduce_output_bytes"};

// A non-negative decimal number (SWIM writes integers; a fraction is accepted).
bool ParseNonNegative(std::string_view text, double* out) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(*out) && *out >= 0;
}

}  // namespace

Loaded<SwimTrace> ParseSwimTrace(const std::string& text, const std::string& file) {
  Loaded<SwimTrace> out;
  out.value.file = file;
  std::size_t pos = 0;
  int line_number = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    std::vector<std::string_view> cells;
    std::size_t start = 0;
    while (true) {
      const std::size_t tab = line.find('\t', start);
      cells.push_back(line.substr(start, tab == std::string_view::npos ? tab : tab - start));
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    if (cells.size() != 6) {
      out.problems.push_back({file, line_number, "",
                              "expected 6 tab-separated columns (job id, submit, gap, map input, "
                              "shuffle, reduce output bytes), got " +
                                  std::to_string(cells.size())});
      continue;
    }
    SwimJob job;
    job.id = std::string(cells[0]);
    job.line = line_number;
    double* fields[5] = {&job.submit_seconds, &job.gap_seconds, &job.map_input_bytes,
                         &job.shuffle_bytes, &job.reduce_output_bytes};
    bool ok = !job.id.empty();
    if (job.id.empty()) out.problems.push_back({file, line_number, kColumns[0], "empty job id"});
    for (int c = 0; c < 5; ++c) {
      if (!ParseNonNegative(cells[c + 1], fields[c])) {
        out.problems.push_back(
            {file, line_number, kColumns[c + 1],
             "expected a number >= 0, got \"" + std::string(cells[c + 1]) + "\""});
        ok = false;
      }
    }
    if (ok && !out.value.jobs.empty() &&
        job.submit_seconds < out.value.jobs.back().submit_seconds) {
      out.problems.push_back({file, line_number, kColumns[1],
                              "submit times are cumulative; " + std::string(cells[1]) +
                                  " is before the previous job's"});
    }
    if (ok) out.value.jobs.push_back(std::move(job));
  }
  if (out.value.jobs.empty() && out.problems.empty()) {
    out.problems.push_back({file, 0, "", "no jobs"});
  }
  return out;
}

Loaded<SwimTrace> LoadSwimTrace(const std::string& path) {
  return detail::LoadFile(path, ParseSwimTrace);
}

}  // namespace perfplan::profiles
