// HDFS log mining as Hadoop Streaming map and reduce steps (DESIGN §5).
//
// Contract: `perfplan hdfs map` reads raw log lines on stdin and writes one tab-separated line
// per workload record ("A" audit, "T" transfer, "B" block allocation, each keyed by the record
// type and a zero-padded timestamp) plus "#" lines carrying the map task's line counts by kind.
// Records are the mergeable partial result: any split of the input, mapped independently and
// concatenated, is the same multiset of lines, so `sort` (Hadoop's shuffle) followed by
// `perfplan hdfs reduce` (one reducer) gives exactly the statistics of the single-process path
// (`ingest hdfs` + `workload`). The map does the parsing — nearly all of the work — on the
// cluster's nodes, and ships compact records instead of whole log lines.
//
// Fields are escaped (\t, \n, \\) so paths with tabs survive. Thread-safety: none needed.
#pragma once

#include <iosfwd>
#include <string>

#include "models/status.h"
#include "planner/hdfs/hdfs.h"

namespace perfplan::planner {

// Maps stdin-like `in` to `out`. Garbled lines are reported on `err` as
// "<input_name>:<line>: garbled: <reason>" and counted in the "#" lines. Failed on a read error.
Status HdfsMap(std::istream& in, std::ostream& out, std::ostream& err,
               const std::string& input_name);

// Reduces mapped lines (in any order) into the workload answer. InvalidArgument naming the line
// for a malformed mapped line. The "#" totals are returned in `lines` when not null.
Result<WorkloadAnswer> HdfsReduce(std::istream& in, const models::HdfsWorkloadOptions& options,
                                  profiles::HdfsParseCounts* lines);

}  // namespace perfplan::planner
