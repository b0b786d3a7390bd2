// The chunked record form of HDFS store v2 (profiles/hdfs/hdfs_chunk.h): the encoder and decoder
// agree byte for byte, SQLite's views read the same records, the v1 → v2 migration keeps every
// record and its order, and the read statements use the time index.
#include "profiles/hdfs/hdfs_chunk.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <regex>

#include "profiles/hdfs/hdfs_store.h"
#include "profiles/hdfs/hdfs_store_streams.h"
#include "tests/support/store_dump.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles {
namespace {

// Field text that needs every kind of escape, and some that needs none.
const std::string kOdd = std::string("q\"b\\s/t\tn\nc\x01\x1f") + "\xc3\xbc\xf0\x9f\x98\x80 end";

std::string AuditText(const models::HdfsAuditRecord& a) {
  return std::to_string(a.time_ms) + "|" + std::to_string(a.allowed) + "|" + a.user + "|" +
         a.real_user + "|" + a.ip + "|" + a.cmd + "|" + a.src + "|" + a.dst + "|" + a.proto;
}

std::unique_ptr<Store> OpenStore(const std::string& path, const std::vector<Migrations>& m) {
  auto store = Store::Open(path, m);
  REQUIRE_MESSAGE(store.ok(), store.status().message());
  return std::move(store).value();
}

TEST_CASE("a chunk decodes to the records it was built from, escapes and all") {
  HdfsChunkBuilder chunk;
  CHECK(chunk.empty());
  CHECK(chunk.Json() == "[]");
  HdfsAuditView a;
  a.time_ms = -5;
  a.allowed = false;
  a.user = kOdd;
  a.real_user = "";
  a.ip = "10.0.0.1";
  a.cmd = "open";
  a.src = "/a/very/long/path/with/more/than/eight/bytes";
  a.dst = "";
  a.proto = "rpc";
  chunk.Add(a);
  a.time_ms = 7;
  a.allowed = true;
  a.user = "u\"";
  chunk.Add(a);
  CHECK(chunk.records() == 2);
  CHECK(chunk.min_time_ms() == -5);
  CHECK(chunk.max_time_ms() == 7);
  CHECK(chunk.Json().substr(0, 37) == "[[-5,0,\"q\\\"b\\\\s/t\\u0009n\\u000ac\\u0001");
  std::vector<models::HdfsAuditRecord> out;
  REQUIRE(DecodeHdfsChunk(1, chunk.Json(), INT64_MIN, INT64_MAX, &out).ok());
  REQUIRE(out.size() == 2);
  CHECK(out[0].user == kOdd);
  CHECK(AuditText(out[0]) ==
        "-5|0|" + kOdd + "||10.0.0.1|open|/a/very/long/path/with/more/than/eight/bytes||rpc");
  CHECK(out[1].user == "u\"");
  // The window keeps [from, to).
  out.clear();
  REQUIRE(DecodeHdfsChunk(1, chunk.Json(), 0, 7, &out).ok());
  CHECK(out.empty());
  REQUIRE(DecodeHdfsChunk(1, chunk.Json(), 7, 8, &out).ok());
  CHECK(out.size() == 1);

  HdfsChunkBuilder transfers;
  HdfsTransferView t;
  t.time_ms = 3;
  t.is_read = false;
  t.datanode = "10.2.0.1";
  t.peer = "10.1.0.9";
  t.bytes = 134217728;
  t.block = "blk_1073741825";
  t.client_id = "DFSClient_NONMAPREDUCE_-1_1";
  t.duration_ns = -1;
  transfers.Add(t);
  std::vector<models::HdfsTransferRecord> tout;
  REQUIRE(DecodeHdfsChunk(2, transfers.Json(), INT64_MIN, INT64_MAX, &tout).ok());
  REQUIRE(tout.size() == 1);
  CHECK(tout[0].bytes == 134217728);
  CHECK(tout[0].duration_ns == -1);
  CHECK_FALSE(tout[0].is_read);
  CHECK(tout[0].client_id == "DFSClient_NONMAPREDUCE_-1_1");
  transfers.Clear();
  CHECK(transfers.empty());
  CHECK(transfers.Json() == "[]");
}

TEST_CASE("text that is not a chunk of the kind asked for is an error naming the chunk") {
  std::vector<models::HdfsBlockRecord> blocks;
  CHECK(DecodeHdfsChunk(9, "[[1,\"blk_1\"]]", INT64_MIN, INT64_MAX, &blocks).message() ==
        "hdfs chunk 9: not a chunk of block records (unexpected text at byte 11)");
  CHECK(DecodeHdfsChunk(9, "[[1,\"blk_1\",\"/p\"]] x", INT64_MIN, INT64_MAX, &blocks)
            .message() == "hdfs chunk 9: not a chunk of block records (unexpected text at byte 19)");
  CHECK(blocks.empty());  // a broken chunk adds nothing, not even its readable start
  std::vector<models::HdfsAuditRecord> audits;
  CHECK_FALSE(DecodeHdfsChunk(3, "[[1,\"blk_1\",\"/p\"]]", INT64_MIN, INT64_MAX, &audits).ok());
  REQUIRE(DecodeHdfsChunk(9, "[ [1, \"blk_\\u00fc\\ud83d\\ude00\", \"/p\"] ]", INT64_MIN,
                          INT64_MAX, &blocks)
              .ok());
  REQUIRE(blocks.size() == 1);
  CHECK(blocks[0].block == "blk_\xc3\xbc\xf0\x9f\x98\x80");
}

TEST_CASE("an index of a chunk finds each record in the window; a record reads alone") {
  HdfsChunkBuilder chunk;
  HdfsAuditView a;
  a.ip = "10.0.0.1";
  a.cmd = "open";
  a.proto = "rpc";
  const std::int64_t times[] = {5, -1, 5, 3};
  const std::string users[] = {kOdd, "u", "a-rather-long-user-name-on-the-heap", ""};
  const std::string paths[] = {"/short", "/a/very/long/path/with/more/than/eight/bytes", "", "/x"};
  for (int i = 0; i < 4; ++i) {
    a.time_ms = times[i];
    a.user = users[i];
    a.src = paths[i];
    chunk.Add(a);
  }
  const std::string json = chunk.Json();
  std::vector<models::HdfsAuditRecord> decoded;
  REQUIRE(DecodeHdfsChunk(4, json, INT64_MIN, INT64_MAX, &decoded).ok());

  std::vector<HdfsChunkEntry> entries;
  REQUIRE(IndexHdfsChunk<models::HdfsAuditRecord>(4, json, INT64_MIN, INT64_MAX, &entries).ok());
  REQUIRE(entries.size() == 4);
  models::HdfsAuditRecord r;  // reused: each read replaces every field
  for (std::size_t i = 0; i < entries.size(); ++i) {
    CAPTURE(i);
    CHECK(entries[i].time_ms == times[i]);
    CHECK(json[entries[i].offset] == '[');
    REQUIRE(ReadHdfsChunkRecord(4, json, entries[i].offset, &r).ok());
    CHECK(AuditText(r) == AuditText(decoded[i]));
  }
  CHECK(entries[0].offset == 1);
  // From a suffix of the text (what a reader keeps of a chunk it has half read): the same record
  // at the same offsets, and errors still count bytes from the start of the whole text.
  const std::uint32_t cut = entries[2].offset;
  REQUIRE(
      ReadHdfsChunkRecord(4, std::string_view(json).substr(cut), entries[3].offset, &r, cut).ok());
  CHECK(AuditText(r) == AuditText(decoded[3]));
  CHECK(ReadHdfsChunkRecord(4, std::string_view(json).substr(cut), cut + 1, &r, cut).message() ==
        "hdfs chunk 4: not a chunk of audit records (unexpected text at byte " +
            std::to_string(cut + 1) + ")");

  // The window [from, to) and appending: the entries already there stay.
  REQUIRE(IndexHdfsChunk<models::HdfsAuditRecord>(4, json, 3, 5, &entries).ok());
  REQUIRE(entries.size() == 5);
  CHECK(entries[4].time_ms == 3);
  CHECK(entries[4].offset == entries[3].offset);

  // Each kind's chunks, and each kind's errors, as DecodeHdfsChunk has them.
  const std::string blocks = "[[1,\"blk_1\",\"/p\"],[2,\"blk_\\u00fc\",\"/q\"]]";
  std::vector<HdfsChunkEntry> block_entries;
  REQUIRE(IndexHdfsChunk<models::HdfsBlockRecord>(9, blocks, INT64_MIN, INT64_MAX, &block_entries)
              .ok());
  REQUIRE(block_entries.size() == 2);
  models::HdfsBlockRecord b;
  REQUIRE(ReadHdfsChunkRecord(9, blocks, block_entries[1].offset, &b).ok());
  CHECK(b.block == "blk_\xc3\xbc");
  CHECK(b.path == "/q");
  for (const char* broken :
       {"[[1,\"blk_1\"]]", "[[1,\"blk_1\",\"/p\"]] x", "[[1,\"blk_\\q\",\"/p\"]]"}) {
    CAPTURE(broken);
    std::vector<models::HdfsBlockRecord> none;
    const Status decoding = DecodeHdfsChunk(9, broken, INT64_MIN, INT64_MAX, &none);
    REQUIRE_FALSE(decoding.ok());
    CHECK(IndexHdfsChunk<models::HdfsBlockRecord>(9, broken, INT64_MIN, INT64_MAX, &block_entries)
              .message() == decoding.message());
    CHECK(block_entries.size() == 2);  // a broken chunk adds nothing
  }
  CHECK(ReadHdfsChunkRecord(9, blocks, 2, &b).message() ==
        "hdfs chunk 9: not a chunk of block records (unexpected text at byte 2)");
  models::HdfsTransferRecord t;
  CHECK(ReadHdfsChunkRecord(9, blocks, 1, &t).message() ==
        "hdfs chunk 9: not a chunk of transfer records (unexpected text at byte 4)");
}

// Rows of a v1 store, written the way the v1 ingester did: one node's batch after another.
void FillV1(Store& store) {
  auto audit = store.Prepare(
      "INSERT INTO hdfs_audit(node,time_ms,allowed,user,real_user,ip,cmd,src,dst,proto) "
      "VALUES(?,?,?,?,?,?,?,?,?,?)");
  auto transfer = store.Prepare(
      "INSERT INTO hdfs_transfer(node,time_ms,is_read,datanode,peer,bytes,block,client_id,"
      "duration_ns) VALUES(?,?,?,?,?,?,?,?,?)");
  auto block = store.Prepare("INSERT INTO hdfs_block(node,time_ms,block,path) VALUES(?,?,?,?)");
  REQUIRE(audit.ok());
  REQUIRE(transfer.ok());
  REQUIRE(block.ok());
  REQUIRE(store.Begin().ok());
  int i = 0;
  // Batches of 5,000 per node, alternating nodes, times colliding across nodes and inside one
  // (ten records per millisecond): more than one 4,096-record chunk per run.
  for (int batch = 0; batch < 6; ++batch) {
    const std::string node = batch % 2 ? "dn1" : "nn";
    for (int k = 0; k < 5000; ++k, ++i) {
      Statement& a = audit.value();
      a.Bind(1, node).Bind(2, std::int64_t{k / 10}).Bind(3, std::int64_t{i % 7 != 0});
      a.Bind(4, "u" + std::to_string(i) + (i % 100 == 0 ? kOdd : "")).Bind(5, std::string());
      a.Bind(6, "10.0.0." + std::to_string(i % 9)).Bind(7, std::string(i % 3 ? "open" : "create"));
      a.Bind(8, "/d/f" + std::to_string(i % 50)).Bind(9, std::string()).Bind(10, std::string("rpc"));
      REQUIRE(a.Run().ok());
      a.Reset();
      Statement& t = transfer.value();
      t.Bind(1, node).Bind(2, std::int64_t{k / 10}).Bind(3, std::int64_t{i % 2});
      t.Bind(4, "10.2.0." + std::to_string(i % 4)).Bind(5, "10.1.0." + std::to_string(i % 5));
      t.Bind(6, std::int64_t{1000} + i).Bind(7, "blk_" + std::to_string(i % 300));
      t.Bind(8, "DFSClient_" + std::to_string(i)).Bind(9, std::int64_t{i});
      REQUIRE(t.Run().ok());
      t.Reset();
      if (k % 10 == 0) {
        Statement& b = block.value();
        b.Bind(1, node).Bind(2, std::int64_t{k / 10}).Bind(3, "blk_" + std::to_string(i % 300));
        b.Bind(4, "/d/f" + std::to_string(i % 50));
        REQUIRE(b.Run().ok());
        b.Reset();
      }
    }
  }
  REQUIRE(store.Commit().ok());
}

// One query's rows, one line each.
std::string Rows(Store& store, const std::string& sql) {
  auto st = store.Prepare(sql);
  REQUIRE(st.ok());
  std::string out;
  while (st.value().Step()) out += st.value().ColumnText(0) + "\n";
  REQUIRE(st.value().Error().ok());
  return out;
}

const char* const kAuditRows =
    "SELECT node||'|'||time_ms||'|'||allowed||'|'||user||'|'||real_user||'|'||ip||'|'||cmd||'|'"
    "||src||'|'||dst||'|'||proto FROM hdfs_audit ORDER BY time_ms, id";
const char* const kTransferRows =
    "SELECT node||'|'||time_ms||'|'||is_read||'|'||datanode||'|'||peer||'|'||bytes||'|'||block"
    "||'|'||client_id||'|'||duration_ns FROM hdfs_transfer ORDER BY time_ms, id";
const char* const kBlockRows =
    "SELECT node||'|'||time_ms||'|'||block||'|'||path FROM hdfs_block ORDER BY time_ms, id";

TEST_CASE("the v1 to v2 migration keeps every record, its columns and its order") {
  const std::string dir = testing::MakeTempDir();
  const std::string path = dir + "/v1.db";
  std::string audits, transfers, blocks;
  {
    auto v1 = OpenStore(path, {Migrations{"hdfs", {HdfsMigrations().steps.at(0)}}});
    CHECK(v1->SchemaVersion("hdfs") == 1);
    FillV1(*v1);
    audits = Rows(*v1, kAuditRows);
    transfers = Rows(*v1, kTransferRows);
    blocks = Rows(*v1, kBlockRows);
    REQUIRE(Rows(*v1, "SELECT count(*) FROM hdfs_audit") == "30000\n");
  }
  auto v2 = OpenStore(path, {HdfsMigrations()});
  CHECK(v2->SchemaVersion("hdfs") == 2);
  // The views answer exactly what the tables did, in the same order.
  CHECK(Rows(*v2, kAuditRows) == audits);
  CHECK(Rows(*v2, kTransferRows) == transfers);
  CHECK(Rows(*v2, kBlockRows) == blocks);
  // Chunks hold one node each and at most 4,096 records.
  CHECK(Rows(*v2, "SELECT count(*)||'|'||max(records)||'|'||sum(records) FROM hdfs_audit_chunk") ==
        "12|4096|30000\n");
  // LoadHdfsRecords decodes the chunks SQLite wrote: same records, same order.
  auto loaded = LoadHdfsRecords(*v2, INT64_MIN, INT64_MAX);
  REQUIRE(loaded.ok());
  REQUIRE(loaded.value().audits.size() == 30000);
  std::string from_chunks;
  auto nodes = Rows(*v2, "SELECT node FROM hdfs_audit ORDER BY time_ms, id");
  std::size_t pos = 0;
  for (const auto& a : loaded.value().audits) {
    const std::size_t nl = nodes.find('\n', pos);
    from_chunks += nodes.substr(pos, nl - pos) + "|" + AuditText(a) + "\n";
    pos = nl + 1;
  }
  CHECK(from_chunks == audits);
  CHECK(loaded.value().transfers.size() == 30000);
  CHECK(loaded.value().blocks.size() == 3000);
  CHECK(testing::IntegrityCheck(*v2) == "ok");
}

TEST_CASE("the HDFS read statements use the time index, never a scan of the record chunks") {
  const std::string dir = testing::MakeTempDir();
  std::string log;
  for (int i = 0; i < 200; ++i) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "2024-01-01 00:00:%02d,%03d INFO FSNamesystem.audit: allowed=true\tugi=u%d "
                  "(auth:SIMPLE)\tip=/10.0.0.1\tcmd=open\tsrc=/f%d\tdst=null\tperm=null\t"
                  "proto=rpc\n",
                  i / 10, i % 1000, i % 3, i);
    log += line;
  }
  testing::WriteFile(dir + "/a.log", log);
  auto store = OpenStore(dir + "/s.db", {HdfsMigrations()});
  HdfsIngestOptions options;
  options.batch_lines = 50;
  REQUIRE(IngestHdfs(*store, {{"nn", dir + "/a.log"}}, options).ok());
  std::vector<std::string> statements;
  store->ObservePrepares([&](const std::string& sql) { statements.push_back(sql); });
  auto window = LoadHdfsRecords(*store, 1704067205000, 1704067210000);
  store->ObservePrepares(nullptr);
  REQUIRE(window.ok());
  CHECK(window.value().audits.size() == 50);
  REQUIRE(statements.size() == 3);
  static const std::regex kScan(R"(^SCAN (hdfs_audit_chunk|hdfs_transfer_chunk)\b)");
  int searches = 0;
  for (const std::string& sql : statements) {
    auto plan = store->ExplainQueryPlan(sql);
    REQUIRE_MESSAGE(plan.ok(), plan.status().message());
    for (const auto& step : plan.value()) {
      CHECK_MESSAGE(!std::regex_search(step.detail, kScan), step.detail << "\n  in: " << sql);
      if (step.detail.find("USING INDEX hdfs_") != std::string::npos) ++searches;
    }
  }
  // Audits and transfers by the time index; blocks are read whole (every block is returned,
  // whatever the window: a file allocated before it is still read inside it).
  CHECK(searches == 2);
}

