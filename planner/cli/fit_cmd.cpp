#include <fstream>
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/table.h"
#include "planner/runtime/fit_eval.h"
#include "profiles/runtime/profile_writer.h"

namespace perfplan::cli {
namespace {

struct FitFlags {
  planner::FitRequest request;
  std::string out_file;
  bool json = false;
};

std::vector<std::string> FitComments(const planner::FitAnswer& a) {
  std::vector<std::string> c;
  const models::RuntimeFit& f = a.fit;
  c.push_back("Fitted by perfplan fit from " + a.runs_file + ": workload " + f.workload + " on " +
              f.instance_type + ", " + std::to_string(f.runs_used.size()) + " runs");
  c.push_back("weighted RMS relative residual " + Fixed(f.weighted_rms, 4));
  for (std::size_t k = 0; k < f.runs_used.size(); ++k) {
    const models::MeasuredRun& r = a.runs[f.runs_used[k]];
    c.push_back("  line " + std::to_string(a.run_lines[f.runs_used[k]]) + ": " +
                Fixed(r.compute_nodes, 0) + " nodes, " + (r.completed ? "measured " : "bound ") +
                Fixed(r.runtime_seconds, 1) + " s, residual " + Fixed(f.residual_seconds[k], 1) +
                " s");
  }
  for (const std::string& n : f.notes) c.push_back(n);
  if (a.choice) {
    c.push_back(a.choice->reason + (a.choice->chosen == models::RuntimeForm::kFreerideG
                                        ? std::string()
                                        : "; this profile holds the freeride-g fit, which a "
                                          "profile can express (perfplan evaluate uses the "
                                          "chosen form)"));
  }
  for (const std::string& w : a.warnings) c.push_back("warning: " + w);
  return c;
}

}  // namespace

void AddFitCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<FitFlags>();
  cmd.footer(
      "Prints the profile as YAML (or JSON with --json), ready for `perfplan predict`.\n"
      "Example:\n  perfplan import scout ../shared/data/04-workload-runtime-traces/scout > "
      "runs.csv\n"
      "  perfplan fit --runs runs.csv --workload lr_spark --instance-type r4.xlarge > lr.yaml\n"
      "  perfplan predict --profile lr.yaml --dataset-bytes 48060212000 --storage-nodes 12 "
      "--compute-nodes 12 --bandwidth-bytes-per-second 156250000");
  AddRunsOptions(cmd, flags->request.runs_file, flags->request.workload, "fit");
  cmd.add_option("--instance-type", flags->request.instance_type,
                 "Instance type to fit on (default: the one with the most completed runs)");
  cmd.add_option("--train", flags->request.train_expression,
                 "Only rows matching this filter, e.g. \"compute_nodes<=10\"");
  cmd.add_option("--out", flags->out_file,
                 "Write the YAML profile here (- = stdout); print a summary");
  cmd.add_flag("--json", flags->json, "Print one JSON document (a profile plus \"fit\")");
  cmd.callback([flags, &ctx] {
    Result<planner::FitAnswer> answer = planner::AnswerFit(flags->request);
    if (!answer.ok()) return ReportError(ctx, "fit", answer.status(), flags->json);
    const planner::FitAnswer& a = answer.value();
    for (const std::string& w : a.warnings) *ctx.err << "perfplan fit: warning: " << w << "\n";
    const std::string yaml =
        profiles::WriteProfileYaml(a.profile, a.fit.instance_type, "", FitComments(a));
    if (!flags->out_file.empty()) {
      if (Status s = WriteOutput(ctx, flags->out_file, yaml); !s.ok()) {
        return ReportError(ctx, "fit", s, flags->json);
      }
    }
    if (flags->json) {
      *ctx.out << planner::ToJson(a);
    } else if (flags->out_file == "-") {
      // The profile went to standard output; the summary table would corrupt it.
    } else if (flags->out_file.empty()) {
      *ctx.out << yaml;
    } else {
      Table t({"line", "nodes", "runtime s", "completed", "residual s"});
      for (std::size_t k = 0; k < a.fit.runs_used.size(); ++k) {
        const models::MeasuredRun& r = a.runs[a.fit.runs_used[k]];
        t.AddRow({std::to_string(a.run_lines[a.fit.runs_used[k]]), Fixed(r.compute_nodes, 0),
                  Fixed(r.runtime_seconds, 1), r.completed ? "yes" : "no (bound)",
                  Fixed(a.fit.residual_seconds[k], 1)});
      }
      *ctx.out << "profile of " << a.fit.workload << " on " << a.fit.instance_type << " written to "
               << flags->out_file << "\n";
      if (a.choice) *ctx.out << a.choice->reason << "\n";
      *ctx.out << "\n";
      t.Print(*ctx.out);
    }
  });
}

}  // namespace perfplan::cli
