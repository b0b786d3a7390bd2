// The one bounded line reader of profiles/: every log reader (Spark event logs, HDFS logs, the
// Hadoop Streaming map step) splits its bytes into lines here, with the same line-length limit,
// the same "\n" / "\r\n" handling and the same report for an over-long line.
//
// A LineSource hands out bytes (already decompressed); BoundedLineReader cuts them into lines and
// never holds more of one line than max_line_bytes plus one chunk of the source, so an endless line
// (a binary file, a corrupt stream) cannot exhaust memory. Not thread-safe: one reader per input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace perfplan::profiles {

// Where a BoundedLineReader gets its bytes.
class LineSource {
 public:
  virtual ~LineSource() = default;
  // Appends the next bytes of the input to *out and returns true, or returns false at the end of
  // the input or on a read error (the source keeps the error for its owner to report).
  virtual bool Read(std::string* out) = 0;
};

class BoundedLineReader {
 public:
  // 64 MiB: the longest lines real logs hold are Spark SQL plan events of a few MiB; HDFS lines
  // are under 64 KiB. A longer line is garbage (or a binary file).
  static constexpr std::size_t kDefaultMaxLineBytes = std::size_t{64} << 20;

  // Reads from `source` (not owned; must outlive the reader). `max_line_bytes` excludes the
  // line terminator.
  explicit BoundedLineReader(LineSource* source, std::size_t max_line_bytes = kDefaultMaxLineBytes);

  // The next line without its terminator ("\n" or "\r\n"); false at the end of the input. The
  // view stays valid until the next call. A line longer than max_line_bytes is read to its end
  // but not kept: it comes back as an empty view with too_long() set.
  bool Next(std::string_view* line);

  bool too_long() const { return too_long_; }                // the last line was over the limit
  bool terminated() const { return terminated_; }            // false for a last line without "\n"
  std::int64_t line_number() const { return line_number_; }  // 1-based number of the last line
  std::int64_t offset() const { return offset_; }  // input bytes consumed, terminator included
  std::size_t max_line_bytes() const { return max_line_bytes_; }
  // Bytes of the input that follow the last line's view in memory (its terminator and the lines
  // buffered after it), readable until the next call: a parser that may read past the end of
  // the line (simdjson reads up to SIMDJSON_PADDING bytes) can use them instead of a padded copy.
  std::size_t bytes_after_line() const { return buffer_.size() - line_end_; }

  // Forgets buffered bytes after the owner repositioned the source at input byte `offset` (the
  // start of a line); line_number() restarts at 0.
  void Reset(std::int64_t offset);

 private:
  void SkipLongLine();  // drops an over-long line up to its end
  LineSource* source_;
  std::size_t max_line_bytes_;
  std::string buffer_;
  std::size_t begin_ = 0;  // start of the unread bytes in buffer_
  std::size_t line_end_ = 0;  // end of the last line's view in buffer_
  bool eof_ = false;
  bool too_long_ = false;
  bool terminated_ = true;
  std::int64_t line_number_ = 0;
  std::int64_t offset_ = 0;
};

// "line longer than N bytes (the maximum line length); skipped": what every reader reports for a
// line BoundedLineReader returned with too_long().
std::string TooLongReason(std::size_t max_line_bytes);

}  // namespace perfplan::profiles
