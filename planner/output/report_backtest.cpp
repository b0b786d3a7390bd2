#include "planner/output/report_backtest.h"

#include <algorithm>
#include <cstdio>

#include "planner/output/svg_chart.h"
#include "planner/runtime/fit_eval.h"
#include "profiles/problem.h"
#include "profiles/runtime/runs_csv.h"

namespace perfplan::planner {
namespace {

constexpr const char* kTimeColumn = "time";

std::string Percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * v);
  return buf;
}

}  // namespace

Result<ReportBacktestSection> BacktestReportSection(const std::string& runs_file,
                                                    const std::string& workload) {
  ReportBacktestSection out;
  profiles::Loaded<profiles::RunsTable> table = profiles::LoadRunsCsv(runs_file);
  if (!table.ok()) return profiles::ToStatus(table.problems);
  const std::vector<std::string>& columns = table.value.columns;
  if (std::find(columns.begin(), columns.end(), kTimeColumn) == columns.end()) return out;

  BacktestRequest request;
  request.runs_file = runs_file;
  request.workload = workload;
  request.time_column = kTimeColumn;
  Result<BacktestAnswer> answer = AnswerBacktest(request);
  if (!answer.ok()) return answer.status();
  const models::Backtest& bt = answer.value().backtest;
  const std::vector<models::MeasuredRun>& rows = answer.value().rows;

  ChartSeries measured{"measured", {}, ChartColor(1)};
  measured.dots = true;
  ChartSeries predicted{"predicted from earlier runs", {}, ChartColor(0)};
  predicted.dots = true;
  ChartSeries low{"90% interval, low", {}, ChartColor(0)},
      high{"90% interval, high", {}, ChartColor(0)};
  low.dashed = high.dashed = true;
  ChartSeries ape{"APE of the run", {}, ChartColor(2)};
  ape.dots = true;
  ChartSeries rolling{"rolling median APE", {}, ChartColor(0)};
  for (const models::BacktestRow& r : bt.rows) {
    const models::MeasuredRun& run = rows[r.row];
    if (run.completed) measured.points.emplace_back(r.time, run.runtime_seconds);
    if (!r.predicted_seconds) continue;
    predicted.points.emplace_back(r.time, *r.predicted_seconds);
    if (r.interval_low_seconds) {
      low.points.emplace_back(r.time, *r.interval_low_seconds);
      high.points.emplace_back(r.time, *r.interval_high_seconds);
    }
    if (r.ape) {
      ape.points.emplace_back(r.time, 100 * *r.ape);
      rolling.points.emplace_back(r.time, 100 * r.rolling_median_ape);
    }
  }
  out.available = true;
  out.title = "Backtest: each run predicted from the runs before it";
  out.intro = "Runs of " + workload + " in " + runs_file + " replayed in order of column '" +
              kTimeColumn +
              "'; every prediction uses only the earlier runs (model choice by cross-validation "
              "and CV+ interval on them), so no charted prediction has seen its run.";
  if (predicted.points.empty()) {
    out.warnings.push_back(runs_file + ": backtest of " + workload + ": no run had " +
                           std::to_string(models::BacktestOptions{}.min_history_runs) +
                           " completed earlier runs to be predicted from");
    out.available = false;
    return out;
  }
  const std::string summary =
      std::to_string(bt.summary.predicted) + " of " + std::to_string(bt.rows.size()) +
      " runs predicted out of sample; median APE " + Percent(bt.summary.median_ape) + ", P90 " +
      Percent(bt.summary.p90_ape) + ", 90% interval coverage " + Percent(bt.coverage);

  XYChart over_time;
  over_time.title = "Predicted and measured runtime over time, " + workload;
  over_time.x_label = std::string(kTimeColumn) + " (column unit)";
  over_time.y_label = "runtime (s)";
  over_time.start_at_zero = false;
  over_time.series.push_back(measured);
  over_time.series.push_back(predicted);
  if (!low.points.empty()) {
    over_time.series.push_back(low);
    over_time.series.push_back(high);
  }
  out.figures.push_back({LineChartSvg(over_time), summary});

  if (!ape.points.empty()) {
    XYChart error;
    error.title = "Prediction error over time, " + workload;
    error.x_label = std::string(kTimeColumn) + " (column unit)";
    error.y_label = "absolute percentage error (%)";
    error.series.push_back(ape);
    error.series.push_back(rolling);
    out.figures.push_back(
        {LineChartSvg(error), "each completed run's APE and the median over the runs up to it; " +
                                  std::to_string(bt.summary.predicted) + " runs"});
  }
  return out;
}

}  // namespace perfplan::planner
