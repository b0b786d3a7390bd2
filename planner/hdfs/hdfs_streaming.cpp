#include "planner/hdfs/hdfs_streaming.h"

#include <charconv>
#include <cstdio>
#include <istream>
#include <ostream>
#include <tuple>

#include "models/tab_escape.h"
#include "profiles/hdfs/hdfs_log.h"
#include "profiles/line_reader.h"
#include "profiles/stream_line_source.h"

namespace perfplan::planner {
namespace {

void Escape(std::string_view s, std::string* out) {
  for (char c : s) {
    if (c == '\t')
      out->append("\\t");
    else if (c == '\n')
      out->append("\\n");
    else if (c == '\\')
      out->append("\\\\");
    else
      out->push_back(c);
  }
}

void Time(std::int64_t ms, std::string* out) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%015lld", static_cast<long long>(ms));
  out->append(buf);
}

void Field(std::string_view s, std::string* out) {
  out->push_back('\t');
  Escape(s, out);
}

void Field(std::int64_t v, std::string* out) {
  out->push_back('\t');
  out->append(std::to_string(v));
}

void Field(bool v, std::string* out) { Field(std::int64_t{v ? 1 : 0}, out); }

// One map output record: its kind ("A\t", "T\t", "B\t"), the zero-padded time (a text sort
// orders by time) and each field after a tab.
template <typename... Fields>
void Record(std::string* out, const char* kind, std::int64_t time_ms, const Fields&... fields) {
  out->assign(kind);
  Time(time_ms, out);
  (Field(fields, out), ...);
}

// The same with the fields of a record (models::AuditFields, TransferFields).
template <typename... Fields>
void RecordOf(std::string* out, const char* kind, std::int64_t time_ms,
              const std::tuple<Fields&...>& fields) {
  std::apply([&](const Fields&... f) { Record(out, kind, time_ms, f...); }, fields);
}

std::vector<std::string_view> Split(std::string_view line) {
  std::vector<std::string_view> f;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    f.push_back(line.substr(start, tab == std::string_view::npos ? tab : tab - start));
    if (tab == std::string_view::npos) break;
    start = tab + 1;
  }
  return f;
}

bool Int(std::string_view s, std::int64_t* v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && p == s.data() + s.size();
}

// One field as Record wrote it: a flag as 1 (else 0), a number in decimal, text escaped.
bool ReadField(std::string_view s, bool* v) {
  *v = s == "1";
  return true;
}
bool ReadField(std::string_view s, std::int64_t* v) { return Int(s, v); }
bool ReadField(std::string_view s, std::string* v) {
  *v = models::UnescapeTabs(s);
  return true;
}

// A record's fields `f` (kind, time, then `fields` in order) into *time_ms and `fields`; false
// when their number differs or one does not read.
template <typename... Fields>
bool ReadRecord(const std::vector<std::string_view>& f, std::int64_t* time_ms,
                const std::tuple<Fields&...>& fields) {
  if (f.size() != 2 + sizeof...(Fields) || !Int(f[1], time_ms)) return false;
  std::size_t i = 2;
  return std::apply([&](Fields&... v) { return (ReadField(f[i++], &v) && ...); }, fields);
}

using StreamSource = profiles::IstreamLineSource;

constexpr std::size_t kMaxLineBytes = profiles::HdfsLogReader::kDefaultMaxLineBytes;

}  // namespace

