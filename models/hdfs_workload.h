// HDFS workload characterization (seed 003, DESIGN §3.7): turns NameNode audit, block-allocation
// and DataNode transfer records into per-client, per-user, per-DataNode and cluster statistics,
// per-client read streams, and recommendations (balancer, cache directives).
//
// How the logs are joined:
//  - a transfer's DataNode is the DataNode end of the clienttrace line; its client is the other
//    end. A write whose other end is itself a DataNode (and not the same host) is a replication
//    pipeline hop: it counts toward that DataNode's load but not toward any client, so client and
//    cluster write bytes are the data written once, not once per replica.
//  - block → path comes from allocation lines; a transfer is attributed to a user through the
//    audit open/create/append of that path by the same client IP (the latest at or before the
//    transfer, else the first after it). Unattributable bytes are reported, not guessed.
//  - read = audit `open`; write = `create` + `append`; every other command is a metadata op.
// Pure function of its inputs: no I/O, no clock. Units: bytes, seconds, milliseconds since epoch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/hdfs_records.h"
#include "models/status.h"

namespace perfplan::models {

struct HdfsWorkloadOptions {
  // Recommend `hdfs balancer` when the Gini of per-DataNode bytes (read + written) exceeds this.
  // Default 0.2; lower it for clusters that must stay tightly balanced.
  double balancer_gini_threshold = 0.2;
  // A file is hot when it is opened at least cache_min_reads times within cache_window_seconds.
  // Defaults 2 and 3600 (re-read within the hour).
  std::int64_t cache_min_reads = 2;
  double cache_window_seconds = 3600;
  // Cache pool named in the generated `hdfs cacheadmin` lines. Default "perfplan-hot".
  std::string cache_pool = "perfplan-hot";
  // At most this many cache directives, hottest first. Default 20.
  std::int64_t max_cache_directives = 20;
  // Analysis window [from_ms, to_ms); when both are unset (-1) the span of the records is used.
  std::int64_t from_ms = -1;
  std::int64_t to_ms = -1;
  // Fill HdfsWorkload::streams (per-client read streams; as large as the reads), or with the
  // streaming AnalyzeHdfsWorkload (models/hdfs_record_streams.h) hand them out read by read from
  // a second sort of at most sort_run_bytes. Default off.
  bool streams = false;
  // Memory for the sort that joins transfers to the opens and creates of their (client, path)
  // pair (32 bytes a record), and for the sort of the streams when they are on; past it, sorted
  // runs go to the source's scratch storage and are merged, at most 16 at once
  // (models/external_sort.h). Default 16 MiB; raise it to spill less, lower it to bound memory
  // more.
  std::int64_t sort_run_bytes = std::int64_t{16} << 20;

  // InvalidArgument naming the field and value when a threshold is out of range.
  Status Validate() const;
};

// Statistics of one client IP or one user.
struct HdfsClientStats {
  std::string key;  // client IP, or the effective user
  std::int64_t read_ops = 0, write_ops = 0, metadata_ops = 0, denied_ops = 0;
  std::int64_t read_bytes = 0, write_bytes = 0;
  std::int64_t block_reads = 0, block_writes = 0;  // transfers
  double iops = 0;                                 // audit ops per second over the window
  double read_write_ratio = 0;  // read_bytes / write_bytes; 0 when nothing was written
  std::int64_t files_read = 0, files_written = 0;              // distinct paths
  double mean_read_file_bytes = 0, mean_write_file_bytes = 0;  // over files with a known size
  std::int64_t datanodes_touched = 0;
  std::vector<std::pair<std::string, std::int64_t>> bytes_per_datanode;  // by DataNode IP
};

struct HdfsDataNodeStats {
  std::string datanode;  // IP
  std::int64_t read_bytes = 0, write_bytes = 0;
  std::int64_t read_ops = 0, write_ops = 0;
  std::int64_t replication_write_bytes = 0;  // part of write_bytes received from a pipeline
  double share_of_bytes = 0;                 // (read+write) / cluster total
};

struct HdfsClusterStats {
  std::int64_t window_start_ms = 0, window_end_ms = 0;
  double window_seconds = 0;  // at least 1 s, so rates stay finite
  std::int64_t audit_records = 0, transfer_records = 0, block_records = 0;
  std::int64_t read_ops = 0, write_ops = 0, metadata_ops = 0, denied_ops = 0;
  std::int64_t read_bytes = 0;               // all reads served by DataNodes (data + checksums)
  std::int64_t write_bytes = 0;              // first-replica writes (each byte of data once)
  std::int64_t replication_write_bytes = 0;  // pipeline hops
  std::int64_t unattributed_bytes = 0;       // transfers no audit line ties to a user
  double read_bytes_per_second = 0, write_bytes_per_second = 0;
  double mean_read_file_bytes = 0, mean_write_file_bytes = 0;
  std::int64_t files_read = 0, files_written = 0;
  std::int64_t clients = 0, users = 0, datanodes = 0;
  double datanode_load_gini = 0;      // of per-DataNode read+write bytes
  double datanode_max_over_mean = 0;  // busiest DataNode's bytes over the mean
};

struct HdfsFileRead {
  std::int64_t time_ms = 0;
  std::string path;
};
struct HdfsBlockRead {
  std::int64_t time_ms = 0;
  std::string datanode;
  std::string block;
  std::int64_t bytes = 0;
};
// The input of a prefetcher: what one client read, in order.
struct HdfsClientStream {
  std::string client;
  std::vector<HdfsFileRead> files;
  std::vector<HdfsBlockRead> blocks;
};

struct HdfsRecommendation {
  std::string kind;     // "balancer" | "cache_pool" | "cache"
  std::string command;  // a shell line to run
  std::string reason;
};

struct HdfsWorkload {
  std::vector<HdfsClientStats> clients;      // by IP, most bytes first
  std::vector<HdfsClientStats> users;        // by effective user, most bytes first
  std::vector<HdfsDataNodeStats> datanodes;  // by IP, name order
  HdfsClusterStats cluster;
  std::vector<HdfsClientStream> streams;  // only with options.streams
  std::vector<HdfsRecommendation> recommendations;
  std::vector<std::string> warnings;
};

// Analyzes the records. Records outside [from_ms, to_ms) are ignored (blocks are always used for
// the path map). Never fails on odd data: unknown blocks and users are counted in warnings.
HdfsWorkload AnalyzeHdfsWorkload(const std::vector<HdfsAuditRecord>& audits,
                                 const std::vector<HdfsTransferRecord>& transfers,
                                 const std::vector<HdfsBlockRecord>& blocks,
                                 const HdfsWorkloadOptions& options);

// Gini coefficient of non-negative values (0 = equal, → 1 = one holds all); 0 for < 2 values or
// an all-zero input.
double Gini(std::vector<double> values);

// Quotes a path for a POSIX shell when it holds anything but [A-Za-z0-9_./-].
std::string ShellQuote(const std::string& text);

}  // namespace perfplan::models
