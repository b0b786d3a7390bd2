// The `collect` parent command: verbs (`collect ganglia`, later others) attach to one subcommand.
#include "planner/cli/command.h"

namespace perfplan::cli {

CLI::App* CollectGroup(CLI::App& app) {
  // CLI11 2.1 has no get_subcommand_no_throw: filter the existing subcommands instead.
  std::vector<CLI::App*> existing =
      app.get_subcommands([](CLI::App* sub) { return sub->get_name() == "collect"; });
  if (!existing.empty()) return existing.front();
  CLI::App* group = app.add_subcommand("collect", "Collect live evidence from cluster daemons");
  group->require_subcommand(1);
  return group;
}

}  // namespace perfplan::cli
