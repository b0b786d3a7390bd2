#include "planner/cli/command.h"

namespace perfplan::cli {

CLI::App* ImportGroup(CLI::App& app) {
  // CLI11 2.1 has no get_subcommand_no_throw(); look the parent up by name.
  for (CLI::App* sub : app.get_subcommands([](CLI::App* a) { return a->get_name() == "import"; })) {
    return sub;
  }
  CLI::App* group = app.add_subcommand("import", "Convert measurements of other tools to runs CSV");
  group->require_subcommand(1);
  return group;
}

}  // namespace perfplan::cli
