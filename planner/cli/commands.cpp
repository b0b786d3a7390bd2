#include <ostream>

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
      {"validate", "Check profile and topology files; list every problem", AddValidateCommand},
      {"fit", "Fit a runtime profile from measured runs (runs CSV)", AddFitCommand},
      {"evaluate", "Measure prediction error on held-out runs vs Ernest and Amdahl",
       AddEvaluateCommand},
      {"import", "Convert Scout report.json folders to a runs CSV", AddImportScoutCommand},
      {"ingest", "Read evidence into the profile store (ingest spark, ingest hdfs)",
       AddIngestCommands},
      {"apps", "List the Spark applications in the store", AddAppsCommand},
      {"app", "Show one Spark application, stage by stage", AddAppCommand},
      {"spark", "Answer Spark History Server REST paths from the store", AddSparkCommand},
      {"whatif", "Replay a recorded run on other resources (whatif executors)",
       AddWhatIfExecutorsCommand},
      {"hindex", "Straggler overhead (Lorenz curve, change point, H-index) of bucket or task times",
       AddHIndexCommand},
      {"stragglers", "Straggler overhead (H-index) of each stage of a Spark application",
       AddStragglersCommand},
      {"simulate", "Synthetic inputs with known answers (simulate hindex, simulate hdfs)",
       AddSimulateCommands},
      {"workload", "Characterize the HDFS workload: clients, users, DataNodes", AddWorkloadCommand},
      {"hdfs", "HDFS log mining as Hadoop Streaming map and reduce steps", AddHdfsCommand},
      {"collect", "Collect Ganglia metrics from gmond/gmetad into the store",
       AddCollectGangliaCommand},
      {"tune", "Config-sensitivity models: cv, train, sensitivity, recommend", AddTuneCommand},
      {"label", "Mark an application as an io or compute hint run for task types", AddLabelCommand},
      {"classify", "Cluster the stored applications into io and compute task types",
       AddClassifyCommand},
      {"score", "Score an application 0-100 against its task type's history", AddScoreCommand},
      {"scores", "Score every application in the store (sortable list)", AddScoresCommand},
      {"report", "Write one self-contained HTML report with SVG charts", AddReportCommand},
      {"serve", "Serve predictions and selections over HTTP JSON", AddServeCommand},
      {"export", "Write answers as CSV or JSON tables for spreadsheets", AddExportCommand},
  };
  return kCommands;
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

void ReportError(CliContext& ctx, const std::string& command, const Status& status, bool json) {
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
