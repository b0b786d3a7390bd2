// Ground truth for HDFS log mining (seed 003's validation, DESIGN §3.7): a TestDFSIO-like
// write-then-read of K files of S bytes, generated in the exact Hadoop formats, ingested from
// (rotated, partly gzip-compressed) files and analyzed, must give back the generator's volumes:
// write = K·S + control files, read = data + 4 B of checksum per 512 B, per client, user and
// DataNode. Plus the CLI end to end with the JSON keys of DESIGN §6.
#include "planner/hdfs/hdfs.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "planner/hdfs/hdfs_streaming.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

std::map<std::string, std::int64_t> ToMap(const std::vector<models::HdfsClientStats>& stats,
                                          bool read) {
  std::map<std::string, std::int64_t> out;
  for (const auto& s : stats) {
    const std::int64_t v = read ? s.read_bytes : s.write_bytes;
    if (v) out[s.key] = v;
  }
  return out;
}

std::vector<std::string> NodeArgs(const profiles::HdfsSimulation& sim) {
  std::vector<std::string> nodes = {"nn1=" + sim.audit_log, "nn1=" + sim.namenode_log};
  for (const auto& [name, path] : sim.datanode_logs) nodes.push_back(name + "=" + path);
  return nodes;
}

struct Case {
  std::int64_t files, file_bytes, clients, datanodes, block_bytes, rotate_bytes;
  const char* version;
};