template <typename Record>
std::vector<std::int64_t> Times(models::HdfsRecordCursor<Record>& cursor,
                                std::vector<Record>* records) {
  std::vector<std::int64_t> out;
  while (const Record* r = cursor.Next()) {
    out.push_back(r->time_ms);
    records->push_back(*r);
  }
  REQUIRE(cursor.status().ok());
  return out;
}

TEST_CASE("the store's streams give LoadHdfsRecords' records in its order, chunk by chunk") {
  const std::string dir = testing::MakeTempDir();
  // Two nodes over the same hours, each with a timestamp going backwards, in many small chunks:
  // the cursor must merge overlapping chunks and sort inside one.
  std::string nn, dn;
  for (int i = 0; i < 3000; ++i) {
    const int t = i == 1500 ? 100 : i;  // one line far back in time
    char line[400];
    std::snprintf(line, sizeof line,
                  "2024-01-01 %02d:%02d:%02d,%03d INFO FSNamesystem.audit: allowed=true\tugi=u%d "
                  "(auth:SIMPLE)\tip=/10.0.0.%d\tcmd=%s\tsrc=/f%d\tdst=null\tperm=null\t"
                  "proto=rpc\n",
                  t / 3600 % 24, t / 60 % 60, t % 60, i % 3 * 7, i % 5, i % 4,
                  i % 3 ? "open" : "create", i % 17);
    nn += line;
    std::snprintf(line, sizeof line,
                  "2024-01-01 %02d:%02d:%02d,%03d INFO org.apache.hadoop.hdfs.server.datanode."
                  "DataNode.clienttrace: src: /10.2.0.%d:9866, dest: /10.0.0.%d:50010, bytes: %d, "
                  "op: HDFS_READ, cliID: DFSClient_1, offset: 0, srvID: s, blockid: "
                  "BP-1-10.0.0.1-1:blk_%d_1, duration(ns): %d\n",
                  (2999 - t) / 3600 % 24, (2999 - t) / 60 % 60, (2999 - t) % 60, i % 2 * 7, i % 3,
                  i % 4, 1000 + i, 1073741825 + i % 33, i);
    dn += line;
  }
  testing::WriteFile(dir + "/nn.log", nn);
  testing::WriteFile(dir + "/dn.log", dn);
  auto store = OpenStore(dir + "/s.db", {HdfsMigrations()});
  HdfsIngestOptions options;
  options.batch_lines = 170;
  REQUIRE(IngestHdfs(*store, {{"nn", dir + "/nn.log"}, {"dn1", dir + "/dn.log"}}, options).ok());
  const std::int64_t day = 1704067200000;
  for (auto [from, to] : {std::pair<std::int64_t, std::int64_t>{INT64_MIN, INT64_MAX},
                          {day + 700000, day + 2100000}}) {
    auto loaded = LoadHdfsRecords(*store, from, to);
    REQUIRE(loaded.ok());
    auto streams = HdfsStoreStreams(*store, from, to);
    std::vector<models::HdfsAuditRecord> audits;
    std::vector<models::HdfsTransferRecord> transfers;
    std::vector<models::HdfsBlockRecord> blocks;
    auto a = streams->Audits();
    auto t = streams->Transfers();
    const auto audit_times = Times(*a, &audits);
    const auto transfer_times = Times(*t, &transfers);
    CHECK(std::is_sorted(audit_times.begin(), audit_times.end()));
    CHECK(std::is_sorted(transfer_times.begin(), transfer_times.end()));
    REQUIRE(audits.size() == loaded.value().audits.size());
    REQUIRE(transfers.size() == loaded.value().transfers.size());
    CHECK(audits.size() > 1000);
    for (std::size_t i = 0; i < audits.size(); ++i) {
      REQUIRE(AuditText(audits[i]) == AuditText(loaded.value().audits[i]));
    }
    for (std::size_t i = 0; i < transfers.size(); ++i) {
      REQUIRE(transfers[i].time_ms == loaded.value().transfers[i].time_ms);
      REQUIRE(transfers[i].peer == loaded.value().transfers[i].peer);
      REQUIRE(transfers[i].bytes == loaded.value().transfers[i].bytes);
    }
    // The analysis reads the same numbers from either source, also when the store's sorts
    // spill to its scratch file (runs of 4 KiB here, a few hundred of them).
    models::HdfsWorkloadOptions wo;
    wo.streams = true;
    models::HdfsWorkloadOptions spilling = wo;
    spilling.sort_run_bytes = 4096;
    auto streamed = models::AnalyzeHdfsWorkload(*streams, spilling);
    REQUIRE(streamed.ok());
    const models::HdfsWorkload held = models::AnalyzeHdfsWorkload(
        loaded.value().audits, loaded.value().transfers, loaded.value().blocks, wo);
    CHECK(streamed.value().cluster.read_bytes == held.cluster.read_bytes);
    CHECK(streamed.value().cluster.audit_records == held.cluster.audit_records);
    CHECK(streamed.value().cluster.files_read == held.cluster.files_read);
    REQUIRE(streamed.value().users.size() == held.users.size());
    for (std::size_t i = 0; i < held.users.size(); ++i) {
      CHECK(streamed.value().users[i].key == held.users[i].key);
      CHECK(streamed.value().users[i].read_bytes == held.users[i].read_bytes);
      CHECK(streamed.value().users[i].files_read == held.users[i].files_read);
      CHECK(streamed.value().users[i].bytes_per_datanode == held.users[i].bytes_per_datanode);
    }
    REQUIRE(streamed.value().clients.size() == held.clients.size());
    for (std::size_t i = 0; i < held.clients.size(); ++i) {
      CHECK(streamed.value().clients[i].files_read == held.clients[i].files_read);
      CHECK(streamed.value().clients[i].files_written == held.clients[i].files_written);
    }
    CHECK(streamed.value().cluster.unattributed_bytes == held.cluster.unattributed_bytes);
    REQUIRE(streamed.value().recommendations.size() == held.recommendations.size());
    for (std::size_t i = 0; i < held.recommendations.size(); ++i) {
      CHECK(streamed.value().recommendations[i].reason == held.recommendations[i].reason);
    }
  }
}

}  // namespace
}  // namespace perfplan::profiles
