#include "models/runtime_backtest.h"

#include <algorithm>
#include <cmath>

namespace perfplan::models {

Status BacktestOptions::Validate() const {
  if (min_history_runs < 2) {
    return Status::InvalidArgument("min_history_runs: must be >= 2, got " +
                                   std::to_string(min_history_runs));
  }
  return evaluate.Validate();
}

Result<Backtest> BacktestWorkload(const std::vector<MeasuredRun>& rows,
                                  const std::vector<double>& times, const std::string& workload,
                                  const BacktestOptions& options) {
  if (Status s = options.Validate(); !s.ok()) return s;
  if (rows.size() != times.size()) {
    return Status::InvalidArgument("backtest: " + std::to_string(rows.size()) + " rows but " +
                                   std::to_string(times.size()) + " times");
  }
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!std::isfinite(times[i])) {
      return Status::InvalidArgument("backtest: row " + std::to_string(i) +
                                     ": time is not a finite number");
    }
    if (rows[i].workload == workload) order.push_back(i);
  }
  if (order.empty()) return Status::InvalidArgument("backtest: no row has workload " + workload);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return times[a] < times[b]; });

  Backtest out;
  out.workload = workload;
  std::vector<double> apes;
  std::size_t inside = 0, with_interval = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    BacktestRow row;
    row.row = i;
    row.time = times[i];
    // Strictly earlier runs only: runs at the same time are not history of each other.
    std::vector<bool> train(rows.size(), false);
    std::vector<bool> keep(rows.size(), false);
    for (std::size_t j = 0; j < rows.size(); ++j) {
      if (rows[j].workload != workload) {
        keep[j] = true;
      } else if (times[j] < times[i]) {
        keep[j] = train[j] = true;
        row.history_runs += rows[j].completed ? 1 : 0;
      }
    }
    keep[i] = true;
    if (row.history_runs < options.min_history_runs) {
      row.note = "warm-up: " + std::to_string(row.history_runs) + " completed earlier run(s), " +
                 std::to_string(options.min_history_runs) + " needed";
    } else {
      std::vector<MeasuredRun> subset;
      std::vector<bool> subset_train;
      for (std::size_t j = 0; j < rows.size(); ++j) {
        if (!keep[j]) continue;
        subset.push_back(rows[j]);
        subset_train.push_back(train[j]);
      }
      Result<Evaluation> ev = EvaluateWorkload(subset, subset_train, workload, options.evaluate);
      if (!ev.ok()) {
        row.note = ev.status().message();
      } else if (ev.value().rows.size() != 1 || !ev.value().rows[0].predicted_seconds) {
        row.note = "no model reaches " + rows[i].instance_type;
      } else {
        const EvaluatedRow& r = ev.value().rows[0];
        row.predicted_seconds = r.predicted_seconds;
        row.ape = r.ape;
        row.interval_low_seconds = r.interval_low_seconds;
        row.interval_high_seconds = r.interval_high_seconds;
        row.inside_interval = r.inside_interval;
        row.form = ev.value().choice ? std::string(ToString(ev.value().choice->chosen))
                                     : std::string("freeride-g");
        if (r.ape) apes.push_back(*r.ape);
        if (r.inside_interval) {
          ++with_interval;
          inside += *r.inside_interval ? 1 : 0;
        }
      }
    }
    row.rolling_median_ape = Summarize(apes).median_ape;
    row.rolling_coverage =
        with_interval ? static_cast<double>(inside) / static_cast<double>(with_interval) : 0;
    out.rows.push_back(row);
  }
  out.summary = Summarize(apes);
  out.coverage =
      with_interval ? static_cast<double>(inside) / static_cast<double>(with_interval) : 0;
  return out;
}

}  // namespace perfplan::models
