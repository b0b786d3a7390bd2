// Throughput of HDFS log parsing and ingestion (docs/performance.md, section "HDFS").
//
//   perfplan_hdfs_bench generate FILE BYTES [FILES]
//                                             write a mixed NameNode/DataNode log of ~BYTES (of
//                                             at most FILES distinct paths when given)
//   perfplan_hdfs_bench parse FILE            parse every line (no store): lines/s, MB/s
//   perfplan_hdfs_bench ingest FILE DB        parse + store in SQLite with checkpoints
//   perfplan_hdfs_bench load DB               read every stored record back (LoadHdfsRecords)
//   perfplan_hdfs_bench workload DB           the workload analysis streamed from the store
//
// Plain chrono timing of one run on one core; peak memory from getrusage. Prints one line of
// key=value pairs so the figures can be pasted into the docs.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>

#include "profiles/hdfs/hdfs_log.h"
#include "profiles/hdfs/hdfs_store.h"
#include "profiles/hdfs/hdfs_store_streams.h"

namespace {

using perfplan::profiles::HdfsLine;
using perfplan::profiles::HdfsLineKind;

std::string Stamp(std::int64_t ms) {
  const std::int64_t s = ms / 1000;
  char buf[40];
  std::snprintf(buf, sizeof buf, "2024-01-%02d %02d:%02d:%02d,%03d",
                static_cast<int>(1 + s / 86400 % 28), static_cast<int>(s / 3600 % 24),
                static_cast<int>(s / 60 % 60), static_cast<int>(s % 60),
                static_cast<int>(ms % 1000));
  return buf;
}

// `files` > 0 bounds the distinct paths (and blocks, 4 per file) so that a longer log is more
// history of the same cluster, not a bigger cluster; 0 keeps the default mix.
std::string FilePath(unsigned a, unsigned b, unsigned long long r, std::int64_t files) {
  if (files > 0) {
    const auto f = static_cast<long long>(r % static_cast<unsigned long long>(files));
    return "/warehouse/db" + std::to_string(f % 50) + "/table" + std::to_string(f / 50 % 200) +
           "/part-" + std::to_string(f / 10000);
  }
  return "/warehouse/db" + std::to_string(b) + "/table" + std::to_string(a) + "/part-" +
         std::to_string(r % 1000);
}

int Generate(const std::string& path, std::int64_t bytes, std::int64_t files = 0) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  std::mt19937_64 rng(7);
  std::int64_t written = 0, ms = 0, lines = 0;
  std::string line;
  static const char* kCmds[] = {"open",       "open",   "open",   "create", "getfileinfo",
                                "listStatus", "delete", "rename", "mkdirs", "append"};
  while (written < bytes) {
    ms += static_cast<std::int64_t>(rng() % 7);
    const unsigned kind = static_cast<unsigned>(rng() % 100);
    const unsigned a = static_cast<unsigned>(rng() % 200), b = static_cast<unsigned>(rng() % 50);
    const unsigned long long blk =
        1073741825ULL + rng() % (files > 0 ? 4 * static_cast<unsigned long long>(files) : 5000000);
    line = Stamp(ms);
    if (kind < 40) {
      line += " INFO FSNamesystem.audit: allowed=true\tugi=user" + std::to_string(a % 40) +
              " (auth:SIMPLE)\tip=/10.1." + std::to_string(b) + "." + std::to_string(a) +
              "\tcmd=" + kCmds[rng() % 10] + "\tsrc=" + FilePath(a, b, rng(), files) +
              "\tdst=null\tperm=null\tproto=rpc";
    } else if (kind < 80) {
      const bool read = kind < 65;
      const std::string dn = "10.2.0." + std::to_string(b),
                        client = "10.1." + std::to_string(b) + "." + std::to_string(a);
      line += " INFO org.apache.hadoop.hdfs.server.datanode.DataNode.clienttrace: src: /" +
              (read ? dn + ":9866" : client + ":41234") + ", dest: /" +
              (read ? client + ":52110" : dn + ":9866") + ", volume: /data/" +
              std::to_string(a % 12) + "/dfs/dn, bytes: " + std::to_string(rng() % 134217728) +
              ", op: " + (read ? "HDFS_READ" : "HDFS_WRITE") + ", cliID: DFSClient_NONMAPREDUCE_-" +
              std::to_string(rng() % 100000) + "_1, offset: 0, srvID: 4c1d2e3f-aaaa-bbbb-cccc-" +
              std::to_string(100000000000 + b) +
              ", blockid: BP-1473286386-10.0.0.1-1704067200000:blk_" + std::to_string(blk) + "_" +
              std::to_string(blk - 1073740000) +
              ", duration(ns): " + std::to_string(rng() % 900000000);
    } else if (kind < 85) {
      line += " INFO org.apache.hadoop.hdfs.StateChange: BLOCK* allocate blk_" +
              std::to_string(blk) + "_" + std::to_string(blk - 1073740000) + ", replicas=10.2.0." +
              std::to_string(b) + ":9866, 10.2.0." + std::to_string((b + 1) % 50) +
              ":9866 for " + FilePath(a, b, rng(), files);
    } else {
      line +=
          " INFO org.apache.hadoop.hdfs.server.datanode.DataNode: Receiving "
          "BP-1473286386-10.0.0.1-1704067200000:blk_" +
          std::to_string(blk) + "_1001 src: /10.2.0." + std::to_string(b) +
          ":40012 dest: /10.2.0." + std::to_string(a % 50) + ":9866";
    }
    line += '\n';
    out.write(line.data(), static_cast<std::streamsize>(line.size()));
    written += static_cast<std::int64_t>(line.size());
    ++lines;
  }
  std::printf("generated=%s bytes=%lld lines=%lld\n", path.c_str(), static_cast<long long>(written),
              static_cast<long long>(lines));
  return out ? 0 : 1;
}

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double PeakMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

