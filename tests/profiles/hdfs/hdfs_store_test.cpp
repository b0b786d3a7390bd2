#include "profiles/hdfs/hdfs_store.h"
#include "profiles/hdfs/hdfs_ingest_parallel.h"

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include "tests/support/store_dump.h"
#include "tests/support/store_query.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles {
namespace {

std::string AuditLine(int i) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "2024-01-01 %02d:%02d:%02d,%03d INFO FSNamesystem.audit: allowed=true\tugi=u%d "
                "(auth:SIMPLE)\tip=/10.0.0.%d\tcmd=%s\tsrc=/data/f%d\tdst=null\tperm=null\t"
                "proto=rpc\n",
                (i / 3600000) % 24, (i / 60000) % 60, (i / 1000) % 60, i % 1000, i % 7, i % 5,
                i % 3 ? "open" : "create", i % 101);
  return buf;
}

std::string TraceLine(int i) {
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "2024-01-01 %02d:%02d:%02d,%03d INFO org.apache.hadoop.hdfs.server.datanode."
                "DataNode.clienttrace: src: /10.0.1.%d:9866, dest: /10.0.0.%d:5000%d, bytes: %d, "
                "op: HDFS_READ, cliID: DFSClient_NONMAPREDUCE_1_1, offset: 0, srvID: s, blockid: "
                "BP-1-10.0.0.1-1:blk_%d_1, duration(ns): %d\n",
                (i / 3600000) % 24, (i / 60000) % 60, (i / 1000) % 60, i % 1000, i % 4, i % 5,
                i % 10, 1000 + i, 1073741825 + i % 101, i);
  return buf;
}

std::string Lines(int from, int to, std::string (*make)(int)) {
  std::string out;
  for (int i = from; i < to; ++i) out += make(i);
  return out;
}

void WriteGzip(const std::string& path, const std::string& text) {
  gzFile gz = gzopen(path.c_str(), "wb");
  REQUIRE(gz != nullptr);
  gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
  gzclose(gz);
}

void Append(const std::string& path, const std::string& text) {
  FILE* f = std::fopen(path.c_str(), "ab");
  REQUIRE(f != nullptr);
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
}

std::unique_ptr<Store> OpenStore(const std::string& path) {
  auto store = Store::Open(path, {HdfsMigrations()});
  REQUIRE(store.ok());
  return std::move(store).value();
}

// A NameNode audit log of lines [0, n) read as node "nn", and an empty store beside it.
struct AuditLog {
  explicit AuditLog(int n) { testing::WriteFile(path, Lines(0, n, AuditLine)); }
  const std::string dir = testing::MakeTempDir();
  const std::string path = dir + "/hdfs-audit.log";
  const std::vector<HdfsSource> sources = {{"nn", path}};
  std::unique_ptr<Store> store = OpenStore(dir + "/s.db");
};

// Every stored record, in a canonical order, as one string: equal strings = equal totals and
// no record lost or duplicated.
std::string Dump(Store& store) {
  std::string out;
  for (const char* sql :
       {"SELECT count(*) || '|' || coalesce(group_concat(r, ';'), '') FROM (SELECT time_ms || ',' "
        "|| user || ',' || ip || ',' || cmd || ',' || src AS r FROM hdfs_audit ORDER BY r)",
        "SELECT count(*) || '|' || coalesce(sum(bytes), 0) || '|' || coalesce(group_concat(r, "
        "';'), '') FROM (SELECT time_ms || ',' || datanode || ',' || peer || ',' || bytes || ',' "
        "|| block AS r, bytes FROM hdfs_transfer ORDER BY r)"}) {
    auto st = store.Prepare(sql);
    REQUIRE(st.ok());
    REQUIRE(st.value().Step());
    const std::string all = st.value().ColumnText(0);
    // Count (and sum) plus a hash of the rest: failures print short values.
    out +=
        all.substr(0, all.find(';')) + "#" + std::to_string(std::hash<std::string>{}(all)) + "\n";
  }
  return out;
}

std::int64_t Count(Store& store, const std::string& table) {
  return testing::Count(store, "SELECT count(*) FROM " + table);
}

TEST_CASE("NAME=PATH parsing and option validation") {
  auto ok = ParseHdfsSource("nn1=/var/log/a=b.log");
  REQUIRE(ok.ok());
  CHECK(ok.value().node == "nn1");
  CHECK(ok.value().path == "/var/log/a=b.log");
  CHECK(ParseHdfsSource("=x").status().message() ==
        "sources: \"=x\": expected NAME=PATH, e.g. nn1=/var/log/hadoop/hdfs-audit.log");
  HdfsIngestOptions bad;
  bad.batch_lines = 0;
  CHECK(bad.Validate().message() == "batch_lines = 0: must be at least 1");
}

