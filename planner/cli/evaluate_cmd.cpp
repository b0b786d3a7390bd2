#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/table.h"
#include "planner/runtime/fit_eval.h"

namespace perfplan::cli {
namespace {

struct EvaluateFlags {
  planner::EvaluateRequest request;
  std::string heterogeneity = "hardware";
  std::string form;
  bool json = false;
};

void PrintEvaluation(std::ostream& out, const planner::EvaluateAnswer& a) {
  const models::Evaluation& ev = a.evaluation;
  out << ev.workload << ": trained on " << ev.train_rows.size() << " rows (" << a.train_expression
      << "), predicting " << ev.rows.size() << "; other instance types via "
      << models::ToString(ev.heterogeneity) << "\n";
  if (ev.choice) out << ev.choice->reason << "\n";
  out << "\n";
  Table t({"line", "instance_type", "nodes", "measured s", "perfplan s", "APE", "interval s",
           "Ernest APE", "Amdahl APE", "method"});
  for (const models::EvaluatedRow& r : ev.rows) {
    std::string interval = "-";
    if (r.interval_low_seconds) {
      interval = Fixed(*r.interval_low_seconds, 0) + ".." + Fixed(*r.interval_high_seconds, 0);
    }
    t.AddRow({std::to_string(a.row_lines[r.row]), r.run.instance_type,
              Fixed(r.run.compute_nodes, 0),
              Fixed(r.run.runtime_seconds, 0) + (r.run.completed ? "" : " (bound)"),
              FixedOrDash(r.predicted_seconds, 0), PercentOrDash(r.ape), interval,
              PercentOrDash(r.ernest_ape), PercentOrDash(r.amdahl_ape), r.method});
  }
  t.Print(out);
  out << "\n";
  Table s({"model", "rows", "median APE", "P90 APE", "mean APE"});
  auto row = [&](const char* name, const models::ErrorSummary& e) {
    s.AddRow({name, std::to_string(e.predicted), Fixed(100 * e.median_ape, 1) + "%",
              Fixed(100 * e.p90_ape, 1) + "%", Fixed(100 * e.mean_ape, 1) + "%"});
  };
  row("perfplan", ev.perfplan);
  row("perfplan (Ernest's rows)", ev.perfplan_on_ernest_rows);
  row("Ernest", ev.ernest);
  row("Amdahl", ev.amdahl);
  s.Print(out);
  out << "\n"
      << Fixed(100 * a.interval_level, 0) << "% prediction intervals (CV+ on log residuals"
      << (ev.interval_noise_references
              ? ", with " + std::to_string(ev.interval_noise_references) + " reference errors"
              : std::string())
      << "): " << Fixed(100 * ev.interval_coverage, 1) << "% of measurements inside\n";
  if (ev.selection.available) {
    const models::SelectionCheck& sel = ev.selection;
    const models::MeasuredRun& p = a.rows[sel.picked_row];
    const models::MeasuredRun& b = a.rows[sel.best_row];
    out << "selection by predicted node-seconds: " << Fixed(p.compute_nodes, 0) << " x "
        << p.instance_type << " (line " << a.row_lines[sel.picked_row] << "), measured "
        << Fixed(sel.picked_measured_node_seconds, 0) << " node-s"
        << (sel.picked_completed ? "" : " (did not complete: lower bound)") << "; best measured "
        << Fixed(b.compute_nodes, 0) << " x " << b.instance_type << ", "
        << Fixed(sel.best_measured_node_seconds, 0) << " node-s; gap " << Fixed(100 * sel.gap, 1)
        << "%\n";
  }
  if (ev.censored_rows) {
    out << "censored rows: " << ev.censored_rows << ", prediction above the bound for "
        << ev.censored_respected << "\n";
  }
  for (const std::string& n : ev.notes) out << "note: " << n << "\n";
}

}  // namespace

void AddEvaluateCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<EvaluateFlags>();
  cmd.footer(
      "--train is a conjunction of `column OP value` terms joined by `and`, OP one of\n"
      "= != < <= > >=, over the runs CSV columns.\n"
      "Example:\n  perfplan evaluate --runs runs.csv --workload terasort_hadoop "
      "--train \"instance_type=r4.xlarge and compute_nodes<=8\"");
  AddRunsOptions(cmd, flags->request.runs_file, flags->request.workload, "evaluate");
  cmd.add_option("--train", flags->request.train_expression, "Rows to train on")->required();
  cmd.add_flag("!--no-intervals", flags->request.options.intervals,
               "Skip the prediction intervals");
  cmd.add_option("--form", flags->form,
                 "Use this runtime form instead of choosing by cross-validation: freeride-g, "
                 "serial-floor, log-nodes, communication, memory, ernest (docs/fit.md)")
      ->check(CLI::IsMember(
          {"freeride-g", "serial-floor", "log-nodes", "communication", "memory", "ernest"}));
  cmd.add_option("--interval-level", flags->request.options.interval_level,
                 "Central coverage of the prediction intervals")
      ->check(CLI::Range(0.01, 0.999));
  cmd.add_option("--heterogeneity", flags->heterogeneity,
                 "Reaching other instance types: hardware (instance-type table) or references "
                 "(factors from the other workloads, DESIGN §3.1)")
      ->check(CLI::IsMember({"hardware", "references"}));
  AddJsonFlag(cmd, flags->json, "tables");
  cmd.callback([flags, &ctx] {
    models::Parse(flags->heterogeneity, &flags->request.options.heterogeneity);
    if (!flags->form.empty()) {
      models::RuntimeForm form = models::RuntimeForm::kFreerideG;
      models::Parse(flags->form, &form);
      flags->request.options.candidates = {form};
    }
    WriteAnswer(ctx, "evaluate", flags->json, planner::AnswerEvaluate(flags->request),
                PrintEvaluation);
  });
}

}  // namespace perfplan::cli
