#include <cctype>
#include <ostream>
#include <string_view>
#include <utility>

#include "planner/cli/command.h"
#include "planner/runtime/json_output.h"
#include "planner/output/report.h"

namespace perfplan::cli {

const std::vector<CommandSpec>& Commands() {
  static const std::vector<CommandSpec> kCommands = {
      // In the order `perfplan --help` lists them: plan, learn from runs, read evidence, analyse,
      // tune, answer programs.
      {"demo", "Run a whole planning session over the bundled examples", AddDemoCommand},
      {"predict", "Predict a job's runtime on a configuration from its profile", AddPredictCommand},
      {"select", "Rank replica and compute-node choices for a dataset", AddSelectCommand},
      {"plan", "One recommendation with cost and the time/cost Pareto front", AddPlanCommand},
      {"capacity", "Replay a day of jobs over cluster sizes: makespan, queueing, cost",
       AddCapacityCommand},
      {"validate", "Check profile and topology files; list every problem", AddValidateCommand},
      {"fit", "Fit a runtime profile from measured runs (runs CSV)", AddFitCommand},
      {"evaluate", "Measure prediction error on held-out runs vs Ernest and Amdahl",
       AddEvaluateCommand},
      {"backtest", "Replay runs in time order, predicting each from the runs before it",
       AddBacktestCommand},
      {"import", "Convert Scout report.json folders to a runs CSV", AddImportScoutCommand},
      {"ingest", "Read evidence into the profile store (ingest spark, ingest hdfs, ingest mapreduce)",
       AddIngestCommands},
      {"apps", "List the Spark applications in the store", AddAppsCommand},
      {"app", "Show one Spark application, stage by stage", AddAppCommand},
      {"jobs", "List the MapReduce jobs in the store", AddJobsCommand},
      {"job", "Show one MapReduce job: phases, tasks, counters, failed attempts", AddJobCommand},
      {"spark", "Answer Spark History Server REST paths from the store; map/reduce logs for fleets",
       AddSparkCommand},
      {"whatif", "Replay a recorded run on other resources (whatif executors)",
       AddWhatIfExecutorsCommand},
      {"hindex", "Straggler overhead (Lorenz curve, change point, H-index) of bucket or task times",
       AddHIndexCommand},
      {"stragglers", "Straggler overhead (H-index) of each stage of a Spark application or phase of a MapReduce job",
       AddStragglersCommand},
      {"simulate", "Synthetic inputs with known answers (simulate hindex, simulate hdfs)",
       AddSimulateCommands},
      {"workload", "Characterize the HDFS workload: clients, users, DataNodes", AddWorkloadCommand},
      {"hdfs", "HDFS log mining as Hadoop Streaming map and reduce steps", AddHdfsCommand},
      {"collect", "Collect Ganglia metrics from gmond/gmetad into the store",
       AddCollectGangliaCommand},
      {"tune", "Config-sensitivity models: cv, train, sensitivity, recommend, next",
       AddTuneCommand},
      {"label", "Mark an application as an io or compute hint run for task types", AddLabelCommand},
      {"classify", "Cluster the stored applications into io and compute task types",
       AddClassifyCommand},
      {"score", "Score an application 0-100 (0 worst seen, 60 baseline, 100 best seen) against comparable runs",
       AddScoreCommand},
      {"scores", "Score every application in the store (sortable list)", AddScoresCommand},
      {"report", "Write one self-contained HTML report with SVG charts", AddReportCommand},
      {"serve", "Serve predictions and selections over HTTP JSON", AddServeCommand},
      {"export", "Write answers as CSV or JSON tables for spreadsheets", AddExportCommand},
  };
  return kCommands;
}

CLI::App* AddVerb(CLI::App& parent, const std::string& name, const std::string& description) {
  parent.require_subcommand(1);
  return parent.add_subcommand(name, description);
}

int ExitCodeFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk:
      return 0;
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotFound:
      return 2;
    case StatusCode::kFailed:
      return 1;
  }
  return 1;
}

Status InFlagTerms(const Status& status) {
  // Struct field (or input) → the flag that sets it. Only fields whose flag spelling differs from
  // the field's, or that users set only through a flag, are listed.
  static const std::pair<std::string_view, std::string_view> kFlagOfField[] = {
      {"train", "--train"},
      {"from_ms", "--from"},
      {"to_ms", "--to"},
      {"app_ids", "--apps"},
      {"name_contains", "--app-name"},
      {"app_name", "--app-name"},
      {"sources", "--node"},
      {"hadoop_version", "--hadoop-version"},
      {"timezone", "--timezone"},
      {"batch_files", "--batch-files"},
  };
  std::string message = status.message();
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  auto whole_word = [&](std::size_t at, std::size_t size) {
    return (at == 0 || !is_word(message[at - 1])) &&
           (at + size == message.size() || !is_word(message[at + size]));
  };
  for (const auto& [name, flag] : kFlagOfField) {
    if (name.find('_') == std::string_view::npos) {
      // A plain word ("train", "sources") only where it is the status's field, leading.
      if (status.field() == name && message.compare(0, name.size(), name) == 0 &&
          whole_word(0, name.size())) {
        message.replace(0, name.size(), flag);
      }
      continue;
    }
    // A snake_case name anywhere as a word ("to_ms: must be after from_ms").
    for (std::size_t at = message.find(name); at != std::string::npos;
         at = message.find(name, at + 1)) {
      if (whole_word(at, name.size())) message.replace(at, name.size(), flag);
    }
  }
  return message == status.message() ? status : status.WithMessage(std::move(message));
}

void ReportError(CliContext& ctx, const std::string& command, const Status& library_status,
                 bool json) {
  const Status status = InFlagTerms(library_status);
  ctx.exit_code = ExitCodeFor(status);
  if (json) *ctx.out << planner::ErrorToJson(status);
  *ctx.err << "perfplan " << command << ": error: " << status.message() << "\n";
}

Status WriteOutput(CliContext& ctx, const std::string& path, const std::string& text) {
  if (path == "-") {
    *ctx.out << text;
    return Status::Ok();
  }
  return planner::WriteFileAtomically(path, text);
}

}  // namespace perfplan::cli