TEST_CASE("one file under two node names is refused (it would be counted twice)") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/a.log", AuditLine(1));
  auto store = OpenStore(dir + "/s.db");
  auto report = IngestHdfs(*store, {{"n1", dir + "/a.log"}, {"n2", dir + "/./a.log"}}, {});
  REQUIRE_FALSE(report.ok());
  CHECK(report.status().message() == "sources: n2=" + dir +
                                         "/./a.log: the same file is already given for node n1; "
                                         "a file belongs to one node");
}

TEST_CASE("one file under two node names in separate runs is refused too") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/a.log", Lines(0, 10, AuditLine));
  auto store = OpenStore(dir + "/s.db");
  REQUIRE(IngestHdfs(*store, {{"n1", dir + "/a.log"}}, {}).ok());
  auto second = IngestHdfs(*store, {{"n2", dir + "/a.log"}}, {});
  REQUIRE_FALSE(second.ok());
  CHECK(second.status().message() == "sources: n2=" + dir +
                                         "/a.log: the same file was ingested for node n1 in an "
                                         "earlier run; a file belongs to one node");
  CHECK(Count(*store, "hdfs_audit") == 10);
  // Under its own node name it is simply unchanged.
  auto again = IngestHdfs(*store, {{"n1", dir + "/a.log"}}, {});
  REQUIRE(again.ok());
  CHECK(again.value().records == 0);
}

TEST_CASE("rotated family is listed oldest first") {
  const std::string dir = testing::MakeTempDir();
  for (const char* f : {"a.log", "a.log.1", "a.log.2.gz", "a.log.10", "a.log.2023-12-31",
                        "a.log.2023-12-30.gz", "a.logx", "b.log.1"}) {
    testing::WriteFile(dir + "/" + f, "x\n");
  }
  const std::vector<std::string> expected = {
      dir + "/a.log.2023-12-30.gz", dir + "/a.log.2023-12-31", dir + "/a.log.10",
      dir + "/a.log.2.gz",          dir + "/a.log.1",          dir + "/a.log"};
  CHECK(RotatedFamily(dir + "/a.log") == expected);
}

TEST_CASE("ingesting twice adds nothing; appended lines are picked up; a partial line waits") {
  const AuditLog log(100);
  auto first = IngestHdfs(*log.store, log.sources, {});
  REQUIRE(first.ok());
  CHECK(first.value().records == 100);
  CHECK(first.value().files_read == 1);
  REQUIRE(first.value().checkpoints.size() == 1);
  CHECK(first.value().checkpoints[0].lines == 100);
  auto again = IngestHdfs(*log.store, log.sources, {});
  REQUIRE(again.ok());
  CHECK(again.value().records == 0);
  CHECK(again.value().files_unchanged == 1);
  const std::string line100 = AuditLine(100);
  Append(log.path, line100.substr(0, 30));
  auto partial = IngestHdfs(*log.store, log.sources, {});
  REQUIRE(partial.ok());
  CHECK(partial.value().records == 0);
  REQUIRE(partial.value().warnings.size() == 1);
  CHECK(FormatProblem(partial.value().warnings[0]) ==
        log.path +
            ":101: line: last line has no line break yet; held back until it has one (or "
            "set complete_files)");
  Append(log.path, line100.substr(30) + Lines(101, 150, AuditLine));
  auto more = IngestHdfs(*log.store, log.sources, {});
  REQUIRE(more.ok());
  CHECK(more.value().records == 50);
  CHECK(Count(*log.store, "hdfs_audit") == 150);
}

TEST_CASE("rotation and compression of old files never double-count") {
  const AuditLog log(300);
  REQUIRE(IngestHdfs(*log.store, log.sources, {}).ok());
  // More lines, then rotate (rename) and start a new file; later compress the rotated one.
  Append(log.path, Lines(300, 400, AuditLine));
  std::filesystem::rename(log.path, log.path + ".1");
  testing::WriteFile(log.path, Lines(400, 450, AuditLine));
  auto after = IngestHdfs(*log.store, log.sources, {});
  REQUIRE(after.ok());
  CHECK(after.value().records == 150);
  WriteGzip(log.path + ".1.gz", testing::ReadFile(log.path + ".1"));
  std::filesystem::remove(log.path + ".1");
  auto compressed = IngestHdfs(*log.store, log.sources, {});
  REQUIRE(compressed.ok());
  CHECK(compressed.value().records == 0);
  CHECK(Count(*log.store, "hdfs_audit") == 450);
  // A fresh store reading the final files sees the same records.
  auto clean = OpenStore(log.dir + "/clean.db");
  REQUIRE(IngestHdfs(*clean, log.sources, {}).ok());
  CHECK(Dump(*clean) == Dump(*log.store));
}

