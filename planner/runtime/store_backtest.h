// `perfplan backtest --store DB --app-name NAME` (issue 15): the Spark applications of one name in
// the profile store, replayed in order of their start time, each predicted from the ones before it
// (models/runtime_backtest.h), as a scheduler using perfplan on that cluster would have.
//
// One run per application (its latest attempt; applications without an end are skipped):
//   configuration  compute nodes = storage nodes = the executors that ran tasks (1 in local
//                  mode), vCPUs = cores per executor, memory = spark.executor.memory (Spark's
//                  default 1g when unset), dataset = Σ input bytes (1 byte for every run when some
//                  application of the name read none: the size is then not part of the
//                  configuration); instance type "N-core executors"
//   runtime        application end − start, seconds; completed
//   time           start, seconds since the epoch
// Reads the store only through profiles::spark's typed functions. Thread-safety as Store.
#pragma once

#include <string>
#include <vector>

#include "planner/runtime/fit_eval.h"

namespace perfplan::planner {

struct StoreBacktestRequest {
  std::string store_path;
  std::string app_name;  // applications whose name is exactly this
  models::BacktestOptions options;
};

struct StoreBacktestAnswer {
  BacktestAnswer answer;  // runs_file "store:PATH", time_column "start_time_seconds"; row_lines
                          // = 1-based rank of the application in start order
  std::vector<std::string> app_ids;  // by row index
  std::vector<std::string> notes;    // defaults taken, applications skipped
};

// Errors: a store that cannot be opened; InvalidField("app_name", …) when no completed
// application has the name (listing the names in the store); what BacktestWorkload returns.
Result<StoreBacktestAnswer> AnswerStoreBacktest(const StoreBacktestRequest& request);

// The JSON of `backtest --store --json`: store, app_name, notes, summary, coverage and the rows
// of the backtest export (planner/output/backtest_export.h), one object per run.
std::string ToJson(const StoreBacktestAnswer& answer);

}  // namespace perfplan::planner
