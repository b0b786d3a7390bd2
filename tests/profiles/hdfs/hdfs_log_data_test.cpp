// Every real HDFS/Hadoop log in ../shared/data parses with zero unexplained skips, and the parsed
// records agree with counts taken independently of the parser (plain substring scans and
// std::regex over the raw bytes, and LogPAI's ground-truth event ids).
#include <doctest/doctest.h>

#include <array>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "models/hdfs_workload.h"
#include "profiles/hdfs/hdfs_log.h"
#include "tests/support/test_support.h"

PERFPLAN_REQUIRE_SHARED_DATA();

namespace perfplan::profiles {
namespace {

std::string Data(const std::string& rel) {
  return testing::SharedDataDir() + "/02-hdfs-hadoop-logs/" + rel;
}

struct Collect : HdfsRecordSink {
  std::vector<models::HdfsAuditRecord> audits;
  std::vector<models::HdfsTransferRecord> transfers;
  std::vector<models::HdfsBlockRecord> blocks;
  void OnLine(const HdfsLine& line) override {
    if (line.kind == HdfsLineKind::kAudit) audits.push_back(line.audit.ToRecord());
    if (line.kind == HdfsLineKind::kTransfer) transfers.push_back(line.transfer.ToRecord());
    if (line.kind == HdfsLineKind::kBlock) blocks.push_back(line.block.ToRecord());
  }
};

std::vector<std::string> Lines(const std::string& path) {
  std::istringstream in(testing::ReadFile(path));
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

TEST_CASE("eagle audit log: 1,920 audit lines, per-command counts match a plain scan") {
  Collect sink;
  auto counts = ParseHdfsLogFile(Data("eagle/hdfs-audit.log"), &sink);
  REQUIRE(counts.ok());
  CHECK(counts.value().lines == 1920);
  CHECK(counts.value().audit == 1920);
  CHECK(counts.value().garbled == 0);
  std::map<std::string, int> expected, seen;
  std::set<std::string> ips, users;
  for (const std::string& l : Lines(Data("eagle/hdfs-audit.log"))) {
    const auto at = l.find("\tcmd=");
    expected[l.substr(at + 5, l.find('\t', at + 1) - at - 5)]++;
  }
  for (const auto& a : sink.audits) {
    seen[a.cmd]++;
    ips.insert(a.ip);
    users.insert(a.user);
  }
  CHECK(seen == expected);
  CHECK(seen["open"] == 7);
  CHECK(seen["listStatus"] == 1422);
  CHECK(ips == std::set<std::string>{"10.0.2.15", "10.0.2.2"});  // 1,919 and 1 lines
  CHECK(users.count("hdfs") == 1);
  // A rename keeps its destination.
  bool rename_with_dst = false;
  for (const auto& a : sink.audits) rename_with_dst |= a.cmd == "rename" && !a.dst.empty();
  CHECK(rename_with_dst);
}

TEST_CASE("eagle audit log: workload statistics equal counts taken with plain string scans") {
  Collect sink;
  REQUIRE(ParseHdfsLogFile(Data("eagle/hdfs-audit.log"), &sink).ok());
  const models::HdfsWorkload w = models::AnalyzeHdfsWorkload(sink.audits, {}, {}, {});
  // Independent counts over the raw lines.
  std::map<std::string, std::array<std::int64_t, 3>> by_user;  // read, write, metadata
  std::int64_t denied = 0;
  std::string first, last;
  for (const std::string& l : Lines(Data("eagle/hdfs-audit.log"))) {
    if (first.empty()) first = l.substr(0, 23);
    last = l.substr(0, 23);
    if (l.find("allowed=false") != std::string::npos) {
      ++denied;
      continue;
    }
    const auto u = l.find("\tugi=") + 5;
    const std::string user = l.substr(u, l.find_first_of(" \t", u) - u);
    const bool read = l.find("\tcmd=open\t") != std::string::npos;
    const bool write = l.find("\tcmd=create\t") != std::string::npos ||
                       l.find("\tcmd=append\t") != std::string::npos;
    by_user[user][read ? 0 : write ? 1 : 2]++;
  }
  CHECK(w.cluster.denied_ops == denied);
  REQUIRE(w.users.size() == by_user.size());
  std::int64_t ops = 0;
  for (const auto& u : w.users) {
    CAPTURE(u.key);
    const auto& expected = by_user[u.key];
    CHECK(u.read_ops == expected[0]);
    CHECK(u.write_ops == expected[1]);
    CHECK(u.metadata_ops == expected[2]);
    ops += u.read_ops + u.write_ops + u.metadata_ops;
  }
  CHECK(w.cluster.read_ops + w.cluster.write_ops + w.cluster.metadata_ops == ops);
  // Window: first to last timestamp of the file.
  std::size_t n = 0;
  const double span_seconds =
      static_cast<double>(ParseLog4jTime(last, &n) - ParseLog4jTime(first, &n)) / 1000.0;
  CHECK(w.cluster.window_seconds == doctest::Approx(std::max(1.0, span_seconds)));
  CHECK(w.cluster.clients == 2);
}

TEST_CASE("ambari audit log with callerContext: 4 audit lines, nothing skipped") {
  Collect sink;
  auto counts = ParseHdfsLogFile(Data("ambari-logsearch/hdfs-audit.log"), &sink);
  REQUIRE(counts.ok());
  CHECK(counts.value().audit == 4);
  CHECK(counts.value().garbled == 0);
  CHECK(sink.audits[0].user == "ambari-qa");
  CHECK(sink.audits[0].ip == "192.168.64.102");
  CHECK(sink.audits[0].proto == "rpc");
}

TEST_CASE("chukwa clienttrace (Hadoop 0.20): transfers and shuffles match a regex scan") {
  Collect sink;
  auto counts = ParseHdfsLogFile(Data("chukwa/ClientTrace.log"), &sink);
  REQUIRE(counts.ok());
  CHECK(counts.value().lines == 98);
  CHECK(counts.value().garbled == 0);
  CHECK(counts.value().other_trace == 80);
  CHECK(counts.value().transfer == 18);
  const std::regex re("bytes: (\\d+), op: (HDFS_READ|HDFS_WRITE)");
  std::int64_t read_bytes = 0, write_bytes = 0;
  for (const std::string& l : Lines(Data("chukwa/ClientTrace.log"))) {
    std::smatch m;
    if (std::regex_search(l, m, re))
      (m[2] == "HDFS_READ" ? read_bytes : write_bytes) += std::stoll(m[1]);
  }
  std::int64_t parsed_read = 0, parsed_write = 0;
  for (const auto& t : sink.transfers) (t.is_read ? parsed_read : parsed_write) += t.bytes;
  CHECK(parsed_read == read_bytes);
  CHECK(parsed_write == write_bytes);
  CHECK(read_bytes > 0);
}

TEST_CASE("loghub HDFS_v1 (0.18, CRLF): allocateBlock lines equal LogPAI's E7 events") {
  Collect sink;
  auto counts = ParseHdfsLogFile(Data("loghub/HDFS_v1/HDFS_2k.log"), &sink);
  REQUIRE(counts.ok());
  CHECK(counts.value().lines == 2000);
  CHECK(counts.value().garbled == 0);
  int e7 = 0;
  for (const std::string& l : Lines(Data("loghub/HDFS_v1/HDFS_2k.log_structured.csv"))) {
    e7 += l.find(",E7,") != std::string::npos;
  }
  CHECK(counts.value().block == e7);
  CHECK(counts.value().block + counts.value().other == 2000);
  for (const auto& b : sink.blocks) {
    CHECK(b.block.rfind("blk_", 0) == 0);
    CHECK(b.path.front() == '/');
  }
}

TEST_CASE("loghub Hadoop 2.x MapReduce log (CRLF, no final newline): every line explained") {
  auto counts = ParseHdfsLogFile(Data("loghub/Hadoop/Hadoop_2k.log"), nullptr);
  REQUIRE(counts.ok());
  CHECK(counts.value().lines == 2000);
  CHECK(counts.value().garbled == 0);
  for (const Problem& p : counts.value().problems) CAPTURE(FormatProblem(p));
  CHECK(counts.value().other + counts.value().continuation == 2000);
}

}  // namespace
}  // namespace perfplan::profiles
