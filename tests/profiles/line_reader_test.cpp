#include "profiles/line_reader.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace perfplan::profiles {
namespace {

// Hands out `text` in chunks of `chunk_bytes`, as a decoder or a file would.
class ChunkSource : public LineSource {
 public:
  ChunkSource(std::string text, std::size_t chunk_bytes)
      : text_(std::move(text)), chunk_bytes_(chunk_bytes) {}
  bool Read(std::string* out) override {
    if (at_ >= text_.size()) return false;
    out->append(text_, at_, chunk_bytes_);
    at_ += chunk_bytes_;
    ++reads;
    return true;
  }
  int reads = 0;

 private:
  std::string text_;
  std::size_t chunk_bytes_;
  std::size_t at_ = 0;
};

struct Line {
  std::string text;
  bool too_long, terminated;
  long long number, offset;
  bool operator==(const Line&) const = default;
};

std::vector<Line> ReadAll(const std::string& text, std::size_t chunk_bytes, std::size_t max) {
  ChunkSource source(text, chunk_bytes);
  BoundedLineReader reader(&source, max);
  std::vector<Line> lines;
  std::string_view line;
  while (reader.Next(&line)) {
    lines.push_back({std::string(line), reader.too_long(), reader.terminated(),
                     reader.line_number(), reader.offset()});
  }
  return lines;
}

TEST_CASE("lines come out whole and over-long ones flagged, whatever the chunk size") {
  struct Case {
    const char* what;
    std::string text;
    std::size_t max_line_bytes;
    std::vector<Line> lines;
  };
  const Case cases[] = {
      {"terminators \\n and \\r\\n are dropped, an unterminated last line kept",
       "alpha\r\nbeta\n\ngamma",
       100,
       {{"alpha", false, true, 1, 7},
        {"beta", false, true, 2, 12},
        {"", false, true, 3, 13},
        {"gamma", false, false, 4, 18}}},
      // Limit 4: "12345" is one byte over. The long line ends inside the chunk that crossed the
      // limit as well as several chunks later, depending on the chunk size.
      {"an over-long line is read to its end and comes back empty",
       "abcd\n12345678901234\nok\n12345",
       4,
       {{"abcd", false, true, 1, 5},
        {"", true, true, 2, 20},
        {"ok", false, true, 3, 23},
        {"", true, false, 4, 28}}},
      {"an empty input has no lines", "", 10, {}},
      {"a lone terminator is one empty line", "\n", 10, {{"", false, true, 1, 1}}},
  };
  for (const Case& c : cases) {
    for (std::size_t chunk : {1, 2, 3, 4, 5, 7, 64}) {
      CAPTURE(c.what);
      CAPTURE(chunk);
      CHECK(ReadAll(c.text, chunk, c.max_line_bytes) == c.lines);
    }
  }
}

TEST_CASE("the reader never holds much more of a line than the limit") {
  // 1 MB of one line in 1 KiB chunks with a 4 KiB limit: memory stays at the limit plus a chunk,
  // which the reader proves by still finding the next line.
  const std::string text = std::string(1 << 20, 'x') + "\nnext\n";
  ChunkSource source(text, 1024);
  BoundedLineReader reader(&source, 4096);
  std::string_view line;
  REQUIRE(reader.Next(&line));
  CHECK(reader.too_long());
  REQUIRE(reader.Next(&line));
  CHECK(line == "next");
  CHECK(reader.offset() == static_cast<long long>(text.size()));
  CHECK_FALSE(reader.Next(&line));
}

TEST_CASE("Reset forgets buffered bytes and restarts the count at the given offset") {
  ChunkSource source("one\ntwo\n", 64);
  BoundedLineReader reader(&source, 100);
  std::string_view line;
  REQUIRE(reader.Next(&line));
  reader.Reset(100);
  CHECK(reader.line_number() == 0);
  CHECK(reader.offset() == 100);
  CHECK_FALSE(reader.Next(&line));  // the source was drained into the forgotten buffer
}

TEST_CASE("bytes_after_line counts the bytes that follow the line's view in memory") {
  // What a parser reading past the end of a line (simdjson's padding) may read instead of a
  // copy: the line's terminator and the lines buffered after it, up to the end of the buffer.
  ChunkSource source("one\r\ntwo\nthree", 64);
  BoundedLineReader reader(&source, 100);
  std::string_view line;
  REQUIRE(reader.Next(&line));
  CHECK(line == "one");
  CHECK(reader.bytes_after_line() == 11);  // "\r\ntwo\nthree"
  CHECK(std::string_view(line.data() + line.size(), reader.bytes_after_line()) ==
        "\r\ntwo\nthree");
  REQUIRE(reader.Next(&line));
  CHECK(reader.bytes_after_line() == 6);  // "\nthree"
  REQUIRE(reader.Next(&line));
  CHECK(line == "three");
  CHECK(reader.bytes_after_line() == 0);  // the unterminated last line ends the buffer
}

TEST_CASE("TooLongReason is the one report for an over-long line") {
  CHECK(TooLongReason(1024) == "line longer than 1024 bytes (the maximum line length); skipped");
  CHECK(BoundedLineReader::kDefaultMaxLineBytes == std::size_t{64} << 20);
}

}  // namespace
}  // namespace perfplan::profiles
