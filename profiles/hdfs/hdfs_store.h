// Incremental HDFS log collection into the profile store (component "hdfs").
//
// `IngestHdfs` reads each node's log file and its rotated siblings (PATH.1, PATH.2.gz,
// PATH.2024-01-01, …), parses every new complete line (profiles/hdfs/hdfs_log.h) and stores audit,
// transfer and block records. Per node and file it keeps a checkpoint — identity (device, inode,
// and an FNV-1a fingerprint of the first uncompressed bytes), the uncompressed byte offset of the
// next unread line, the line count and the last timestamp — updated in the SAME transaction as the
// records of each batch. A crash (even SIGKILL) therefore loses at most the uncommitted batch,
// which the next run reads again: nothing is lost or counted twice.
//
// Rotation: a file is recognized by its content fingerprint, not its name, so "hdfs-audit.log"
// renamed to "hdfs-audit.log.1" (and later gzip-compressed to ".log.1.gz") resumes where it was
// left; a new "hdfs-audit.log" has a new fingerprint and is read from its start. A file being
// renamed while it is read is harmless (the open handle keeps reading the old file).
//
// Thread-safety: one Store per thread; IngestHdfs uses the caller's Store. Units in names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/hdfs_records.h"
#include "models/status.h"
#include "profiles/hdfs/hdfs_log.h"
#include "profiles/problem.h"
#include "profiles/skip_tally.h"
#include "profiles/store.h"

namespace perfplan::profiles {

// The "hdfs" component's schema migrations; pass to Store::Open.
const Migrations& HdfsMigrations();

// One `--node NAME=PATH`: a node's name and the path of its live log file.
struct HdfsSource {
  std::string node;
  std::string path;
};

// Parses "NAME=PATH"; InvalidArgument naming the text when either side is empty.
Result<HdfsSource> ParseHdfsSource(const std::string& text);

struct HdfsIngestOptions {
  // Lines per transaction. Larger is faster; smaller re-reads less after a crash. Default 50,000.
  std::int64_t batch_lines = 50000;
  // Read a last line without '\n' in the live file. Off by default because the NameNode may be
  // half-way through writing it; turn on for files that are no longer written (archived logs).
  bool complete_files = false;
  // Bytes of the uncompressed start of a file hashed into its identity. Default 1024.
  std::int64_t fingerprint_bytes = 1024;
  // Longest line kept (uncompressed, without '\n'); a longer one is read past and reported as
  // skipped: "line longer than N bytes (the maximum line length); skipped". Default 64 MiB.
  std::int64_t max_line_bytes = static_cast<std::int64_t>(BoundedLineReader::kDefaultMaxLineBytes);
  // The zone the daemons wrote their log4j timestamps in (profiles/hdfs/log4j_time_zone.h):
  // "UTC" (the default), an offset such as "-08:00", or a tz database name. Records are stored
  // in UTC either way.
  std::string timezone = "UTC";

  // InvalidArgument naming the field when batch_lines < 1, fingerprint_bytes < 16,
  // max_line_bytes < 1024 or timezone is not a time zone.
  Status Validate() const;
};

// A checkpoint as stored after the run.
struct HdfsCheckpoint {
  std::string node;
  std::string path;  // where the file was last seen
  std::int64_t device = 0;
  std::int64_t inode = 0;
  std::string fingerprint;  // 16 hex digits
  std::int64_t fingerprint_bytes = 0;
  std::int64_t offset_bytes = 0;  // uncompressed
  std::int64_t lines = 0;         // lines consumed so far
  std::int64_t last_time_ms = -1;
};

struct HdfsIngestReport {
  std::int64_t records = 0;          // audit + transfer + block records stored by this run
  std::int64_t files_read = 0;       // files with new lines
  std::int64_t files_unchanged = 0;  // files already read to their end
  HdfsParseCounts counts;            // lines of this run by kind
  std::string timezone = "UTC";      // the zone log4j times were read in (the options')
  // Garbled lines and unreadable/missing files: the first 10 of each reason (SkipTally);
  // skipped_total counts all of them (garbled lines are also kept in hdfs_skipped), and
  // skipped_reasons by reason, most frequent first.
  std::vector<Problem> skipped;
  std::int64_t skipped_total = 0;
  std::vector<SkipReason> skipped_reasons;
  std::vector<Problem> warnings;     // timestamps going backwards, held-back partial lines
  std::vector<HdfsCheckpoint> checkpoints;  // every checkpoint of the nodes ingested
};

// Ingests `sources` into `store` (opened with HdfsMigrations()). Problems with single files
// (missing, unreadable, garbled lines) are reported in the report and do not stop the run; a
// store error returns Failed (the current batch is rolled back).
Result<HdfsIngestReport> IngestHdfs(Store& store, const std::vector<HdfsSource>& sources,
                                    const HdfsIngestOptions& options);

// The files IngestHdfs reads for `path`, oldest first: dated siblings (PATH.yyyy-MM-dd[.gz]) in
// name order, numbered siblings (PATH.N[.gz]) from the highest N down, then PATH itself when it
// exists.
std::vector<std::string> RotatedFamily(const std::string& path);

// Records in the store with from_ms <= time_ms < to_ms, each kind ordered by time then insertion.
struct HdfsRecords {
  std::vector<models::HdfsAuditRecord> audits;
  std::vector<models::HdfsTransferRecord> transfers;
  std::vector<models::HdfsBlockRecord> blocks;
};
// Block records are returned regardless of the window (a file allocated before the window is
// still read inside it). Failed with SQLite's message on a store error.
Result<HdfsRecords> LoadHdfsRecords(Store& store, std::int64_t from_ms, std::int64_t to_ms);

}  // namespace perfplan::profiles
