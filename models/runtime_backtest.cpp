#include "models/runtime_backtest.h"

#include <algorithm>
#include <cmath>

namespace perfplan::models {

Status BacktestOptions::Validate() const {
  if (min_history_runs < 2) {
    return Status::InvalidField("min_history_runs", "must be >= 2, got " +
                                   std::to_string(min_history_runs));
  }
  if (refit_every < 1) return Status::InvalidField("refit_every", "must be >= 1, got 0");
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

  // Completed runs of the workload strictly before each run (runs at the same time are not
  // history of each other).
  std::vector<std::size_t> history(order.size(), 0);
  for (std::size_t k = 0, earlier = 0, completed_before = 0; k < order.size(); ++k) {
    while (times[order[earlier]] < times[order[k]]) {
      completed_before += rows[order[earlier]].completed ? 1 : 0;
      ++earlier;
    }
    history[k] = completed_before;
  }

  Backtest out;
  out.workload = workload;
  out.refit_every = options.refit_every;
  out.rows.resize(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    BacktestRow& row = out.rows[k];
    row.row = order[k];
    row.time = times[order[k]];
    row.history_runs = history[k];
    if (history[k] < options.min_history_runs) {
      row.note = "warm-up: " + std::to_string(history[k]) + " completed earlier run(s), " +
                 std::to_string(options.min_history_runs) + " needed";
    }
  }
  // Past the warm-up (history only grows), blocks of refit_every runs, each one evaluation
  // trained on the runs before the block's first run.
  std::size_t first = 0;
  while (first < order.size() && history[first] < options.min_history_runs) ++first;
  for (std::size_t begin = first; begin < order.size(); begin += options.refit_every) {
    const std::size_t end = std::min(order.size(), begin + options.refit_every);
    const double cutoff = times[order[begin]];
    // slot[j]: the index into out.rows of row j when it is one of the block's targets.
    constexpr std::size_t kNotTarget = static_cast<std::size_t>(-1);
    std::vector<std::size_t> slot(rows.size(), kNotTarget);
    for (std::size_t k = begin; k < end; ++k) slot[order[k]] = k;
    std::vector<MeasuredRun> subset;
    std::vector<bool> subset_train;
    std::vector<std::size_t> subset_slot;
    for (std::size_t j = 0; j < rows.size(); ++j) {
      const bool target = slot[j] != kNotTarget;
      const bool trains = rows[j].workload == workload && !target && times[j] < cutoff;
      if (rows[j].workload == workload && !trains && !target) continue;
      subset.push_back(rows[j]);
      subset_train.push_back(trains);
      subset_slot.push_back(slot[j]);
    }
    Result<Evaluation> ev = EvaluateWorkload(subset, subset_train, workload, options.evaluate);
    for (std::size_t k = begin; k < end; ++k) {
      BacktestRow& row = out.rows[k];
      row.history_runs = history[begin];
      if (!ev.ok()) row.note = ev.status().message();
    }
    if (!ev.ok()) continue;
    const std::string form = ev.value().choice ? std::string(ToString(ev.value().choice->chosen))
                                               : std::string("freeride-g");
    for (const EvaluatedRow& r : ev.value().rows) {  // the block's targets
      BacktestRow& row = out.rows[subset_slot[r.row]];
      if (!r.predicted_seconds) {
        row.note = "no model reaches " + rows[row.row].instance_type;
        continue;
      }
      row.predicted_seconds = r.predicted_seconds;
      row.ape = r.ape;
      row.interval_low_seconds = r.interval_low_seconds;
      row.interval_high_seconds = r.interval_high_seconds;
      row.inside_interval = r.inside_interval;
      row.form = form;
    }
  }
  // Rolling figures in time order.
  std::vector<double> apes;
  std::size_t inside = 0, with_interval = 0;
  for (BacktestRow& row : out.rows) {
    if (row.ape) apes.push_back(*row.ape);
    if (row.inside_interval) {
      ++with_interval;
      inside += *row.inside_interval ? 1 : 0;
    }
    row.rolling_median_ape = Summarize(apes).median_ape;
    row.rolling_coverage =
        with_interval ? static_cast<double>(inside) / static_cast<double>(with_interval) : 0;
  }
  out.summary = Summarize(apes);
  out.coverage =
      with_interval ? static_cast<double>(inside) / static_cast<double>(with_interval) : 0;
  return out;
}

}  // namespace perfplan::models
