#include "profiles/spark/spark_log_reader.h"

#include <doctest/doctest.h>

#include <filesystem>

#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles::spark {
namespace {

std::vector<std::string> ReadAll(const EventLogSource& src, EventLineReader* reader = nullptr) {
  EventLineReader own(src);
  EventLineReader& r = reader ? *reader : own;
  std::vector<std::string> lines;
  std::string_view line;
  while (r.Next(&line)) lines.emplace_back(line);
  return lines;
}

EventLogSource One(const std::string& path) {
  std::vector<SkippedLine> missing;
  auto logs = FindEventLogs({path}, &missing);
  REQUIRE(logs.size() == 1);
  return logs[0];
}

// 12345 -> "12,345": how codec messages print byte offsets.
std::string Thousands(std::size_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) {
    s.insert(static_cast<std::size_t>(i), ",");
  }
  return s;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t nl = text.find('\n', at);
    out.push_back(text.substr(at, nl - at));
    at = nl + 1;
  }
  return out;
}

TEST_CASE("Every codec Spark writes decodes to the same lines as the plain log") {
  // Large enough for several blocks/chunks/frames in every framing.
  const std::string plain = testing::SyntheticEventLog("app-1", 4, 300);
  REQUIRE(plain.size() > 200000);
  const std::string dir = testing::MakeTempDir();
  struct Case {
    std::string file;
    std::string bytes;
    Codec codec;
  };
  const std::vector<Case> cases = {
      {"app-1", plain, Codec::kPlain},
      {"app-1.lz4", testing::EncodeLz4Block(plain), Codec::kLz4},
      {"app-1.snappy", testing::EncodeSnappyStream(plain), Codec::kSnappy},
      {"app-1.lzf", testing::EncodeLzf(plain), Codec::kLzf},
      {"app-1.zstd", testing::EncodeZstdFrames(plain), Codec::kZstd},
      {"app-1.zst", testing::EncodeZstdFrames(plain, 1 << 20), Codec::kZstd},
      {"app-1.gz", testing::EncodeGzipMembers(plain), Codec::kGzip},
      {"app-1.lz4.inprogress", testing::EncodeLz4Block(plain, 4096), Codec::kLz4},
  };
  for (const Case& c : cases) {
    CAPTURE(c.file);
    testing::WriteFile(dir + "/" + c.file, c.bytes);
    EventLogSource src = One(dir + "/" + c.file);
    EventLineReader reader(src);
    CHECK(ReadAll(src, &reader) == Lines(plain));
    CHECK(reader.skipped().empty());
    CHECK(CodecFromFileName(c.file) == c.codec);
    CHECK(src.in_progress == (c.file.find(".inprogress") != std::string::npos));
  }
}

TEST_CASE("The lzf encoder in the test support really compresses, so back references are read") {
  const std::string plain = testing::SyntheticEventLog("app-1", 1, 200);
  CHECK(testing::EncodeLzf(plain).size() < plain.size() / 2);
}

TEST_CASE("A file whose content contradicts its extension is read by content, with a note") {
  const std::string dir = testing::MakeTempDir();
  const std::string plain = testing::SyntheticEventLog("app-1", 1, 3);
  testing::WriteFile(dir + "/app.lz4", testing::EncodeZstdFrames(plain));
  EventLogSource src = One(dir + "/app.lz4");
  EventLineReader reader(src);
  CHECK(ReadAll(src, &reader) == Lines(plain));
  REQUIRE(reader.skipped().size() == 1);
  CHECK(reader.skipped()[0].reason == "file name says lz4 but the content is zstd; read as zstd");
}

TEST_CASE("A corrupt lz4 block is reported with the line it interrupts; earlier lines survive") {
  const std::string dir = testing::MakeTempDir();
  const std::string plain = testing::SyntheticEventLog("app-1", 2, 100);
  std::string lz4 = testing::EncodeLz4Block(plain, 4096);
  // Flip a byte inside the second block's payload: its checksum no longer matches.
  std::size_t second = lz4.find("LZ4Block", 8);
  REQUIRE(second != std::string::npos);
  lz4[second + 21 + 10] ^= 0x5a;
  testing::WriteFile(dir + "/bad.lz4", lz4);
  EventLogSource src = One(dir + "/bad.lz4");
  EventLineReader reader(src);
  std::vector<std::string> lines = ReadAll(src, &reader);
  CHECK(lines.size() >= 1);
  CHECK(lines.size() < Lines(plain).size());
  bool reported = false;
  for (const SkippedLine& s : reader.skipped()) {
    reported |= s.reason.rfind("corrupt lz4 stream:", 0) == 0 && s.file == dir + "/bad.lz4";
  }
  CHECK(reported);
}

