#include "planner/hdfs/hdfs_streaming.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <istream>
#include <ostream>
#include <tuple>

#include "models/external_sort.h"
#include "models/tab_escape.h"
#include "profiles/hdfs/hdfs_log.h"
#include "profiles/line_reader.h"
#include "profiles/scratch_file.h"
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

// One kind of mapped record (its line, checked), kept for a reduce whose memory does not grow
// with the records: appended in input order as (time, length, line), the first bytes in memory,
// past buffer_bytes in scratch storage (a temporary file for the CLI); handed out by time, ties
// in input order (the order of models::VectorHdfsStreams, so that the answer is the one of the
// records held in vectors, byte for byte). Input sorted by time per kind (what `sort` or
// Hadoop's shuffle hands a reducer) is handed out as it was written; other input is ordered by
// an external sort of (time, offset, length) keys, then copied in that order once.
class LineSpool {
 public:
  LineSpool(std::size_t buffer_bytes, std::size_t sort_records, models::ScratchFactory scratch)
      : buffer_bytes_(std::max<std::size_t>(1, buffer_bytes)),
        sort_records_(sort_records),
        make_scratch_(std::move(scratch)) {}

  Status Add(std::int64_t time_ms, std::string_view line) {
    if (time_ms < last_time_ms_) sorted_ = false;
    last_time_ms_ = time_ms;
    const Header h{time_ms, line.size()};
    buffer_.append(reinterpret_cast<const char*>(&h), sizeof h);
    buffer_.append(line);
    return buffer_.size() >= buffer_bytes_ ? Flush() : Status::Ok();
  }

  // Ends adding: the spool is in time order from now on.
  Status Finish() {
    if (!scratch_) scratch_ = std::make_unique<models::MemoryScratch>();  // all fitted
    if (Status s = Flush(); !s.ok()) return s;
    buffer_ = std::string();
    return sorted_ ? Status::Ok() : Sort();
  }

  // Reads the records from the start, in order (after Finish).
  class Reader {
   public:
    explicit Reader(const LineSpool& spool) : spool_(spool) {}
    // The next record's time and line (valid until the next call); false at the end or on a
    // read error (status() says which).
    bool Next(std::int64_t* time_ms, std::string_view* line) {
      Header h;
      if (!Take(sizeof h)) return false;
      std::memcpy(&h, buffer_.data() + at_, sizeof h);
      at_ += sizeof h;
      if (!Take(h.length)) return false;
      *time_ms = h.time_ms;
      *line = std::string_view(buffer_.data() + at_, h.length);
      at_ += h.length;
      return true;
    }
    const Status& status() const { return status_; }

   private:
    static constexpr std::size_t kReadBytes = std::size_t{1} << 20;
    // At least `bytes` unread bytes in buffer_ from at_; false at the end or on an error.
    bool Take(std::size_t bytes) {
      if (buffer_.size() - at_ >= bytes) return true;
      buffer_.erase(0, at_);
      at_ = 0;
      const std::uint64_t left = spool_.size_ - read_;
      if (!status_.ok() || left < bytes - buffer_.size()) return false;  // the end
      const std::size_t n = static_cast<std::size_t>(
          std::min<std::uint64_t>(left, std::max(kReadBytes, bytes - buffer_.size())));
      const std::size_t had = buffer_.size();
      buffer_.resize(had + n);
      status_ = spool_.scratch_->Read(read_, buffer_.data() + had, n);
      read_ += n;
      return status_.ok();
    }
    const LineSpool& spool_;
    std::string buffer_;
    std::size_t at_ = 0;
    std::uint64_t read_ = 0;
    Status status_ = Status::Ok();
  };

 private:
  struct Header {
    std::int64_t time_ms;
    std::uint64_t length;
  };
  struct Key {
    std::int64_t time_ms;
    std::uint64_t offset;  // of the record's header in the spool
    std::uint64_t bytes;   // header and line
  };

  Status Flush() {
    if (buffer_.empty()) return Status::Ok();
    if (!scratch_) {
      auto made = make_scratch_();
      if (!made.ok()) return made.status();
      scratch_ = std::move(made).value();
    }
    if (Status s = scratch_->Append(buffer_.data(), buffer_.size()); !s.ok()) return s;
    size_ += buffer_.size();
    buffer_.clear();
    return Status::Ok();
  }

