// The `ingest` parent command, shared by every ingester (`ingest spark`, `ingest hdfs`, …): the
// first command file to ask creates it, later ones add their verb to the same subcommand.
#include "planner/cli/command.h"

namespace perfplan::cli {

CLI::App* IngestGroup(CLI::App& app) {
  // CLI11 2.1 has no get_subcommand_no_throw; the filtered overload searches every subcommand.
  auto existing = app.get_subcommands([](CLI::App* sub) { return sub->get_name() == "ingest"; });
  if (!existing.empty()) return existing.front();
  CLI::App* group = app.add_subcommand("ingest", "Read evidence into the profile store");
  group->require_subcommand(1);
  return group;
}

}  // namespace perfplan::cli