TEST_CASE("A truncated zstd file is reported, not fatal") {
  const std::string dir = testing::MakeTempDir();
  const std::string plain = testing::SyntheticEventLog("app-1", 2, 100);
  std::string z = testing::EncodeZstdFrames(plain, 1 << 20);
  testing::WriteFile(dir + "/cut.zstd", z.substr(0, z.size() / 2));
  EventLogSource src = One(dir + "/cut.zstd");
  EventLineReader reader(src);
  ReadAll(src, &reader);
  REQUIRE_FALSE(reader.skipped().empty());
  CHECK(reader.skipped().back().reason == "corrupt zstd stream: truncated zstd frame at byte " +
                                              Thousands(z.size() / 2) + " (the end of the file)");
}

TEST_CASE("An .lz4 file in the LZ4 frame format (the lz4 tool's) reads like lz4-java's blocks") {
  const std::string dir = testing::MakeTempDir();
  const std::string plain = testing::SyntheticEventLog("app-1", 2, 100);
  // Two concatenated frames, as `cat a.lz4 b.lz4` gives.
  const std::size_t half = plain.size() / 2;
  testing::WriteFile(dir + "/app.lz4", testing::EncodeLz4Frame(plain.substr(0, half)) +
                                           testing::EncodeLz4Frame(plain.substr(half)));
  EventLogSource src = One(dir + "/app.lz4");
  EventLineReader reader(src);
  CHECK(ReadAll(src, &reader) == Lines(plain));
  CHECK(reader.skipped().empty());
}

TEST_CASE("A truncated LZ4 frame names the format and the byte where the file ended") {
  const std::string dir = testing::MakeTempDir();
  const std::string frame = testing::EncodeLz4Frame(testing::SyntheticEventLog("app-1", 2, 100));
  const std::size_t cut = frame.size() / 2;
  testing::WriteFile(dir + "/cut.lz4", frame.substr(0, cut));
  EventLogSource src = One(dir + "/cut.lz4");
  EventLineReader reader(src);
  ReadAll(src, &reader);
  REQUIRE_FALSE(reader.skipped().empty());
  CHECK(reader.skipped().back().reason ==
        "corrupt lz4 stream (lz4 frame format): truncated lz4 frame at byte " + Thousands(cut) +
            " (the end of the file)");
}

TEST_CASE("CRLF line ends are stripped and a last line without newline is flagged") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/log", "{\"a\":1}\r\n{\"b\":2}\r\n{\"c\":");
  EventLogSource src = One(dir + "/log");
  EventLineReader reader(src);
  std::string_view line;
  REQUIRE(reader.Next(&line));
  CHECK(line == "{\"a\":1}");
  CHECK_FALSE(reader.current_line_unterminated());
  REQUIRE(reader.Next(&line));
  CHECK(line == "{\"b\":2}");
  REQUIRE(reader.Next(&line));
  CHECK(line == "{\"c\":");
  CHECK(reader.current_line() == 3);
  CHECK(reader.current_line_unterminated());
  CHECK_FALSE(reader.Next(&line));
}

TEST_CASE("A rolling folder reads its parts in numeric order, whatever their codec") {
  const std::string dir = testing::MakeTempDir() + "/eventlog_v2_app-7";
  std::filesystem::create_directories(dir);
  testing::WriteFile(dir + "/appstatus_app-7.inprogress", "");
  testing::WriteFile(dir + "/events_10_app-7.zstd", testing::EncodeZstdFrames("{\"p\":10}\n"));
  testing::WriteFile(dir + "/events_2_app-7.lz4", testing::EncodeLz4Block("{\"p\":2}\n"));
  testing::WriteFile(dir + "/events_1_app-7", "{\"p\":1}\n");
  testing::WriteFile(dir + "/notes.txt", "ignored");
  std::vector<SkippedLine> missing;
  auto logs = FindEventLogs({std::filesystem::path(dir).parent_path().string()}, &missing);
  REQUIRE(logs.size() == 1);
  CHECK(logs[0].rolling);
  CHECK(logs[0].in_progress);
  REQUIRE(logs[0].parts.size() == 3);
  CHECK(ReadAll(logs[0]) == std::vector<std::string>{"{\"p\":1}", "{\"p\":2}", "{\"p\":10}"});
}

