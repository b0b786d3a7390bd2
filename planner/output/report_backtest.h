// The backtest section of the HTML report (`perfplan report --runs`, issue 15 item 4): when the
// runs CSV has a numeric `time` column, the workload's runs are replayed in time order and each is
// predicted from the runs before it only (planner::AnswerBacktest, models/runtime_backtest.h), so
// every charted prediction is out of sample. Two figures: predicted (with its 90% interval) and
// measured runtime against time, and each run's APE with the rolling median APE against time. Runs
// of the warm-up (too little history) and censored runs carry no error and are not charted as
// such; the caption says how many were predicted.
//
// Kept apart from planner/output/report.cpp so that report sections can be merged independently.
// Pure apart from reading the runs file; thread-safe. Units: seconds; time in the column's unit.
#pragma once

#include <string>
#include <vector>

#include "models/status.h"

namespace perfplan::planner {

struct ReportFigure {
  std::string svg;
  std::string caption;
};

struct ReportBacktestSection {
  // False when the runs CSV has no `time` column: the section is left out (nothing to replay).
  bool available = false;
  std::string id = "backtest";
  std::string title;
  std::string intro;
  std::vector<ReportFigure> figures;
  std::vector<std::string> warnings;  // e.g. no run had enough history to be predicted
};

// The section for `workload` in `runs_file`. Errors: the runs file cannot be read, a time cell is
// not a number, the workload has no row (AnswerBacktest's messages).
Result<ReportBacktestSection> BacktestReportSection(const std::string& runs_file,
                                                    const std::string& workload);

}  // namespace perfplan::planner
