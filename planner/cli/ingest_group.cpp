// The `ingest` parent command. Several command files add verbs to it (`ingest hdfs`,
// `ingest spark`), so whichever registers first creates it and the others reuse it.
#include "planner/cli/command.h"

namespace perfplan::cli {

CLI::App* IngestGroup(CLI::App& app) {
  // CLI11 2.1 has no get_subcommand_no_throw(); look the parent up among the subcommands.
  for (CLI::App* existing : app.get_subcommands([](CLI::App*) { return true; })) {
    if (existing->get_name() == "ingest") return existing;
  }
  CLI::App* group = app.add_subcommand("ingest", "Collect logs and event files into the store");
  group->require_subcommand(1);
  return group;
}

void AddIngestCommands(CLI::App& app, CliContext& ctx) {
  AddIngestSparkCommand(app, ctx);
  AddIngestHdfsCommand(app, ctx);
  AddIngestMapReduceCommand(app, ctx);
}

}  // namespace perfplan::cli