  // Orders the spool by (time, input order): the keys through an external sort, then each
  // record copied, in that order, into a new spool that replaces this one.
  Status Sort() {
    auto less = [](const Key& x, const Key& y) {
      return std::tie(x.time_ms, x.offset) < std::tie(y.time_ms, y.offset);
    };
    models::ExternalSorter<Key, decltype(less)> keys(sort_records_, less, make_scratch_);
    {
      Reader reader(*this);
      std::int64_t time_ms = 0;
      std::string_view line;
      std::uint64_t offset = 0;
      while (reader.Next(&time_ms, &line)) {
        const std::uint64_t bytes = sizeof(Header) + line.size();
        if (Status s = keys.Add({time_ms, offset, bytes}); !s.ok()) return s;
        offset += bytes;
      }
      if (!reader.status().ok()) return reader.status();
    }
    if (Status s = keys.Finish(); !s.ok()) return s;
    // Files only past buffer_bytes, as this one did.
    LineSpool sorted(buffer_bytes_, sort_records_, make_scratch_);
    std::string record;
    while (const Key* k = keys.Next()) {
      record.resize(k->bytes);
      if (Status s = scratch_->Read(k->offset, record.data(), record.size()); !s.ok()) return s;
      if (Status s = sorted.Add(k->time_ms, std::string_view(record).substr(sizeof(Header)));
          !s.ok()) {
        return s;
      }
    }
    if (!keys.status().ok()) return keys.status();
    if (Status s = sorted.Finish(); !s.ok()) return s;
    scratch_ = std::move(sorted.scratch_);
    size_ = sorted.size_;
    return Status::Ok();
  }

  std::size_t buffer_bytes_;
  std::size_t sort_records_;
  models::ScratchFactory make_scratch_;
  std::unique_ptr<models::ScratchFile> scratch_;  // made when buffer_ first fills
  std::uint64_t size_ = 0;                        // bytes in scratch_
  std::string buffer_;                            // not in scratch_ yet
  std::int64_t last_time_ms_ = INT64_MIN;
  bool sorted_ = true;
};

// A spool's records decoded one at a time into a reused record.
template <typename Record, typename Decode>
class SpoolCursor : public models::HdfsRecordCursor<Record> {
 public:
  SpoolCursor(const LineSpool& spool, Decode decode) : reader_(spool), decode_(decode) {}
  const Record* Next() override {
    std::int64_t time_ms = 0;
    std::string_view line;
    if (!status_.ok() || !reader_.Next(&time_ms, &line)) return nullptr;
    if (!decode_(Split(line), &record_)) {  // checked when read from stdin: a spool gone bad
      status_ = Status::Failed("hdfs reduce: a spooled record no longer reads: \"" +
                               std::string(line.substr(0, 40)) + "\"");
      return nullptr;
    }
    return &record_;
  }
  Status status() const override { return status_.ok() ? reader_.status() : status_; }

 private:
  LineSpool::Reader reader_;
  Decode decode_;
  Record record_;
  Status status_ = Status::Ok();
};

bool DecodeAudit(const std::vector<std::string_view>& f, models::HdfsAuditRecord* a) {
  return ReadRecord(f, &a->time_ms, models::AuditFields(*a));
}
bool DecodeTransfer(const std::vector<std::string_view>& f, models::HdfsTransferRecord* t) {
  return ReadRecord(f, &t->time_ms, models::TransferFields(*t));
}
bool DecodeBlock(const std::vector<std::string_view>& f, models::HdfsBlockRecord* b) {
  if (f.size() != 4 || !Int(f[1], &b->time_ms)) return false;
  b->block = models::UnescapeTabs(f[2]);
  b->path = models::UnescapeTabs(f[3]);
  return true;
}

