// `perfplan export`: answers as CSV or JSON tables for spreadsheets and scripts.
#include <ostream>

#include "planner/cli/command.h"
#include "planner/output/export.h"
#include "planner/output/backtest_export.h"
#include "planner/output/mapreduce_export.h"
#include "planner/mapreduce/mapreduce_runs.h"
#include "planner/output/report.h"
#include "planner/runtime/store_backtest.h"

namespace perfplan::cli {
namespace {

struct ExportFlags {
  std::string what;
  std::string format = "csv";
  std::string out;
  std::string objective = "time";
  std::string prices;  // plan, capacity
  planner::ExportRequest request;
  planner::BacktestRequest backtest;  // backtest from a runs CSV (--runs)
  std::string app_name;               // backtest from the store (--app-name)
};

// --what backtest: from --runs (CSV) or from the store's applications named --app-name.
Result<planner::ExportTable> BacktestExport(const ExportFlags& f) {
  if (!f.backtest.runs_file.empty()) {
    Result<planner::BacktestAnswer> a = planner::AnswerBacktest(f.backtest);
    if (!a.ok()) return a.status();
    return planner::BacktestTable(a.value());
  }
  if (f.app_name.empty()) {
    return Status::InvalidArgument(
        "--what backtest needs --runs FILE --workload W or --app-name NAME (with --store)");
  }
  Result<planner::StoreBacktestAnswer> a =
      planner::AnswerStoreBacktest({f.request.store_path, f.app_name, {}});
  if (!a.ok()) return a.status();
  return planner::BacktestTable(a.value().answer, a.value().app_ids);
}

}  // namespace

void AddExportCommand(CLI::App& cmd, CliContext& ctx) {
  auto f = std::make_shared<ExportFlags>();
  cmd.footer(
      "Examples:\n  perfplan export --what predictions --profile examples/profiles/kmeans.yaml "
      "--dataset-bytes 2e9,8e9 --storage-nodes 4 --compute-nodes 4,8,16 "
      "--bandwidth-bytes-per-second 1.25e8 --format csv\n"
      "  perfplan export --what selection --profile examples/profiles/knn.yaml "
      "--topology examples/topology.yaml --dataset sensor-archive --format json\n"
      "  perfplan export --what stragglers local-1430917381534 --store spark.db\n"
      "  perfplan export --what scores --store spark.db --format csv\n"
      "  perfplan export --what sensitivity --model wordcount.model.json\n"
      "  perfplan export --what workload --store hdfs.db --format json\n"
      "  perfplan export --what plan --profile examples/profiles/kmeans.yaml --topology "
      "examples/topology.yaml --dataset sky-survey --prices examples/prices/grid.yaml "
      "--objective cost\n"
      "  perfplan export --what plan app-20161116163331-0000 --store spark.db --nodes 1,2,4\n"
      "  perfplan export --what plan --profile examples/profiles/kmeans.yaml --topology "
      "examples/topology.yaml --dataset sky-survey --runs runs.csv --workload sort --format json"
      "   (a combined plan)\n"
      "  perfplan export --what capacity --trace examples/swim/fb2009_first50.tsv --profile "
      "examples/profiles/kmeans.yaml --nodes 4,16,64\n"
      "  perfplan export --what backtest --store spark.db --app-name \"Spark shell\" --format "
      "json\n"
      "  perfplan export --what stragglers job_1329348432655_0001 --store mr.db\n"
      "  perfplan export --what runs --store mr.db --out jobs.csv   (MapReduce jobs as a runs "
      "CSV for fit and backtest)");
  cmd.add_option("--what", f->what,
                 "predictions, selection, scores, sensitivity, stragglers, workload, plan, "
                 "capacity, backtest or runs (the store's MapReduce jobs)")
      ->required()
      ->check(CLI::IsMember({"predictions", "selection", "scores", "sensitivity", "stragglers",
                             "workload", "plan", "capacity", "backtest", "runs"}));
  cmd.add_option("--runs", f->backtest.runs_file,
                 "backtest: runs CSV with a time column; plan: runs CSV to plan from");
  cmd.add_option("--workload", f->backtest.workload, "backtest, plan: workload of --runs");
  cmd.add_option("--time-column", f->backtest.time_column,
                 "backtest: time column of --runs (default: time)");
  cmd.add_option("--app-name", f->app_name,
                 "backtest: the store's Spark applications of this exact name");
  cmd.add_option("--format", f->format, "csv (default) or json")
      ->check(CLI::IsMember({"csv", "json"}));
  cmd.add_option("--out", f->out, "Write to FILE (atomically) instead of stdout (- = stdout)");
  cmd.add_option("--profile", f->request.profile_file,
                 "predictions, selection: profile summary (YAML or JSON)");
  cmd.add_option(
      "app", f->request.app_id,
      "stragglers: Spark application or MapReduce job id; scores: only this application; plan: the "
      "Spark application (name or id) to plan from --store");
  cmd.add_option("--store", f->request.store_path,
                 "stragglers, scores, workload, plan APP, capacity, runs: profile store "
                 "(default perfplan.db)");
  cmd.add_option("--model", f->request.model_file,
                 "sensitivity: model saved by `perfplan tune train`");
  cmd.add_flag("--maximize", f->request.maximize, "sensitivity: higher is better for the target");
  cmd.add_option("--from", f->request.workload.from,
                 "workload, capacity: window start (time or epoch ms)");
  cmd.add_option("--to", f->request.workload.to, "workload, capacity: window end (exclusive)");
  cmd.add_option("--dataset-bytes", f->request.dataset_bytes, "predictions: sizes, comma-separated")
      ->delimiter(',');
  cmd.add_option("--storage-nodes", f->request.storage_nodes, "predictions: storage node counts")
      ->delimiter(',');
  cmd.add_option("--compute-nodes", f->request.compute_nodes, "predictions: compute node counts")
      ->delimiter(',');
  cmd.add_option("--bandwidth-bytes-per-second", f->request.bandwidth_bytes_per_second,
                 "predictions: bandwidths")
      ->delimiter(',');
  cmd.add_option("--cluster", f->request.cluster_file,
                 "predictions: topology for --site hardware factors");
  cmd.add_option("--site", f->request.site, "predictions: target site in --cluster");
  cmd.add_option("--topology", f->request.topology_file, "selection: cluster topology");
  cmd.add_option("--dataset", f->request.select.dataset, "selection: dataset name");
  cmd.add_option("--objective", f->objective, "selection: time or node-seconds; plan: also cost")
      ->check(CLI::IsMember({"time", "node-seconds", "cost"}));
  cmd.add_option("--max-compute-nodes", f->request.select.max_compute_nodes,
                 "selection: node budget")
      ->check(CLI::Range(0, 1 << 30));
  cmd.add_option("--deadline-seconds", f->request.select.deadline_seconds, "selection: deadline")
      ->check(CLI::Range(0.0, 1e300));
  cmd.add_option("--top", f->request.select.top, "selection: rows (0 = all)")
      ->check(CLI::Range(0, 1 << 30));
  cmd.add_option("--prices", f->prices, "plan, capacity: price file (YAML)");
  cmd.add_option("--budget", f->request.plan.budget,
                 "plan: drop alternatives costing more (0 = none)")
      ->check(CLI::Range(0.0, 1e300));
  cmd.add_option("--trace", f->request.capacity.trace_file,
                 "capacity: SWIM trace (.tsv); without it, the jobs of --store");
  cmd.add_option("--nodes", f->request.capacity.cluster_nodes,
                 "capacity: cluster sizes; plan APP: executor counts (comma-separated)")
      ->delimiter(',');
  cmd.add_option("--price-site", f->request.capacity.price_site,
                 "capacity: the price entry that applies");
  cmd.add_option("--within-hours", f->request.capacity.within_hours,
                 "capacity: makespan target in hours")
      ->check(CLI::Range(0.0, 1e300));
  cmd.callback([f, &ctx] {
    auto emit = [&](const Result<planner::ExportTable>& table) {
      if (!table.ok()) return ReportError(ctx, "export", table.status(), false);
      const std::string text =
          f->format == "csv" ? planner::ToCsv(table.value()) : planner::ToJson(table.value());
      if (Status s = WriteOutput(ctx, f->out.empty() ? "-" : f->out, text); !s.ok()) {
        ReportError(ctx, "export", s, false);
      }
    };
    if (f->what == "backtest") return emit(BacktestExport(*f));
    if (f->what == "runs") {
      std::vector<std::string> notes;
      auto table = planner::JobRunsTable(f->request.store_path, &notes);
      for (const std::string& n : notes) *ctx.err << "note: " << n << "\n";
      return emit(table);
    }
    if (f->what == "stragglers" && planner::IsMapReduceJobId(f->request.app_id)) {
      return emit(planner::AnswerMapReduceStragglersExport(f->request.store_path,
                                                           f->request.app_id,
                                                           f->request.stragglers.options));
    }
    planner::ExportRequest request = f->request;
    planner::Parse(f->what, &request.what);  // --what is checked against the kinds above
    request.plan.price_file = request.capacity.price_file = f->prices;
    if (request.what == planner::ExportKind::kPlan) {
      request.plan.node_counts = request.capacity.cluster_nodes;  // node or executor counts
      request.plan.runs_file = f->backtest.runs_file;
      request.plan.workload = f->backtest.workload;
    }
    if (request.what == planner::ExportKind::kCapacity) {  // the fitted history's runs
      request.capacity.runs_file = f->backtest.runs_file;
      request.capacity.workload = f->backtest.workload;
      if (Status s = planner::ParseCapacityWindow(request.workload.from, request.workload.to,
                                                  &request.capacity.window);
          !s.ok())
        return ReportError(ctx, "export", s, false);
    }
    planner::Parse(f->objective, &request.plan.objective);
    if (!planner::Parse(f->objective, &request.select.objective) &&
        request.what != planner::ExportKind::kPlan) {
      return ReportError(ctx, "export",
                         Status::InvalidArgument("--objective " + f->objective +
                                                 " is for --what plan"),
                         false);
    }
    emit(planner::AnswerExport(request));
  });
}

}  // namespace perfplan::cli
