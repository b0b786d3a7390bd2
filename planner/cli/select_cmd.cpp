#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/table.h"
#include "planner/runtime/json_output.h"
#include "planner/runtime/runtime.h"

namespace perfplan::cli {
namespace {

struct SelectFlags {
  planner::SelectRequest request;
  std::string objective = "time";
  std::string model = "auto";
  bool json = false;
};

}  // namespace

void PrintSelection(std::ostream& out, const planner::SelectAnswer& a, std::size_t limit) {
  const planner::Selection& s = a.selection;
  out << "dataset " << s.dataset << " (" << Bytes(s.dataset_bytes) << "), application "
      << a.model.application << ", objective " << planner::ToString(s.objective) << ": "
      << s.evaluated << " alternatives evaluated";
  if (s.over_deadline) out << ", " << s.over_deadline << " over the deadline";
  out << "\n\n";
  Table table({"rank", "replica", "compute site", "nodes", "bandwidth", "runtime_s", "node_s",
               "disk_s", "network_s", "compute_s", "reduction_s", "global_s"});
  for (std::size_t i = 0; i < s.alternatives.size() && i < limit; ++i) {
    const planner::Alternative& alt = s.alternatives[i];
    table.AddRow({std::to_string(i + 1), alt.replica_site, alt.compute_site,
                  std::to_string(alt.compute_nodes), Bandwidth(alt.bandwidth_bytes_per_second),
                  Fixed(alt.runtime_seconds, 1), Fixed(alt.node_seconds, 0),
                  Fixed(alt.breakdown.disk_seconds, 1), Fixed(alt.breakdown.network_seconds, 1),
                  Fixed(alt.breakdown.compute_seconds, 1),
                  Fixed(alt.breakdown.reduction_seconds, 1),
                  Fixed(alt.breakdown.global_reduction_seconds, 1)});
  }
  table.Print(out);
  if (!s.alternatives.empty()) {
    for (const std::string& w : s.alternatives.front().warnings) out << "warning: " << w << "\n";
  }
}

void AddSelectCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<SelectFlags>();
  cmd.footer(
      "Example:\n  perfplan select --profile examples/profiles/kmeans.yaml "
      "--topology examples/topology.yaml --dataset sky-survey --objective node-seconds");
  cmd.add_option("--profile", flags->request.profile_file, "Profile summary (YAML or JSON)")
      ->required();
  cmd.add_option("--topology", flags->request.topology_file, "Cluster topology (YAML)")->required();
  cmd.add_option("--dataset", flags->request.options.dataset, "Dataset name in the topology")
      ->required();
  cmd.add_option("--objective", flags->objective, "time (fastest) or node-seconds (cheapest)")
      ->check(CLI::IsMember({"time", "node-seconds"}));
  cmd.add_option("--max-compute-nodes", flags->request.options.max_compute_nodes,
                 "Node budget per alternative (0 = none)")
      ->check(CLI::Range(0, 1 << 30));
  AddDeadlineOption(cmd, flags->request.options.deadline_seconds);
  cmd.add_option("--top", flags->request.options.top,
                 "How many alternatives to list, best first (0 = all)")
      ->check(CLI::Range(0, 1 << 30));
  AddProfiledSiteOption(cmd, flags->request.options.profiled_site);
  AddModelVariantOption(cmd, flags->model);
  AddJsonFlag(cmd, flags->json, "a table");
  cmd.callback([flags, &ctx] {
    planner::Parse(flags->objective, &flags->request.options.objective);
    models::Parse(flags->model, &flags->request.variant);
    WriteAnswer(ctx, "select", flags->json, planner::AnswerSelect(flags->request),
                [](std::ostream& out, const planner::SelectAnswer& a) {
                  PrintSelection(out, a, a.selection.alternatives.size());
                });
  });
}

}  // namespace perfplan::cli
