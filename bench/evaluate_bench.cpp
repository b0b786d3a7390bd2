// `evaluate` over 69 configurations, the size of one Scout workload (issue 15 target: < 1 s on one
// core). Also a third workload with a KNOWN true form, for checking the model choice and the
// intervals on data nobody tuned for: a serial floor plus a communication term growing with
// machines, on Scout's nine instance types at its node counts, with 10% log-normal noise:
//   T = 120 + 6e4/(m·vCPUs) + 4·m seconds.
// With SCALING memory or network, the parallel term scales with that figure instead of vCPUs
// (h = 2 · figure / c4.large's figure, so c4.large's runs are the same in all three): a known truth
// that runs of one instance type cannot tell apart from the vCPU one (docs/accuracy.md, step 7).
// With SCALING cliff, the vCPU truth plus a memory cliff: 400 s per unit of the share of 60 GiB
// that the cluster's memory does not hold, P · max(0, 60 GiB / (m · memory) − 1) (docs/accuracy.md
// step 8: a cost that runs on a memory-rich type do not show).
// Usage: build/bench/evaluate_bench [REPETITIONS [SEED [SCALING [OPTION...]]]], SCALING vcpus,
// memory, network or cliff; OPTION no-span (EvaluateOptions::span_unidentified_scalings = false),
// no-references (span_reference_workloads = false) or reference=SCALING: a second workload,
// "ref_synthetic", T = 300 + 1e5/(m·h) + 2·m with that truth (a cliff of 600 s per unit over
// 40 GiB), seed + 1, in the same rows: each workload is the other's reference, and the tables
// score both. Defaults 5, 1, vcpus. Prints CPU seconds per
// evaluate (std::clock: user + sys of this process) and the synthetic workload's target (a)/(b)
// figures. Not a timed test; docs/performance.md records its output.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "models/instance_types.h"
#include "models/random.h"
#include "models/runtime_evaluate.h"
#include "planner/runtime/accuracy.h"

namespace {

using perfplan::models::MeasuredRun;

struct Truth {
  const char* workload = "join_synthetic";
  double floor = 120, work = 6e4, per_node = 4;
  double cliff_seconds = 400, cliff_bytes = 60 * 1073741824.0;
};

std::vector<MeasuredRun> Synthetic(std::uint64_t seed, const std::string& scaling,
                                   const Truth& truth = {}) {
  perfplan::models::Rng rng(seed);
  const auto c4_large = perfplan::models::FindInstanceType("c4.large");
  const char* types[] = {"c4.large",  "c4.xlarge",  "c4.2xlarge", "m4.large", "m4.xlarge",
                         "m4.2xlarge", "r4.large",  "r4.xlarge",  "r4.2xlarge"};
  // Node counts per type (4..48; 3 × (11 + 8 + 4) = 69 configurations, like a Scout workload).
  const double large[] = {4, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48};
  const double xlarge[] = {4, 6, 8, 10, 12, 16, 20, 24};
  const double xxlarge[] = {4, 6, 8, 10};
  std::vector<MeasuredRun> rows;
  for (const char* t : types) {
    const auto hw = perfplan::models::FindInstanceType(t);
    const std::string name = t;
    const double* nodes = name.find("2xlarge") != std::string::npos ? xxlarge
                          : name.find("xlarge") != std::string::npos ? xlarge
                                                                     : large;
    const std::size_t count = nodes == xxlarge ? 4 : nodes == xlarge ? 8 : 11;
    for (std::size_t k = 0; k < count; ++k) {
      const double m = nodes[k];
      MeasuredRun r{truth.workload, t, 1e10, m, m, hw->network_bytes_per_second, 0};
      r.vcpus = hw->vcpus;
      r.memory_bytes = hw->memory_bytes;
      const double u1 = rng.Uniform(), u2 = rng.Uniform();
      const double noise = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
      const double h = scaling == "memory"    ? 2 * hw->memory_bytes / c4_large->memory_bytes
                       : scaling == "network" ? 2 * hw->network_bytes_per_second /
                                                    c4_large->network_bytes_per_second
                                              : r.vcpus;
      const double cliff =
          scaling == "cliff"
              ? truth.cliff_seconds *
                    std::max(0.0, truth.cliff_bytes / (m * hw->memory_bytes) - 1)
              : 0;
      r.runtime_seconds =
          (truth.floor + truth.work / (m * h) + truth.per_node * m + cliff) * std::exp(0.1 * noise);
      rows.push_back(r);
    }
  }
  return rows;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  const std::string scaling = argc > 3 ? argv[3] : "vcpus";
  auto known = [](const std::string& s) {
    return s == "vcpus" || s == "memory" || s == "network" || s == "cliff";
  };
  if (!known(scaling)) {
    std::fprintf(stderr, "SCALING must be vcpus, memory, network or cliff, got %s\n",
                 scaling.c_str());
    return 2;
  }
  bool span = true, references = true;
  std::string reference;
  for (int i = 4; i < argc; ++i) {
    const std::string option = argv[i];
    if (option == "no-span") {
      span = false;
    } else if (option == "no-references") {
      references = false;
    } else if (option.rfind("reference=", 0) == 0 && known(option.substr(10))) {
      reference = option.substr(10);
    } else {
      std::fprintf(stderr,
                   "OPTION must be no-span, no-references or reference=SCALING, got %s\n",
                   option.c_str());
      return 2;
    }
  }
  std::vector<MeasuredRun> rows = Synthetic(seed, scaling);
  if (!reference.empty()) {
    const Truth other{"ref_synthetic", 300, 1e5, 2, 600, 40 * 1073741824.0};
    for (const MeasuredRun& r : Synthetic(seed + 1, reference, other)) rows.push_back(r);
  }
  // CPU seconds per evaluate (std::clock: user + sys), over `reps` runs.
  auto time_evaluate = [&](const std::vector<bool>& train, const char* what) {
    double cpu_seconds = 0;
    perfplan::Result<perfplan::models::Evaluation> ev = perfplan::Status::Failed("not run");
    for (int i = 0; i < reps; ++i) {
      const std::clock_t start = std::clock();
      ev = perfplan::models::EvaluateWorkload(rows, train, "join_synthetic");
      cpu_seconds += static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    }
    if (!ev.ok()) {
      std::fprintf(stderr, "%s\n", ev.status().message().c_str());
      return false;
    }
    std::printf("evaluate over %zu configurations (%zu training rows, %s): %.4f CPU s per run "
                "(%d runs)\n",
                rows.size(), ev.value().train_rows.size(), what, cpu_seconds / reps, reps);
    return true;
  };
  if (!time_evaluate(perfplan::planner::SmallestCompletedPerType(rows, "join_synthetic", 3),
                     "3 smallest node counts of every type")) {
    return 1;
  }
  // Target (b)'s design: 3 runs of one type, the others by transfer (the scalings refitted).
  if (!time_evaluate(
          perfplan::planner::SmallestCompletedPerType(rows, "join_synthetic", 3, "c4.large"),
          "3 runs of c4.large")) {
    return 1;
  }
  perfplan::planner::AccuracyOptions accuracy;
  accuracy.evaluate.span_unidentified_scalings = span;
  accuracy.evaluate.span_reference_workloads = references;
  perfplan::Result<perfplan::planner::AccuracyReport> report =
      perfplan::planner::StudyAccuracy(rows, accuracy);
  if (!report.ok()) {
    std::fprintf(stderr, "%s\n", report.status().message().c_str());
    return 1;
  }
  std::printf("%s", report.value().Markdown().c_str());
  return 0;
}
