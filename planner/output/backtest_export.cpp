#include "planner/output/backtest_export.h"

#include <optional>

namespace perfplan::planner {
namespace {

ExportCell Cell(const std::optional<double>& v) { return v ? ExportCell(*v) : ExportCell(); }

}  // namespace

ExportTable BacktestTable(const BacktestAnswer& answer, const std::vector<std::string>& labels) {
  ExportTable t;
  t.what = "backtest";
  t.columns = {"run",
               "time",
               "workload",
               "instance_type",
               "compute_nodes",
               "vcpus",
               "memory_bytes",
               "dataset_bytes",
               "measured_seconds",
               "completed",
               "history_runs",
               "predicted_seconds",
               "ape",
               "interval_low_seconds",
               "interval_high_seconds",
               "inside_interval",
               "form",
               "note",
               "rolling_median_ape",
               "rolling_coverage"};
  for (const models::BacktestRow& r : answer.backtest.rows) {
    const models::MeasuredRun& run = answer.rows[r.row];
    ExportCell label = r.row < labels.size() ? ExportCell(labels[r.row])
                       : r.row < answer.row_lines.size()
                           ? ExportCell(static_cast<long long>(answer.row_lines[r.row]))
                           : ExportCell();
    ExportCell inside;
    if (r.inside_interval) inside = static_cast<long long>(*r.inside_interval ? 1 : 0);
    t.rows.push_back({label,
                      r.time,
                      run.workload,
                      run.instance_type,
                      run.compute_nodes,
                      run.vcpus,
                      run.memory_bytes,
                      run.dataset_bytes,
                      run.runtime_seconds,
                      static_cast<long long>(run.completed ? 1 : 0),
                      static_cast<long long>(r.history_runs),
                      Cell(r.predicted_seconds),
                      Cell(r.ape),
                      Cell(r.interval_low_seconds),
                      Cell(r.interval_high_seconds),
                      inside,
                      r.form,
                      r.note,
                      r.rolling_median_ape,
                      r.rolling_coverage});
  }
  return t;
}

}  // namespace perfplan::planner
