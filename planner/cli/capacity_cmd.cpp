// `perfplan capacity`: replay a day of jobs (SWIM trace, or the jobs of a store) FIFO over several cluster sizes and
// report makespan, queueing delay, utilisation and cost per size (planner/plan/capacity.h).
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/table.h"
#include "planner/plan/capacity.h"

namespace perfplan::cli {
namespace {

struct CapacityFlags {
  planner::CapacityRequest request;
  bool json = false;
};

void PrintCapacity(std::ostream& out, const planner::CapacityAnswer& a) {
  out << a.jobs << " jobs over " << Fixed(a.trace_span_seconds / 3600, 1) << " h ("
      << Bytes(a.map_input_bytes) << " of map input) from "
      << (a.request.trace_file.empty() ? "the jobs in " + a.request.store_path
                                       : a.request.trace_file)
      << "\n"
      << "runtimes: " << a.runtime_model << "\n"
      << "schedule: FIFO over the cluster's nodes, one " << Bytes(a.request.split_bytes)
      << " split per node\n\n";
  const std::string currency = a.currency.empty() ? "" : " " + a.currency;
  Table t({"nodes", "makespan_h", "mean_queue_s", "p95_queue_s", "utilisation", "cost" + currency,
           "within"});
  for (const planner::CapacityRow& r : a.rows) {
    t.AddRow({std::to_string(r.nodes), Fixed(r.replay.makespan_seconds / 3600, 2),
              Fixed(r.replay.mean_queue_seconds, 1), Fixed(r.replay.p95_queue_seconds, 1),
              Fixed(r.replay.utilisation, 3), r.priced ? Fixed(r.cost.cost, 2) : "n/a",
              a.request.within_hours > 0 ? (r.within_target ? "yes" : "no") : "-"});
  }
  t.Print(out);
  if (a.request.within_hours > 0) {
    out << "\n";
    if (a.smallest_within) {
      out << "fewest nodes finishing within " << Fixed(a.request.within_hours, 1)
          << " h: " << *a.smallest_within << "\n";
    } else {
      out << "no size finishes within " << Fixed(a.request.within_hours, 1) << " h\n";
    }
  }
  for (const std::string& w : a.warnings) out << "warning: " << w << "\n";
}

}  // namespace

void AddCapacityCommand(CLI::App& command, CliContext& ctx) {
  auto flags = std::make_shared<CapacityFlags>();
  CLI::App* cmd = &command;
  cmd->footer(
      "Example:\n  perfplan capacity --trace examples/swim/fb2009_first50.tsv "
      "--profile examples/profiles/kmeans.yaml --nodes 4,16,64 --prices examples/prices/grid.yaml "
      "--price-site osu-cluster --within-hours 1\n"
      "  perfplan capacity --store mr.db --profile examples/profiles/kmeans.yaml --nodes 4,16,64");
  cmd->add_option("--trace", flags->request.trace_file, "SWIM trace (.tsv)");
  cmd->add_option("--store", flags->request.store_path,
                  "Instead of --trace: the MapReduce jobs and Spark applications of a store");
  cmd->add_option("--profile", flags->request.profile_file,
                  "Profile of a representative job (YAML or JSON)")
      ->required();
  cmd->add_option("--nodes", flags->request.cluster_nodes, "Cluster sizes to replay (comma list)")
      ->required()
      ->delimiter(',');
  cmd->add_option("--split-bytes", flags->request.split_bytes,
                  "Map input per node-task (default 128 MiB)")
      ->check(CLI::Range(1.0, 1e300));
  cmd->add_option("--bandwidth", flags->request.bandwidth_bytes_per_second,
                  "Storage-to-compute bytes/s (default: the profile's first run)")
      ->check(CLI::Range(0.0, 1e300));
  cmd->add_option("--prices", flags->request.price_file, "Price file (YAML)");
  cmd->add_option("--price-site", flags->request.price_site,
                  "Site or instance type whose price applies");
  cmd->add_option("--within-hours", flags->request.within_hours,
                  "Mark the sizes whose makespan is within this many hours")
      ->check(CLI::Range(0.0, 1e300));
  cmd->add_flag("--json", flags->json, "Print one JSON document instead of a table");
  cmd->callback([flags, &ctx] {
    Result<planner::CapacityAnswer> answer = planner::AnswerCapacity(flags->request);
    if (!answer.ok()) return ReportError(ctx, "capacity", answer.status(), flags->json);
    if (flags->json) {
      *ctx.out << planner::ToJson(answer.value());
    } else {
      PrintCapacity(*ctx.out, answer.value());
    }
  });
}

}  // namespace perfplan::cli
