// Spark fleet mining as map and reduce steps (issue 16, item 6; docs/fleet.md has the Hadoop
// Streaming, RDD.pipe and Dask commands).
//
// `perfplan spark map [PATH…|-]` turns event logs (files, rolling folders, folders searched
// recursively; any codec) into summary records on stdout, one line each (KEY, tab, JSON; the
// format is profiles/spark/spark_summary_records.h). `-` reads the paths from stdin, one a line:
// the input of a Streaming job or of RDD.pipe is the list of logs, each mapped whole by one task.
// `perfplan spark reduce` reads records on stdin in any order and writes the merged records
// (the reducer of a Streaming job: its output is again valid reduce input, and reducing it again
// gives the same lines); with a store it loads them (`spark reduce --store DB`), idempotently.
// Thread-safety: none needed (one call per process).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "models/status.h"
#include "profiles/spark/spark_summary_records.h"

namespace perfplan::planner {

struct SparkMapRequest {
  std::vector<std::string> paths;  // "-" = the paths on stdin, one a line
  std::string scratch_dir;         // where each log's scratch store lives while it is mapped
  bool list = false;               // print the event logs the paths hold instead of mapping
};

// Maps the logs of `request` to `out`. Skipped input is reported on `err` as
// "spark map: skipped FILE:LINE: reason" (the first 10 of each reason), then one line
// "spark map: N log(s), M application(s), R record(s), S skipped". A line read on stdin that
// Hadoop prefixed with its offset ("0\t/logs/app-1", NLineInputFormat) is taken as the path after
// the tab. Fails when the scratch store fails or stdin cannot be read.
Status SparkMap(const SparkMapRequest& request, std::istream& in, std::ostream& out,
                std::ostream& err);

// What `spark reduce --store` did.
struct SparkReduceAnswer {
  std::string store;
  std::int64_t records = 0;
  std::vector<profiles::spark::LoadedAttempt> attempts;
};

// Reads records from `in` ("stdin:LINE" in errors). Without a store path: writes the merged
// records to `out` and returns an answer with no attempts. With one: loads them (the store is
// created when missing) and returns what happened to each attempt. InvalidArgument for a line
// that is not a record, incomplete records; Failed on store errors.
Result<SparkReduceAnswer> SparkReduce(std::istream& in, const std::string& store_path,
                                      std::ostream& out);

// `spark reduce --store` output: one line per attempt ("loaded APP/ATTEMPT from SOURCE (N
// events)", "unchanged …", "kept …: why"), then "N loaded, U unchanged, K kept into STORE".
std::string ToText(const SparkReduceAnswer& answer);
std::string ToJson(const SparkReduceAnswer& answer);

}  // namespace perfplan::planner
