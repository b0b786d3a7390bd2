// The HDFS log-mining questions of the query facade: ingest logs into the store, characterize the
// workload stored, generate ground-truth logs, and the map/reduce (Hadoop Streaming) path.
// Each returns a plain answer or a Status (InvalidArgument/NotFound: bad input, exit 2; Failed:
// the operation failed, exit 1). No globals; each call opens its own store connection.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "models/hdfs_record_streams.h"
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

// AnswerWorkload for an answer written as it is computed: the answer without its read streams
// (answer.workload.streams stays empty) and a reader of them (no reads without
// request.options.streams), read from the analysis's sort in a temporary file, so that they are
// never all in memory. Same errors as AnswerWorkload.
struct StreamedWorkloadAnswer {
  WorkloadAnswer answer;
  std::unique_ptr<models::HdfsReadStreams> streams;
};
Result<StreamedWorkloadAnswer> AnswerWorkloadStreamed(const WorkloadRequest& request);
// A streamed answer with its reader's streams read into answer.workload.streams (all in memory),
// or the first error of either.
Result<WorkloadAnswer> HoldStreams(Result<StreamedWorkloadAnswer> streamed);

Result<profiles::HdfsSimulation> AnswerSimulateHdfs(const profiles::HdfsSimulationOptions& s,
                                                    const std::string& out_dir);

std::string ToJson(const profiles::HdfsIngestReport& report);
std::string ToJson(const WorkloadAnswer& answer);
// Writes the same bytes as ToJson(answer.answer) with the reader's streams in answer.workload.
// streams, to `out` as the reads come (the streams are never all in memory; the rest of the
// document is). Fails with the reader's error, after the part written so far (the document is then
// incomplete), or Failed when `out` fails.
Status WriteJson(StreamedWorkloadAnswer& answer, std::ostream& out);
std::string ToJson(const profiles::HdfsSimulation& simulation);

}  // namespace perfplan::planner
