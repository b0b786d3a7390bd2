// Reading Spark event logs as a stream of lines, whatever codec and layout Spark wrote them in.
//
// A Spark event log is JSON lines, one SparkListener event per line. Spark writes it plain or
// compressed (zstd, lz4, snappy, lzf; gzip from some vendors), as one file (possibly still growing,
// with a `.inprogress` suffix) or as a rolling folder `eventlog_v2_<app>/` holding
// `events_<n>_<app>[.codec]` parts and an `appstatus_<app>[.inprogress]` marker. This module finds
// the logs under the paths a user gives and turns each into one line stream; it does not interpret
// events (spark_ingest.h does).
//
// Memory: a reader holds one decompression window and the current line (at most the maximum line
// length, 64 MiB by default), never the whole file.
// Ownership: readers own their files and close them on destruction. Thread-safety: one reader per
// thread; FindEventLogs is reentrant.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "profiles/line_reader.h"

namespace perfplan::profiles::spark {

enum class Codec { kPlain, kGzip, kZstd, kLz4, kSnappy, kLzf };

// "plain", "gzip", "zstd", "lz4", "snappy", "lzf".
std::string_view ToString(Codec codec);

// The codec a file name announces by its extension, after removing a `.inprogress` suffix:
// .zstd/.zst, .lz4, .snappy, .lzf, .gz; anything else is plain.
Codec CodecFromFileName(std::string_view file_name);

// The codec whose magic bytes start `head`, or kPlain when none matches.
Codec CodecFromContent(std::string_view head);

// One application's event log: one file, or the ordered parts of a rolling folder.
struct EventLogSource {
  std::string name;                // the file or the rolling folder, as found
  std::vector<std::string> parts;  // files to read in order (one unless rolling)
  bool rolling = false;            // an eventlog_v2_* folder
  bool in_progress = false;        // `.inprogress` file, or rolling marker `appstatus_*.inprogress`
};

// A line (or a stretch of the input) that could not be used.
struct SkippedLine {
  std::string file;       // the part file
  std::int64_t line = 0;  // 1-based line number within that file; 0 for the whole file
  std::string reason;     // what was wrong, e.g. "invalid JSON: ..." or "corrupt zstd stream: ..."
};
// The message a SkipTally counts it by (profiles/skip_tally.h).
inline const std::string& SkipMessageOf(const SkippedLine& s) { return s.reason; }

// Expands `paths` into event logs: a regular file is one log; an `eventlog_v2_*` folder is one
// rolling log (parts in numeric order); any other folder is searched recursively, in name order.
// Paths that do not exist are returned in `missing` rather than failing the whole call; files in
// a rolling folder that are neither parts nor the marker are ignored.
std::vector<EventLogSource> FindEventLogs(const std::vector<std::string>& paths,
                                          std::vector<SkippedLine>* missing);

// Reads one event log line by line across its parts, decompressing as it goes.
class EventLineReader {
 public:
  // Prepares to read `source`. Files are opened lazily, part by part; failures to open or decode
  // a part are reported through skipped() and the reader moves on to the next part. Lines longer
  // than `max_line_bytes` (after decompression, without the terminator) are skipped and reported
  // as "line longer than N bytes (the maximum line length); skipped"; the reader never holds
  // more of a line than max_line_bytes plus one decoded block (1 MiB; up to kMaxBlockBytes for
  // lz4 and snappy).
  explicit EventLineReader(EventLogSource source,
                           std::size_t max_line_bytes = kDefaultMaxLineBytes);
  ~EventLineReader();
  EventLineReader(const EventLineReader&) = delete;
  EventLineReader& operator=(const EventLineReader&) = delete;

  // The next line without its line terminator ("\n" or "\r\n"); false at the end of the last
  // part. The view is valid until the next call. Lines longer than max_line_bytes are skipped
  // and reported.
  bool Next(std::string_view* line);

  const std::string& current_file() const;  // part the last line came from
  std::int64_t current_line() const;        // its 1-based number within that part
  // True when the last line returned ended at end of file without a line terminator (a
  // possibly truncated last line).
  bool current_line_unterminated() const;
  // Bytes readable in memory after the last line's view (BoundedLineReader::bytes_after_line).
  std::size_t bytes_after_line() const;
  Codec current_codec() const;

  // Problems met so far below the line level: unreadable files, corrupt compressed streams,
  // extension/content mismatches, over-long lines.
  const std::vector<SkippedLine>& skipped() const { return skipped_; }
  // Bytes read from disk so far (compressed size).
  std::int64_t file_bytes_read() const;

  // 64 MiB, the limit of every log reader (profiles/line_reader.h).
  static constexpr std::size_t kDefaultMaxLineBytes = BoundedLineReader::kDefaultMaxLineBytes;
  // The largest decompressed block or chunk a compressed part may claim (lz4-java and
  // snappy-java write at most 32 MiB; zstd windows above it are refused by libzstd's own limit).
  static constexpr std::size_t kMaxBlockBytes = std::size_t{64} << 20;

 private:
  class Part;
  bool OpenNextPart();
  EventLogSource source_;
  std::size_t max_line_bytes_;
  std::size_t next_part_ = 0;
  std::unique_ptr<Part> part_;
  std::vector<SkippedLine> skipped_;
  std::int64_t bytes_done_ = 0;  // file bytes of finished parts
  std::string empty_;
};

}  // namespace perfplan::profiles::spark
