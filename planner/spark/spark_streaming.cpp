#include "planner/spark/spark_streaming.h"

#include <algorithm>
#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "models/json_text.h"
#include "profiles/line_reader.h"
#include "profiles/spark/spark_log_reader.h"
#include "profiles/spark/spark_store.h"
#include "profiles/stream_line_source.h"

namespace perfplan::planner {
namespace {

// The paths of `request`, with "-" replaced by the lines of `in`.
Result<std::vector<std::string>> ExpandPaths(const SparkMapRequest& request, std::istream& in) {
  std::vector<std::string> out;
  for (const std::string& p : request.paths) {
    if (p != "-") {
      out.push_back(p);
      continue;
    }
    profiles::IstreamLineSource source(in);
    profiles::BoundedLineReader reader(&source, 1 << 16);
    std::string_view line;
    while (reader.Next(&line)) {
      if (reader.too_long()) {
        return Status::InvalidArgument("stdin:" + std::to_string(reader.line_number()) +
                                       ": a path longer than 65536 bytes");
      }
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      // NLineInputFormat hands a Streaming mapper "OFFSET\tPATH".
      const std::size_t tab = line.find('\t');
      if (tab != std::string_view::npos && tab > 0 &&
          std::all_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(tab),
                      [](char c) { return c >= '0' && c <= '9'; })) {
        line.remove_prefix(tab + 1);
      }
      if (!line.empty()) out.emplace_back(line);
    }
    if (in.bad()) {
      return Status::Failed("stdin: read error after line " +
                            std::to_string(reader.line_number()));
    }
  }
  return out;
}

}  // namespace

Status SparkMap(const SparkMapRequest& request, std::istream& in, std::ostream& out,
                std::ostream& err) {
  auto paths = ExpandPaths(request, in);
  if (!paths.ok()) return paths.status();
  if (request.list) {
    std::vector<profiles::spark::SkippedLine> missing;
    for (const auto& src : profiles::spark::FindEventLogs(paths.value(), &missing)) {
      out << src.name << '\n';
    }
    for (const auto& m : missing) err << "spark map: skipped " << m.file << ": " << m.reason << '\n';
    return Status::Ok();
  }
  std::int64_t records = 0;
  auto summary = profiles::spark::MapEventLogs(paths.value(), request.scratch_dir, {},
                                               [&](const std::string& line) {
                                                 out << line << '\n';
                                                 ++records;
                                               });
  if (!summary.ok()) return summary.status();
  const profiles::spark::IngestSummary& s = summary.value();
  for (const auto& k : s.skipped) {
    err << "spark map: skipped " << k.file;
    if (k.line > 0) err << ":" << k.line;
    err << ": " << k.reason << '\n';
  }
  std::vector<std::string> sources;
  for (const auto& a : s.applications) sources.push_back(a.source);
  std::sort(sources.begin(), sources.end());
  sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
  err << "spark map: " << sources.size() << " log(s), " << s.applications.size()
      << " application(s), " << records << " record(s), " << s.skipped_total << " skipped\n";
  out.flush();
  if (!out) return Status::Failed("stdout: write error");
  return Status::Ok();
}

Result<SparkReduceAnswer> SparkReduce(std::istream& in, const std::string& store_path,
                                      std::ostream& out) {
  profiles::spark::SummaryRecordReducer reducer;
  SparkReduceAnswer answer;
  answer.store = store_path;
  profiles::IstreamLineSource source(in);
  const std::size_t max_line = profiles::BoundedLineReader::kDefaultMaxLineBytes;
  profiles::BoundedLineReader reader(&source, max_line);
  std::string_view line;
  while (reader.Next(&line)) {
    const std::string where = "stdin:" + std::to_string(reader.line_number());
    if (reader.too_long()) {
      return Status::InvalidArgument(where + ": line longer than " + std::to_string(max_line) +
                                     " bytes (the maximum line length)");
    }
    if (line.empty()) continue;
    if (Status s = reducer.Add(line, where); !s.ok()) return s;
    ++answer.records;
  }
  if (in.bad()) {
    return Status::Failed("stdin: read error after line " + std::to_string(reader.line_number()));
  }
  if (store_path.empty()) {
    if (Status s = reducer.Write([&out](const std::string& l) { out << l << '\n'; }); !s.ok()) {
      return s;
    }
    out.flush();
    if (!out) return Status::Failed("stdout: write error");
    return answer;
  }
  auto store = profiles::Store::Open(store_path, {profiles::spark::StoreMigrations()});
  if (!store.ok()) return store.status();
  auto loaded = reducer.Load(*store.value());
  if (!loaded.ok()) return loaded.status();
  answer.attempts = std::move(loaded).value();
  return answer;
}

std::string ToText(const SparkReduceAnswer& answer) {
  std::string out;
  std::int64_t loaded = 0, unchanged = 0, kept = 0;
  for (const auto& a : answer.attempts) {
    const std::string id = a.app_id + (a.attempt_id.empty() ? "" : "/" + a.attempt_id);
    out += a.outcome + " " + id + " from " + a.source + " (" + std::to_string(a.events) +
           " events)" + (a.note.empty() ? "" : ": " + a.note) + "\n";
    (a.outcome == "loaded" ? loaded : a.outcome == "unchanged" ? unchanged : kept) += 1;
  }
  out += std::to_string(loaded) + " loaded, " + std::to_string(unchanged) + " unchanged, " +
         std::to_string(kept) + " kept, from " + std::to_string(answer.records) +
         " record(s) into " + answer.store + "\n";
  return out;
}

std::string ToJson(const SparkReduceAnswer& answer) {
  nlohmann::ordered_json j;
  j["store"] = answer.store;
  j["records"] = answer.records;
  j["applications"] = nlohmann::ordered_json::array();
  for (const auto& a : answer.attempts) {
    j["applications"].push_back({{"app_id", a.app_id},
                                 {"attempt_id", a.attempt_id},
                                 {"source", a.source},
                                 {"events", a.events},
                                 {"outcome", a.outcome},
                                 {"note", a.note}});
  }
  return JsonLine(j);
}

}  // namespace perfplan::planner
