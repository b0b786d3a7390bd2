// The `simulate` parent command. Several command files add verbs to it (`simulate hdfs`,
// `simulate hindex`), so whichever registers first creates it and the others reuse it.
#include "planner/cli/command.h"

namespace perfplan::cli {

CLI::App* SimulateGroup(CLI::App& app) {
  // CLI11 2.1 has no get_subcommand_no_throw(); look the parent up among the subcommands.
  for (CLI::App* existing : app.get_subcommands([](CLI::App*) { return true; })) {
    if (existing->get_name() == "simulate") return existing;
  }
  CLI::App* group = app.add_subcommand("simulate", "Generate inputs with known answers");
  group->require_subcommand(1);
  return group;
}

}  // namespace perfplan::cli
