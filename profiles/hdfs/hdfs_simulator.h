// Ground-truth generator for HDFS log mining: writes the NameNode audit log, the NameNode
// state-change log and one DataNode log per node, in the exact Hadoop formats
// (../shared/data/README.md §2.1-2.2), for a TestDFSIO-like write-then-read benchmark, and
// returns the answers the logs must yield.
//
// The benchmark, as TestDFSIO runs it: the job client writes one small control file per data
// file (/benchmarks/TestDFSIO/io_control/in_file_test_io_<i>); map task i opens its control file
// and writes /benchmarks/TestDFSIO/io_data/test_io_<i> (file_bytes, in blocks of block_bytes,
// replicated through a DataNode pipeline); the reducer writes io_write/part-00000. The read test
// rewrites the control files, map task i reads its data file block by block (one replica each;
// every read carries 4 bytes of CRC per 512-byte chunk, as the DataNode sends them), and the
// reducer writes io_read/part-00000. Map task i runs on client i mod C as user "user<c>"; the job
// client and reducers run on client 0.
//
// Addresses: NameNode 10.0.0.1, DataNode d at 10.0.1.<d+1>:9866, client c at 10.0.2.<c+1>.
// Deterministic for a given seed. Thread-safe (no shared state).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/status.h"

namespace perfplan::profiles {

enum class HadoopVersion { k2, k33, k34 };  // clienttrace: "duration" | "duration(ns)" | +volume
// "2" | "3.3" | "3.4"; InvalidArgument listing the choices otherwise.
Result<HadoopVersion> ParseHadoopVersion(const std::string& text);

struct HdfsSimulationOptions {
  std::int64_t files = 4;                          // K: data files (= map tasks). Default 4.
  std::int64_t file_bytes = 10 * 1024 * 1024;      // S: bytes per data file. Default 10 MiB.
  std::int64_t clients = 2;                        // C: client hosts. Default 2.
  std::int64_t datanodes = 3;                      // D: DataNodes. Default 3.
  std::int64_t block_bytes = 128LL * 1024 * 1024;  // dfs.blocksize. Default 128 MiB.
  std::int64_t replication = 3;                    // dfs.replication, capped at D. Default 3.
  std::uint64_t seed = 1;                          // picks the replica each read is served from
  HadoopVersion version = HadoopVersion::k34;
  // Roll each log when it would exceed this many bytes: the previous part becomes .log.1 and
  // older parts .log.N.gz, as RollingFileAppender plus a compressing logrotate leave them.
  // 0 = never roll (default).
  std::int64_t rotate_bytes = 0;
  // Wall clock of the first line, ms since the epoch. Default 2024-01-01 00:00:00.
  std::int64_t start_ms = 1704067200000LL;

  // InvalidArgument naming the field and value when a count is < 1, file_bytes < 0, block_bytes
  // < 512, or rotate_bytes is positive but below 4096.
  Status Validate() const;
};

// What the generated logs contain, computed while writing them.
struct HdfsSimulationTruth {
  std::int64_t data_bytes = 0;               // K·S
  std::int64_t control_bytes = 0;            // control files (both tests) + reducer outputs
  std::int64_t write_bytes = 0;              // data_bytes + control_bytes: first-replica writes
  std::int64_t replication_write_bytes = 0;  // pipeline hops
  std::int64_t read_bytes = 0;               // all block reads, checksums included
  std::int64_t data_read_bytes = 0;  // of which data files: K·S + 4·⌈block/512⌉ per block
  std::int64_t read_ops = 0, write_ops = 0, metadata_ops = 0;  // audit commands
  std::int64_t blocks = 0;
  std::map<std::string, std::int64_t> client_read_bytes, client_write_bytes;      // by client IP
  std::map<std::string, std::int64_t> user_read_bytes, user_write_bytes;          // by user
  std::map<std::string, std::int64_t> datanode_read_bytes, datanode_write_bytes;  // by DN IP
};

struct HdfsSimulation {
  std::string audit_log;     // <out>/namenode/hdfs-audit.log
  std::string namenode_log;  // <out>/namenode/hadoop-hdfs-namenode-nn1.log
  std::vector<std::pair<std::string, std::string>> datanode_logs;  // (node name, path)
  HdfsSimulationTruth truth;
};

// Writes the logs under `out_dir` (created if needed; existing log files are replaced).
// InvalidArgument for bad settings; Failed when a file cannot be written.
Result<HdfsSimulation> SimulateHdfs(const HdfsSimulationOptions& settings,
                                    const std::string& out_dir);

}  // namespace perfplan::profiles
