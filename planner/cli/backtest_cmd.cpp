#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/table.h"
#include "planner/runtime/fit_eval.h"
#include "planner/runtime/store_backtest.h"

namespace perfplan::cli {
namespace {

struct BacktestFlags {
  planner::BacktestRequest request;
  planner::StoreBacktestRequest store;
  bool json = false;
};

// `labels` by row index name the runs (application ids); empty: the CSV lines.
void PrintBacktest(std::ostream& out, const planner::BacktestAnswer& a,
                   const std::vector<std::string>& labels = {}) {
  const models::Backtest& bt = a.backtest;
  out << bt.workload << ": " << bt.rows.size() << " runs replayed in order of "
      << (labels.empty() ? "column '" + a.time_column + "'" : std::string("start time"))
      << ", each predicted from the runs before it"
      << (bt.refit_every > 1 ? " (refit every " + std::to_string(bt.refit_every) +
                                   " runs: from the runs before its block)"
                             : std::string())
      << "\n\n";
  Table t({labels.empty() ? "line" : "application", a.time_column,
           labels.empty() ? "instance_type" : "executors of", "nodes", "measured s",
           "predicted s", "APE", "interval s", "inside", "form", "rolling median APE",
           "rolling coverage"});
  for (const models::BacktestRow& r : bt.rows) {
    const models::MeasuredRun& run = a.rows[r.row];
    std::string interval = "-";
    if (r.interval_low_seconds) {
      interval = Fixed(*r.interval_low_seconds, 0) + ".." + Fixed(*r.interval_high_seconds, 0);
    }
    t.AddRow({labels.empty() ? std::to_string(a.row_lines[r.row]) : labels[r.row],
              Fixed(r.time, 0), run.instance_type,
              Fixed(run.compute_nodes, 0),
              Fixed(run.runtime_seconds, 0) + (run.completed ? "" : " (bound)"),
              r.predicted_seconds ? Fixed(*r.predicted_seconds, 0) : r.note.substr(0, 40),
              PercentOrDash(r.ape), interval,
              r.inside_interval ? (*r.inside_interval ? "yes" : "no") : "-", r.form,
              Fixed(100 * r.rolling_median_ape, 1) + "%", Fixed(100 * r.rolling_coverage, 1) + "%"});
  }
  t.Print(out);
  out << "\nover " << bt.summary.predicted << " predicted runs: median APE "
      << Fixed(100 * bt.summary.median_ape, 1) << "%, P90 " << Fixed(100 * bt.summary.p90_ape, 1)
      << "%, interval coverage " << Fixed(100 * bt.coverage, 1) << "%\n";
}

}  // namespace

void AddBacktestCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<BacktestFlags>();
  cmd.footer(
      "The runs CSV needs a numeric time column (e.g. Unix seconds of submission). With --store,\n"
      "the Spark applications of one name are replayed in start order (executors, cores per\n"
      "executor, executor memory and input bytes as the configuration, duration as the runtime).\n"
      "Examples:\n  perfplan backtest --runs history.csv --workload etl --time-column "
      "submitted_at\n  perfplan backtest --store spark.db --app-name \"Spark shell\" --min-history "
      "2");
  auto* runs = cmd.add_option("--runs", flags->request.runs_file, "Runs CSV with a time column");
  auto* workload =
      cmd.add_option("--workload", flags->request.workload, "Workload to replay (with --runs)");
  auto* store = cmd.add_option("--store", flags->store.store_path,
                               "Profile store: replay its Spark applications instead");
  auto* name = cmd.add_option("--app-name", flags->store.app_name,
                              "With --store: the applications of this exact name");
  runs->excludes(store)->needs(workload);
  store->needs(name);
  workload->needs(runs);
  name->needs(store);
  cmd.add_option("--time-column", flags->request.time_column,
                 "Column giving each run's time (default: time)");
  cmd.add_option("--min-history", flags->request.options.min_history_runs,
                 "Completed earlier runs needed before predicting (default 3)")
      ->check(CLI::Range(2, 1000000));
  cmd.add_option("--refit-every", flags->request.options.refit_every,
                 "Runs predicted per model refit (default 1: each from exactly the runs before "
                 "it; K: 1/K of the refits, each run from the runs before its block of K)")
      ->check(CLI::Range(1, 1000000));
  AddJsonFlag(cmd, flags->json, "a table");
  cmd.callback([flags, &ctx] {
    if (!flags->store.store_path.empty()) {
      flags->store.options = flags->request.options;
      return WriteAnswer(ctx, "backtest", flags->json, planner::AnswerStoreBacktest(flags->store),
                         [](std::ostream& out, const planner::StoreBacktestAnswer& a) {
                           PrintBacktest(out, a.answer, a.app_ids);
                           for (const std::string& n : a.notes) out << "note: " << n << "\n";
                         });
    }
    if (flags->request.runs_file.empty()) {
      return ReportError(ctx, "backtest",
                         Status::InvalidArgument("give --runs FILE --workload W or --store DB "
                                                 "--app-name NAME"),
                         flags->json);
    }
    WriteAnswer(ctx, "backtest", flags->json, planner::AnswerBacktest(flags->request),
                [](std::ostream& out, const planner::BacktestAnswer& a) { PrintBacktest(out, a); });
  });
}

}  // namespace perfplan::cli
