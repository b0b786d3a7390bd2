// A run table (models/run_table.h) built from the Spark applications in the profile store, so the
// config-sensitivity models (`perfplan tune ... --store DB`) learn from ingested event logs.
//
// One row per application (its latest attempt), ordered by start time (oldest first, so the
// first row, the tuning baseline, is the earliest run). Columns:
//   * parameters: every `spark.*` property of the "spark" environment section that is set in
//     every selected application and differs between them, as the logged text ("4g", "200ms"),
//     so tuning/dataset.h parses units and one-hots or rejects categorical values. Identity
//     properties (application id/name, driver host/port, start times, …) are never parameters.
//   * metrics (names in kMetricColumns): application duration, Σ executor run time, shuffle read
//     and write bytes, Σ JVM GC time, and the β dimensions of ComputeEfficiencyVector.
// Properties left out (constant, missing in some applications, identity) are reported in
// `notes`. Stateless functions; thread-safety as Store (one per thread).
#pragma once

#include <string>
#include <vector>

#include "models/run_table.h"
#include "models/status.h"
#include "profiles/store.h"

namespace perfplan::profiles::spark {

// The metric column names, in table order (units in the names).
inline const std::vector<std::string>& MetricColumns() {
  static const std::vector<std::string> kColumns = {
      "total_time_seconds", "executor_run_time_seconds",
      "shuffle_read_bytes", "shuffle_write_bytes",
      "gc_time_seconds",    "beta_compute_share",
      "beta_shuffle_share", "beta_shuffle_bytes",
      "beta_gc_share",      "beta_result_serialization_share"};
  return kColumns;
}

// Which applications to use. Empty = all.
struct RunTableSelection {
  std::vector<std::string> app_ids;  // exact application ids
  std::string name_contains;         // substring of the application name
};

struct StoreRunTable {
  models::RunTable table;  // source = "store:PATH"; row line = 1-based row (application) number
  std::vector<std::string> notes;  // properties left out and why
};

// Success: the table (at least one row). Failure: InvalidArgument "no applications in the store
// PATH" when the store holds none, "no application in the store PATH matches …" when the
// selection leaves none, "--apps: application ID not in the store PATH" for an unknown id;
// a store error as returned by SQLite.
Result<StoreRunTable> ReadStoreRunTable(Store& store, const RunTableSelection& selection);

}  // namespace perfplan::profiles::spark
