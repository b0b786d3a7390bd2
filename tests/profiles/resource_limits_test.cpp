// Resource limits on hostile input (issue 10, item 5): over-long lines, absurd JSON nesting,
// XML entity bombs and compression headers claiming huge sizes are rejected with a message that
// names file and line, never by running out of memory or stack. Inputs are generated in a temp
// folder at run time (the 100 MB ones are never checked in).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "profiles/ganglia/ganglia.h"
#include "profiles/hdfs/hdfs_log.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_log_reader.h"
#include "profiles/spark/spark_store.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles {
namespace {

constexpr std::size_t kHundredMegabytes = 100u * 1000u * 1000u;
constexpr int kDeep = 100000;
const std::string kTooLong64MiB =
    "line longer than 67108864 bytes (the maximum line length); skipped";

std::string Deep(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// Ingests the one application logged at `path` into a fresh in-memory store: it must still be
// ingested, completed. Returns the lines ingestion skipped.
std::vector<spark::SkippedLine> IngestOneApplication(const std::string& path) {
  auto store = Store::Open(":memory:", {spark::StoreMigrations()});
  REQUIRE(store.ok());
  auto summary = spark::IngestEventLogs(*store.value(), {path});
  REQUIRE(summary.ok());
  REQUIRE(summary.value().applications.size() == 1);
  CHECK(summary.value().applications[0].completed);
  return summary.value().skipped;
}

// Reads every line of one log, returning them with the reader's skips.
struct ReadResult {
  std::vector<std::string> lines;
  std::vector<std::int64_t> numbers;
  std::vector<spark::SkippedLine> skipped;
};
ReadResult ReadSparkLog(const std::string& path) {
  std::vector<spark::SkippedLine> missing;
  auto logs = spark::FindEventLogs({path}, &missing);
  REQUIRE(logs.size() == 1);
  spark::EventLineReader reader(logs[0]);
  ReadResult out;
  std::string_view line;
  while (reader.Next(&line)) {
    out.lines.emplace_back(line);
    out.numbers.push_back(reader.current_line());
  }
  out.skipped = reader.skipped();
  return out;
}

TEST_CASE("A 100 MB line in a Spark event log is skipped with file and line, the next line read") {
  const std::string dir = testing::MakeTempDir();
  std::string log = "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.0\"}\n";
  log += "{\"Event\":\"SparkListenerJobStart\",\"Junk\":\"";
  log.append(kHundredMegabytes, 'x');
  log += "\"}\n{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":1}\n";
  for (const std::string name : {"app-plain", "app-gz.gz"}) {
    CAPTURE(name);
    const std::string path = dir + "/" + name;
    testing::WriteFile(path, name == "app-plain" ? log : testing::EncodeGzipMembers(log, 8 << 20));
    ReadResult r = ReadSparkLog(path);
    CHECK(r.lines.size() == 2);
    CHECK(r.numbers == std::vector<std::int64_t>{1, 3});
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0].file == path);
    CHECK(r.skipped[0].line == 2);
    CHECK(r.skipped[0].reason == kTooLong64MiB);
  }
  std::string().swap(log);
}

TEST_CASE("The Spark line limit is configurable and counts a line that ends inside one chunk") {
  const std::string dir = testing::MakeTempDir();
  const std::string path = dir + "/app";
  testing::WriteFile(path, "short\n" + std::string(5000, 'y') + "\nshort again\n" +
                               std::string(3000, 'z'));  // over-long and unterminated at the end
  std::vector<spark::SkippedLine> missing;
  auto logs = spark::FindEventLogs({path}, &missing);
  REQUIRE(logs.size() == 1);
  spark::EventLineReader reader(logs[0], 2048);
  std::vector<std::string> lines;
  std::string_view line;
  while (reader.Next(&line)) lines.emplace_back(line);
  CHECK(lines == std::vector<std::string>{"short", "short again"});
  REQUIRE(reader.skipped().size() == 2);
  CHECK(reader.skipped()[0].line == 2);
  CHECK(reader.skipped()[0].reason ==
        "line longer than 2048 bytes (the maximum line length); skipped");
  CHECK(reader.skipped()[1].line == 4);
}

