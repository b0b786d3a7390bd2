// The workload analysis of the HDFS records in an open store, streamed from it: memory per
// distinct key (client, user, path, block, DataNode, (client, path) pair), never per record.
// What `workload` answers (AnswerWorkload, planner/hdfs/hdfs.h) and what the report's HDFS
// section draws. A window of from_ms/to_ms < 0 is open on that side. Fails only when reading the
// store does. Thread-safety: the store's (one thread per connection).
#pragma once

#include "models/hdfs_workload.h"
#include "models/status.h"
#include "profiles/store.h"

namespace perfplan::planner {

Result<models::HdfsWorkload> AnalyzeStoredHdfs(profiles::Store& store,
                                               const models::HdfsWorkloadOptions& options);

}  // namespace perfplan::planner
