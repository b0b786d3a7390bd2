// `perfplan plan` (issue 20): one recommendation for one job, combining the answers of the other
// facades instead of re-deriving them, so the plan can never contradict the commands it combines.
//
// Two evidence paths (exactly one per request):
//   profile + topology dataset → alternatives (replica, compute site, node count) and runtimes
//     exactly as planner::AnswerSelect returns them (same model, same order, same deadline
//     filter); priced per compute site.
//   runs CSV + workload → one fit per instance type with enough completed runs, by
//     planner::AnswerFit (the function behind `perfplan fit`), each predicted at the node counts
//     measured for the workload (or --nodes) with models::PredictFitted; priced per instance type.
//     A type that cannot be fitted is a warning saying why (e.g. how many runs it has and needs).
// The plan then adds, per alternative, the billed cost from a price file (models/plan_cost.h:
// minimum billing period, increment, discount; compute nodes are billed, storage nodes are not),
// applies the budget and the allowed sites/types, picks one alternative by the objective, and
// computes the Pareto front of predicted time against cost over the alternatives that meet
// every constraint.
//
// Objective and the choice:
//   time         → the first feasible alternative in `select --objective time` order
//   node-seconds → the first feasible alternative in `select --objective node-seconds` order
//   cost         → the cheapest feasible alternative; ties go to the faster (select's order)
// (The runs path orders the same way: by runtime, or by node-seconds; ties keep file order.)
// "Feasible" = within the deadline, the budget, the node limit and the allowed sites/types, and
// priced when the objective or a budget needs a price.
//
// Every number carries its source (PlanSource): which model, from which file, how many runs, and
// for fits the leave-one-out error. Thread-safe; no globals. InvalidArgument/NotFound = bad input
// (exit 2), Failed = no answer (exit 1).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/conformal.h"
#include "models/plan_cost.h"
#include "models/runtime_model.h"
#include "models/status.h"
#include "planner/runtime/runtime.h"
#include "profiles/runtime/price_file.h"

namespace perfplan::planner {

enum class PlanObjective { kTime, kCost, kNodeSeconds };
std::string_view ToString(PlanObjective value);
bool Parse(std::string_view text, PlanObjective* out);  // "time" | "cost" | "node-seconds"

enum class PlanEvidence { kProfile, kRunsCsv, kSparkApp };

struct PlanRequest {
  // Profile path: all three.
  std::string profile_file;   // FREERIDE-G profile (YAML or JSON)
  std::string topology_file;  // cluster topology (YAML)
  std::string dataset;        // dataset name in the topology
  // Runs path: both (instead of the three above).
  std::string runs_file;         // runs CSV (docs/fit.md)
  std::string workload;          // workload name in it
  double dataset_bytes = 0;      // runs path: input size to plan for; 0 = the largest measured
  std::vector<int> node_counts;  // runs path: candidates; empty = every count measured
  std::vector<std::string> allowed_types;  // runs path: instance types allowed; empty = all
  // Spark application path: both (instead of the above); planner/plan/spark_plan.h. node_counts
  // are then executor counts and max_nodes the executor limit.
  std::string store_path;  // profile store filled by `perfplan ingest spark`
  std::string app;         // application name (or the id of one of its runs)

  std::string price_file;  // price file (YAML); "" = no prices, so no costs and no front
  PlanObjective objective = PlanObjective::kTime;
  double deadline_seconds = 0;  // drop alternatives predicted slower; 0 = no deadline
  double budget = 0;            // drop alternatives costing more (price file currency); 0 = none
  int max_nodes = 0;            // compute nodes per alternative; 0 = no limit
  std::vector<std::string> allowed_sites;  // compute sites allowed; empty = every site
  std::string profiled_site;               // "" = the profile's profiled_site
  models::ModelVariant variant = models::ModelVariant::kAuto;

  PlanEvidence evidence() const {
    if (!store_path.empty() || !app.empty()) return PlanEvidence::kSparkApp;
    return runs_file.empty() ? PlanEvidence::kProfile : PlanEvidence::kRunsCsv;
  }

  // InvalidArgument naming the field: no dataset/workload, both evidence paths, negative limits.
  // (An objective of cost or a budget without prices is refused by AnswerPlan: prices may come
  // loaded, not as a file.)
  Status Validate() const;
};

// Where a number comes from.
struct PlanSource {
  std::string model;     // e.g. "FREERIDE-G runtime model (simple variant)"
  std::string file;      // the evidence file
  std::size_t runs = 0;  // runs the model rests on
  std::string command;   // the separate command giving the same number, e.g. "perfplan select"
  std::vector<std::string> notes;  // how the model was resolved
};

struct PlanAlternative {
  // Profile path: the alternative exactly as AnswerSelect returned it. Runs path: compute_nodes,
  // storage_nodes, bandwidth, runtime, node-seconds and breakdown of the fitted prediction (the
  // site fields are empty; instance_type says where).
  Alternative select;
  std::string instance_type;    // runs path only
  // Runs path: the fit's calibrated interval (CV+ on log residuals of the freeride-g fit's
  // held-out runs, level PlanAnswer::interval_level; radii widened by √(1 + d/span) beyond the
  // trained node range, as `perfplan evaluate` does). Absent on the profile path (a profile has
  // no held-out errors) and when the fit has too few runs to hold one out.
  std::optional<models::ConformalInterval> interval;
  double interval_widening = 1;
  std::size_t select_rank = 0;  // 1-based position in the objective's order (select's order)
  bool priced = false;
  models::Cost cost;  // when priced
  bool within_budget = true;
  bool allowed_site = true;  // compute site (type) among the allowed; true when none given
  bool feasible = false;     // meets every constraint (see the header comment)
  bool on_front = false;
};

struct PlanAnswer {
  PlanRequest request;
  PlanEvidence evidence = PlanEvidence::kProfile;
  std::string currency;  // "" without a price file
  PlanSource runtime_source;
  std::string price_source;  // the price file, "" without one
  std::string dataset;       // the topology dataset, or the workload (runs path)
  double dataset_bytes = 0;
  // Every alternative select evaluated within the deadline and node limit, in select's order
  // for the objective (time order for the cost objective).
  std::vector<PlanAlternative> alternatives;
  std::vector<std::size_t> front;     // indices into alternatives, fastest first
  std::optional<std::size_t> chosen;  // index into alternatives
  std::string chosen_because;         // one sentence
  std::size_t evaluated = 0;          // alternatives select predicted
  std::size_t over_deadline = 0;      // dropped by select's deadline filter
  std::size_t over_budget = 0;
  std::size_t unpriced = 0;        // compute site without a price
  std::size_t excluded_sites = 0;  // compute site not allowed
  double interval_level = 0.9;  // runs path: central coverage of the intervals
  std::vector<std::string> warnings;
};

// Loads the files and answers. Failed when no alternative meets every constraint (the message
// says which constraint removed how many).
Result<PlanAnswer> AnswerPlan(const PlanRequest& request);
// Over already-loaded documents (the service, the benchmark); `prices` may be null.
Result<PlanAnswer> AnswerPlan(const profiles::ProfileDocument& profile,
                              const profiles::Topology& topology, const profiles::PriceFile* prices,
                              const PlanRequest& request);

// The plan as one JSON document (keys with units; the CLI's --json, the service, export).
std::string ToJson(const PlanAnswer& answer);

}  // namespace perfplan::planner