TEST_CASE("Spark ingestion reports a 100 MB line and still ingests the application") {
  const std::string dir = testing::MakeTempDir();
  std::string log = testing::SyntheticEventLog("app-long", 1, 3);
  const std::size_t first_nl = log.find('\n');
  log.insert(first_nl + 1, "{\"Event\":\"SparkListenerJobStart\",\"Junk\":\"" +
                               std::string(kHundredMegabytes, 'x') + "\"}\n");
  testing::WriteFile(dir + "/app-long", log);
  std::string().swap(log);
  const std::vector<spark::SkippedLine> skipped = IngestOneApplication(dir + "/app-long");
  REQUIRE(skipped.size() == 1);
  CHECK(skipped[0].file == dir + "/app-long");
  CHECK(skipped[0].line == 2);
  CHECK(skipped[0].reason == kTooLong64MiB);
}

TEST_CASE("Spark ingestion refuses limits below their minimum") {
  auto store = Store::Open(":memory:", {spark::StoreMigrations()});
  REQUIRE(store.ok());
  spark::IngestLimits limits;
  limits.max_line_bytes = 10;
  auto summary = spark::IngestEventLogs(*store.value(), {}, {}, limits);
  REQUIRE_FALSE(summary.ok());
  CHECK(summary.status().message() == "max_line_bytes: expected at least 1024, got 10");
}

TEST_CASE("An event line nested 100,000 deep is skipped with a message, not a stack overflow") {
  const std::string dir = testing::MakeTempDir();
  std::string log = testing::SyntheticEventLog("app-deep", 1, 2);
  const std::size_t first_nl = log.find('\n');
  // One through the general path, one through the task fast path (simdjson first).
  log.insert(first_nl + 1, "{\"Event\":\"SparkListenerJobStart\",\"Properties\":" + Deep(kDeep) +
                               "}\n" + "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":" +
                               Deep(kDeep) + "}\n" + Deep(kDeep) + "\n");
  testing::WriteFile(dir + "/app-deep", log);
  const std::vector<spark::SkippedLine> skipped = IngestOneApplication(dir + "/app-deep");
  REQUIRE(skipped.size() == 3);
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(skipped[i].file == dir + "/app-deep");
    CHECK(skipped[i].line == 2 + i);
    CHECK(skipped[i].reason == "JSON nested deeper than 512 levels");
  }
}

TEST_CASE("A 100 MB line in an HDFS log is reported as garbled with file and line") {
  const std::string dir = testing::MakeTempDir();
  const std::string audit =
      "2024-01-01 10:00:00,000 INFO FSNamesystem.audit: allowed=true\tugi=alice (auth:SIMPLE)\t"
      "ip=/10.0.0.1\tcmd=open\tsrc=/a\tdst=null\tperm=null\tproto=rpc";
  std::string log = audit + "\n";
  log +=
      "2024-01-01 10:00:01,000 INFO FSNamesystem.audit: allowed=true\tugi=alice\tip=/10.0.0.1"
      "\tcmd=open\tsrc=/";
  log.append(kHundredMegabytes, 'p');
  log += "\tdst=null\tperm=null\tproto=rpc\n" + audit + "\n";
  const std::string path = dir + "/hdfs-audit.log";
  testing::WriteFile(path, log);
  std::string().swap(log);
  auto counts = ParseHdfsLogFile(path, nullptr);
  REQUIRE(counts.ok());
  CHECK(counts.value().lines == 3);
  CHECK(counts.value().audit == 2);
  CHECK(counts.value().garbled == 1);
  REQUIRE(counts.value().problems.size() == 1);
  const Problem& p = counts.value().problems[0];
  CHECK(FormatProblem(p) == path + ":2: garbled: " + kTooLong64MiB);
}

