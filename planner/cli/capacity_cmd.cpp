// `perfplan capacity`: replay a day of jobs (SWIM trace, or the jobs of a store) FIFO over several cluster sizes and
// report makespan, queueing delay, utilisation and cost per size (planner/plan/capacity.h).
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/table.h"
#include "planner/plan/capacity.h"

namespace perfplan::cli {
namespace {

struct CapacityFlags {
  planner::CapacityRequest request;
  std::string from, to;  // planner::ParseTimeArgument
  bool json = false;
};

void PrintCapacity(std::ostream& out, const planner::CapacityAnswer& a) {
  out << a.jobs << " jobs over " << Fixed(a.trace_span_seconds / 3600, 1) << " h ("
      << Bytes(a.map_input_bytes) << " of map input) from "
      << (a.request.trace_file.empty() ? "the jobs in " + a.request.store_path
                                       : a.request.trace_file)
      << "\n";
  if (!a.request.store_path.empty()) {
    out << "window: ";
    if (a.window_from_ms) {
      out << "[" << *a.window_from_ms << ", " << *a.window_to_ms << ") ms, ";
    }
    out << a.window_chosen_by << "; " << a.jobs << " of " << a.stored_jobs << " stored jobs\n";
  }
  out << "runtimes: " << a.runtime_model << "\n"
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

void AddCapacityCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<CapacityFlags>();
  cmd.footer(
      "Example:\n  perfplan capacity --trace examples/swim/fb2009_first50.tsv "
      "--profile examples/profiles/kmeans.yaml --nodes 4,16,64 --prices examples/prices/grid.yaml "
      "--price-site osu-cluster --within-hours 1\n"
      "  perfplan capacity --store mr.db --profile examples/profiles/kmeans.yaml --nodes 4,16,64\n"
      "  perfplan capacity --store mr.db --from 2013-01-01 --window-hours 24 --runs runs.csv "
      "--workload sort --nodes 4,16,64");
  cmd.add_option("--trace", flags->request.trace_file, "SWIM trace (.tsv)");
  cmd.add_option("--store", flags->request.store_path,
                 "Instead of --trace: the MapReduce jobs and Spark applications of a store");
  cmd.add_option("--from", flags->from, "Store: window start (2024-01-01[ HH:MM:SS] or epoch ms)");
  cmd.add_option("--to", flags->to, "Store: window end, exclusive");
  cmd.add_option("--window-hours", flags->request.window.hours,
                 "Store: window length; without --from/--to the busiest such window "
                 "(default 24; 0 = every job)")
      ->check(CLI::Range(0.0, 1e300));
  cmd.add_option("--profile", flags->request.profile_file,
                 "Profile of a representative job (YAML or JSON); or --runs");
  cmd.add_option("--runs", flags->request.runs_file,
                 "Instead of --profile: a runs CSV whose fitted history predicts each job");
  cmd.add_option("--workload", flags->request.workload, "With --runs: the workload to fit");
  cmd.add_option("--instance-type", flags->request.instance_type,
                 "With --runs: the type to fit (default: the one with the most runs)");
  cmd.add_option("--nodes", flags->request.cluster_nodes, "Cluster sizes to replay (comma list)")
      ->required()
      ->delimiter(',');
  cmd.add_option("--split-bytes", flags->request.split_bytes,
                 "Map input per node-task (default 128 MiB)")
      ->check(CLI::Range(1.0, 1e300));
  cmd.add_option("--bandwidth", flags->request.bandwidth_bytes_per_second,
                 "Storage-to-compute bytes/s (default: the profile's first run)")
      ->check(CLI::Range(0.0, 1e300));
  cmd.add_option("--prices", flags->request.price_file, "Price file (YAML)");
  cmd.add_option("--price-site", flags->request.price_site,
                 "Site or instance type whose price applies");
  cmd.add_option("--within-hours", flags->request.within_hours,
                 "Mark the sizes whose makespan is within this many hours")
      ->check(CLI::Range(0.0, 1e300));
  AddJsonFlag(cmd, flags->json, "a table");
  cmd.callback([flags, &ctx] {
    if (Status s = planner::ParseCapacityWindow(flags->from, flags->to, &flags->request.window);
        !s.ok())
      return ReportError(ctx, "capacity", s, flags->json);
    WriteAnswer(ctx, "capacity", flags->json, planner::AnswerCapacity(flags->request),
                PrintCapacity);
  });
}

}  // namespace perfplan::cli
