// `perfplan export --what backtest` (issue 15): one row per replayed run of a backtest
// (planner/runtime/fit_eval.h for a runs CSV, planner/runtime/store_backtest.h for the store), in
// time order. Columns (docs/export.md): run (CSV line or application id), time, workload,
// instance_type, compute_nodes, vcpus, memory_bytes, dataset_bytes, measured_seconds, completed,
// history_runs, predicted_seconds, ape, interval_low_seconds, interval_high_seconds,
// inside_interval (1/0), form, note, rolling_median_ape, rolling_coverage. Cells without a value
// (no prediction yet) are empty. Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "planner/output/export.h"
#include "planner/runtime/fit_eval.h"

namespace perfplan::planner {

// `labels` by row index names each run (application ids); empty: the CSV line numbers.
ExportTable BacktestTable(const BacktestAnswer& answer,
                          const std::vector<std::string>& labels = {});

}  // namespace perfplan::planner