TEST_CASE("The HDFS reader keeps offsets right across an over-long line, also unterminated") {
  const std::string dir = testing::MakeTempDir();
  const std::string path = dir + "/x.log";
  const std::string text = "a\n" + std::string(3000, 'b') + "\nc\n" + std::string(5000, 'd');
  testing::WriteFile(path, text);
  auto opened = HdfsLogReader::Open(path, 1024);
  REQUIRE(opened.ok());
  HdfsLogReader& r = *opened.value();
  std::string_view line;
  bool terminated = false;
  REQUIRE(r.Next(&line, &terminated));
  CHECK((line == "a" && !r.line_too_long()));
  REQUIRE(r.Next(&line, &terminated));
  CHECK((line.empty() && r.line_too_long() && terminated));
  CHECK(r.TooLongReason() == "line longer than 1024 bytes (the maximum line length); skipped");
  CHECK(r.offset() == 2 + 3001);
  REQUIRE(r.Next(&line, &terminated));
  CHECK((line == "c" && !r.line_too_long()));
  REQUIRE(r.Next(&line, &terminated));
  CHECK((line.empty() && r.line_too_long() && !terminated));
  CHECK(r.offset() == static_cast<std::int64_t>(text.size()));
  CHECK_FALSE(r.Next(&line, &terminated));
}

TEST_CASE("A billion-laughs entity bomb in Ganglia XML is left unexpanded") {
  // pugixml skips the DTD and never expands entities it declares: the references stay literal
  // text, so memory stays at the size of the document.
  std::string dtd = "<!DOCTYPE GANGLIA_XML [\n<!ENTITY lol \"lol\">\n";
  std::string prev = "lol";
  for (int i = 1; i <= 9; ++i) {
    const std::string name = "lol" + std::to_string(i);
    dtd += "<!ENTITY " + name + " \"";
    for (int k = 0; k < 10; ++k) dtd += "&" + prev + ";";
    dtd += "\">\n";
    prev = name;
  }
  dtd += "]>\n";
  const std::string xml =
      "<?xml version=\"1.0\"?>\n" + dtd +
      "<GANGLIA_XML VERSION=\"3.7.2\" SOURCE=\"gmond\">\n"
      "<CLUSTER NAME=\"&lol9;\" LOCALTIME=\"1700000000\" OWNER=\"o\" LATLONG=\"l\" URL=\"u\">\n"
      "<HOST NAME=\"h1\" IP=\"10.0.0.1\" REPORTED=\"1700000000\" TN=\"1\" TMAX=\"20\" DMAX=\"0\" "
      "LOCATION=\"r\" GMOND_STARTED=\"1\">\n"
      "<METRIC NAME=\"os\" VAL=\"&lol9;&lol9;\" TYPE=\"string\" UNITS=\"\" TN=\"1\" TMAX=\"60\" "
      "DMAX=\"0\" SLOPE=\"zero\"/>\n</HOST>\n</CLUSTER>\n</GANGLIA_XML>\n";
  auto parsed = ParseGangliaXml(xml, "bomb.xml");
  REQUIRE(parsed.ok());
  REQUIRE(parsed.value().clusters.size() == 1);
  CHECK(parsed.value().clusters[0].name == "&lol9;");
  REQUIRE(parsed.value().clusters[0].hosts.size() == 1);
  REQUIRE(parsed.value().clusters[0].hosts[0].metrics.size() == 1);
  CHECK(parsed.value().clusters[0].hosts[0].metrics[0].text == "&lol9;&lol9;");
}

TEST_CASE("ganglia-web JSON nested 100,000 deep is rejected with a message") {
  auto parsed = ParseGangliaWebJson(Deep(kDeep), "deep.json");
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.status().message() ==
        "deep.json: malformed JSON: arrays/objects nested deeper than 512 levels");
}

// The first skip the reader reports for a file holding `bytes` (named `name`).
std::string FirstSkip(const std::string& name, const std::string& bytes) {
  const std::string path = testing::MakeTempDir() + "/" + name;
  testing::WriteFile(path, bytes);
  ReadResult r = ReadSparkLog(path);
  REQUIRE_FALSE(r.skipped.empty());
  CHECK(r.skipped[0].file == path);
  return r.skipped[0].reason;
}

std::string Le32(std::uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  return s;
}