TEST_CASE("a truncated compressed file never stores its cut-off last line as a record") {
  const std::string dir = testing::MakeTempDir();
  const std::string log = dir + "/hdfs-audit.log";
  WriteGzip(log + ".1.gz", Lines(0, 200, AuditLine));
  std::string gz = testing::ReadFile(log + ".1.gz");
  gz.resize(gz.size() - 40);  // the 8-byte trailer and the last deflate symbols
  testing::WriteFile(log + ".1.gz", gz);
  // What zlib still decodes: whole lines, then a fragment.
  gzFile in = gzopen((log + ".1.gz").c_str(), "rb");
  REQUIRE(in != nullptr);
  std::string decoded(1 << 20, '\0');
  const int n = gzread(in, decoded.data(), static_cast<unsigned>(decoded.size()));
  gzclose(in);
  REQUIRE(n > 0);
  decoded.resize(static_cast<std::size_t>(n));
  REQUIRE(decoded.back() != '\n');  // the case under test: a cut inside a line
  const auto whole_lines = std::count(decoded.begin(), decoded.end(), '\n');

  auto store = OpenStore(dir + "/s.db");
  auto report = IngestHdfs(*store, {{"nn", log}}, {});
  REQUIRE(report.ok());
  CHECK(Count(*store, "hdfs_audit") == whole_lines);
  REQUIRE(!report.value().skipped.empty());
  CHECK(FormatProblem(report.value().skipped.front()) ==
        log + ".1.gz:" + std::to_string(whole_lines + 1) +
            ": line: partial last line of a broken compressed stream; not stored");
}

TEST_CASE("a missing file and garbled lines are reported with file and line") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/dn.log", TraceLine(1) + "oops\n" + TraceLine(2));
  auto store = OpenStore(dir + "/s.db");
  auto report = IngestHdfs(*store, {{"dn1", dir + "/dn.log"}, {"dn2", dir + "/gone.log"}}, {});
  REQUIRE(report.ok());
  CHECK(report.value().records == 2);
  REQUIRE(report.value().skipped.size() == 2);
  CHECK(FormatProblem(report.value().skipped[0]) ==
        dir + "/dn.log:2: garbled: no log4j timestamp at the start of the line");
  CHECK(FormatProblem(report.value().skipped[1]) ==
        dir + "/gone.log: file: no such file (nor rotated copies " + dir + "/gone.log.N[.gz])");
  CHECK(report.value().skipped_total == 2);
  CHECK(Count(*store, "hdfs_skipped") == 1);
  // Reported once: a second run neither re-reads nor re-reports the garbled line.
  auto again = IngestHdfs(*store, {{"dn1", dir + "/dn.log"}}, {});
  REQUIRE(again.ok());
  CHECK(again.value().skipped.empty());
  CHECK(Count(*store, "hdfs_skipped") == 1);
}

TEST_CASE("skipped lines are counted by reason; the first 10 of each reason are kept") {
  const std::string dir = testing::MakeTempDir();
  std::string text = TraceLine(1);
  for (int i = 0; i < 25; ++i) text += "oops " + std::to_string(i) + "\n";
  text += "\tcmd=open\tsrc=/a\tdst=null\n" + TraceLine(2);
  testing::WriteFile(dir + "/dn.log", text);
  auto store = OpenStore(dir + "/s.db");
  auto report = IngestHdfs(*store, {{"dn1", dir + "/dn.log"}}, {});
  REQUIRE(report.ok());
  const HdfsIngestReport& r = report.value();
  CHECK(r.records == 2);
  CHECK(r.skipped_total == 26);
  REQUIRE(r.skipped.size() == 11);  // 10 of the 25, and the broken audit record
  CHECK(r.skipped[9].line == 11);
  CHECK(FormatProblem(r.skipped[10]) ==
        dir + "/dn.log:27: garbled: the second half of a broken audit record (audit fields with "
              "no log4j timestamp before them)");
  REQUIRE(r.skipped_reasons.size() == 2);
  CHECK(r.skipped_reasons[0].reason == "no log4j timestamp at the start of the line");
  CHECK(r.skipped_reasons[0].count == 25);
  CHECK(r.skipped_reasons[1].count == 1);
  CHECK(Count(*store, "hdfs_skipped") == 26);  // the store keeps every one of them
}

