// The HDFS log-mining questions of the query facade: ingest logs into the store, characterize the
// workload stored, generate ground-truth logs, and the map/reduce (Hadoop Streaming) path.
// Each returns a plain answer or a Status (InvalidArgument/NotFound: bad input, exit 2; Failed:
// the operation failed, exit 1). No globals; each call opens its own store connection.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "models/hdfs_workload.h"
#include "models/status.h"
#include "profiles/hdfs/hdfs_simulator.h"
#include "profiles/hdfs/hdfs_store.h"

namespace perfplan::planner {

struct IngestHdfsRequest {
  std::vector<std::string> nodes;  // "NAME=PATH", repeatable
  std::string store_path = "perfplan.db";
  profiles::HdfsIngestOptions options;
};
Result<profiles::HdfsIngestReport> AnswerIngestHdfs(const IngestHdfsRequest& request);

// A time given on the command line: "2024-01-01", "2024-01-01 10:00:00[,SSS]",
// "2024-01-01T10:00:00" (read as UTC, like the logs) or milliseconds since the epoch.
// InvalidArgument naming the flag otherwise.
Result<std::int64_t> ParseTimeArgument(const std::string& flag, const std::string& text);

struct WorkloadRequest {
  std::string store_path = "perfplan.db";
  std::string from, to;  // optional, see ParseTimeArgument
  models::HdfsWorkloadOptions options;
};
struct WorkloadAnswer {
  std::string store_path;
  models::HdfsWorkload workload;
};
// NotFound when the store does not exist (it is never created by a read).
Result<WorkloadAnswer> AnswerWorkload(const WorkloadRequest& request);

Result<profiles::HdfsSimulation> AnswerSimulateHdfs(const profiles::HdfsSimulationOptions& s,
                                                    const std::string& out_dir);

std::string ToJson(const profiles::HdfsIngestReport& report);
std::string ToJson(const WorkloadAnswer& answer);
std::string ToJson(const profiles::HdfsSimulation& simulation);

}  // namespace perfplan::planner
