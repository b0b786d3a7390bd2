// The `simulate` parent command. Several command files add verbs to it (`simulate hindex`,
// `simulate hdfs`, …); whichever registers first creates it, the others find it.
#include "planner/cli/command.h"

namespace perfplan::cli {

CLI::App* SimulateGroup(CLI::App& app) {
  // CLI11 2.1 has no get_subcommand_no_throw(); look the name up in the definition list.
  std::vector<CLI::App*> found =
      app.get_subcommands([](CLI::App* sub) { return sub->get_name() == "simulate"; });
  if (!found.empty()) return found.front();
  CLI::App* group = app.add_subcommand(
      "simulate", "Synthetic inputs with known answers (simulate hindex, simulate hdfs)");
  group->require_subcommand(1);
  return group;
}

void AddSimulateCommands(CLI::App& app, CliContext& ctx) {
  AddSimulateHIndexCommand(app, ctx);
  AddSimulateHdfsCommand(app, ctx);
}

}  // namespace perfplan::cli
