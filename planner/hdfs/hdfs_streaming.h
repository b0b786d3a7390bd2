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

#include "models/external_sort.h"
#include "models/status.h"
#include "planner/hdfs/hdfs.h"

namespace perfplan::planner {

// Maps stdin-like `in` to `out`. Garbled lines are reported on `err` as
// "<input_name>:<line>: garbled: <reason>" and counted in the "#" lines. Failed on a read error.
Status HdfsMap(std::istream& in, std::ostream& out, std::ostream& err,
               const std::string& input_name);

// Reduces mapped lines (in any order) into the workload answer, in memory that does not grow
// with the number of lines: every line is read and checked first (InvalidArgument naming the line
// for a malformed one), each kind's records spooled in input order, past 1 MiB (or
// options.sort_run_bytes, when less) to `scratch` (default: a temporary file,
// profiles/scratch_file.h); a kind whose records are not in time order is then ordered by an
// external sort of options.sort_run_bytes; the analysis is the one of `workload --store`
// (models/hdfs_record_streams.h), with the records handed out by time, ties in input order. The
// "#" totals are returned in `lines` when not null. Failed when the scratch storage fails.
// HdfsReduceStreamed leaves the read streams (options.streams) to its reader, as
// AnswerWorkloadStreamed does, for WriteJson; HdfsReduce holds them in the answer.
Result<StreamedWorkloadAnswer> HdfsReduceStreamed(std::istream& in,
                                                  const models::HdfsWorkloadOptions& options,
                                                  profiles::HdfsParseCounts* lines,
                                                  models::ScratchFactory scratch = nullptr);
Result<WorkloadAnswer> HdfsReduce(std::istream& in, const models::HdfsWorkloadOptions& options,
                                  profiles::HdfsParseCounts* lines,
                                  models::ScratchFactory scratch = nullptr);

}  // namespace perfplan::planner
