#include <ostream>

#include "planner/cli/command.h"
#include "planner/runtime/fit_eval.h"

namespace perfplan::cli {
namespace {

struct ImportScoutFlags {
  std::string dir;
  std::vector<std::string> dataset_bytes;
  bool json = false;
};

}  // namespace

void AddImportScoutCommand(CLI::App& parent, CliContext& ctx) {
  auto flags = std::make_shared<ImportScoutFlags>();
  CLI::App* cmd =
      AddVerb(parent, "scout", "Scout report.json folders (oxhead/scout) to a runs CSV on stdout");
  cmd->footer(
      "workload = <workload>_<framework>; instance_type and compute_nodes from the folder name;\n"
      "dataset_bytes from input_size (or --dataset-bytes for a workload that records none);\n"
      "bandwidth from the instance-type table (docs/fit.md).\n"
      "Example:\n  perfplan import scout ../shared/data/04-workload-runtime-traces/scout > "
      "runs.csv");
  cmd->add_option("DIR", flags->dir, "Folder holding <nodes>_<type>_<workload>_... folders")
      ->required();
  cmd->add_option("--dataset-bytes", flags->dataset_bytes,
                  "WORKLOAD=BYTES: the input size of a workload whose reports record none "
                  "(input_size -1; repeatable)");
  cmd->add_flag("--json", flags->json, "Print the runs as one JSON document instead of CSV");
  cmd->callback([flags, &ctx] {
    Result<planner::ImportScoutAnswer> answer = planner::AnswerImportScout(flags->dir, flags->dataset_bytes);
    if (!answer.ok()) return ReportError(ctx, "import scout", answer.status(), flags->json);
    *ctx.out << (flags->json ? planner::ToJson(answer.value()) : answer.value().csv);
  });
}

}  // namespace perfplan::cli
