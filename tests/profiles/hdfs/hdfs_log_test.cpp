#include "profiles/hdfs/hdfs_log.h"

#include <doctest/doctest.h>
#include <zlib.h>

#include "tests/support/test_support.h"

namespace perfplan::profiles {
namespace {

HdfsLine Parse(std::string_view text) {
  HdfsLine line;
  ParseHdfsLine(text, &line);
  return line;
}

// 2015-07-09 00:00:00,172 in milliseconds since the epoch (read as UTC).
constexpr std::int64_t kJul9Ms = 1436400000000LL + 172;

TEST_CASE("log4j timestamps in every layout Hadoop uses parse to epoch milliseconds") {
  std::size_t n = 0;
  CHECK(ParseLog4jTime("2015-07-09 00:00:00,172 INFO", &n) == kJul9Ms);
  CHECK(n == 23);
  CHECK(ParseLog4jTime("2015-07-09T00:00:00.172", &n) == kJul9Ms);
  CHECK(ParseLog4jTime("2015-07-09 00:00:00 INFO", &n) == kJul9Ms - 172);
  CHECK(n == 19);
  CHECK(ParseLog4jTime("15/07/09 00:00:00 INFO", &n) == kJul9Ms - 172);
  CHECK(n == 17);
  CHECK(ParseLog4jTime("150709 000000 148 INFO", &n) == kJul9Ms - 172);
  CHECK(n == 13);
  CHECK(ParseLog4jTime("2015-13-09 00:00:00,172", &n) == -1);
  CHECK(ParseLog4jTime("hello", &n) == -1);
}

TEST_CASE("block ids lose their pool and generation stamp") {
  CHECK(NormalizeBlockId("BP-1-127.0.0.1-1:blk_1073741825_1001") == "blk_1073741825");
  CHECK(NormalizeBlockId("blk_-4693506771893277444_1763") == "blk_-4693506771893277444");
  CHECK(NormalizeBlockId("blk_38865049064139660") == "blk_38865049064139660");
  CHECK(NormalizeBlockId("blk_x").empty());
}

TEST_CASE("Hadoop 2.x audit line with proxy user, trackingId and callerContext") {
  const HdfsLine l = Parse(
      "2015-07-09 00:00:00,172 INFO FSNamesystem.audit: allowed=true\tugi=alice (auth:PROXY) via "
      "hive (auth:KERBEROS)\tip=/10.0.0.7\tcmd=open\tsrc=/data/a b.txt\tdst=null\tperm=null\t"
      "trackingId=42\tproto=rpc\tcallerContext=HIVE_QUERY_ID:q1:sig");
  REQUIRE(l.kind == HdfsLineKind::kAudit);
  CHECK(l.audit.time_ms == kJul9Ms);
  CHECK(l.audit.allowed);
  CHECK(l.audit.user == "alice");
  CHECK(l.audit.real_user == "hive");
  CHECK(l.audit.ip == "10.0.0.7");
  CHECK(l.audit.cmd == "open");
  CHECK(l.audit.src == "/data/a b.txt");
  CHECK(l.audit.dst.empty());
  CHECK(l.audit.proto == "rpc");
}

TEST_CASE("audit line whose tabs became spaces still parses; rename keeps dst") {
  const HdfsLine l = Parse(
      "2015-07-09 00:00:00,172 INFO org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit: "
      "allowed=false ugi=bob (auth:SIMPLE) ip=/10.0.0.8 cmd=rename src=/a dst=/b "
      "perm=bob:hdfs:rw-r--r-- proto=webhdfs");
  REQUIRE(l.kind == HdfsLineKind::kAudit);
  CHECK_FALSE(l.audit.allowed);
  CHECK(l.audit.user == "bob");
  CHECK(l.audit.real_user.empty());
  CHECK(l.audit.cmd == "rename");
  CHECK(l.audit.src == "/a");
  CHECK(l.audit.dst == "/b");
  CHECK(l.audit.proto == "webhdfs");
}

TEST_CASE("garbled audit lines say what is missing") {
  CHECK(Parse("2015-07-09 00:00:00,172 INFO FSNamesystem.audit: allowed=true\tugi=a\tip=/1.2.3.4"
              "\tsrc=/x")
            .reason == "audit line without the cmd= field");
  CHECK(Parse("2015-07-09 00:00:00,172 INFO FSNamesystem.audit: allowed=maybe\tugi=a").reason ==
        "audit field allowed: expected true or false, saw \"maybe\"");
  CHECK(Parse("2015-07-09 00:00:00,172 INFO FSNamesystem.audit: allowed=true\tugi=a\tip=/1.2.3.4\t"
              "cmd=op")
            .kind == HdfsLineKind::kGarbled);
}

TEST_CASE("clienttrace lines of 0.20, 2.x, 3.0-3.3 and 3.4 shapes") {
  const HdfsLine v020 = Parse(
      "2009-09-12 07:14:48,069 INFO org.apache.hadoop.hdfs.server.datanode.DataNode.clienttrace: "
      "src: /127.0.0.1:50012, dest: /127.0.0.1:53107, bytes: 10620380, op: HDFS_READ, cliID: "
      "DFSClient_attempt_1, srvID: DS-1, blockid: blk_-4693506771893277444_1763, duration: 0");
  REQUIRE(v020.kind == HdfsLineKind::kTransfer);
  CHECK(v020.transfer.is_read);
  CHECK(v020.transfer.bytes == 10620380);
  CHECK(v020.transfer.block == "blk_-4693506771893277444");
  CHECK(v020.transfer.duration_ns == 0);

  const HdfsLine v2 = Parse(
      "2016-01-01 10:00:00,000 INFO datanode.DataNode.clienttrace: src: /10.0.0.9:41234, dest: "
      "/10.0.0.2:50010, bytes: 134217728, op: HDFS_WRITE, cliID: DFSClient_NONMAPREDUCE_-1_1, "
      "offset: 0, srvID: 9b7e, blockid: BP-1-10.0.0.1-1:blk_1073741825_1001, duration: 1500000");
  REQUIRE(v2.kind == HdfsLineKind::kTransfer);
  CHECK_FALSE(v2.transfer.is_read);
  CHECK(v2.transfer.datanode == "10.0.0.2");
  CHECK(v2.transfer.peer == "10.0.0.9");
  CHECK(v2.transfer.block == "blk_1073741825");
  CHECK(v2.transfer.client_id == "DFSClient_NONMAPREDUCE_-1_1");
  CHECK(v2.transfer.duration_ns == 1500000);

  const HdfsLine v34 = Parse(
      "2024-01-01 10:00:00,000 INFO org.apache.hadoop.hdfs.server.datanode.DataNode.clienttrace: "
      "src: /10.0.0.2:9866, dest: /10.0.0.9:51000, volume: /data/dn, bytes: 135266304, op: "
      "HDFS_READ, cliID: DFSClient_NONMAPREDUCE_-1_1, offset: 0, srvID: 9b7e, blockid: "
      "BP-1-10.0.0.1-1:blk_1073741825_1001, duration(ns): 250000");
  REQUIRE(v34.kind == HdfsLineKind::kTransfer);
  CHECK(v34.transfer.datanode == "10.0.0.2");
  CHECK(v34.transfer.peer == "10.0.0.9");
  CHECK(v34.transfer.duration_ns == 250000);

  const HdfsLine empty_volume = Parse(
      "2024-01-01 10:00:00,000 INFO DataNode.clienttrace: src: /10.0.0.2:9866, dest: "
      "/10.0.0.9:51000, volume: , bytes: 5, op: HDFS_READ, cliID: c, offset: 0, srvID: s, "
      "blockid: BP-1:blk_1_1, duration(ns): 1");
  CHECK(empty_volume.kind == HdfsLineKind::kTransfer);

  const HdfsLine shuffle = Parse(
      "2009-09-12 07:14:59,812 INFO org.apache.hadoop.mapred.TaskTracker.clienttrace: src: "
      "127.0.1.1:50062, dest: 127.0.1.1:36461, bytes: 1368349, op: MAPRED_SHUFFLE, cliID: "
      "attempt_1, reduceID: attempt_2, duration: 277277094");
  CHECK(shuffle.kind == HdfsLineKind::kOtherTrace);
  CHECK(shuffle.other_op == "MAPRED_SHUFFLE");

  CHECK(Parse("2024-01-01 10:00:00,000 INFO DataNode.clienttrace: src: /a:1, dest: /b:2, bytes: "
              "-5, op: HDFS_READ, blockid: blk_1")
            .reason == "clienttrace field bytes: expected a non-negative integer, saw \"-5\"");
  CHECK(Parse("2024-01-01 10:00:00,000 INFO DataNode.clienttrace: src: /a:1, dest: /b:2, byt")
            .reason == "clienttrace field \"byt\": expected \"key: value\"");
}

TEST_CASE(
    "state-change lines: BLOCK* allocate (2.x and 3.x), allocateBlock (0.18), create, "
    "completeFile") {
  const HdfsLine v3 = Parse(
      "2024-01-01 10:00:00,000 INFO org.apache.hadoop.hdfs.StateChange: BLOCK* allocate "
      "blk_1073741825_1001, replicas=10.0.0.2:9866, 10.0.0.3:9866 for /bench/io_data/test_io_0");
  REQUIRE(v3.kind == HdfsLineKind::kBlock);
  CHECK(v3.block.block == "blk_1073741825");
  CHECK(v3.block.path == "/bench/io_data/test_io_0");
  const HdfsLine v2 = Parse(
      "2016-01-01 10:00:00,000 INFO hdfs.StateChange: BLOCK* allocate blk_1073741826_1002{"
      "UCState=UNDER_CONSTRUCTION, truncateBlock=null, primaryNodeIndex=-1, replicas=[ReplicaUC["
      "[DISK]DS-1:NORMAL:10.0.0.2:50010|RBW]]} for /user/x/part-0");
  REQUIRE(v2.kind == HdfsLineKind::kBlock);
  CHECK(v2.block.block == "blk_1073741826");
  CHECK(v2.block.path == "/user/x/part-0");
  const HdfsLine v018 = Parse(
      "081109 203518 35 INFO dfs.FSNamesystem: BLOCK* NameSystem.allocateBlock: "
      "/mnt/hadoop/mapred/system/job_200811092030_0001/job.jar. blk_-1608999687919862906");
  REQUIRE(v018.kind == HdfsLineKind::kBlock);
  CHECK(v018.block.block == "blk_-1608999687919862906");
  CHECK(v018.block.path == "/mnt/hadoop/mapred/system/job_200811092030_0001/job.jar");
  CHECK(Parse("2024-01-01 10:00:00,000 DEBUG org.apache.hadoop.hdfs.StateChange: *DIR* "
              "NameNode.create: file /a for DFSClient_1 at 10.0.0.9.")
            .kind == HdfsLineKind::kCreate);
  CHECK(Parse("2024-01-01 10:00:00,000 INFO org.apache.hadoop.hdfs.StateChange: DIR* "
              "completeFile: /a is closed by DFSClient_1")
            .kind == HdfsLineKind::kComplete);
  CHECK(Parse("2024-01-01 10:00:00,000 INFO org.apache.hadoop.hdfs.StateChange: BLOCK* allocate "
              "blk_1_1")
            .reason == "BLOCK* allocate line: expected \"BLOCK* allocate blk_<id>… for <path>\"");
}

TEST_CASE("other lines, HDP layout, continuations, blanks and non-log lines") {
  CHECK(Parse("2015-10-18 18:01:47,978 INFO [main] org.apache.hadoop.mapreduce.v2.app."
              "MRAppMaster: Created MRAppMaster")
            .kind == HdfsLineKind::kOther);
  const HdfsLine hdp = Parse(
      "2016-03-18 10:00:47,252 INFO  datanode.DataNode (DataNode.java:run(1)) - src: /10.0.0.2:"
      "50010, dest: /10.0.0.9:4000, bytes: 7, op: HDFS_READ, cliID: c, offset: 0, srvID: s, "
      "blockid: BP-1:blk_9_1, duration: 3");
  CHECK(hdp.kind == HdfsLineKind::kTransfer);
  CHECK(Parse("\tat org.apache.hadoop.Foo.bar(Foo.java:1)").kind == HdfsLineKind::kContinuation);
  CHECK(Parse("java.io.IOException: boom").kind == HdfsLineKind::kContinuation);
  CHECK(Parse("\r").kind == HdfsLineKind::kBlank);
  CHECK(Parse("hello world").reason == "no log4j timestamp at the start of the line");
}

TEST_CASE("the second half of a broken audit record is garbled, not a stack-trace line") {
  const std::string why =
      "the second half of a broken audit record (audit fields with no log4j timestamp before "
      "them)";
  // Broken at a tab: it starts like a stack-trace line but carries the audit fields.
  CHECK(Parse("\tcmd=open\tsrc=/user/a/part-0\tdst=null\tperm=null\tproto=rpc").reason == why);
  // Broken inside the ugi field.
  CHECK(Parse(" (auth:SIMPLE)\tip=/10.0.0.7\tcmd=open\tsrc=/a\tdst=null").reason == why);
  // One field is not enough to tell it from a stack-trace line that mentions one.
  CHECK(Parse("\tat Foo.bar(src=Foo.java:1)").kind == HdfsLineKind::kContinuation);
  CHECK(Parse("\tperm=null").kind == HdfsLineKind::kContinuation);
  CHECK(Parse("2015-10-18 18:01:47,978 NOISE x: y").reason ==
        "expected a log level (INFO, WARN, …) after the timestamp, saw \"NOISE\"");
}

void WriteGzip(const std::string& path, const std::string& text) {
  gzFile gz = gzopen(path.c_str(), "wb");
  REQUIRE(gz != nullptr);
  REQUIRE(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())) ==
          static_cast<int>(text.size()));
  gzclose(gz);
}

