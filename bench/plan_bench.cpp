// Benchmark of `perfplan plan` and `perfplan capacity` (issue 20; docs/performance.md).
//   plan over generated topologies of 1,000 and 10,000 compute nodes with a price per compute
//   site (target: 10,000 nodes ≤ 100 ms on one core), objective cost, every alternative priced
//   and the Pareto front computed;
//   capacity over the FB-2010 SWIM day (24,442 jobs) for 8 cluster sizes (target: ≤ 2 s), read
//   from ../shared/data (skipped when absent).
// Usage: plan_bench [--quick]
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/generated_topology.h"
#include "planner/plan/capacity.h"
#include "planner/plan/plan.h"
#include "profiles/runtime/profile_reader.h"

namespace {

// CPU time of this thread, in ms: on a shared machine wall time measures the other builds too.
double CpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const std::string source = PERFPLAN_SOURCE_DIR;
  perfplan::profiles::Loaded<perfplan::profiles::ProfileDocument> profile =
      perfplan::profiles::LoadProfile(source + "/examples/profiles/kmeans.yaml");
  if (!profile.ok()) {
    std::fprintf(stderr, "cannot read the kmeans profile\n");
    return 1;
  }
  profile.value.profiled_site.clear();  // the generated sites are the reference hardware

  std::printf("plan over generated topologies (5 replicas, all node counts, objective cost)\n");
  std::printf("  %8s %8s %12s %8s %14s %14s\n", "nodes", "sites", "alternatives", "front",
              "median_cpu_ms", "max_cpu_ms");
  for (int nodes : {1000, 10000}) {
    const perfplan::profiles::Topology t = perfplan::bench::MakeTopology(nodes, 7);
    perfplan::profiles::PriceFile prices;
    prices.file = "generated";
    prices.currency = "USD";
    for (const perfplan::profiles::Site& s : t.sites) {
      if (s.nodes.empty()) continue;
      perfplan::profiles::PriceEntry e;
      e.name = s.name;
      e.price.price_per_node_hour = 0.1 + 0.001 * static_cast<double>(prices.entries.size() % 97);
      e.price.minimum_billing_seconds = 60;
      prices.entries.push_back(e);
    }
    perfplan::planner::PlanRequest request;
    request.dataset = "data";
    request.objective = perfplan::planner::PlanObjective::kCost;
    std::vector<double> ms;
    std::size_t alternatives = 0, front = 0;
    const int reps = quick ? 3 : 15;
    for (int r = 0; r < reps; ++r) {
      const double start = CpuMs();
      auto plan = perfplan::planner::AnswerPlan(profile.value, t, &prices, request);
      ms.push_back(CpuMs() - start);
      if (!plan.ok()) {
        std::fprintf(stderr, "plan failed: %s\n", plan.status().message().c_str());
        return 1;
      }
      alternatives = plan.value().alternatives.size();
      front = plan.value().front.size();
    }
    std::sort(ms.begin(), ms.end());
    std::printf("  %8d %8zu %12zu %8zu %14.1f %14.1f\n", nodes, t.sites.size(), alternatives, front,
                ms[ms.size() / 2], ms.back());
  }

  const std::string trace =
      source + "/../shared/data/04-workload-runtime-traces/swim/FB-2010_samples_24_times_1hr_0.tsv";
  if (!std::filesystem::exists(trace)) {
    std::printf("\ncapacity: %s absent, skipped\n", trace.c_str());
    return 0;
  }
  perfplan::planner::CapacityRequest request;
  request.trace_file = trace;
  request.profile_file = source + "/examples/profiles/kmeans.yaml";
  request.cluster_nodes = {250, 500, 750, 1000, 1500, 2000, 3000, 4000};
  request.within_hours = 24;
  std::printf("\ncapacity over FB-2010 (8 sizes, read + predict + FIFO replay)\n");
  std::vector<double> ms;
  perfplan::Result<perfplan::planner::CapacityAnswer> answer = perfplan::Status::Failed("not run");
  for (int r = 0; r < (quick ? 1 : 5); ++r) {
    const double start = CpuMs();
    answer = perfplan::planner::AnswerCapacity(request);
    ms.push_back(CpuMs() - start);
    if (!answer.ok()) {
      std::fprintf(stderr, "capacity failed: %s\n", answer.status().message().c_str());
      return 1;
    }
  }
  std::sort(ms.begin(), ms.end());
  std::printf("  %zu jobs, CPU time median %.0f ms, max %.0f ms\n", answer.value().jobs, ms[ms.size() / 2],
              ms.back());
  std::printf("  %8s %12s %14s %14s %12s\n", "nodes", "makespan_h", "mean_queue_s", "p95_queue_s",
              "utilisation");
  for (const perfplan::planner::CapacityRow& row : answer.value().rows) {
    std::printf("  %8d %12.2f %14.1f %14.1f %12.3f\n", row.nodes,
                row.replay.makespan_seconds / 3600, row.replay.mean_queue_seconds,
                row.replay.p95_queue_seconds, row.replay.utilisation);
  }
  return 0;
}
