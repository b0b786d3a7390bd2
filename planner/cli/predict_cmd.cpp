#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/table.h"
#include "planner/runtime/json_output.h"
#include "planner/runtime/runtime.h"

namespace perfplan::cli {
namespace {

struct PredictFlags {
  planner::PredictRequest request;
  std::string model = "auto";
  bool json = false;
};

void PrintPredict(std::ostream& out, const planner::PredictAnswer& a) {
  const models::Target& t = a.target;
  const models::Breakdown& b = a.prediction.breakdown;
  out << a.model.application << " on " << Bytes(t.dataset_bytes) << ", "
      << Fixed(t.storage_nodes, 0) << " storage nodes, " << Fixed(t.compute_nodes, 0)
      << " compute nodes, " << Bandwidth(t.bandwidth_bytes_per_second);
  if (!a.site.empty()) out << ", hardware of site " << a.site;
  out << "\n\n";
  Table table({"component", "seconds"});
  table.AddRow({"disk", Fixed(b.disk_seconds, 2)});
  table.AddRow({"network", Fixed(b.network_seconds, 2)});
  table.AddRow({"compute", Fixed(b.compute_seconds, 2)});
  table.AddRow({"reduction", Fixed(b.reduction_seconds, 2)});
  table.AddRow({"global reduction", Fixed(b.global_reduction_seconds, 2)});
  table.AddRow({"predicted runtime", Fixed(a.prediction.runtime_seconds, 2)});
  table.Print(out);
  out << "\nmodel: " << models::ToString(a.model.variant);
  if (a.model.variant == models::ModelVariant::kReductions) {
    out << ", reduction object " << models::ToString(a.model.reduction_object_class)
        << ", global reduction " << models::ToString(a.model.global_reduction_class);
  }
  out << "; scaled from profile run " << a.prediction.reference_run << "\n";
  for (const std::string& w : a.prediction.warnings) out << "warning: " << w << "\n";
}

}  // namespace

void AddPredictCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<PredictFlags>();
  cmd.footer(
      "Example:\n  perfplan predict --profile examples/profiles/kmeans.yaml "
      "--dataset-bytes 8e9 --storage-nodes 4 --compute-nodes 16 "
      "--bandwidth-bytes-per-second 125e6");
  cmd.add_option("--profile", flags->request.profile_file, "Profile summary (YAML or JSON)")
      ->required();
  cmd.add_option("--dataset-bytes", flags->request.dataset_bytes, "Dataset size s_x in bytes")
      ->required();
  cmd.add_option("--storage-nodes", flags->request.storage_nodes, "Storage nodes n_x")->required();
  cmd.add_option("--compute-nodes", flags->request.compute_nodes, "Compute nodes c_x")->required();
  cmd.add_option("--bandwidth-bytes-per-second", flags->request.bandwidth_bytes_per_second,
                 "Bandwidth b_x between storage and compute nodes")
      ->required();
  cmd.add_option("--cluster", flags->request.cluster_file,
                 "Topology file whose site hardware scales the prediction (with --site)");
  cmd.add_option("--site", flags->request.site, "Target site in --cluster");
  AddModelVariantOption(cmd, flags->model);
  AddJsonFlag(cmd, flags->json, "a table");
  cmd.callback([flags, &ctx] {
    models::Parse(flags->model, &flags->request.variant);
    WriteAnswer(ctx, "predict", flags->json, planner::AnswerPredict(flags->request), PrintPredict);
  });
}

}  // namespace perfplan::cli
