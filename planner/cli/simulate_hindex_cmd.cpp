#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/hindex_flags.h"
#include "planner/cli/options.h"
#include "planner/cli/table.h"
#include "planner/hindex/hindex.h"

namespace perfplan::cli {
namespace {

struct SimulateHIndexFlags {
  planner::SimulateHIndexRequest request;
  ChangePointFlags change_point;
  bool json = false;
};

void PrintAnswer(std::ostream& out, const planner::SimulateHIndexAnswer& a) {
  const models::HIndexSimulationResult& r = a.result;
  out << a.mixture << ": " << r.reps << " repetitions of n = " << a.options.n << ", seed " << a.seed
      << "\n\n";
  Table table({"quantity", "value"});
  table.AddRow({"true H (numerical integration)", Fixed(r.truth.h_index, 4)});
  table.AddRow({"  A(L) of the mixture", Fixed(r.truth.area_l, 4)});
  table.AddRow({"  A(L*) of the first term", Fixed(r.truth.area_baseline, 4)});
  table.AddRow({"mean change point m̂", Fixed(r.mean_change_point, 2)});
  table.AddRow({"mean H", Fixed(r.mean_h_index, 4)});
  table.AddRow({"median H", Fixed(r.median_h_index, 4)});
  table.AddRow({"sd of H", Fixed(r.sd_h_index, 4)});
  table.Print(out);
  for (const std::string& w : r.warnings) out << "warning: " << w << "\n";
}

}  // namespace

void AddSimulateHIndexCommand(CLI::App& parent, CliContext& ctx) {
  auto flags = std::make_shared<SimulateHIndexFlags>();
  CLI::App* cmd = AddVerb(
      parent, "hindex", "Monte Carlo check of the H-index estimator on a mixture of bucket times");
  cmd->footer(
      "Components: pareto(alpha,c) with CDF 1-(x/c)^-alpha for x >= c, and normal(mean,sd). The "
      "first term is the straggler-free baseline.\nExample:\n"
      "  perfplan simulate hindex --mixture \"0.9*pareto(4,0.1)+0.1*pareto(1.7,1)\" --n 1000 "
      "--reps 1000 --seed 7");
  cmd->add_option("--mixture", flags->request.mixture,
                  "Mixture of bucket times, e.g. \"0.9*pareto(4,0.1)+0.1*pareto(1.7,1)\"")
      ->required();
  cmd->add_option("--n", flags->request.options.n, "Values per repetition (default 1000)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  cmd->add_option("--reps", flags->request.options.reps, "Repetitions (default 1000)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  cmd->add_option("--seed", flags->request.seed, "Random seed (default 1); reported back");
  AddChangePointFlags(*cmd, flags->change_point);
  AddJsonFlag(*cmd, flags->json, "a table");
  cmd->callback([flags, &ctx] {
    ApplyChangePointFlags(flags->change_point, &flags->request.options.hindex);
    WriteAnswer(ctx, "simulate hindex", flags->json,
                planner::AnswerSimulateHIndex(flags->request), PrintAnswer);
  });
}

}  // namespace perfplan::cli
