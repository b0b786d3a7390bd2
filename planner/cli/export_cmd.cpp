// `perfplan export`: answers as CSV or JSON tables for spreadsheets and scripts.
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>

#include "planner/cli/command.h"
#include "planner/export.h"
#include "planner/planner.h"

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
  // stragglers
  planner::StragglersRequest stragglers;
};

Result<planner::ExportTable> BuildTable(const ExportFlags& f) {
  if (f.what == "stragglers") {
    if (f.stragglers.app_id.empty()) {
      return Status::InvalidArgument("--what stragglers needs an application id (APP)");
    }
    Result<planner::StragglersAnswer> a = planner::AnswerStragglers(f.stragglers);
    if (!a.ok()) return a.status();
    return planner::StragglersTable(a.value());
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

// Writes to a temporary file beside `path` and renames it over `path`, so a reader never sees a
// half-written export.
Status WriteAtomically(const std::string& path, const std::string& contents) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << contents;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return Status::Failed("--out: cannot write " + path);
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return Status::Failed("--out: cannot replace " + path);
  }
  return Status::Ok();
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
      "  perfplan export --what stragglers local-1430917381534 --store spark.db");
  cmd->add_option("--what", f->what, "predictions, selection or stragglers")
      ->required()
      ->check(CLI::IsMember({"predictions", "selection", "stragglers"}));
  cmd->add_option("--format", f->format, "csv (default) or json")
      ->check(CLI::IsMember({"csv", "json"}));
  cmd->add_option("--out", f->out, "Write to FILE (atomically) instead of stdout");
  cmd->add_option("--profile", f->profile,
                  "predictions, selection: profile summary (YAML or JSON)");
  cmd->add_option("app", f->stragglers.app_id, "stragglers: Spark application id");
  cmd->add_option("--store", f->stragglers.store_path, "stragglers: profile store (SQLite file)");
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
    if (f->out.empty()) {
      *ctx.out << text;
      return;
    }
    if (Status s = WriteAtomically(f->out, text); !s.ok()) ReportError(ctx, "export", s, false);
  });
}

}  // namespace perfplan::cli
