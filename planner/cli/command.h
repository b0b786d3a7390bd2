// The perfplan command table. Each subcommand lives in its own file and registers its flags and
// handler on the CLI11 app; main.cpp only walks the table. CLI11 is included through the target's
// precompiled header, so this header stays cheap.
#pragma once

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>
#include <vector>

#include "models/status.h"

namespace perfplan::cli {

// Where a command writes and what it returns. Commands never call exit().
struct CliContext {
  std::ostream* out = nullptr;  // answers (human tables or one JSON document)
  std::ostream* err = nullptr;  // errors and warnings for people
  int exit_code = 0;            // 0 ok, 1 the operation failed, 2 bad usage or bad input
};

struct CommandSpec {
  const char* name;
  const char* summary;
  void (*add)(CLI::App& app, CliContext& ctx);
};

// Every subcommand, in the order `perfplan --help` lists them.
const std::vector<CommandSpec>& Commands();

// Reports a failed Status on stderr ("perfplan NAME: error: ...", plus a JSON error document on
// stdout when json is set) and sets the exit code: 2 for bad input, 1 for a failed operation.
void ReportError(CliContext& ctx, const std::string& command, const Status& status, bool json);

// The exit code for a Status: 0 ok, 2 invalid argument / not found, 1 failed.
int ExitCodeFor(const Status& status);

// Writes `text` to the file an `--out`-like flag names, or to ctx.out when the name is "-" (the
// convention for standard output). Files are written atomically (temp file + rename). Failed
// with the path and strerror when the file cannot be written.
Status WriteOutput(CliContext& ctx, const std::string& path, const std::string& text);

// Registers the commands defined in each command file.
void AddPredictCommand(CLI::App& app, CliContext& ctx);
void AddSelectCommand(CLI::App& app, CliContext& ctx);
void AddValidateCommand(CLI::App& app, CliContext& ctx);
void AddDemoCommand(CLI::App& app, CliContext& ctx);
void AddServeCommand(CLI::App& app, CliContext& ctx);
void AddExportCommand(CLI::App& app, CliContext& ctx);
void AddReportCommand(CLI::App& app, CliContext& ctx);
void AddHIndexCommand(CLI::App& app, CliContext& ctx);
void AddSimulateHIndexCommand(CLI::App& app, CliContext& ctx);
void AddStragglersCommand(CLI::App& app, CliContext& ctx);

// The `simulate` parent command: returns it when another command file already created it, else
// creates it (requiring one verb). Verbs attach with SimulateGroup(app)->add_subcommand(...).
CLI::App* SimulateGroup(CLI::App& app);
// Every `simulate` verb (simulate_group.cpp): one row of the command table.
void AddSimulateCommands(CLI::App& app, CliContext& ctx);
void AddTuneCommand(CLI::App& app, CliContext& ctx);
void AddIngestHdfsCommand(CLI::App& app, CliContext& ctx);
void AddWorkloadCommand(CLI::App& app, CliContext& ctx);
void AddSimulateHdfsCommand(CLI::App& app, CliContext& ctx);
void AddHdfsCommand(CLI::App& app, CliContext& ctx);

// The `ingest` parent: returns the existing subcommand of `app`, or creates it on first use.
CLI::App* IngestGroup(CLI::App& app);
void AddFitCommand(CLI::App& app, CliContext& ctx);
void AddEvaluateCommand(CLI::App& app, CliContext& ctx);
void AddImportScoutCommand(CLI::App& app, CliContext& ctx);

// The `import` parent command (shared by every importer): the existing one, or a new one.
CLI::App* ImportGroup(CLI::App& app);
void AddCollectGangliaCommand(CLI::App& app, CliContext& ctx);

// The `collect` parent command, created on first use (several verbs attach to it).
CLI::App* CollectGroup(CLI::App& app);
void AddIngestSparkCommand(CLI::App& app, CliContext& ctx);
void AddSparkCommand(CLI::App& app, CliContext& ctx);
void AddAppsCommand(CLI::App& app, CliContext& ctx);
void AddAppCommand(CLI::App& app, CliContext& ctx);
void AddWhatIfExecutorsCommand(CLI::App& app, CliContext& ctx);

// The `whatif` parent subcommand: returns it when already created, else creates it.
CLI::App* WhatIfGroup(CLI::App& app);
// `perfplan label APP io|compute` and `perfplan classify` (label_cmd.cpp), `perfplan score APP`
// and `perfplan scores` (score_cmd.cpp): task types and heuristic scores of stored Spark
// applications.
void AddLabelCommand(CLI::App& app, CliContext& ctx);
void AddClassifyCommand(CLI::App& app, CliContext& ctx);
void AddScoreCommand(CLI::App& app, CliContext& ctx);
void AddScoresCommand(CLI::App& app, CliContext& ctx);
// Every `ingest` verb (ingest_group.cpp): one row of the command table.
void AddIngestCommands(CLI::App& app, CliContext& ctx);

}  // namespace perfplan::cli