TEST_CASE(
    "reader gives the same lines and offsets for plain and gzip files, CRLF and no "
    "final newline") {
  const std::string dir = testing::MakeTempDir();
  std::string text;
  // More than the reader's 1 MiB buffer, so lines straddle buffer refills.
  for (int i = 0; i < 200000; ++i) text += "line " + std::to_string(i) + (i % 2 ? "\r\n" : "\n");
  text += "last";
  testing::WriteFile(dir + "/a.log", text);
  WriteGzip(dir + "/a.log.1.gz", text);
  for (const std::string name : {"a.log", "a.log.1.gz"}) {
    CAPTURE(name);
    auto r = HdfsLogReader::Open(dir + "/" + name);
    REQUIRE(r.ok());
    CHECK(r.value()->compressed() == (name != "a.log"));
    std::string_view line;
    bool terminated = false;
    int n = 0;
    std::string last;
    while (r.value()->Next(&line, &terminated)) {
      if (n == 1234) CHECK(line == "line 1234");
      ++n;
      last = std::string(line);
    }
    CHECK(n == 200001);
    CHECK(last == "last");
    CHECK_FALSE(terminated);
    CHECK(r.value()->offset() == static_cast<std::int64_t>(text.size()));
    // Every offset is a line start: resuming there gives the next line.
    for (const int k : {1, 40000, 123457, 199999}) {
      const std::string want = "line " + std::to_string(k);
      REQUIRE(
          r.value()->Seek(static_cast<std::int64_t>(text.find(want + (k % 2 ? "\r" : "\n")))).ok());
      REQUIRE(r.value()->Next(&line, &terminated));
      CHECK(line == want);
      std::int64_t previous = r.value()->offset();
      for (int j = 0; j < 20000 && r.value()->Next(&line, &terminated); ++j) {
        CHECK(text.compare(static_cast<std::size_t>(previous), line.size(), line) == 0);
        previous = r.value()->offset();
      }
    }
  }
  auto missing = HdfsLogReader::Open(dir + "/nope.log");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message() == dir + "/nope.log: cannot open (No such file or directory)");
}

