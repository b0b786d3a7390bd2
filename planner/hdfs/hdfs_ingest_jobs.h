// `ingest hdfs --jobs N`: AnswerIngestHdfs on N parser threads (profiles/hdfs/hdfs_ingest_parallel.h).
#pragma once

#include "planner/hdfs/hdfs.h"
#include "profiles/hdfs/hdfs_ingest_parallel.h"

namespace perfplan::planner {

// AnswerIngestHdfs(request) with `jobs` parser threads and one writer; the store is the same.
Result<profiles::HdfsIngestReport> AnswerIngestHdfs(
    const IngestHdfsRequest& request, int jobs, const profiles::HdfsIngestProgress& progress = {});

}  // namespace perfplan::planner