TEST_CASE("Compression headers claiming gigabytes are rejected before allocating") {
  // lz4-java and snappy-java lengths are 32-bit: the most a header can claim is 4 GiB - 1.
  SUBCASE("lz4-java block header") {
    const std::string block = std::string("LZ4Block") + '\x26' + Le32(16) + Le32(0xffffffffu) +
                              Le32(0) + std::string(16, 'x');
    CHECK(FirstSkip("app.lz4", block) ==
          "corrupt lz4 stream: block header claims 16 compressed and 4294967295 decompressed "
          "bytes, more than the 67108864-byte block limit");
  }
  const std::string snappy_header("\x82SNAPPY\0\0\0\0\1\0\0\0\1", 16);
  SUBCASE("snappy-java chunk length") {
    CHECK(FirstSkip("app.snappy", snappy_header + "\xff\xff\xff\xff" + "abc") ==
          "corrupt snappy stream: chunk header claims 4294967295 bytes, more than the "
          "67108864-byte chunk limit");
  }
  SUBCASE("snappy block's own uncompressed length") {
    // varint 0xffffffff, then a literal tag that never fills it.
    const std::string chunk("\xff\xff\xff\xff\x0f\x08xyz", 9);
    CHECK(FirstSkip("app.snappy", snappy_header + std::string("\0\0\0\x09", 4) + chunk) ==
          "corrupt snappy stream: chunk claims 4294967295 decompressed bytes, more than the "
          "67108864-byte chunk limit");
  }
  SUBCASE("zstd frame content size of 10 GB in a single-segment frame") {
    // Frame header descriptor 0xE0: 8-byte content size, single segment (window = content).
    std::string frame("\x28\xb5\x2f\xfd\xe0", 5);
    const std::uint64_t ten_gb = 10ull << 30;
    for (int i = 0; i < 8; ++i) frame += static_cast<char>((ten_gb >> (8 * i)) & 0xff);
    frame += std::string("\x19\x00\x00", 3) + "abc";  // last raw block of 3 bytes
    CHECK(FirstSkip("app.zstd", frame) ==
          "corrupt zstd stream: Frame requires too much memory for decoding");
  }
  SUBCASE("zstd frame content size of 10 GB with a small window") {
    // Descriptor 0xC0: 8-byte content size, window descriptor 0 (1 KiB window).
    std::string frame("\x28\xb5\x2f\xfd\xc0\x00", 6);
    const std::uint64_t ten_gb = 10ull << 30;
    for (int i = 0; i < 8; ++i) frame += static_cast<char>((ten_gb >> (8 * i)) & 0xff);
    frame += std::string("\x19\x00\x00", 3) + "ab\n";
    ReadResult r = ReadSparkLog([&] {
      const std::string path = testing::MakeTempDir() + "/app.zstd";
      testing::WriteFile(path, frame);
      return path;
    }());
    // libzstd decodes into its small window and finds the content size wrong at the frame end.
    CHECK(r.lines.empty());
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0].reason == "corrupt zstd stream: Data corruption detected");
  }
  SUBCASE("gzip trailer claiming 10 GB (ISIZE is 10 GB mod 2^32)") {
    std::string gz = testing::EncodeGzipMembers("hello\n");
    const std::uint32_t isize = static_cast<std::uint32_t>((10ull << 30) & 0xffffffffu);
    gz.replace(gz.size() - 4, 4, Le32(isize == 0 ? 1 : isize));
    ReadResult r = ReadSparkLog([&] {
      const std::string path = testing::MakeTempDir() + "/app.gz";
      testing::WriteFile(path, gz);
      return path;
    }());
    CHECK(r.lines == std::vector<std::string>{"hello"});
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0].reason == "corrupt gzip stream: incorrect length check");
  }
  SUBCASE("lzf chunk lengths are 16-bit: the largest claim is 64 KiB") {
    CHECK(FirstSkip("app.lzf", std::string("ZV\0\xff\xff", 5) + "abc") ==
          "corrupt lzf stream: truncated chunk");
  }
}

}  // namespace
}  // namespace perfplan::profiles
