// Plain records mined from HDFS logs (seed 003, DESIGN §3.7): what the NameNode audit log, the
// NameNode state-change log and the DataNode clienttrace log say, reduced to the fields the
// workload analysis needs. Parsers (profiles/hdfs/hdfs_log.h) produce them; the store and the
// map/reduce path carry them; models/hdfs_workload.h aggregates them.
//
// Units: times are milliseconds since the Unix epoch of the log's wall clock (log4j writes local
// time without a zone; perfplan reads it as UTC, so differences are exact and absolute times are
// the log's own). Sizes in bytes, durations in nanoseconds. Plain values; thread-safe as values.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>

namespace perfplan::models {

// One NameNode audit line (FSNamesystem.audit).
struct HdfsAuditRecord {
  std::int64_t time_ms = 0;
  bool allowed = true;
  std::string user;       // effective user: first word of ugi (the proxied user for "a via b")
  std::string real_user;  // the user after "via" for proxy users; "" otherwise
  std::string ip;         // client address without the leading '/'; "" for ip=null
  std::string cmd;        // open, create, append, listStatus, rename, …
  std::string src;        // path as logged (escaped form); "" for null
  std::string dst;        // rename target; "" for null
  std::string proto;      // rpc | webhdfs | ""
};

// One DataNode clienttrace line with op HDFS_READ or HDFS_WRITE.
struct HdfsTransferRecord {
  std::int64_t time_ms = 0;
  bool is_read = true;            // HDFS_READ; false for HDFS_WRITE
  std::string datanode;           // DataNode IP (src of a read, dest of a write)
  std::string peer;               // the other end's IP (client, or upstream DataNode in a pipeline)
  std::int64_t bytes = 0;         // as logged (reads include 4 B of checksum per 512 B chunk)
  std::string block;              // "blk_<id>" without generation stamp or pool
  std::string client_id;          // cliID (DFSClient_…)
  std::int64_t duration_ns = -1;  // -1 when the version logs no usable duration
};

// A block allocated to a file: "BLOCK* allocate …" (2.x/3.x) or "BLOCK* NameSystem.allocateBlock"
// (0.18-0.20).
struct HdfsBlockRecord {
  std::int64_t time_ms = 0;
  std::string block;  // "blk_<id>"
  std::string path;
};

// The fields of an audit or transfer record after its time, in the one order that every copy and
// text form of it lists them (the parser's views' ToRecord, `hdfs map`'s records and `hdfs
// reduce`'s reading of them): references into `r`, a record or a view of one with the same field
// names (profiles/hdfs/hdfs_log.h).
template <typename Audit>
auto AuditFields(Audit& r) {
  return std::tie(r.allowed, r.user, r.real_user, r.ip, r.cmd, r.src, r.dst, r.proto);
}
template <typename Transfer>
auto TransferFields(Transfer& r) {
  return std::tie(r.is_read, r.datanode, r.peer, r.bytes, r.block, r.client_id, r.duration_ns);
}

}  // namespace perfplan::models
