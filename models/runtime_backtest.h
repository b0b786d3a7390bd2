// Backtesting runtime predictions on a history (`perfplan backtest`, issue 15): replay the runs of
// one workload in time order and predict each from the runs before it only, as a scheduler using
// perfplan would have. Each prediction is models::EvaluateWorkload() with the earlier runs as
// training rows (model choice by cross-validation, CV+ interval), so the figures are exactly what
// `perfplan evaluate` would have said at that moment. Rows of other workloads are references as in
// EvaluateWorkload (all of them, whatever their time).
//
// Pure function over plain structs; thread-safe. Units: seconds; times in any monotone unit.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "models/runtime_evaluate.h"
#include "models/status.h"

namespace perfplan::models {

struct BacktestOptions {
  EvaluateOptions evaluate;
  // Fewest completed earlier runs before a run is predicted. Default 3 (the fit's minimum); the
  // first runs are listed as "warm-up" without a prediction.
  std::size_t min_history_runs = 3;
  // Runs predicted per refit. Default 1: each run from exactly the runs before it. K > 1: the runs
  // past the warm-up go in blocks of K consecutive runs (in time order), each block predicted by
  // one evaluation trained on the runs before the block's first run, so a prediction is up to K − 1
  // runs staler and the model choice also sees the block's other targets' instance types; the
  // backtest costs 1/K of the evaluations.
  std::size_t refit_every = 1;
  Status Validate() const;  // min_history_runs >= 2; refit_every >= 1; evaluate.Validate()
};

struct BacktestRow {
  std::size_t row = 0;  // index into the rows given to Backtest
  double time = 0;
  std::size_t history_runs = 0;  // completed runs of the workload the prediction was trained on
  std::optional<double> predicted_seconds, ape;
  std::optional<double> interval_low_seconds, interval_high_seconds;
  std::optional<bool> inside_interval;
  std::string form;  // the chosen form ("" when no prediction)
  std::string note;  // why there is no prediction
  // Over the predicted completed rows up to and including this one.
  double rolling_median_ape = 0;
  double rolling_coverage = 0;
};

struct Backtest {
  std::string workload;
  std::vector<BacktestRow> rows;  // the workload's runs in time order (ties: file order)
  ErrorSummary summary;           // over every predicted completed run
  double coverage = 0;            // share of them inside their interval
  std::size_t refit_every = 1;    // BacktestOptions::refit_every used
};

// Errors (InvalidArgument): sizes of rows and times differ; a time is not finite; no row of the
// workload; options invalid.
Result<Backtest> BacktestWorkload(const std::vector<MeasuredRun>& rows,
                                  const std::vector<double>& times, const std::string& workload,
                                  const BacktestOptions& options = {});

}  // namespace perfplan::models