TEST_CASE("log4j times are read in the stated zone and stored in UTC") {
  const std::string dir = testing::MakeTempDir();
  // 2024-07-01 10:00:00,000 local.
  const std::string july =
      "2024-07-01 10:00:00,000 INFO FSNamesystem.audit: allowed=true\tugi=a (auth:SIMPLE)\t"
      "ip=/10.0.0.1\tcmd=open\tsrc=/f\tdst=null\tperm=null\tproto=rpc\n";
  testing::WriteFile(dir + "/nn.log", july);
  auto stored_time = [](Store& store) {
    return testing::Count(store, "SELECT time_ms FROM hdfs_audit");
  };
  const std::int64_t wall_as_utc = 1719828000000;  // 2024-07-01T10:00:00Z
  for (const auto& [zone, utc] : std::vector<std::pair<std::string, std::int64_t>>{
           {"UTC", wall_as_utc},
           {"-08:00", wall_as_utc + 8 * 3600000},
           {"+05:30", wall_as_utc - 330 * 60000},
           {"America/Los_Angeles", wall_as_utc + 7 * 3600000}}) {  // PDT in July
    CAPTURE(zone);
    auto store = OpenStore(dir + "/" + std::to_string(std::hash<std::string>{}(zone)) + ".db");
    HdfsIngestOptions options;
    options.timezone = zone;
    auto report = IngestHdfs(*store, {{"nn1", dir + "/nn.log"}}, options);
    REQUIRE(report.ok());
    CHECK(report.value().timezone == zone);
    CHECK(stored_time(*store) == utc);
  }
  HdfsIngestOptions bad;
  bad.timezone = "Mars/Olympus";
  CHECK(bad.Validate().message() ==
        "timezone: \"Mars/Olympus\" is not a time zone: expected UTC, an offset such as +05:30 "
        "or -08:00, or a tz database name such as America/Los_Angeles");
}

// Runs IngestHdfs in a child process; returns true when it finished, false when killed.
bool IngestInChild(const std::string& db, const std::vector<HdfsSource>& sources,
                   const HdfsIngestOptions& options, int kill_after_us) {
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    auto store = Store::Open(db, {HdfsMigrations()});
    if (!store.ok()) _exit(3);
    auto report = IngestHdfs(*store.value(), sources, options);
    _exit(report.ok() ? 0 : 4);
  }
  if (kill_after_us >= 0) {
    std::this_thread::sleep_for(std::chrono::microseconds(kill_after_us));
    kill(pid, SIGKILL);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  if (WIFEXITED(status)) {
    REQUIRE(WEXITSTATUS(status) == 0);
    return true;
  }
  REQUIRE(WIFSIGNALED(status));
  return false;
}