TEST_CASE("extracted volumes equal the generator's: K·S + control, data + 4 B per 512 B") {
  const Case cases[] = {
      {4, 10'000'000, 2, 3, 4'194'304, 0, "3.4"},
      {7, 1'000'001, 3, 5, 262'144, 8192, "3.3"},  // rolled logs, older parts gzip-compressed
      {3, 0, 1, 1, 1024, 0, "2"},                  // empty data files, one DataNode
      {16, 130'000'000, 4, 4, 134'217'728, 4096, "3.4"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.files);
    CAPTURE(std::string(c.version));
    const std::string dir = testing::MakeTempDir();
    profiles::HdfsSimulationOptions s;
    s.files = c.files;
    s.file_bytes = c.file_bytes;
    s.clients = c.clients;
    s.datanodes = c.datanodes;
    s.block_bytes = c.block_bytes;
    s.rotate_bytes = c.rotate_bytes;
    s.version = profiles::ParseHadoopVersion(c.version).value();
    auto sim = AnswerSimulateHdfs(s, dir + "/logs");
    REQUIRE(sim.ok());
    const profiles::HdfsSimulationTruth& t = sim.value().truth;
    if (c.rotate_bytes) {
      int gz = 0;
      for (const auto& e : std::filesystem::recursive_directory_iterator(dir + "/logs")) {
        gz += e.path().extension() == ".gz";
      }
      CHECK(gz > 0);
      CHECK(std::filesystem::exists(sim.value().audit_log + ".1"));
    }

    IngestHdfsRequest ingest;
    ingest.nodes = NodeArgs(sim.value());
    ingest.store_path = dir + "/store.db";
    auto report = AnswerIngestHdfs(ingest);
    REQUIRE(report.ok());
    CHECK(report.value().skipped.empty());
    CHECK(report.value().counts.garbled == 0);
    CHECK(report.value().counts.time_backwards == 0);

    WorkloadRequest request;
    request.store_path = ingest.store_path;
    auto answer = AnswerWorkload(request);
    REQUIRE(answer.ok());
    const models::HdfsWorkload& w = answer.value().workload;
    CHECK(w.warnings.empty());

    // The generator's own bookkeeping is the paper's identity …
    CHECK(t.data_bytes == c.files * c.file_bytes);
    CHECK(t.write_bytes == t.data_bytes + t.control_bytes);
    std::int64_t blocks_per_file = 0, expected_data_read = 0;
    for (std::int64_t left = c.file_bytes; left > 0; left -= c.block_bytes) {
      const std::int64_t len = std::min(left, c.block_bytes);
      ++blocks_per_file;
      expected_data_read += len + 4 * ((len + 511) / 512);
    }
    CHECK(t.data_read_bytes == c.files * expected_data_read);
    // … and the logs give it back.
    CHECK(w.cluster.write_bytes == t.write_bytes);
    CHECK(w.cluster.replication_write_bytes == t.replication_write_bytes);
    CHECK(w.cluster.read_bytes == t.read_bytes);
    CHECK(w.cluster.read_ops == t.read_ops);
    CHECK(w.cluster.write_ops == t.write_ops);
    CHECK(w.cluster.metadata_ops == t.metadata_ops);
    CHECK(w.cluster.block_records == t.blocks);
    CHECK(w.cluster.unattributed_bytes == 0);
    CHECK(ToMap(w.clients, true) == t.client_read_bytes);
    CHECK(ToMap(w.clients, false) == t.client_write_bytes);
    CHECK(ToMap(w.users, true) == t.user_read_bytes);
    CHECK(ToMap(w.users, false) == t.user_write_bytes);
    std::map<std::string, std::int64_t> dn_read, dn_write;
    for (const auto& d : w.datanodes) {
      if (d.read_bytes) dn_read[d.datanode] = d.read_bytes;
      if (d.write_bytes) dn_write[d.datanode] = d.write_bytes;
    }
    CHECK(dn_read == t.datanode_read_bytes);
    CHECK(dn_write == t.datanode_write_bytes);
    if (c.file_bytes > 0) {
      CHECK(w.cluster.files_written == 2 * c.files + c.files + 2 - c.files);  // data + control + 2
    }

    // Ingesting again changes nothing.
    auto again = AnswerIngestHdfs(ingest);
    REQUIRE(again.ok());
    CHECK(again.value().records == 0);
  }
}

TEST_CASE("bad settings and bad requests are refused with the field named") {
  profiles::HdfsSimulationOptions s;
  s.files = 0;
  CHECK(AnswerSimulateHdfs(s, testing::MakeTempDir()).status().message() ==
        "files = 0: must be at least 1");
  CHECK(profiles::ParseHadoopVersion("4").status().message() ==
        "hadoop_version: \"4\": expected 2, 3.3 or 3.4");
  WorkloadRequest w;
  w.store_path = testing::MakeTempDir() + "/none.db";
  auto missing = AnswerWorkload(w);
  CHECK(missing.status().code() == StatusCode::kNotFound);
  CHECK(missing.status().message() ==
        w.store_path + ": no such store; run `perfplan ingest hdfs --node NAME=PATH` first");
  CHECK(ParseTimeArgument("--from", "yesterday").status().message() ==
        "--from \"yesterday\": expected a time like 2024-01-01, 2024-01-01 10:00:00 or "
        "milliseconds since the epoch");
  CHECK(ParseTimeArgument("--from", "2024-01-01").value() == 1704067200000LL);
  CHECK(ParseTimeArgument("--to", "2024-01-01 00:00:01,5").ok() == false);
  CHECK(ParseTimeArgument("--to", "1704067200000").value() == 1704067200000LL);
}

std::string Run(const std::string& args, int* exit_code) {
  const std::string cmd = testing::BinaryDir() + "/perfplan " + args + " 2>/dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  const int status = pclose(pipe);
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

// `perfplan simulate hdfs SIZES --block-size 1048576 --out OUT --json`, which must succeed: its
// JSON (the logs written and the `--node` specs that ingest them).
nlohmann::json SimulateHdfs(const std::string& sizes, const std::string& out) {
  int rc = -1;
  const auto sim = nlohmann::json::parse(
      Run("simulate hdfs " + sizes + " --block-size 1048576 --out " + out + " --json", &rc));
  REQUIRE(rc == 0);
  return sim;
}

TEST_CASE("CLI: simulate hdfs → ingest hdfs → workload --json has the DESIGN §6 keys") {
  const std::string dir = testing::MakeTempDir();
  const auto sim =
      SimulateHdfs("--files 3 --file-size 5000000 --clients 2 --datanodes 3", dir + "/logs");
  int rc = -1;
  std::string nodes;
  for (const auto& n : sim["ingest_nodes"]) nodes += " --node " + n.get<std::string>();
  const auto ingest =
      nlohmann::json::parse(Run("ingest hdfs" + nodes + " --store " + dir + "/s.db --json", &rc));
  REQUIRE(rc == 0);
  for (const char* key : {"records", "skipped", "checkpoints"}) CHECK(ingest.contains(key));
  CHECK(ingest["checkpoints"].size() == 5);
  const auto w = nlohmann::json::parse(Run("workload --store " + dir + "/s.db --json", &rc));
  REQUIRE(rc == 0);
  for (const char* key : {"clients", "users", "datanodes", "cluster", "recommendations"}) {
    CHECK(w.contains(key));
  }
  for (const char* key : {"client", "read_ops", "write_ops", "metadata_ops", "read_bytes",
                          "write_bytes", "iops", "files_read", "files_written"}) {
    CAPTURE(key);
    CHECK(w["clients"][0].contains(key));
  }
  CHECK(w["users"][0].contains("user"));
  for (const char* key : {"datanode", "read_bytes", "write_bytes", "read_ops", "write_ops"}) {
    CHECK(w["datanodes"][0].contains(key));
  }
  CHECK(w["cluster"]["write_bytes"] == sim["truth"]["write_bytes"]);
  CHECK(w["cluster"]["read_bytes"] == sim["truth"]["read_bytes"]);
  // --streams: written as they come from the analysis's sort, the bytes of the answer held in
  // memory (AnswerWorkload); the table has no streams, so there it changes nothing.
  const std::string streamed = Run("workload --streams --store " + dir + "/s.db --json", &rc);
  REQUIRE(rc == 0);
  WorkloadRequest request;
  request.store_path = dir + "/s.db";
  request.options.streams = true;
  auto held = AnswerWorkload(request);
  REQUIRE(held.ok());
  CHECK(held.value().workload.streams.size() == 2);
  CHECK(streamed == ToJson(held.value()));
  CHECK(Run("workload --streams --store " + dir + "/s.db", &rc) ==
        Run("workload --store " + dir + "/s.db", &rc));
  // Time window: nothing before the run started.
  const auto empty = nlohmann::json::parse(
      Run("workload --store " + dir + "/s.db --from 2020-01-01 --to 2020-01-02 --json", &rc));
  CHECK(rc == 0);
  CHECK(empty["cluster"]["read_bytes"] == 0);
  // Bad input → exit 2 with a JSON error document.
  Run("workload --store " + dir + "/s.db --from nonsense --json", &rc);
  CHECK(rc == 2);
  Run("ingest hdfs --node nonsense --store " + dir + "/s.db", &rc);
  CHECK(rc == 2);
  // The library names fields (sources, to_ms, from_ms); the CLI says the flags.
  const auto node = nlohmann::json::parse(
      Run("ingest hdfs --node nonsense --store " + dir + "/s.db --json", &rc));
  CHECK(rc == 2);
  CHECK(node["field"] == "sources");
  CHECK(node["message"] ==
        "--node: \"nonsense\": expected NAME=PATH, e.g. nn1=/var/log/hadoop/hdfs-audit.log");
  const auto window = nlohmann::json::parse(
      Run("workload --store " + dir + "/s.db --from 2020-01-02 --to 2020-01-01 --json", &rc));
  CHECK(rc == 2);
  CHECK(window["field"] == "to_ms");
  CHECK(window["message"] == "--to: must be after --from");
}

TEST_CASE("map | sort | reduce gives the single-process statistics, however the input is split") {
  const std::string dir = testing::MakeTempDir();
  const std::string bin = testing::BinaryDir() + "/perfplan";
  const auto sim =
      SimulateHdfs("--files 6 --file-size 3000000 --clients 3 --datanodes 4", dir + "/logs");
  int rc = -1;
  std::string nodes, files;
  for (const auto& n : sim["ingest_nodes"]) {
    const std::string spec = n.get<std::string>();
    nodes += " --node " + spec;
    files += " " + spec.substr(spec.find('=') + 1);
  }
  Run("ingest hdfs" + nodes + " --store " + dir + "/s.db", &rc);
  REQUIRE(rc == 0);
  auto single =
      nlohmann::json::parse(Run("workload --streams --store " + dir + "/s.db --json", &rc));
  REQUIRE(rc == 0);
  single.erase("store");
  // One map over everything, and one map per file (as Hadoop splits), merged by sort.
  const std::string one = dir + "/one.json", split = dir + "/split.json";
  REQUIRE(std::system(("cat" + files + " | " + bin + " hdfs map | LC_ALL=C sort | " + bin +
                       " hdfs reduce --streams > " + one)
                          .c_str()) == 0);
  std::string per_file = "(";
  for (std::size_t at = 1; at < files.size();) {
    const std::size_t next = files.find(' ', at);
    per_file += bin + " hdfs map < " + files.substr(at, next - at) + "; ";
    if (next == std::string::npos) break;
    at = next + 1;
  }
  per_file += ")";
  REQUIRE(std::system((per_file + " | LC_ALL=C sort | " + bin + " hdfs reduce --streams > " + split)
                          .c_str()) == 0);
  const auto from_one = nlohmann::json::parse(testing::ReadFile(one));
  const auto from_split = nlohmann::json::parse(testing::ReadFile(split));
  CHECK(from_one == single);
  CHECK(from_split == single);
  CHECK(from_one["cluster"]["write_bytes"] == sim["truth"]["write_bytes"]);
  // A malformed mapped line is bad input, named by line.
  testing::WriteFile(dir + "/bad.tsv", "A\t1\n");
  Run("hdfs reduce < " + dir + "/bad.tsv", &rc);
  CHECK(rc == 2);
}

// Memory for a scratch file, counting how often one is made.
models::ScratchFactory CountedScratch(int* made) {
  return [made] {
    ++*made;
    return Result<std::unique_ptr<models::ScratchFile>>(std::make_unique<models::MemoryScratch>());
  };
}

TEST_CASE("hdfs reduce: records out of order, spilled by a tiny sort: the in-memory answer") {
  const std::string dir = testing::MakeTempDir();
  const auto sim =
      SimulateHdfs("--files 6 --file-size 3000000 --clients 3 --datanodes 4", dir + "/logs");
  std::string logs;
  for (const auto& n : sim["ingest_nodes"]) {
    const std::string spec = n.get<std::string>();
    logs += testing::ReadFile(spec.substr(spec.find('=') + 1));
  }
  std::istringstream log_in(logs);
  std::ostringstream mapped, garbled;
  REQUIRE(HdfsMap(log_in, mapped, garbled, "stdin").ok());
  // The map's lines, every 7th in turn (7 is prime to their number): no kind in time order.
  std::vector<std::string> lines;
  std::istringstream mapped_in(mapped.str());
  for (std::string line; std::getline(mapped_in, line);) lines.push_back(line);
  REQUIRE(lines.size() % 7 != 0);
  REQUIRE(lines.size() > 100);
  std::string scrambled;
  for (std::size_t i = 0; i < lines.size(); ++i) scrambled += lines[i * 7 % lines.size()] + "\n";
  REQUIRE(scrambled.size() < (std::size_t{1} << 20));

  models::HdfsWorkloadOptions options;
  options.streams = true;
  int made = 0;
  std::istringstream held_in(scrambled);
  auto held = HdfsReduce(held_in, options, nullptr, CountedScratch(&made));
  REQUIRE(held.ok());
  CHECK(made == 0);  // under 1 MiB a kind and 16 MiB of sort: nothing leaves memory
  CHECK(held.value().workload.streams.size() == 3);
  CHECK(held.value().workload.cluster.write_bytes == sim["truth"]["write_bytes"]);

  // 64 bytes of sort: every kind's records go to scratch storage, their keys are sorted in runs
  // of two and merged in several passes, and the analysis's own sorts spill too.
  options.sort_run_bytes = 64;
  std::istringstream spilled_in(scrambled);
  profiles::HdfsParseCounts counts;
  auto spilled = HdfsReduce(spilled_in, options, &counts, CountedScratch(&made));
  REQUIRE(spilled.ok());
  CHECK(made >= 8);  // 3 spools, 3 sorted copies, the key sorts' runs, the analysis's sorts
  CHECK(ToJson(spilled.value()) == ToJson(held.value()));
  CHECK(counts.lines > 0);
  // The streamed writer, reading the streams from the spilled sort, writes the same bytes.
  std::istringstream streamed_in(scrambled);
  auto streamed = HdfsReduceStreamed(streamed_in, options, nullptr, CountedScratch(&made));
  REQUIRE(streamed.ok());
  std::ostringstream written;
  REQUIRE(WriteJson(streamed.value(), written).ok());
  CHECK(written.str() == ToJson(held.value()));

  // A bad line after all the good ones: the error document alone, exit 2, no part of an answer.
  testing::WriteFile(dir + "/late.tsv", scrambled + "A\t1\n");
  int rc = -1;
  const auto error =
      nlohmann::json::parse(Run("hdfs reduce --streams < " + dir + "/late.tsv", &rc));
  CHECK(rc == 2);
  CHECK(error["message"] ==
        "stdin:" + std::to_string(lines.size() + 1) + ": expected an audit record of 10 fields");
}

TEST_CASE("hdfs map and reduce refuse a line longer than 64 MiB without holding it") {
  const std::size_t limit = std::size_t{64} << 20;
  const std::string endless(limit + 1, 'x');
  std::istringstream in("garbage line\n" + endless + "\nlast\n");
  std::ostringstream out, err;
  REQUIRE(HdfsMap(in, out, err, "stdin").ok());
  CHECK(err.str() ==
        "stdin:1: garbled: no log4j timestamp at the start of the line\n"
        "stdin:2: garbled: line longer than 67108864 bytes (the maximum line length); skipped\n"
        "stdin:3: garbled: no log4j timestamp at the start of the line\n");
  CHECK(out.str().find("#\tlines\t3\n") != std::string::npos);
  CHECK(out.str().find("#\tgarbled\t3\n") != std::string::npos);

  profiles::HdfsParseCounts counts;
  std::istringstream long_first(endless + "\n");
  auto refused = HdfsReduce(long_first, {}, &counts);
  REQUIRE(!refused.ok());
  CHECK(refused.status().message() ==
        "stdin:1: line longer than 67108864 bytes (the maximum line length)");
}

// Several read streams, each piece of the text the streamed writer lays out itself: clients in
// name order (not first-seen order), a client with block reads only and one with file reads only
// (an empty array each), reads at equal times (ordered by path; by DataNode, block and bytes), a
// path with a newline and a quote, and a client name that is not UTF-8.
WorkloadAnswer StreamsFixture(models::HdfsWorkloadOptions options, bool streamed,
                              std::unique_ptr<models::HdfsReadStreams>* reads) {
  auto audit = [](std::int64_t t, const char* ip, const char* cmd, const char* path) {
    models::HdfsAuditRecord a;
    a.time_ms = t, a.user = "u", a.ip = ip, a.cmd = cmd, a.src = path, a.allowed = true;
    return a;
  };
  auto transfer = [](std::int64_t t, bool read, const char* dn, const char* peer,
                     std::int64_t bytes, const char* block) {
    models::HdfsTransferRecord r;
    r.time_ms = t, r.is_read = read, r.datanode = dn, r.peer = peer, r.bytes = bytes;
    r.block = block;
    return r;
  };
  const std::vector<models::HdfsAuditRecord> audits = {
      audit(0, "10.0.0.9", "create", "/a"),     audit(5, "10.0.0.3", "open", "/b"),
      audit(5, "10.0.0.3", "open", "/a"),       audit(7, "10.0.0.3", "open", "/line\n\"q"),
      audit(9, "10.0.0.12", "open", "/a"),      audit(9, "\xff\xfe", "open", "/b"),
      audit(11, "10.0.0.3", "listStatus", "/"),
  };
  const std::vector<models::HdfsBlockRecord> blocks = {{0, "blk_1", "/a"}, {1, "blk_2", "/b"}};
  const std::vector<models::HdfsTransferRecord> transfers = {
      transfer(1, false, "10.0.1.1", "10.0.0.9", 100, "blk_1"),
      transfer(6, true, "10.0.1.2", "10.0.0.3", 100, "blk_1"),
      transfer(6, true, "10.0.1.1", "10.0.0.3", 7, "blk_2"),
      transfer(6, true, "10.0.1.1", "10.0.0.3", 5, "blk_2"),
      transfer(8, true, "10.0.1.1", "10.0.0.5", 100, "blk_1"),    // blocks, no file
      transfer(12, true, "10.0.1.1", "10.0.0.3", 9, "blk_none"),  // a block never allocated
  };
  options.streams = true;
  models::VectorHdfsStreams records(audits, transfers, blocks);
  auto w = streamed ? models::AnalyzeHdfsWorkload(records, options, reads)
                    : models::AnalyzeHdfsWorkload(records, options);
  REQUIRE(w.ok());
  return {"fixture.db", std::move(w).value()};
}

TEST_CASE("workload --streams: the streamed JSON is byte for byte the in-memory answer's") {
  models::HdfsWorkloadOptions options;
  const WorkloadAnswer held = StreamsFixture(options, false, nullptr);
  REQUIRE(held.workload.streams.size() == 4);
  CHECK(held.workload.streams[0].client == "10.0.0.12");  // name order: "10.0.0.12" < "10.0.0.3"
  CHECK(held.workload.streams[2].files.empty());          // 10.0.0.5 read blocks only
  CHECK(held.workload.streams[3].blocks.empty());         // "\xff\xfe" opened /b only
  const std::string expected = ToJson(held);
  // In one run, and spilled in runs of one record (merged 16 at a time).
  for (const std::int64_t run_bytes : {std::int64_t{16} << 20, std::int64_t{32}}) {
    CAPTURE(run_bytes);
    options.sort_run_bytes = run_bytes;
    StreamedWorkloadAnswer streamed;
    streamed.answer = StreamsFixture(options, true, &streamed.streams);
    CHECK(streamed.answer.workload.streams.empty());
    std::ostringstream out;
    REQUIRE(WriteJson(streamed, out).ok());
    CHECK(out.str() == expected);
  }
  // No reads at all: no "streams" member, as in memory.
  options.from_ms = 100;
  StreamedWorkloadAnswer none;
  none.answer = StreamsFixture(options, true, &none.streams);
  std::ostringstream out;
  REQUIRE(WriteJson(none, out).ok());
  CHECK(out.str() == ToJson(StreamsFixture(options, false, nullptr)));
  CHECK(out.str().find("streams") == std::string::npos);
}

}  // namespace
}  // namespace perfplan::planner