// The records of the reduce's input, spooled by kind (see LineSpool).
class SpooledStreams : public models::HdfsRecordStreams {
 public:
  SpooledStreams(const models::HdfsWorkloadOptions& options, models::ScratchFactory scratch)
      : audits(Spool(options, scratch)),
        transfers(Spool(options, scratch)),
        blocks(Spool(options, scratch)),
        scratch_(std::move(scratch)) {}
  std::unique_ptr<models::HdfsRecordCursor<models::HdfsAuditRecord>> Audits() override {
    return std::make_unique<SpoolCursor<models::HdfsAuditRecord, decltype(&DecodeAudit)>>(
        audits, &DecodeAudit);
  }
  std::unique_ptr<models::HdfsRecordCursor<models::HdfsTransferRecord>> Transfers() override {
    return std::make_unique<SpoolCursor<models::HdfsTransferRecord, decltype(&DecodeTransfer)>>(
        transfers, &DecodeTransfer);
  }
  std::unique_ptr<models::HdfsRecordCursor<models::HdfsBlockRecord>> Blocks() override {
    return std::make_unique<SpoolCursor<models::HdfsBlockRecord, decltype(&DecodeBlock)>>(
        blocks, &DecodeBlock);
  }
  Result<std::unique_ptr<models::ScratchFile>> Scratch() override { return scratch_(); }

  LineSpool audits, transfers, blocks;

 private:
  // In memory: at most 1 MiB of each kind's lines (less when the sorts are given less), and the
  // sort of the keys of unsorted input as large as the analysis's sorts.
  static LineSpool Spool(const models::HdfsWorkloadOptions& options,
                         const models::ScratchFactory& scratch) {
    const auto sort_bytes = static_cast<std::size_t>(options.sort_run_bytes);
    return LineSpool(std::min<std::size_t>(sort_bytes, std::size_t{1} << 20),
                     sort_bytes / (3 * sizeof(std::uint64_t)), scratch);
  }
  models::ScratchFactory scratch_;
};

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

Result<StreamedWorkloadAnswer> HdfsReduceStreamed(std::istream& in,
                                                  const models::HdfsWorkloadOptions& options,
                                                  profiles::HdfsParseCounts* lines,
                                                  models::ScratchFactory scratch) {
  if (Status s = options.Validate(); !s.ok()) return s;
  if (!scratch) scratch = profiles::OpenScratchFile;
  auto records = std::make_unique<SpooledStreams>(options, scratch);
  profiles::HdfsParseCounts counts;
  std::string_view line;
  StreamSource source(in);
  profiles::BoundedLineReader reader(&source, kMaxLineBytes);
  auto bad = [&reader](const std::string& why) {
    return Status::InvalidArgument("stdin:" + std::to_string(reader.line_number()) + ": " + why);
  };
  models::HdfsAuditRecord a;
  models::HdfsTransferRecord r;
  models::HdfsBlockRecord b;
  while (reader.Next(&line)) {
    if (reader.too_long()) {
      return bad("line longer than " + std::to_string(kMaxLineBytes) +
                 " bytes (the maximum line length)");
    }
    if (line.empty()) continue;
    const std::vector<std::string_view> f = Split(line);
    Status added = Status::Ok();
    if (f[0] == "A") {
      if (!DecodeAudit(f, &a)) return bad("expected an audit record of 10 fields");
      added = records->audits.Add(a.time_ms, line);
    } else if (f[0] == "T") {
      if (!DecodeTransfer(f, &r)) return bad("expected a transfer record of 9 fields");
      added = records->transfers.Add(r.time_ms, line);
    } else if (f[0] == "B") {
      if (!DecodeBlock(f, &b)) return bad("expected a block record of 4 fields");
      added = records->blocks.Add(b.time_ms, line);
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
    if (!added.ok()) return added;
  }
  for (LineSpool* spool : {&records->audits, &records->transfers, &records->blocks}) {
    if (Status s = spool->Finish(); !s.ok()) return s;
  }
  if (lines != nullptr) *lines = counts;
  StreamedWorkloadAnswer out;
  auto workload = models::AnalyzeHdfsWorkload(*records, options, &out.streams);
  if (!workload.ok()) return workload.status();
  out.answer.workload = std::move(workload).value();
  return out;
}

Result<WorkloadAnswer> HdfsReduce(std::istream& in, const models::HdfsWorkloadOptions& options,
                                  profiles::HdfsParseCounts* lines,
                                  models::ScratchFactory scratch) {
  return HoldStreams(HdfsReduceStreamed(in, options, lines, std::move(scratch)));
}

}  // namespace perfplan::planner