TEST_CASE("every truncation and random corruption of valid lines parses without a crash") {
  const std::vector<std::string> samples = {
      "2015-07-09 00:00:00,172 INFO FSNamesystem.audit: allowed=true\tugi=alice (auth:PROXY) via "
      "hive (auth:KERBEROS)\tip=/10.0.0.7\tcmd=open\tsrc=/data/x\tdst=null\tperm=null\t"
      "trackingId=42\tproto=rpc\tcallerContext=HIVE_QUERY_ID:q1:sig",
      "2024-01-01 10:00:00,000 INFO org.apache.hadoop.hdfs.server.datanode.DataNode.clienttrace: "
      "src: /10.0.0.2:9866, dest: /10.0.0.9:51000, volume: /data/dn, bytes: 135266304, op: "
      "HDFS_READ, cliID: DFSClient_NONMAPREDUCE_-1_1, offset: 0, srvID: 9b7e, blockid: "
      "BP-1-10.0.0.1-1:blk_1073741825_1001, duration(ns): 250000",
      "2024-01-01 10:00:00,000 INFO org.apache.hadoop.hdfs.StateChange: BLOCK* allocate "
      "blk_1073741825_1001, replicas=10.0.0.2:9866, 10.0.0.3:9866 for /bench/io_data/test_io_0",
      "081109 203518 35 INFO dfs.FSNamesystem: BLOCK* NameSystem.allocateBlock: "
      "/mnt/hadoop/job.jar. blk_-1608999687919862906",
      "2016-03-18 10:00:47,252 INFO  datanode.DataNode (DataNode.java:run(1)) - src: /10.0.0.2:"
      "50010, dest: /10.0.0.9:4000, bytes: 7, op: HDFS_READ, cliID: c, offset: 0, srvID: s, "
      "blockid: BP-1:blk_9_1, duration: 3"};
  HdfsLine line;
  std::int64_t parsed = 0;
  for (const std::string& sample : samples) {
    for (std::size_t n = 0; n <= sample.size(); ++n) {
      ParseHdfsLine(std::string_view(sample).substr(0, n), &line);
      ++parsed;
      if (line.kind == HdfsLineKind::kGarbled) CHECK_FALSE(line.reason.empty());
    }
  }
  std::uint64_t state = 88172645463325252ULL;  // xorshift64: fixed, reproducible corruptions
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  static const char kBytes[] = {'\t', ' ', ',', ':', '=', '/', '-', '\r', '\0', 'x', '9', '\xff'};
  for (int round = 0; round < 20000; ++round) {
    std::string s = samples[next() % samples.size()];
    const int edits = 1 + static_cast<int>(next() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = next() % s.size();
      switch (next() % 3) {
        case 0:
          s[at] = kBytes[next() % sizeof kBytes];
          break;
        case 1:
          s.erase(at, 1 + next() % 8);
          break;
        default:
          s.insert(at, 1, kBytes[next() % sizeof kBytes]);
          break;
      }
      if (s.empty()) s = "x";
    }
    ParseHdfsLine(s, &line);
    ++parsed;
    if (line.kind == HdfsLineKind::kGarbled) CHECK_FALSE(line.reason.empty());
    if (line.kind == HdfsLineKind::kTransfer) CHECK(line.transfer.bytes >= 0);
  }
  CHECK(parsed > 20000);
}

TEST_CASE("a file with garbled lines reports each with file and line") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/nn.log",
                     "2015-07-09 00:00:01,000 INFO FSNamesystem.audit: allowed=true\tugi=a\t"
                     "ip=/1.1.1.1\tcmd=open\tsrc=/f\tdst=null\tperm=null\tproto=rpc\n"
                     "garbage\n"
                     "2015-07-09 00:00:00,000 INFO FSNamesystem.audit: allowed=true\tugi=a\t"
                     "ip=/1.1.1.1\tcmd=open\tsrc=/f\tdst=null\tperm=null\tproto=rpc\n");
  auto counts = ParseHdfsLogFile(dir + "/nn.log", nullptr);
  REQUIRE(counts.ok());
  CHECK(counts.value().lines == 3);
  CHECK(counts.value().audit == 2);
  CHECK(counts.value().garbled == 1);
  CHECK(counts.value().time_backwards == 1);
  REQUIRE(counts.value().problems.size() == 1);
  CHECK(FormatProblem(counts.value().problems[0]) ==
        dir + "/nn.log:2: garbled: no log4j timestamp at the start of the line");
}

}  // namespace
}  // namespace perfplan::profiles
