// HDFS log parsing: NameNode audit lines, NameNode state-change lines and DataNode clienttrace
// lines, in the shapes Hadoop 0.18-0.20, 2.x and 3.x write them (formats in
// ../shared/data/README.md §2.1-2.2), under any of the log4j layouts Hadoop ships
// ("%d{ISO8601} %p %c: %m", "%d{ISO8601} %p %c{2}: %m", HDP's "%d %-5p [%t] %c{2} (%F:%M(%L)) -
// %m", and 0.18's "yyMMdd HHmmss pid LEVEL logger: msg").
//
// Every line gets exactly one kind; nothing is silently dropped. Lines that are well-formed log4j
// lines but carry no workload information (other loggers, stack-trace continuations) are counted
// as "other"; lines from the audit/clienttrace/state-change loggers that do not parse, and lines
// that are not log lines at all, are "garbled" and reported with file, line and reason.
//
// Reading: HdfsLogReader reads plain and gzip-compressed files (rotated `.log.N.gz`) line by line
// with uncompressed byte offsets, so incremental collection can resume mid-file.
//
// Thread-safety: functions are pure; a reader is used by one thread. Units: see hdfs_records.h.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/hdfs_records.h"
#include "models/status.h"
#include "profiles/line_reader.h"
#include "profiles/problem.h"

namespace perfplan::profiles {

enum class HdfsLineKind {
  kAudit,         // FSNamesystem.audit line → audit
  kTransfer,      // clienttrace HDFS_READ / HDFS_WRITE → transfer
  kBlock,         // BLOCK* allocate / NameSystem.allocateBlock → block
  kCreate,        // *DIR* NameNode.create (DEBUG) — counted, no record needed for analysis
  kComplete,      // DIR* completeFile — counted
  kOtherTrace,    // clienttrace with another op (MAPRED_SHUFFLE, REQUEST_SHORT_CIRCUIT_FDS, …)
  kOther,         // a well-formed log4j line from another logger or with another message
  kContinuation,  // a stack-trace or multi-line message continuation (no timestamp)
  kBlank,         // empty line
  kGarbled,       // could not be parsed; reason says why
};
const char* ToString(HdfsLineKind kind);

// Views of one line's fields: they point into the line passed to ParseHdfsLine and stay valid
// as long as it does (a reader's line until its next Next()). ToRecord() copies them out.
struct HdfsAuditView {
  std::int64_t time_ms = 0;
  bool allowed = true;
  std::string_view user, real_user, ip, cmd, src, dst, proto;  // as in models::HdfsAuditRecord
  models::HdfsAuditRecord ToRecord() const;
};
struct HdfsTransferView {
  std::int64_t time_ms = 0;
  bool is_read = true;
  std::string_view datanode, peer, block, client_id;  // as in models::HdfsTransferRecord
  std::int64_t bytes = 0;
  std::int64_t duration_ns = -1;
  models::HdfsTransferRecord ToRecord() const;
};
struct HdfsBlockView {
  std::int64_t time_ms = 0;
  std::string_view block, path;
  models::HdfsBlockRecord ToRecord() const;
};

// The parse of one line. Only the view matching `kind` is filled. Parsing copies nothing but a
// garbled line's reason, which keeps the hot path free of allocations.
struct HdfsLine {
  HdfsLineKind kind = HdfsLineKind::kBlank;
  std::int64_t time_ms = -1;  // -1 when the line has no timestamp
  HdfsAuditView audit;
  HdfsTransferView transfer;
  HdfsBlockView block;
  std::string_view other_op;  // kOtherTrace: the op
  std::string reason;         // kGarbled: what was wrong
};

// Parses one line without its '\n' (a trailing '\r' is ignored). Never fails: bad input gives
// kind kGarbled with a reason.
void ParseHdfsLine(std::string_view line, HdfsLine* out);

// Parses a log4j timestamp at the start of `text`: "yyyy-MM-dd HH:mm:ss,SSS" (ISO8601, also with
// 'T' and '.'), "yyyy-MM-dd HH:mm:ss", "yy/MM/dd HH:mm:ss" or "yyMMdd HHmmss". On success returns
// the milliseconds since the epoch (reading the wall clock as UTC) and sets *consumed; on failure
// returns -1.
std::int64_t ParseLog4jTime(std::string_view text, std::size_t* consumed);

// "blk_123_1001", "BP-1-127.0.0.1-1:blk_123_1001", "blk_-45" → "blk_123" / "blk_-45"; "" when
// the text holds no block id.
std::string_view NormalizeBlockId(std::string_view text);

// Counts of one pass over a file (or many), by kind, plus the garbled lines themselves.
struct HdfsParseCounts {
  std::int64_t lines = 0;
  std::int64_t audit = 0, transfer = 0, block = 0, create = 0, complete = 0, other_trace = 0,
               other = 0, continuation = 0, blank = 0, garbled = 0;
  std::int64_t time_backwards = 0;  // lines whose timestamp is earlier than the previous line's
  std::vector<Problem> problems;    // one per garbled line (first kMaxProblems kept)
  static constexpr std::size_t kMaxProblems = 1000;

