#include "models/hdfs_workload.h"

#include <doctest/doctest.h>

#include <algorithm>

namespace perfplan::models {
namespace {

// Relative tolerance for ratios of exact integer sums (only rounding of one division).
constexpr double kExact = 1e-12;

HdfsAuditRecord Audit(std::int64_t t, const std::string& user, const std::string& ip,
                      const std::string& cmd, const std::string& src, bool allowed = true) {
  HdfsAuditRecord a;
  a.time_ms = t;
  a.user = user;
  a.ip = ip;
  a.cmd = cmd;
  a.src = src;
  a.allowed = allowed;
  return a;
}

HdfsTransferRecord Transfer(std::int64_t t, bool read, const std::string& dn,
                            const std::string& peer, std::int64_t bytes, const std::string& blk) {
  HdfsTransferRecord r;
  r.time_ms = t;
  r.is_read = read;
  r.datanode = dn;
  r.peer = peer;
  r.bytes = bytes;
  r.block = blk;
  return r;
}

const HdfsClientStats* Find(const std::vector<HdfsClientStats>& v, const std::string& key) {
  for (const auto& s : v) {
    if (s.key == key) return &s;
  }
  return nullptr;
}

TEST_CASE("Gini: equal loads 0, one node holding everything (n-1)/n") {
  CHECK(Gini({}) == 0);
  CHECK(Gini({5}) == 0);
  CHECK(Gini({3, 3, 3}) == doctest::Approx(0).epsilon(kExact));
  CHECK(Gini({0, 0, 0, 8}) == doctest::Approx(0.75).epsilon(kExact));
  CHECK(Gini({0, 0}) == 0);
}

TEST_CASE("shell quoting of cache paths") {
  CHECK(ShellQuote("/data/a-b_c.1") == "/data/a-b_c.1");
  CHECK(ShellQuote("/data/a b") == "'/data/a b'");
  CHECK(ShellQuote("/it's") == "'/it'\\''s'");
}

TEST_CASE("write pipeline hops count toward DataNodes, not clients; users get bytes by path") {
  // Client 10.0.0.9 (alice) writes /f (one block, replicated 10.1 → 10.2), then bob reads it
  // from 10.0.0.8 twice within a minute.
  const std::vector<HdfsAuditRecord> audits = {
      Audit(0, "alice", "10.0.0.9", "create", "/f"),
      Audit(1000, "bob", "10.0.0.8", "open", "/f"),
      Audit(20000, "bob", "10.0.0.8", "open", "/f"),
      Audit(30000, "bob", "10.0.0.8", "listStatus", "/"),
      Audit(31000, "eve", "10.0.0.7", "open", "/secret", false),
  };
  const std::vector<HdfsBlockRecord> blocks = {{0, "blk_1", "/f"}};
  const std::vector<HdfsTransferRecord> transfers = {
      Transfer(500, false, "10.0.1.1", "10.0.0.9", 1000, "blk_1"),
      Transfer(600, false, "10.0.1.2", "10.0.1.1", 1000, "blk_1"),
      Transfer(1500, true, "10.0.1.1", "10.0.0.8", 1008, "blk_1"),
      Transfer(21000, true, "10.0.1.2", "10.0.0.8", 1008, "blk_1"),
  };
  HdfsWorkloadOptions options;
  options.streams = true;
  const HdfsWorkload w = AnalyzeHdfsWorkload(audits, transfers, blocks, options);
  const HdfsClusterStats& c = w.cluster;
  CHECK(c.window_seconds == doctest::Approx(31.0));
  CHECK(c.write_bytes == 1000);
  CHECK(c.replication_write_bytes == 1000);
  CHECK(c.read_bytes == 2016);
  CHECK(c.read_ops == 2);
  CHECK(c.write_ops == 1);
  CHECK(c.metadata_ops == 1);
  CHECK(c.denied_ops == 1);
  CHECK(c.mean_read_file_bytes == 1000);
  CHECK(c.datanodes == 2);
  CHECK(c.datanode_load_gini == doctest::Approx(0).epsilon(kExact));  // 2008 bytes each

  const HdfsClientStats* writer = Find(w.clients, "10.0.0.9");
  REQUIRE(writer != nullptr);
  CHECK(writer->write_bytes == 1000);
  CHECK(writer->files_written == 1);
  CHECK(writer->mean_write_file_bytes == 1000);
  CHECK(Find(w.clients, "10.0.1.1") == nullptr);  // a DataNode forwarding is not a client
  const HdfsClientStats* reader = Find(w.clients, "10.0.0.8");
  REQUIRE(reader != nullptr);
  CHECK(reader->read_bytes == 2016);
  CHECK(reader->read_ops == 2);
  CHECK(reader->files_read == 1);
  CHECK(reader->datanodes_touched == 2);
  CHECK(reader->iops == doctest::Approx(3 / 31.0).epsilon(kExact));

  const HdfsClientStats* bob = Find(w.users, "bob");
  REQUIRE(bob != nullptr);
  CHECK(bob->read_bytes == 2016);
  const HdfsClientStats* alice = Find(w.users, "alice");
  REQUIRE(alice != nullptr);
  CHECK(alice->write_bytes == 1000);
  CHECK(Find(w.users, "eve")->denied_ops == 1);

  REQUIRE(w.streams.size() == 1);  // only the reader has read streams
  const HdfsClientStream& s = w.streams[0];
  CHECK(s.client == "10.0.0.8");
  REQUIRE(s.files.size() == 2);
  REQUIRE(s.blocks.size() == 2);
  CHECK(s.blocks[1].datanode == "10.0.1.2");

  // /f re-read within the hour → a cache pool line and a directive; 2 equally loaded nodes → no
  // balancer at the default 0.2 threshold.
  REQUIRE(w.recommendations.size() == 2);
  CHECK(w.recommendations[0].command == "hdfs cacheadmin -addPool perfplan-hot");
  CHECK(w.recommendations[1].command ==
        "hdfs cacheadmin -addDirective -path /f -pool perfplan-hot");
  CHECK(w.recommendations[1].reason == "opened 2 times within 3600 s (2 in all); 1000 bytes");
}

TEST_CASE("imbalance above the threshold recommends the balancer; the window filters records") {
  std::vector<HdfsTransferRecord> transfers = {Transfer(0, true, "a", "c1", 9000, "blk_1"),
                                               Transfer(1000, true, "b", "c1", 100, "blk_2"),
                                               Transfer(5000, true, "b", "c1", 100000, "blk_3")};
  HdfsWorkloadOptions options;
  options.to_ms = 2000;
  options.from_ms = 0;
  const HdfsWorkload w = AnalyzeHdfsWorkload({}, transfers, {}, options);
  CHECK(w.cluster.read_bytes == 9100);
  CHECK(w.cluster.window_seconds == 2.0);
  REQUIRE(w.recommendations.size() == 1);
  CHECK(w.recommendations[0].kind == "balancer");
  CHECK(w.recommendations[0].command == "hdfs balancer -threshold 10");
  CHECK(w.recommendations[0].reason ==
        "DataNode load Gini 0.489 exceeds 0.200; a carries 98.9% of the bytes (1.98x the mean)");
  REQUIRE(w.warnings.size() == 1);
}

TEST_CASE("a transfer goes to its client's latest access at or before it, else the first") {
  // Client 10.0.0.5 reads /a: a transfer before any open goes to the first opener by (time,
  // name): bob and zed at t=100, bob first; at t=100 itself the latest is zed (the later name);
  // after alice's open at 300, alice. 10.0.0.6 reads /a without ever opening it: unattributed.
  // The early transfers (t=50 and 60, from two DataNodes) wait for the pair's first open. Every
  // run of the sort holds one record when sort_run_bytes is 1, so the join reads runs merged in
  // several passes (at most 16 at once) from the scratch storage; the answer is the same.
  const std::vector<HdfsAuditRecord> audits = {
      Audit(100, "zed", "10.0.0.5", "open", "/a"),
      Audit(100, "bob", "10.0.0.5", "open", "/a"),
      Audit(300, "alice", "10.0.0.5", "open", "/a"),
      Audit(400, "carol", "10.0.0.7", "create", "/b"),
  };
  const std::vector<HdfsBlockRecord> blocks = {{0, "blk_a", "/a"}, {400, "blk_b", "/b"}};
  const std::vector<HdfsTransferRecord> transfers = {
      Transfer(50, true, "10.0.1.1", "10.0.0.5", 1, "blk_a"),
      Transfer(60, true, "10.0.1.3", "10.0.0.5", 7000000, "blk_a"),
      Transfer(100, true, "10.0.1.1", "10.0.0.5", 20, "blk_a"),
      Transfer(200, true, "10.0.1.2", "10.0.0.5", 300, "blk_a"),
      Transfer(300, true, "10.0.1.1", "10.0.0.5", 4000, "blk_a"),
      Transfer(350, true, "10.0.1.1", "10.0.0.6", 50000, "blk_a"),
      Transfer(500, false, "10.0.1.2", "10.0.0.7", 600000, "blk_b"),
  };
  for (const std::int64_t run_bytes : {std::int64_t{8} << 20, std::int64_t{1}}) {
    CAPTURE(run_bytes);
    HdfsWorkloadOptions options;
    options.sort_run_bytes = run_bytes;
    const HdfsWorkload w = AnalyzeHdfsWorkload(audits, transfers, blocks, options);
    CHECK(w.cluster.unattributed_bytes == 50000);
    REQUIRE(Find(w.users, "bob") != nullptr);
    CHECK(Find(w.users, "bob")->read_bytes == 7000001);
    CHECK(Find(w.users, "bob")->block_reads == 2);
    CHECK(
        Find(w.users, "bob")->bytes_per_datanode ==
        std::vector<std::pair<std::string, std::int64_t>>{{"10.0.1.1", 1}, {"10.0.1.3", 7000000}});
    CHECK(Find(w.users, "zed")->read_bytes == 320);
    CHECK(Find(w.users, "alice")->read_bytes == 4000);
    CHECK(Find(w.users, "carol")->write_bytes == 600000);
    CHECK(Find(w.users, "zed")->bytes_per_datanode ==
          std::vector<std::pair<std::string, std::int64_t>>{{"10.0.1.1", 20}, {"10.0.1.2", 300}});
    for (const char* user : {"alice", "bob", "zed"}) {
      CAPTURE(user);
      CHECK(Find(w.users, user)->files_read == 1);
      CHECK(Find(w.users, user)->files_written == 0);
    }
    CHECK(Find(w.users, "carol")->files_written == 1);
    CHECK(Find(w.users, "carol")->mean_write_file_bytes == 600000);
    CHECK(Find(w.clients, "10.0.0.5")->files_read == 1);
    CHECK(Find(w.clients, "10.0.0.6")->files_read == 0);
    CHECK(Find(w.clients, "10.0.0.6")->read_bytes == 50000);
    CHECK(w.cluster.files_read == 1);
    CHECK(w.cluster.files_written == 1);
  }
}

TEST_CASE("a hot file's count is the most opens inside any window, however long the history") {
  // /h is opened every 3 s for 10 minutes (4 opens in any 10 s window), then 10 times within a
  // second, then every 3 s again; /c twice 11 s apart (never 2 in a window). What the window
  // holds grows, wraps around and shrinks many times over.
  std::vector<HdfsAuditRecord> audits;
  std::vector<std::int64_t> h_times;
  for (std::int64_t t = 0; t < 600000; t += 3000) h_times.push_back(t);
  for (std::int64_t t = 700000; t < 701000; t += 111) h_times.push_back(t);
  for (std::int64_t t = 800000; t < 900000; t += 3000) h_times.push_back(t);
  for (const std::int64_t t : h_times) audits.push_back(Audit(t, "u", "10.0.0.1", "open", "/h"));
  audits.push_back(Audit(0, "u", "10.0.0.1", "open", "/c"));
  audits.push_back(Audit(11000, "u", "10.0.0.1", "open", "/c"));
  // The most opens within 10 s at or before any open, counted directly.
  std::int64_t most = 0;
  for (const std::int64_t end : h_times) {
    most = std::max<std::int64_t>(
        most, std::count_if(h_times.begin(), h_times.end(),
                            [&](std::int64_t t) { return t <= end && end - t <= 10000; }));
  }
  CHECK(most == 10);  // the burst
  HdfsWorkloadOptions options;
  options.cache_window_seconds = 10;
  const HdfsWorkload w = AnalyzeHdfsWorkload(audits, {}, {}, options);
  REQUIRE(w.recommendations.size() == 2);
  CHECK(w.recommendations[1].command ==
        "hdfs cacheadmin -addDirective -path /h -pool perfplan-hot");
  CHECK(w.recommendations[1].reason == "opened " + std::to_string(most) + " times within 10 s (" +
                                           std::to_string(h_times.size()) + " in all)");
}

TEST_CASE("a file's opens by several clients count together; one a whole window earlier is in it") {
  // The analysis sees a path's opens client by client; the window counts them all in time order.
  // Within the 10 s ending at 10 s: 0 (client .3), 5 s (.2) and 10 s (.1), 3 opens; then 30 s (.2).
  const std::vector<HdfsAuditRecord> audits = {
      Audit(10000, "u", "10.0.0.1", "open", "/m"), Audit(5000, "v", "10.0.0.2", "open", "/m"),
      Audit(0, "w", "10.0.0.3", "open", "/m"), Audit(30000, "u", "10.0.0.2", "open", "/m")};
  HdfsWorkloadOptions options;
  options.cache_window_seconds = 10;
  const HdfsWorkload w = AnalyzeHdfsWorkload(audits, {}, {}, options);
  REQUIRE(w.recommendations.size() == 2);
  CHECK(w.recommendations[1].reason == "opened 3 times within 10 s (4 in all)");
}

TEST_CASE("options are validated with the field and the value") {
  HdfsWorkloadOptions o;
  o.cache_min_reads = 1;
  CHECK(o.Validate().message() ==
        "cache_min_reads = 1: a file must be read at least 2 times to be re-read");
  o = {};
  o.balancer_gini_threshold = 2;
  CHECK(o.Validate().message() == "balancer_gini_threshold = 2.000: expected a value in [0, 1]");
  o = {};
  o.sort_run_bytes = 0;
  CHECK(o.Validate().message() == "sort_run_bytes = 0: must be >= 1");
}

}  // namespace
}  // namespace perfplan::models
