// `perfplan report`: one self-contained HTML file with SVG charts of the evidence given.
#include <ostream>

#include "planner/cli/command.h"
#include "planner/output/report.h"

namespace perfplan::cli {

void AddReportCommand(CLI::App& cmd, CliContext& ctx) {
  struct Flags {
    planner::ReportRequest request;
    bool json = false;
  };
  auto f = std::make_shared<Flags>();
  cmd.footer(
      "Examples:\n  perfplan report --out report.html --profiles examples/profiles/*.yaml "
      "--topology examples/topology.yaml --prices examples/prices/grid.yaml\n"
      "  perfplan report --out spark.html --store perfplan.db --app app-20240101-0001");
  cmd.add_option("--out", f->request.out_file,
                 "HTML file to write (atomically); - for standard output")
      ->required();
  cmd.add_option("--store", f->request.store_path,
                 "Store: Lorenz curves per Spark stage, per-DataNode HDFS load");
  cmd.add_option("--profiles", f->request.profile_files,
                 "Profiles: each run predicted from the others (leave one out)");
  cmd.add_option("--topology", f->request.topology_file,
                 "With --profiles: selection breakdown for each dataset of the topology");
  cmd.add_option("--dataset", f->request.dataset, "With --topology: only this dataset");
  cmd.add_option("--runs", f->request.runs_file, "Runs CSV: predicted against measured");
  cmd.add_option("--workload", f->request.workload, "With --runs: workload to evaluate");
  cmd.add_option("--train", f->request.train_expression, "With --runs: training rows filter");
  cmd.add_option("--app", f->request.app_id,
                 "With --store: only this Spark application or MapReduce job");
  cmd.add_option("--tune-model", f->request.tune_model_file,
                 "Saved tuning model (perfplan tune train): sensitivity bars");
  cmd.add_option("--prices", f->request.price_file,
                 "Price file (YAML), with --topology or --runs: cost column and cost-vs-time "
                 "Pareto chart");
  cmd.add_flag("--json", f->json, "Print {out, sections, charts, warnings} as JSON");
  cmd.callback([f, &ctx] {
    const bool to_stdout = f->request.out_file == "-";
    auto answer = to_stdout ? planner::BuildReport(f->request) : planner::AnswerReport(f->request);
    if (!answer.ok()) return ReportError(ctx, "report", answer.status(), f->json);
    const planner::ReportAnswer& a = answer.value();
    if (to_stdout) {
      *ctx.out << a.html;  // the page is the answer; --json and the summary would corrupt it
    } else if (f->json) {
      *ctx.out << planner::ToJson(a);
    } else {
      *ctx.out << "wrote " << a.out_file << ": " << a.charts << " charts in " << a.sections.size()
               << " sections\n";
      for (const planner::ReportSection& s : a.sections)
        *ctx.out << "  " << s.id << ": " << s.charts << " charts\n";
    }
    for (const std::string& w : a.warnings) *ctx.err << "perfplan report: warning: " << w << "\n";
  });
}

}  // namespace perfplan::cli