struct Timing {
  double seconds = 0, cpu_seconds = 0;
};

// The Result of one call of work(), timed (wall and CPU seconds) into *t; a failed one's error is
// printed on stderr.
template <typename Work>
auto Timed(Work work, Timing* t) {
  const double cpu0 = CpuSeconds();
  const auto t0 = std::chrono::steady_clock::now();
  auto result = work();
  t->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  t->cpu_seconds = CpuSeconds() - cpu0;
  if (!result.ok()) std::fprintf(stderr, "%s\n", result.status().message().c_str());
  return result;
}

struct Sum : perfplan::profiles::HdfsRecordSink {
  std::int64_t bytes = 0, records = 0;
  void OnLine(const HdfsLine& l) override {
    ++records;
    if (l.kind == HdfsLineKind::kTransfer) bytes += l.transfer.bytes;
  }
};

int Parse(const std::string& path) {
  const double size = static_cast<double>(std::filesystem::file_size(path));
  Sum sum;
  Timing t;
  auto counts = Timed([&] { return perfplan::profiles::ParseHdfsLogFile(path, &sum); }, &t);
  if (!counts.ok()) return 1;
  const auto& c = counts.value();
  std::printf(
      "mode=parse seconds=%.3f cpu_seconds=%.3f lines=%lld lines_per_second=%.0f "
      "lines_per_cpu_second=%.0f mb_per_second=%.1f records=%lld transfer_bytes=%lld garbled=%lld "
      "peak_rss_mib=%.1f\n",
      t.seconds, t.cpu_seconds, static_cast<long long>(c.lines),
      static_cast<double>(c.lines) / t.seconds, static_cast<double>(c.lines) / t.cpu_seconds,
      size / 1e6 / t.seconds, static_cast<long long>(sum.records),
      static_cast<long long>(sum.bytes), static_cast<long long>(c.garbled), PeakMiB());
  return 0;
}