Status HdfsMap(std::istream& in, std::ostream& out, std::ostream& err,
               const std::string& input_name) {
  profiles::HdfsParseCounts counts;
  profiles::HdfsLine parsed;
  std::string rec;
  std::string_view line;
  StreamSource source(in);
  profiles::BoundedLineReader reader(&source, kMaxLineBytes);
  while (reader.Next(&line)) {
    const std::int64_t number = reader.line_number();
    if (reader.too_long()) {
      ++counts.lines;
      ++counts.garbled;
      err << input_name << ":" << number << ": garbled: " << profiles::TooLongReason(kMaxLineBytes)
          << "\n";
      continue;
    }
    profiles::ParseHdfsLine(line, &parsed);
    counts.Add(parsed);
    rec.clear();
    switch (parsed.kind) {
      case profiles::HdfsLineKind::kAudit: {
        RecordOf(&rec, "A\t", parsed.audit.time_ms, models::AuditFields(parsed.audit));
        break;
      }
      case profiles::HdfsLineKind::kTransfer: {
        RecordOf(&rec, "T\t", parsed.transfer.time_ms, models::TransferFields(parsed.transfer));
        break;
      }
      case profiles::HdfsLineKind::kBlock:
        Record(&rec, "B\t", parsed.block.time_ms, parsed.block.block, parsed.block.path);
        break;
      case profiles::HdfsLineKind::kGarbled:
        err << input_name << ":" << number << ": garbled: " << parsed.reason << "\n";
        break;
      default:
        break;
    }
    if (!rec.empty()) out << rec << '\n';
  }
  if (in.bad())
    return Status::Failed(input_name + ": read error after line " +
                          std::to_string(reader.line_number()));
  out << "#\tlines\t" << counts.lines << '\n';
  for (const profiles::HdfsLineKindCount& k : profiles::HdfsLineKinds()) {
    out << "#\t" << k.name << '\t' << counts.*k.count << '\n';
  }
  return Status::Ok();
}

Result<WorkloadAnswer> HdfsReduce(std::istream& in, const models::HdfsWorkloadOptions& options,
                                  profiles::HdfsParseCounts* lines) {
  if (Status s = options.Validate(); !s.ok()) return s;
  std::vector<models::HdfsAuditRecord> audits;
  std::vector<models::HdfsTransferRecord> transfers;
  std::vector<models::HdfsBlockRecord> blocks;
  profiles::HdfsParseCounts counts;
  std::string_view line;
  StreamSource source(in);
  profiles::BoundedLineReader reader(&source, kMaxLineBytes);
  auto bad = [&reader](const std::string& why) {
    return Status::InvalidArgument("stdin:" + std::to_string(reader.line_number()) + ": " + why);
  };
  while (reader.Next(&line)) {
    if (reader.too_long()) {
      return bad("line longer than " + std::to_string(kMaxLineBytes) +
                 " bytes (the maximum line length)");
    }
    if (line.empty()) continue;
    const std::vector<std::string_view> f = Split(line);
    std::int64_t t = 0;
    if (f[0] == "A") {
      models::HdfsAuditRecord a;
      if (!ReadRecord(f, &a.time_ms, models::AuditFields(a))) {
        return bad("expected an audit record of 10 fields");
      }
      audits.push_back(std::move(a));
    } else if (f[0] == "T") {
      models::HdfsTransferRecord r;
      if (!ReadRecord(f, &r.time_ms, models::TransferFields(r))) {
        return bad("expected a transfer record of 9 fields");
      }
      transfers.push_back(std::move(r));
    } else if (f[0] == "B") {
      if (f.size() != 4 || !Int(f[1], &t)) return bad("expected a block record of 4 fields");
      blocks.push_back({t, models::UnescapeTabs(f[2]), models::UnescapeTabs(f[3])});
    } else if (f[0] == "#") {
      std::int64_t v = 0;
      if (f.size() != 3 || !Int(f[2], &v)) return bad("expected \"#\\tNAME\\tCOUNT\"");
      std::int64_t* slot = f[1] == "lines" ? &counts.lines : nullptr;
      for (const profiles::HdfsLineKindCount& k : profiles::HdfsLineKinds()) {
        if (f[1] == k.name) slot = &(counts.*k.count);
      }
      if (slot == nullptr) return bad("unknown count \"" + std::string(f[1]) + "\"");
      *slot += v;
    } else {
      return bad("expected a record starting with A, T, B or #, saw \"" +
                 std::string(f[0].substr(0, 20)) + "\"");
    }
  }
  if (lines != nullptr) *lines = counts;
  WorkloadAnswer answer;
  answer.workload = models::AnalyzeHdfsWorkload(audits, transfers, blocks, options);
  return answer;
}

}  // namespace perfplan::planner
