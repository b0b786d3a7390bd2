// The runs CSV of DESIGN §3.2: one measured run per row.
//
// Format: RFC 4180 (comma separated, optional double quotes with "" as an escaped quote, quoted
// fields may hold commas and line breaks, LF or CRLF line ends). A header row is required and must
// name the columns workload, instance_type, dataset_bytes, storage_nodes, compute_nodes,
// bandwidth_bytes_per_second, runtime_seconds, completed — in any order; further columns are kept
// (as text, usable in --train filters). Optional columns vcpus and memory_bytes (per node) give
// the hardware of the instance type; when absent, models/instance_types.h supplies them for the
// types it knows. Numbers must be finite and > 0; completed is true or false
// (also 1/0). completed=false marks a censored run (timeout or failure): its runtime_seconds is a
// lower bound. Every problem is reported as file:line: column: message, all at once.
// Plain functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "models/runtime_fit.h"
#include "profiles/problem.h"

namespace perfplan::profiles {

// The required columns, in the order WriteRunsCsv writes them.
const std::vector<std::string>& RunsCsvColumns();

struct RunsTable {
  std::string file;
  std::vector<std::string> columns;             // header, in file order
  std::vector<models::MeasuredRun> runs;        // one per data row
  std::vector<std::vector<std::string>> cells;  // the raw fields of each row, by header position
  std::vector<int> lines;                       // 1-based line where each row starts
};

// Parses CSV text; `file` names the source in problems.
Loaded<RunsTable> ParseRunsCsv(const std::string& text, const std::string& file);
// Reads and parses a file ("-" is not special here; the CLI handles stdin).
Loaded<RunsTable> LoadRunsCsv(const std::string& path);

// Writes the runs with the required header, numbers with 17 significant digits (round trip).
std::string WriteRunsCsv(const std::vector<models::MeasuredRun>& runs);

}  // namespace perfplan::profiles