int Ingest(const std::string& path, const std::string& db) {
  std::filesystem::remove(db);
  auto store = perfplan::profiles::Store::Open(db, {perfplan::profiles::HdfsMigrations()});
  if (!store.ok()) return 1;
  const double size = static_cast<double>(std::filesystem::file_size(path));
  perfplan::profiles::HdfsIngestOptions options;
  options.complete_files = true;
  Timing t;
  auto report = Timed(
      [&] {
        return perfplan::profiles::IngestHdfs(*store.value(), {{"bench", path}}, options);
      },
      &t);
  if (!report.ok()) return 1;
  const double s = t.seconds, cpu = t.cpu_seconds;
  std::printf(
      "mode=ingest seconds=%.3f cpu_seconds=%.3f lines=%lld lines_per_second=%.0f "
      "mb_per_second=%.1f mb_per_cpu_second=%.1f records=%lld peak_rss_mib=%.1f\n",
      s, cpu, static_cast<long long>(report.value().counts.lines),
      static_cast<double>(report.value().counts.lines) / s, size / 1e6 / s, size / 1e6 / cpu,
      static_cast<long long>(report.value().records), PeakMiB());
  return 0;
}

std::unique_ptr<perfplan::profiles::Store> OpenForReading(const std::string& db) {
  auto store = perfplan::profiles::Store::OpenReadOnly(db, {perfplan::profiles::HdfsMigrations()});
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.status().message().c_str());
    return nullptr;
  }
  return std::move(store).value();
}

// Reads every stored record back (what `workload` and the report do first).
int Load(const std::string& db) {
  auto store = OpenForReading(db);
  if (!store) return 1;
  Timing t;
  auto records =
      Timed([&] { return perfplan::profiles::LoadHdfsRecords(*store, INT64_MIN, INT64_MAX); }, &t);
  if (!records.ok()) return 1;
  const auto& r = records.value();
  std::printf(
      "mode=load seconds=%.3f cpu_seconds=%.3f audits=%zu transfers=%zu blocks=%zu "
      "peak_rss_mib=%.1f\n",
      t.seconds, t.cpu_seconds, r.audits.size(), r.transfers.size(), r.blocks.size(), PeakMiB());
  return 0;
}

// The workload analysis streamed from the store (what `perfplan workload` does).
int Workload(const std::string& db) {
  auto store = OpenForReading(db);
  if (!store) return 1;
  Timing t;
  auto w = Timed(
      [&] {
        auto streams = perfplan::profiles::HdfsStoreStreams(*store, INT64_MIN, INT64_MAX);
        return perfplan::models::AnalyzeHdfsWorkload(*streams,
                                                     perfplan::models::HdfsWorkloadOptions{});
      },
      &t);
  if (!w.ok()) return 1;
  const auto& c = w.value().cluster;
  std::printf(
      "mode=workload seconds=%.3f cpu_seconds=%.3f audits=%lld transfers=%lld blocks=%lld "
      "clients=%lld files_read=%lld read_bytes=%lld peak_rss_mib=%.1f\n",
      t.seconds, t.cpu_seconds, static_cast<long long>(c.audit_records),
      static_cast<long long>(c.transfer_records), static_cast<long long>(c.block_records),
      static_cast<long long>(c.clients), static_cast<long long>(c.files_read),
      static_cast<long long>(c.read_bytes), PeakMiB());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "generate" && (argc == 4 || argc == 5)) {
    return Generate(argv[2], std::atoll(argv[3]), argc == 5 ? std::atoll(argv[4]) : 0);
  }
  if (mode == "parse" && argc == 3) return Parse(argv[2]);
  if (mode == "ingest" && argc == 4) return Ingest(argv[2], argv[3]);
  if (mode == "load" && argc == 3) return Load(argv[2]);
  if (mode == "workload" && argc == 3) return Workload(argv[2]);
  std::fprintf(stderr,
               "usage: perfplan_hdfs_bench generate FILE BYTES [FILES] | parse FILE | ingest FILE DB | "
               "load DB | workload DB\n");
  return 2;
}
