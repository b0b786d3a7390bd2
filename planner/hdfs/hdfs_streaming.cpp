#include "planner/hdfs/hdfs_streaming.h"

#include <charconv>
#include <cstdio>
#include <istream>
#include <ostream>

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

// One map output record: its kind ("A\t", "T\t", "B\t"), the zero-padded time (a text sort
// orders by time) and each field after a tab.
template <typename... Fields>
void Record(std::string* out, const char* kind, std::int64_t time_ms, const Fields&... fields) {
  out->assign(kind);
  Time(time_ms, out);
  (Field(fields, out), ...);
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
        const auto& a = parsed.audit;
        Record(&rec, "A\t", a.time_ms, a.allowed ? 1 : 0, a.user, a.real_user, a.ip, a.cmd, a.src,
               a.dst, a.proto);
        break;
      }
      case profiles::HdfsLineKind::kTransfer: {
        const auto& t = parsed.transfer;
        Record(&rec, "T\t", t.time_ms, t.is_read ? 1 : 0, t.datanode, t.peer, t.bytes, t.block,
               t.client_id, t.duration_ns);
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
      if (f.size() != 10 || !Int(f[1], &t)) return bad("expected an audit record of 10 fields");
      models::HdfsAuditRecord a;
      a.time_ms = t;
      a.allowed = f[2] == "1";
      a.user = models::UnescapeTabs(f[3]);
      a.real_user = models::UnescapeTabs(f[4]);
      a.ip = models::UnescapeTabs(f[5]);
      a.cmd = models::UnescapeTabs(f[6]);
      a.src = models::UnescapeTabs(f[7]);
      a.dst = models::UnescapeTabs(f[8]);
      a.proto = models::UnescapeTabs(f[9]);
      audits.push_back(std::move(a));
    } else if (f[0] == "T") {
      models::HdfsTransferRecord r;
      if (f.size() != 9 || !Int(f[1], &t) || !Int(f[5], &r.bytes) || !Int(f[8], &r.duration_ns)) {
        return bad("expected a transfer record of 9 fields");
      }
      r.time_ms = t;
      r.is_read = f[2] == "1";
      r.datanode = models::UnescapeTabs(f[3]);
      r.peer = models::UnescapeTabs(f[4]);
      r.block = models::UnescapeTabs(f[6]);
      r.client_id = models::UnescapeTabs(f[7]);
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