  void Add(const HdfsLine& line);
  void Merge(const HdfsParseCounts& other);
};

// Each line kind, in enum order, with its name (ToString's) and the HdfsParseCounts member that
// counts it: the one list behind the name, Add, Merge and every writer and reader of the counts
// (the ingest report's "lines", `hdfs stream`'s "#" lines).
struct HdfsLineKindCount {
  HdfsLineKind kind;
  const char* name;
  std::int64_t HdfsParseCounts::*count;
};
std::span<const HdfsLineKindCount> HdfsLineKinds();

// Reads a log file line by line. Plain and gzip files are both read through zlib (which passes
// plain files through), so offsets are always in uncompressed bytes.
class HdfsLogReader {
 public:
  // 64 MiB, the limit of every log reader (profiles/line_reader.h).
  static constexpr std::size_t kDefaultMaxLineBytes = BoundedLineReader::kDefaultMaxLineBytes;

  // Opens `path`. NotFound when it does not exist; Failed when it cannot be read. Lines longer
  // than `max_line_bytes` (without '\n') are not held in memory: see line_too_long().
  static Result<std::unique_ptr<HdfsLogReader>> Open(
      const std::string& path, std::size_t max_line_bytes = kDefaultMaxLineBytes);
  ~HdfsLogReader();
  HdfsLogReader(const HdfsLogReader&) = delete;
  HdfsLogReader& operator=(const HdfsLogReader&) = delete;

  // The first `n` uncompressed bytes (fewer when the file is shorter); leaves the reader at the
  // start. Failed on a read error.
  Result<std::string> Peek(std::int64_t n);
  // Positions the reader at uncompressed byte `offset` (a line start from an earlier pass).
  Status Seek(std::int64_t offset);
  // Next line (without '\n' and trailing '\r'). Returns false at end of file or on a read error
  // (see error()). *terminated is false for a last line without '\n'. The view stays valid until
  // the next call.
  bool Next(std::string_view* line, bool* terminated);
  // True when the last line returned was longer than the maximum: Next() read it to its end
  // (so offsets stay right) but returned an empty view. Callers report TooLongReason().
  bool line_too_long() const { return lines_.too_long(); }
  // "line longer than N bytes (the maximum line length); skipped".
  std::string TooLongReason() const;
  // Uncompressed offset just after the last line returned.
  std::int64_t offset() const { return lines_.offset(); }
  bool compressed() const { return compressed_; }
  const Status& error() const { return source_.error; }

 private:
  explicit HdfsLogReader(std::size_t max_line_bytes) : lines_(&source_, max_line_bytes) {}
  // The uncompressed bytes of the file, read through zlib in 1 MiB chunks.
  class GzSource : public LineSource {
   public:
    bool Read(std::string* out) override;
    void* gz = nullptr;  // gzFile
    std::string path;
    std::int64_t offset = 0;  // uncompressed bytes read so far
    Status error;
  };
  GzSource source_;
  BoundedLineReader lines_;
  bool compressed_ = false;
};

// Parses the line `reader` returned last into *out: ParseHdfsLine, except that a line over the
// reader's maximum length comes back kGarbled with the reader's TooLongReason().
void ParseHdfsReaderLine(const HdfsLogReader& reader, std::string_view line, HdfsLine* out);

// Parses every line of `path`, calling `sink` for each one that carries a record. Returns the
// counts (garbled lines located by path and 1-based line number), or NotFound/Failed.
struct HdfsRecordSink {
  virtual ~HdfsRecordSink() = default;
  virtual void OnLine(const HdfsLine& line) = 0;
};
Result<HdfsParseCounts> ParseHdfsLogFile(const std::string& path, HdfsRecordSink* sink);

}  // namespace perfplan::profiles
