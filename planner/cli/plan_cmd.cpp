// `perfplan plan`: one recommendation with its cost, the alternatives and the time/cost Pareto
// front (planner/plan/plan.h). Human table by default, --json for programs.
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/table.h"
#include "planner/plan/combined_plan.h"
#include "planner/plan/plan.h"
#include "planner/plan/spark_plan.h"

namespace perfplan::cli {
namespace {

struct PlanFlags {
  planner::PlanRequest request;
  std::string objective = "time";
  std::string model = "auto";
  int top = 10;
  bool json = false;
};

std::string Money(const planner::PlanAlternative& a) {
  return a.priced ? Fixed(a.cost.cost, 4) : "n/a";
}

void AddAlternativeRow(Table& t, const planner::PlanAnswer& a, std::size_t i) {
  const planner::PlanAlternative& alt = a.alternatives[i];
  std::string mark = a.chosen && *a.chosen == i ? "chosen" : "";
  if (alt.on_front) mark += mark.empty() ? "front" : ", front";
  if (!alt.feasible) {
    mark += mark.empty() ? "" : ", ";
    mark += !alt.allowed_site    ? "site not allowed"
            : !alt.within_budget ? "over budget"
                                 : "unpriced";
  }
  std::vector<std::string> row;
  if (a.evidence == planner::PlanEvidence::kProfile) {
    row = {alt.select.replica_site, alt.select.compute_site};
  } else {
    row = {alt.instance_type};
  }
  row.push_back(std::to_string(alt.select.compute_nodes));
  row.push_back(Fixed(alt.select.runtime_seconds, 1));
  if (a.evidence == planner::PlanEvidence::kRunsCsv) {
    row.push_back(alt.interval ? Fixed(alt.interval->low_seconds, 1) + " .. " +
                                     Fixed(alt.interval->high_seconds, 1)
                               : "n/a");
  }
  row.insert(row.end(), { Fixed(alt.select.node_seconds, 0),
                         Money(alt), alt.priced ? Fixed(alt.cost.billed_node_hours, 3) : "n/a",
                         std::to_string(alt.select_rank), mark});
  t.AddRow(std::move(row));
}

std::vector<std::string> Header(const planner::PlanAnswer& a, const std::string& currency) {
  std::vector<std::string> h;
  if (a.evidence == planner::PlanEvidence::kProfile) {
    h = {"replica", "compute site"};
  } else {
    h = {"instance type"};
  }
  h.insert(h.end(), {"nodes", "runtime_s"});
  if (a.evidence == planner::PlanEvidence::kRunsCsv) {
    h.push_back(std::to_string(static_cast<int>(a.interval_level * 100 + 0.5)) + "% interval_s");
  }
  h.insert(h.end(), {"node_s", "cost" + currency, "node_h", "rank", "mark"});
  return h;
}

void PrintPlan(std::ostream& out, const planner::PlanAnswer& a, std::size_t top) {
  const std::string currency = a.currency.empty() ? "" : " " + a.currency;
  const bool by_profile = a.evidence == planner::PlanEvidence::kProfile;
  out << "plan for " << (by_profile ? "dataset " : "workload ") << a.dataset << " ("
      << Bytes(a.dataset_bytes) << "), objective " << planner::ToString(a.request.objective)
      << "\n";
  if (a.chosen) {
    const planner::PlanAlternative& c = a.alternatives[*a.chosen];
    if (by_profile) {
      out << "\nrecommendation: read the replica at " << c.select.replica_site << ", compute on "
          << c.select.compute_nodes << " node(s) of " << c.select.compute_site << "\n";
    } else {
      out << "\nrecommendation: run on " << c.select.compute_nodes << " node(s) of type "
          << c.instance_type << "\n";
    }
    out << "  predicted runtime " << Fixed(c.select.runtime_seconds, 1) << " s";
    if (c.interval) {
      out << " (" << Fixed(a.interval_level * 100, 0) << "% interval "
          << Fixed(c.interval->low_seconds, 1) << " .. " << Fixed(c.interval->high_seconds, 1)
          << " s)";
    }
    if (c.priced) out << ", cost " << Fixed(c.cost.cost, 4) << currency;
    out << "\n  because: " << a.chosen_because << "\n";
  }
  out << "\nsources:\n  runtime: " << a.runtime_source.model << " from " << a.runtime_source.file
      << " (" << a.runtime_source.runs << (by_profile ? " profile" : "")
      << " run(s)); the same numbers as `" << a.runtime_source.command << "`\n";
  if (!by_profile) {
    for (const std::string& n : a.runtime_source.notes) out << "    " << n << "\n";
  }
  if (!a.price_source.empty()) {
    out << "  cost: " << a.price_source << " (billed compute node-hours × price, minimum billing "
        << "period, increment and discount applied)\n";
  }
  out << "\n" << a.evaluated << " alternatives evaluated";
  if (a.over_deadline) out << ", " << a.over_deadline << " over the deadline";
  if (a.over_budget) out << ", " << a.over_budget << " over the budget";
  if (a.excluded_sites) out << ", " << a.excluded_sites << " at sites not allowed";
  if (a.unpriced) out << ", " << a.unpriced << " without a price";
  out << "\n";
  if (!a.front.empty()) {
    out << "\nPareto front of predicted time against cost (" << a.front.size() << " points):\n";
    Table front(Header(a, currency));
    for (std::size_t i : a.front) AddAlternativeRow(front, a, i);
    front.Print(out);
  }
  out << "\nalternatives (first " << std::min(top, a.alternatives.size()) << " of "
      << a.alternatives.size() << ", in the objective's order):\n";
  Table table(Header(a, currency));
  for (std::size_t i = 0; i < a.alternatives.size() && i < top; ++i) AddAlternativeRow(table, a, i);
  table.Print(out);
  for (const std::string& w : a.warnings) out << "warning: " << w << "\n";
}

std::string Seconds(double s) { return Fixed(s, 1) + " s"; }

void PrintSparkPlan(std::ostream& out, const planner::SparkPlanAnswer& a) {
  out << "plan for Spark application \"" << a.app_name << "\" (" << a.history.runs.size()
      << " run(s) in " << a.store_path << ", latest " << a.latest_app_id << ")\n";
  if (a.chosen) {
    const planner::SparkExecutorOption& c = a.options[*a.chosen];
    out << "\nrecommendation: run on " << c.executors << " executor(s) x "
        << a.whatif.cores_per_executor << " core(s); replayed runtime " << Seconds(c.whatif_seconds)
        << "\n  because: " << a.chosen_because << "\n";
  }
  if (a.tuning.recommendation) {
    out << "  spark-defaults.conf:\n";
    for (const std::string& line : a.tuning.recommendation->spark_defaults) {
      out << "    " << line << "\n";
    }
  }
  out << "\nexecutors (`perfplan whatif executors " << a.latest_app_id << "`; measured "
      << Seconds(a.whatif.measured_seconds) << " on " << a.whatif.observed_executors
      << ", replay there " << Seconds(a.whatif.predicted_at_observed_seconds) << ", "
      << Fixed(100 * a.whatif.relative_error_at_observed, 1) << "%; critical path "
      << Seconds(a.whatif.critical_path_seconds) << "):\n";
  Table t({"executors", "whatif_s", "executor_s", "history_s", "history interval", "mark"});
  for (std::size_t i = 0; i < a.options.size(); ++i) {
    const planner::SparkExecutorOption& o = a.options[i];
    std::string mark = a.chosen && *a.chosen == i ? "chosen" : "";
    if (!o.feasible) mark += "over the deadline";
    t.AddRow({std::to_string(o.executors), Fixed(o.whatif_seconds, 1),
              Fixed(o.executor_seconds, 0),
              o.history_seconds ? Fixed(*o.history_seconds, 1) : "n/a",
              o.history_interval ? Fixed(o.history_interval->low_seconds, 1) + " .. " +
                                       Fixed(o.history_interval->high_seconds, 1)
                                 : "n/a",
              mark});
  }
  t.Print(out);
  out << "\nhistory: ";
  if (a.history.fitted) {
    out << a.history.form << " fitted to " << a.history.completed_runs << " run(s) at "
        << a.history.distinct_counts << " executor counts, " << a.history.scheme
        << " mean |log error| " << Fixed(a.history.cv_error, 3) << ", "
        << Fixed(100 * a.history.interval_level, 0) << "% CV+ interval\n";
  } else {
    out << a.history.note << "\n";
  }
  out << "parameters: ";
  if (a.tuning.recommendation) {
    const tuning::Recommendation& r = *a.tuning.recommendation;
    out << tuning::ToString(r.kind) << " on " << a.tuning.runs << " run(s), CV error "
        << Fixed(100 * r.cv_mre, 1) << "%, predicted " << Seconds(r.predicted) << " against "
        << Seconds(r.baseline_predicted) << " at the first run's configuration";
    if (!a.tuning.top_parameters.empty()) {
      out << "; most sensitive:";
      for (const auto& [name, direction] : a.tuning.top_parameters) {
        out << " " << name << " (" << direction << ")";
      }
    }
    out << "\n";
  } else {
    out << a.tuning.note << "\n";
  }
  out << "score (`perfplan score " << a.latest_app_id << "`): ";
  if (a.score.scored) {
    out << Fixed(a.score.score, 1) << " of " << Fixed(a.score.max_score, 0) << " against "
        << a.score.comparable_runs << " comparable run(s)" << (a.score.provisional ? ", provisional" : "");
    if (!a.score.worst.empty()) {
      out << "; worst:";
      for (const auto& [name, score] : a.score.worst) out << " " << name << " " << Fixed(score, 1);
    }
    out << "\n";
  } else {
    out << a.score.note << "\n";
  }
  out << "stragglers (`perfplan stragglers " << a.latest_app_id << "`): ";
  if (a.stragglers.h_job) {
    out << "H_job " << Fixed(*a.stragglers.h_job, 3) << " over " << a.stragglers.stages_used
        << " stage(s)";
    if (a.stragglers.speedup) out << ", attainable speed-up " << Fixed(*a.stragglers.speedup, 2) << "x";
    out << "\n";
  } else {
    out << a.stragglers.note << "\n";
  }
  if (!a.stragglers.slowest.empty()) {
    Table s({"stage", "task_s", "H", "1/(1-H)", "max/median", "speculation", "shuffle max/median",
             "AQE skew"});
    for (const planner::SparkStageStragglers& st : a.stragglers.slowest) {
      s.AddRow({std::to_string(st.stage_id) + "." + std::to_string(st.attempt_id),
                Fixed(st.task_seconds, 1), st.h_index ? Fixed(*st.h_index, 3) : "n/a",
                st.speedup ? Fixed(*st.speedup, 2) : "n/a",
                st.max_over_median ? Fixed(*st.max_over_median, 2) : "n/a",
                st.speculation_would_act ? "would act" : "no",
                st.max_shuffle_read_bytes
                    ? Bytes(*st.max_shuffle_read_bytes) + " / " + Bytes(*st.median_shuffle_read_bytes)
                    : "n/a",
                st.aqe_skew_would_act ? "would act" : "no"});
    }
    s.Print(out);
  }
  for (const std::string& w : a.warnings) out << "warning: " << w << "\n";
}

void PrintCombinedPlan(std::ostream& out, const planner::CombinedPlanAnswer& a, std::size_t top) {
  const int paths = planner::EvidencePaths(a.request);
  out << "combined plan over " << paths << " evidence paths, objective "
      << planner::ToString(a.request.objective) << "\n";
  if (a.placement) {
    const planner::PlanAlternative& c = *a.Alternative(*a.placement);
    out << "\nrecommendation: ";
    if (a.placement->part == planner::PlanPart::kProfile) {
      out << "read the replica at " << c.select.replica_site << ", compute on "
          << c.select.compute_nodes << " node(s) of " << c.select.compute_site;
    } else {
      out << "run on " << c.select.compute_nodes << " node(s) of type " << c.instance_type;
    }
    out << "; predicted runtime " << Fixed(c.select.runtime_seconds, 1) << " s";
    if (c.priced) out << ", cost " << Fixed(c.cost.cost, 4) << " " << a.PartAnswer(a.placement->part)->currency;
    out << "\n  because: " << a.placement_because << "\n";
  }
  if (a.spark && a.spark->chosen) {
    out << (a.placement ? "  " : "\nrecommendation: ") << "Spark application \""
        << a.spark->app_name << "\": " << a.spark->options[*a.spark->chosen].executors
        << " executor(s)";
    if (a.spark->tuning.recommendation) {
      out << ", spark-defaults.conf:";
      for (const std::string& line : a.spark->tuning.recommendation->spark_defaults) {
        out << "\n    " << line;
      }
    } else {
      out << " (no parameters: " << a.spark->tuning.note << ")";
    }
    out << "\n";
  }
  if (!a.front.empty()) {
    out << "\nPareto front of predicted time against cost over every part (" << a.front.size()
        << " points):\n";
    Table t({"part", "where", "nodes", "runtime_s", "cost"});
    for (const planner::PartRef& ref : a.front) {
      const planner::PlanAlternative& alt = *a.Alternative(ref);
      t.AddRow({std::string(planner::ToString(ref.part)),
                alt.instance_type.empty() ? alt.select.replica_site + " -> " + alt.select.compute_site
                                          : alt.instance_type,
                std::to_string(alt.select.compute_nodes), Fixed(alt.select.runtime_seconds, 1),
                Fixed(alt.cost.cost, 4)});
    }
    t.Print(out);
  }
  for (const std::string& w : a.warnings) out << "warning: " << w << "\n";
  if (a.profile) {
    out << "\n== profile part (the same as `perfplan plan --profile ... --topology ... --dataset "
        << a.profile->dataset << "`) ==\n";
    PrintPlan(out, *a.profile, top);
  }
  if (a.runs) {
    out << "\n== runs part (the same as `perfplan plan --runs ... --workload " << a.runs->dataset
        << "`) ==\n";
    PrintPlan(out, *a.runs, top);
  }
  if (a.spark) {
    out << "\n== Spark application part (the same as `perfplan plan --store ... --app "
        << a.spark->app_name << "`) ==\n";
    PrintSparkPlan(out, *a.spark);
  }
}

}  // namespace

void AddPlanCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<PlanFlags>();
  cmd.footer(
      "Example:\n  perfplan plan --profile examples/profiles/kmeans.yaml "
      "--topology examples/topology.yaml --dataset sky-survey --prices examples/prices/grid.yaml "
      "--objective cost --deadline-seconds 600\n"
      "  perfplan plan --runs runs.csv --workload sort --prices prices.yaml --objective cost\n"
      "  perfplan plan --store spark.db --app PageRank --deadline-seconds 600\n"
      "  perfplan plan --profile p.yaml --topology t.yaml --dataset d --runs runs.csv --workload w "
      "--store spark.db --app PageRank --prices prices.yaml   (a combined plan)");
  cmd.add_option("--profile", flags->request.profile_file,
                 "Profile summary (YAML or JSON), with --topology and --dataset");
  cmd.add_option("--topology", flags->request.topology_file, "Cluster topology (YAML)");
  cmd.add_option("--dataset", flags->request.dataset, "Dataset name in the topology");
  cmd.add_option("--runs", flags->request.runs_file,
                 "Runs CSV, with --workload (instead of --profile/--topology/--dataset)");
  cmd.add_option("--workload", flags->request.workload, "Workload name in the runs CSV");
  cmd.add_option("--store", flags->request.store_path,
                 "Profile store (SQLite), with --app: plan a Spark application from its runs");
  cmd.add_option("--app", flags->request.app, "Spark application name (or a run's id) in --store");
  cmd.add_option("--dataset-bytes", flags->request.dataset_bytes,
                 "Runs: input size to plan for (default: the largest measured)")
      ->check(CLI::Range(0.0, 1e300));
  cmd.add_option("--nodes", flags->request.node_counts,
                 "Runs: node counts to consider, comma-separated (default: every count measured)")
      ->delimiter(',');
  cmd.add_option("--instance-type", flags->request.allowed_types,
                 "Runs: allowed instance type (repeatable; default every type)");
  cmd.add_option("--prices", flags->request.price_file,
                 "Price file (YAML): price per node-hour per site, billing terms");
  cmd.add_option("--objective", flags->objective, "time, cost or node-seconds")
      ->check(CLI::IsMember({"time", "cost", "node-seconds"}));
  AddDeadlineOption(cmd, flags->request.deadline_seconds);
  cmd.add_option("--budget", flags->request.budget,
                 "Drop alternatives costing more, in the price file's currency (0 = none)")
      ->check(CLI::Range(0.0, 1e300));
  cmd.add_option("--max-nodes", flags->request.max_nodes, "Compute nodes per alternative (0 = any)")
      ->check(CLI::Range(0, 1 << 30));
  cmd.add_option("--site", flags->request.allowed_sites,
                 "Allowed compute site (repeatable; default every site)");
  AddProfiledSiteOption(cmd, flags->request.profiled_site);
  AddModelVariantOption(cmd, flags->model);
  cmd.add_option("--top", flags->top, "Alternatives listed in the table (0 = all)")
      ->check(CLI::Range(0, 1 << 30));
  AddJsonFlag(cmd, flags->json, "tables");
  cmd.callback([flags, &ctx] {
    planner::Parse(flags->objective, &flags->request.objective);
    models::Parse(flags->model, &flags->request.variant);
    if (planner::EvidencePaths(flags->request) >= 2) {
      return WriteAnswer(ctx, "plan", flags->json, planner::AnswerCombinedPlan(flags->request),
                         [&](std::ostream& out, const planner::CombinedPlanAnswer& a) {
                           PrintCombinedPlan(out, a,
                                             flags->top == 0
                                                 ? static_cast<std::size_t>(-1)
                                                 : static_cast<std::size_t>(flags->top));
                         });
    }
    if (flags->request.evidence() == planner::PlanEvidence::kSparkApp) {
      if (Status s = flags->request.Validate(); !s.ok()) {
        return ReportError(ctx, "plan", s, flags->json);
      }
      return WriteAnswer(ctx, "plan", flags->json, planner::AnswerSparkPlan(flags->request),
                         PrintSparkPlan);
    }
    if (flags->request.runs_file.empty() &&
        (flags->request.profile_file.empty() || flags->request.topology_file.empty() ||
         flags->request.dataset.empty())) {
      return ReportError(ctx, "plan",
                         Status::InvalidArgument("give --profile, --topology and --dataset, or "
                                                 "--runs and --workload, or --store and --app"),
                         flags->json);
    }
    WriteAnswer(ctx, "plan", flags->json, planner::AnswerPlan(flags->request),
                [&](std::ostream& out, const planner::PlanAnswer& a) {
                  PrintPlan(out, a,
                            flags->top == 0 ? a.alternatives.size()
                                            : static_cast<std::size_t>(flags->top));
                });
  });
}

}  // namespace perfplan::cli