TEST_CASE("Paths that do not exist are listed as missing, the others still found") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/a", "{}\n");
  std::vector<SkippedLine> missing;
  auto logs = FindEventLogs({dir + "/a", dir + "/nope"}, &missing);
  CHECK(logs.size() == 1);
  REQUIRE(missing.size() == 1);
  CHECK(missing[0].file == dir + "/nope");
  CHECK(missing[0].reason == "no such file or folder");
}

TEST_CASE("Codec detection by magic bytes") {
  CHECK(CodecFromContent(std::string("\x28\xb5\x2f\xfd", 4)) == Codec::kZstd);
  CHECK(CodecFromContent("LZ4Block\x26") == Codec::kLz4);
  CHECK(CodecFromContent(std::string("\x82SNAPPY\0", 8)) == Codec::kSnappy);
  CHECK(CodecFromContent(std::string("ZV\x01", 3)) == Codec::kLzf);
  CHECK(CodecFromContent("\x1f\x8b") == Codec::kGzip);
  CHECK(CodecFromContent("{\"Event\"") == Codec::kPlain);
}

TEST_CASE("Truncated or bit-flipped streams of every codec never crash and are reported") {
  const std::string plain = testing::SyntheticEventLog("app-x", 2, 40);
  const std::string dir = testing::MakeTempDir();
  const std::vector<std::pair<std::string, std::string>> encoded = {
      {"x.lz4", testing::EncodeLz4Block(plain, 2048)},
      {"x.snappy", testing::EncodeSnappyStream(plain, 2048)},
      {"x.lzf", testing::EncodeLzf(plain, 2048)},
      {"x.zstd", testing::EncodeZstdFrames(plain, 2048)},
      {"x.gz", testing::EncodeGzipMembers(plain, 2048)},
  };
  for (const auto& [name, bytes] : encoded) {
    for (double cut : {0.1, 0.5, 0.93}) {
      for (bool flip : {false, true}) {
        CAPTURE(name);
        CAPTURE(cut);
        CAPTURE(flip);
        std::string damaged = bytes;
        const std::size_t at = static_cast<std::size_t>(cut * static_cast<double>(bytes.size()));
        if (flip) {
          for (std::size_t i = at; i < at + 16 && i < damaged.size(); ++i) damaged[i] ^= 0x5a;
        } else {
          damaged.resize(at);
        }
        testing::WriteFile(dir + "/" + name, damaged);
        EventLogSource src = One(dir + "/" + name);
        EventLineReader reader(src);
        std::vector<std::string> lines = ReadAll(src, &reader);
        CHECK(lines.size() <= Lines(plain).size() + 1);
        // A damaged stream is always noticed: by the codec, or as lines that differ.
        const bool codec_noticed = !reader.skipped().empty();
        const bool lines_differ = lines != Lines(plain);
        CHECK((codec_noticed || lines_differ));
      }
    }
  }
}

TEST_CASE("Random bytes under each codec's name are reported, not read as events") {
  const std::string dir = testing::MakeTempDir();
  std::string junk;
  unsigned state = 12345;
  for (int i = 0; i < 5000; ++i) {
    state = state * 1103515245u + 12345u;
    junk.push_back(static_cast<char>(state >> 16));
  }
  for (const char* name : {"j.lz4", "j.snappy", "j.lzf", "j.zstd", "j.gz", "j"}) {
    CAPTURE(name);
    testing::WriteFile(dir + "/" + name, junk);
    EventLogSource src = One(dir + "/" + name);
    EventLineReader reader(src);
    ReadAll(src, &reader);  // must simply finish
    CHECK(reader.file_bytes_read() <= static_cast<std::int64_t>(junk.size()));
  }
}

}  // namespace
}  // namespace perfplan::profiles::spark
