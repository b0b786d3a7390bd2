// `perfplan export`: answers as CSV or JSON tables for spreadsheets and scripts.
#include <ostream>

#include "planner/cli/command.h"
#include "planner/output/export.h"
#include "planner/runtime/runtime.h"
#include "planner/output/report.h"
#include "planner/scoring/spark_scoring.h"
#include "planner/tuning/tune.h"

namespace perfplan::cli {
namespace {

struct ExportFlags {
  std::string what;
  std::string format = "csv";
  std::string out;
  std::string profile;
  // predictions: every combination of these lists
  std::vector<double> dataset_bytes, storage_nodes, compute_nodes, bandwidth;
  std::string cluster, site;
  // selection
  std::string topology;
  planner::SelectOptions select;
  std::string objective = "time";
  // stragglers, scores, workload
  std::string store = "perfplan.db";
  std::string app_id;
  planner::StragglersRequest stragglers;
  // sensitivity
  std::string model;
  bool maximize = false;
  // workload
  planner::WorkloadRequest workload;
};

Result<planner::ExportTable> BuildTable(const ExportFlags& f) {
  if (f.what == "stragglers") {
    if (f.app_id.empty()) {
      return Status::InvalidArgument("--what stragglers needs an application id (APP)");
    }
    planner::StragglersRequest request = f.stragglers;
    request.store_path = f.store;
    request.app_id = f.app_id;
    Result<planner::StragglersAnswer> a = planner::AnswerStragglers(request);
    if (!a.ok()) return a.status();
    return planner::StragglersTable(a.value());
  }
  if (f.what == "scores") {
    Result<std::vector<planner::ScoreAnswer>> a = planner::AnswerScores(f.store, f.app_id);
    if (!a.ok()) return a.status();
    return planner::ScoresTable(a.value());
  }
  if (f.what == "sensitivity") {
    if (f.model.empty()) {
      return Status::InvalidArgument(
          "--what sensitivity needs --model (a model saved by `perfplan tune train`)");
    }
    planner::TuneModelSource source;
    source.model_file = f.model;
    tuning::SensitivitySettings settings;
    if (f.maximize) settings.goal = tuning::Goal::kMaximize;
    Result<tuning::Sensitivity> a = planner::AnswerTuneSensitivity(source, {}, settings);
    if (!a.ok()) return a.status();
    return planner::SensitivityTable(a.value());
  }
  if (f.what == "workload") {
    planner::WorkloadRequest request = f.workload;
    request.store_path = f.store;
    Result<planner::WorkloadAnswer> a = planner::AnswerWorkload(request);
    if (!a.ok()) return a.status();
    return planner::WorkloadTable(a.value());
  }
  if (f.profile.empty()) {
    return Status::InvalidArgument("--what " + f.what + " needs --profile");
  }
  if (f.what == "predictions") {
    if (f.dataset_bytes.empty() || f.storage_nodes.empty() || f.compute_nodes.empty() ||
        f.bandwidth.empty()) {
      return Status::InvalidArgument(
          "--what predictions needs --dataset-bytes, --storage-nodes, --compute-nodes and "
          "--bandwidth-bytes-per-second (each a comma-separated list)");
    }
    std::vector<planner::PredictAnswer> answers;
    planner::PredictRequest request;
    request.profile_file = f.profile;
    request.cluster_file = f.cluster;
    request.site = f.site;
    for (double s : f.dataset_bytes) {
      for (double n : f.storage_nodes) {
        for (double c : f.compute_nodes) {
          for (double b : f.bandwidth) {
            request.dataset_bytes = s;
            request.storage_nodes = n;
            request.compute_nodes = c;
            request.bandwidth_bytes_per_second = b;
            Result<planner::PredictAnswer> a = planner::AnswerPredict(request);
            if (!a.ok()) return a.status();
            answers.push_back(std::move(a).value());
          }
        }
      }
    }
    return planner::PredictionsTable(answers);
  }
  if (f.topology.empty() || f.select.dataset.empty()) {
    return Status::InvalidArgument("--what selection needs --topology and --dataset");
  }
  planner::SelectRequest request;
  request.profile_file = f.profile;
  request.topology_file = f.topology;
  request.options = f.select;
  planner::Parse(f.objective, &request.options.objective);
  Result<planner::SelectAnswer> a = planner::AnswerSelect(request);
  if (!a.ok()) return a.status();
  return planner::SelectionTable(a.value());
}

}  // namespace

void AddExportCommand(CLI::App& app, CliContext& ctx) {
  auto f = std::make_shared<ExportFlags>();
  CLI::App* cmd = app.add_subcommand("export", "Write answers as CSV or JSON tables");
  cmd->footer(
      "Examples:\n  perfplan export --what predictions --profile examples/profiles/kmeans.yaml "
      "--dataset-bytes 2e9,8e9 --storage-nodes 4 --compute-nodes 4,8,16 "
      "--bandwidth-bytes-per-second 1.25e8 --format csv\n"
      "  perfplan export --what selection --profile examples/profiles/knn.yaml "
      "--topology examples/topology.yaml --dataset sensor-archive --format json\n"
      "  perfplan export --what stragglers local-1430917381534 --store spark.db\n"
      "  perfplan export --what scores --store spark.db --format csv\n"
      "  perfplan export --what sensitivity --model wordcount.model.json\n"
      "  perfplan export --what workload --store hdfs.db --format json");
  cmd->add_option("--what", f->what,
                  "predictions, selection, scores, sensitivity, stragglers or workload")
      ->required()
      ->check(CLI::IsMember(
          {"predictions", "selection", "scores", "sensitivity", "stragglers", "workload"}));
  cmd->add_option("--format", f->format, "csv (default) or json")
      ->check(CLI::IsMember({"csv", "json"}));
  cmd->add_option("--out", f->out, "Write to FILE (atomically) instead of stdout (- = stdout)");
  cmd->add_option("--profile", f->profile,
                  "predictions, selection: profile summary (YAML or JSON)");
  cmd->add_option("app", f->app_id,
                  "stragglers: Spark application id; scores: only this application");
  cmd->add_option("--store", f->store,
                  "stragglers, scores, workload: profile store (default perfplan.db)");
  cmd->add_option("--model", f->model, "sensitivity: model saved by `perfplan tune train`");
  cmd->add_flag("--maximize", f->maximize, "sensitivity: higher is better for the target");
  cmd->add_option("--from", f->workload.from, "workload: window start (time or epoch ms)");
  cmd->add_option("--to", f->workload.to, "workload: window end (exclusive)");
  cmd->add_option("--dataset-bytes", f->dataset_bytes, "predictions: sizes, comma-separated")
      ->delimiter(',');
  cmd->add_option("--storage-nodes", f->storage_nodes, "predictions: storage node counts")
      ->delimiter(',');
  cmd->add_option("--compute-nodes", f->compute_nodes, "predictions: compute node counts")
      ->delimiter(',');
  cmd->add_option("--bandwidth-bytes-per-second", f->bandwidth, "predictions: bandwidths")
      ->delimiter(',');
  cmd->add_option("--cluster", f->cluster, "predictions: topology for --site hardware factors");
  cmd->add_option("--site", f->site, "predictions: target site in --cluster");
  cmd->add_option("--topology", f->topology, "selection: cluster topology");
  cmd->add_option("--dataset", f->select.dataset, "selection: dataset name");
  cmd->add_option("--objective", f->objective, "selection: time or node-seconds")
      ->check(CLI::IsMember({"time", "node-seconds"}));
  cmd->add_option("--max-compute-nodes", f->select.max_compute_nodes, "selection: node budget")
      ->check(CLI::Range(0, 1 << 30));
  cmd->add_option("--deadline-seconds", f->select.deadline_seconds, "selection: deadline")
      ->check(CLI::Range(0.0, 1e300));
  cmd->add_option("--top", f->select.top, "selection: rows (0 = all)")
      ->check(CLI::Range(0, 1 << 30));
  cmd->callback([f, &ctx] {
    Result<planner::ExportTable> table = BuildTable(*f);
    if (!table.ok()) return ReportError(ctx, "export", table.status(), false);
    const std::string text =
        f->format == "csv" ? planner::ToCsv(table.value()) : planner::ToJson(table.value());
    if (Status s = WriteOutput(ctx, f->out.empty() ? "-" : f->out, text); !s.ok()) {
      ReportError(ctx, "export", s, false);
    }
  });
}

}  // namespace perfplan::cli
