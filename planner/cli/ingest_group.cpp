// The verbs of `perfplan ingest` (main creates the parent from the command table).
#include "planner/cli/command.h"

namespace perfplan::cli {

void AddIngestCommands(CLI::App& parent, CliContext& ctx) {
  AddIngestSparkCommand(parent, ctx);
  AddIngestHdfsCommand(parent, ctx);
  AddIngestMapReduceCommand(parent, ctx);
}

}  // namespace perfplan::cli