TEST_CASE("SIGKILL at random points, resumed, gives exactly the totals of one clean run") {
  const std::string dir = testing::MakeTempDir();
  const std::string audit = dir + "/hdfs-audit.log";
  const std::string dn = dir + "/datanode.log";
  testing::WriteFile(audit + ".2", Lines(0, 20000, AuditLine));
  WriteGzip(audit + ".1.gz", Lines(20000, 40000, AuditLine));
  testing::WriteFile(audit, Lines(40000, 60000, AuditLine));
  testing::WriteFile(dn, Lines(0, 40000, TraceLine));
  const std::vector<HdfsSource> sources = {{"nn", audit}, {"dn1", dn}};
  HdfsIngestOptions options;
  options.batch_lines = 500;  // many commits, so kills land between and inside batches

  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(IngestInChild(dir + "/clean.db", sources, options, -1));
  const auto clean_us =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  // Kill points: uniform over the first half of a clean run, so most kills land while work
  // remains; when a run finishes anyway, the logs grow (as a live cluster's do) and killing goes
  // on. (The first tenth was too short once the store's schema grew: opening and creating it
  // took longer than a tenth of the run on a loaded machine, and no kill landed after a commit.)
  // Fixed seed: the same kill points on the same machine speed.
  std::mt19937 rng(20261129);
  std::uniform_int_distribution<int> delay(0, static_cast<int>(clean_us / 2) + 500);
  int kills = 0, runs = 0, audit_lines = 61000, trace_lines = 40000;
  // audit_lines counts the live file's next line number (the rotated parts hold 0..40000).
  int next_audit = 60000;
  bool rotated = false;
  std::int64_t committed_lines = 0;
  int progressed = 0;
  while (kills < 30) {
    ++runs;
    REQUIRE(runs < 1000);
    if (IngestInChild(dir + "/killed.db", sources, options, delay(rng))) {
      Append(audit, Lines(next_audit, next_audit + 2000, AuditLine));
      next_audit += 2000;
      Append(dn, Lines(trace_lines, trace_lines + 2000, TraceLine));
      trace_lines += 2000;
      continue;
    }
    ++kills;
    {
      // Did this run commit something before it died? (Kills mid-way, not only at start-up.)
      auto probe = OpenStore(dir + "/killed.db");
      const std::int64_t lines =
          testing::Count(*probe, "SELECT coalesce(sum(lines), 0) FROM hdfs_checkpoint");
      if (lines > committed_lines) ++progressed;
      committed_lines = lines;
    }
    if (kills == 12 && !rotated) {
      // Rotate mid-way: the live file (perhaps half read) becomes .0, a new live file starts.
      rotated = true;
      std::filesystem::rename(audit, audit + ".0");
      testing::WriteFile(audit, Lines(next_audit, next_audit + 1000, AuditLine));
      next_audit += 1000;
    }
  }
  REQUIRE(IngestInChild(dir + "/killed.db", sources, options, -1));
  audit_lines = next_audit;
  CHECK(kills >= 20);
  CHECK(progressed >= 8);
  auto killed = OpenStore(dir + "/killed.db");
  CHECK(Count(*killed, "hdfs_audit") == audit_lines);
  CHECK(Count(*killed, "hdfs_transfer") == trace_lines);
  CHECK(Count(*killed, "hdfs_skipped") == 0);
  auto fresh = OpenStore(dir + "/fresh.db");
  REQUIRE(IngestHdfs(*fresh, sources, options).ok());
  CHECK(Dump(*fresh) == Dump(*killed));
  CHECK(testing::IntegrityCheck(*killed) == "ok");
  MESSAGE("runs " << runs << ", kills " << kills << " (" << progressed
                  << " after some progress), clean run " << clean_us << " us");
}

TEST_CASE("two ingesters started at once on one store take turns: nothing is read twice") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/audit.log", Lines(0, 20000, AuditLine));
  testing::WriteFile(dir + "/dn.log", Lines(0, 20000, TraceLine));
  const std::vector<HdfsSource> sources = {{"nn", dir + "/audit.log"}, {"dn1", dir + "/dn.log"}};
  HdfsIngestOptions options;
  options.batch_lines = 500;
  pid_t children[2];
  for (pid_t& child : children) {
    child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      auto store = Store::Open(dir + "/shared.db", {HdfsMigrations()});
      if (!store.ok()) _exit(3);
      _exit(IngestHdfs(*store.value(), sources, options).ok() ? 0 : 4);
    }
  }
  for (pid_t child : children) {
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  auto shared = OpenStore(dir + "/shared.db");
  CHECK(Count(*shared, "hdfs_audit") == 20000);
  CHECK(Count(*shared, "hdfs_transfer") == 20000);
  auto fresh = OpenStore(dir + "/fresh.db");
  REQUIRE(IngestHdfs(*fresh, sources, options).ok());
  CHECK(Dump(*fresh) == Dump(*shared));
  CHECK(testing::IntegrityCheck(*shared) == "ok");
}


// ---- Parallel ingest (profiles/hdfs/hdfs_ingest_parallel.h) ----

// Everything a run reports, as one comparable string.
std::string Describe(const HdfsIngestReport& r) {
  std::string out = std::to_string(r.records) + " records, " + std::to_string(r.files_read) +
                    " read, " + std::to_string(r.files_unchanged) + " unchanged, " +
                    std::to_string(r.counts.lines) + " lines, " + std::to_string(r.counts.audit) +
                    "/" + std::to_string(r.counts.transfer) + "/" + std::to_string(r.counts.block) +
                    ", " + std::to_string(r.skipped_total) + " skipped\n";
  for (const auto& p : r.skipped) out += "skipped " + FormatProblem(p) + "\n";
  for (const auto& p : r.warnings) out += "warning " + FormatProblem(p) + "\n";
  for (const auto& c : r.checkpoints) {
    out += c.node + " " + c.path + " " + std::to_string(c.offset_bytes) + " " +
           std::to_string(c.lines) + " " + std::to_string(c.last_time_ms) + "\n";
  }
  return out;
}

