// The perfplan command table. main.cpp creates each top-level subcommand from its row (name and
// summary, which is also the `perfplan --help` line) and hands it to the row's add function, which
// lives in the command's own file and registers flags, verbs and the handler. CLI11 is included
// through the target's precompiled header, so this header stays cheap.
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
  const char* name;     // the subcommand: `perfplan NAME`
  const char* summary;  // its one-line description in `perfplan --help`
  // Fills in the subcommand main created for this row (flags, verbs, handler).
  void (*add)(CLI::App& command, CliContext& ctx);
};

// Every subcommand, in the order `perfplan --help` lists them.
const std::vector<CommandSpec>& Commands();

// A library Status in the CLI's words: the fields a flag sets become the flag (train → --train,
// to_ms → --to, sources → --node, …): the status's field where it starts the message ("train:
// column 1: …" reads "--train: column 1: …"), and a snake_case field anywhere as a word ("to_ms:
// must be after from_ms" reads "--to: must be after --from"). Code and field() are kept.
Status InFlagTerms(const Status& status);

// Reports a failed Status on stderr ("perfplan NAME: error: ...", plus a JSON error document on
// stdout when json is set) in flag terms (InFlagTerms) and sets the exit code: 2 for bad input,
// 1 for a failed operation.
void ReportError(CliContext& ctx, const std::string& command, const Status& status, bool json);

// The exit code for a Status: 0 ok, 2 invalid argument / not found, 1 failed.
int ExitCodeFor(const Status& status);

// Writes `text` to the file an `--out`-like flag names, or to ctx.out when the name is "-" (the
// convention for standard output). Files are written atomically (temp file + rename). Failed
// with the path and strerror when the file cannot be written.
Status WriteOutput(CliContext& ctx, const std::string& path, const std::string& text);

// A verb of a parent command (`ingest spark`, `simulate hdfs`, …): adds it to `parent`, which from
// then on requires one verb. The one way a command file attaches a verb to its parent.
CLI::App* AddVerb(CLI::App& parent, const std::string& name, const std::string& description);

// Each fills in its table row's subcommand (or, for a verb, adds itself to the parent it gets).
void AddPredictCommand(CLI::App& app, CliContext& ctx);
void AddSelectCommand(CLI::App& app, CliContext& ctx);
void AddPlanCommand(CLI::App& app, CliContext& ctx);
void AddCapacityCommand(CLI::App& app, CliContext& ctx);
void AddValidateCommand(CLI::App& app, CliContext& ctx);
void AddDemoCommand(CLI::App& app, CliContext& ctx);
void AddServeCommand(CLI::App& app, CliContext& ctx);
void AddExportCommand(CLI::App& app, CliContext& ctx);
void AddReportCommand(CLI::App& app, CliContext& ctx);
void AddHIndexCommand(CLI::App& app, CliContext& ctx);
void AddSimulateHIndexCommand(CLI::App& app, CliContext& ctx);
void AddStragglersCommand(CLI::App& app, CliContext& ctx);

// Every `simulate` verb (simulate_group.cpp): one row of the command table.
void AddSimulateCommands(CLI::App& app, CliContext& ctx);
void AddTuneCommand(CLI::App& app, CliContext& ctx);
void AddIngestHdfsCommand(CLI::App& app, CliContext& ctx);
void AddWorkloadCommand(CLI::App& app, CliContext& ctx);
void AddSimulateHdfsCommand(CLI::App& app, CliContext& ctx);
void AddHdfsCommand(CLI::App& app, CliContext& ctx);

void AddFitCommand(CLI::App& app, CliContext& ctx);
void AddEvaluateCommand(CLI::App& app, CliContext& ctx);
void AddBacktestCommand(CLI::App& app, CliContext& ctx);
void AddImportScoutCommand(CLI::App& app, CliContext& ctx);

void AddCollectGangliaCommand(CLI::App& app, CliContext& ctx);

void AddIngestSparkCommand(CLI::App& app, CliContext& ctx);
void AddSparkCommand(CLI::App& app, CliContext& ctx);
void AddAppsCommand(CLI::App& app, CliContext& ctx);
void AddAppCommand(CLI::App& app, CliContext& ctx);
void AddWhatIfExecutorsCommand(CLI::App& app, CliContext& ctx);

// `perfplan label APP io|compute` and `perfplan classify` (label_cmd.cpp), `perfplan score APP`
// and `perfplan scores` (score_cmd.cpp): task types and heuristic scores of stored Spark
// applications.
void AddLabelCommand(CLI::App& app, CliContext& ctx);
void AddClassifyCommand(CLI::App& app, CliContext& ctx);
void AddScoreCommand(CLI::App& app, CliContext& ctx);
void AddScoresCommand(CLI::App& app, CliContext& ctx);
// Every `ingest` verb (ingest_group.cpp): one row of the command table.
void AddIngestCommands(CLI::App& app, CliContext& ctx);
// MapReduce (issue 19): ingest_mapreduce_cmd.cpp, jobs_cmd.cpp.
void AddIngestMapReduceCommand(CLI::App& app, CliContext& ctx);
void AddJobsCommand(CLI::App& app, CliContext& ctx);
void AddJobCommand(CLI::App& app, CliContext& ctx);

}  // namespace perfplan::cli
