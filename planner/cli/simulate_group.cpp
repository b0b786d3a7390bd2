// The verbs of `perfplan simulate` (main creates the parent from the command table).
#include "planner/cli/command.h"

namespace perfplan::cli {

void AddSimulateCommands(CLI::App& parent, CliContext& ctx) {
  AddSimulateHIndexCommand(parent, ctx);
  AddSimulateHdfsCommand(parent, ctx);
}

}  // namespace perfplan::cli