// The stored rows with their ids (chunk and checkpoint ids follow the order of the writes).
std::string Rows(Store& store) {
  return testing::DumpTables(store, "hdfs_") +
         testing::QueryLines(
             store,
             {"SELECT id || ' ' || node || ' ' || path || ' ' || offset_bytes || ' ' || at_end FROM "
              "hdfs_checkpoint ORDER BY id",
              "SELECT rowid || ' ' || node || ' ' || records || ' ' || length(data) FROM "
              "hdfs_audit_chunk ORDER BY rowid",
              "SELECT rowid || ' ' || node || ' ' || records FROM hdfs_transfer_chunk ORDER BY rowid",
              "SELECT rowid || ' ' || node || ' ' || line FROM hdfs_skipped ORDER BY rowid"});
}

// Four nodes: rotated and compressed siblings, garbled lines, a partial last line held back, a
// missing file, and a node named twice (its second source depends on the first's checkpoints).
std::vector<HdfsSource> WriteNodes(const std::string& dir) {
  testing::WriteFile(dir + "/nn.log.2", Lines(0, 40, AuditLine));
  WriteGzip(dir + "/nn.log.1.gz", Lines(40, 90, AuditLine) + "garbled\n");
  testing::WriteFile(dir + "/nn.log", Lines(90, 130, AuditLine) + "2024-01-01 partial");
  testing::WriteFile(dir + "/dn1.log", Lines(0, 75, TraceLine) + "oops\n" + Lines(75, 99, TraceLine));
  WriteGzip(dir + "/dn2.log.1.gz", Lines(200, 260, TraceLine));
  testing::WriteFile(dir + "/dn2.log", Lines(260, 300, TraceLine));
  testing::WriteFile(dir + "/nn-extra.log", Lines(500, 530, AuditLine));
  return {{"nn1", dir + "/nn.log"},   {"dn1", dir + "/dn1.log"},     {"gone", dir + "/gone.log"},
          {"dn2", dir + "/dn2.log"},  {"nn1", dir + "/nn-extra.log"}};
}

TEST_CASE("two and four parser threads leave the store and the report of one, run after run") {
  const std::string dir = testing::MakeTempDir();
  const std::vector<HdfsSource> sources = WriteNodes(dir);
  HdfsIngestOptions options;
  options.batch_lines = 7;  // many batches, each committed with its checkpoint
  std::vector<std::unique_ptr<Store>> stores;
  for (int jobs : {1, 2, 4}) stores.push_back(OpenStore(dir + "/j" + std::to_string(jobs) + ".db"));
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    std::vector<std::string> described;
    int k = 0;
    for (int jobs : {1, 2, 4}) {
      auto report = IngestHdfsParallel(*stores[k++], sources, options, jobs);
      REQUIRE_MESSAGE(report.ok(), report.status().message());
      described.push_back(Describe(report.value()));
    }
    if (round == 0) {
      CHECK(described[0].find("garbled") != std::string::npos);
      CHECK(described[0].find("gone.log") != std::string::npos);
      CHECK(described[0].find("held back") != std::string::npos);
    }
    CHECK(described[1] == described[0]);
    CHECK(described[2] == described[0]);
    CHECK(Rows(*stores[1]) == Rows(*stores[0]));
    CHECK(Rows(*stores[2]) == Rows(*stores[0]));
    // The next round finds what was appended and finishes the partial line.
    Append(dir + "/nn.log", " 00:00:01,000 INFO x\n" + Lines(130, 150, AuditLine));
    Append(dir + "/dn1.log", Lines(99, 140, TraceLine));
  }
  CHECK(testing::IntegrityCheck(*stores[2]) == "ok");
}

TEST_CASE("a job count outside 1 to 256 is refused naming the field") {
  auto store = OpenStore(":memory:");
  for (int jobs : {0, 257}) {
    auto report = IngestHdfsParallel(*store, {{"nn1", "/nonexistent"}}, {}, jobs);
    REQUIRE_FALSE(report.ok());
    CHECK(report.status().field() == "jobs");
    CHECK(report.status().message() == "jobs: expected 1 to 256, got " + std::to_string(jobs));
  }
}

}  // namespace
}  // namespace perfplan::profiles
