// `perfplan plan` over several evidence paths at once (issue 20: "from whatever evidence exists
// for it"): a profile + topology, a runs CSV + workload and a Spark application in a store may be
// given together for the same job. Each path is answered alone, by exactly the function that
// answers it when it is the only one (AnswerPlan, AnswerSparkPlan), so every part of a combined
// plan is byte for byte the plan of that path alone and never contradicts the commands it
// combines. On top of the parts:
//
//   placement   where to run and on how many nodes: the best of the placement parts (profile:
//               replica, compute site, nodes; runs CSV: instance type, nodes) by the objective —
//               time: the fastest chosen alternative; node-seconds: the fewest node-seconds; cost:
//               the cheapest (ties: the faster, then the profile part). Each part's choice is the
//               best of its own feasible alternatives by the objective, so the best of the choices
//               is the best feasible alternative of all parts.
//   front       the Pareto front of predicted time against cost over the feasible, priced
//               alternatives of both placement parts together (models::ParetoFront), each point
//               naming its part and its index there.
//   spark       the Spark part's executor count and spark-defaults.conf lines, attached to the
//               placement: the Spark path prices nothing, so it is planned by time under a cost
//               objective, and budget, prices, sites and types are not passed to it.
//
// The runs part takes node_counts (node counts); the Spark part takes its default executor counts.
// A part with no answer (Failed, e.g. nothing within the deadline) is a warning naming the part
// while another part answers; bad input of any part (InvalidArgument, NotFound) fails the plan.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "planner/plan/plan.h"
#include "planner/plan/spark_plan.h"
#include "profiles/runtime/price_file.h"
#include "profiles/runtime/profile_reader.h"
#include "profiles/runtime/runs_csv.h"
#include "profiles/runtime/topology.h"

namespace perfplan::planner {

enum class PlanPart { kProfile, kRuns, kSpark };
std::string_view ToString(PlanPart part);  // "profile", "runs", "spark-application"

struct PartRef {
  PlanPart part = PlanPart::kProfile;
  std::size_t alternative = 0;  // index into that part's alternatives
};

struct CombinedPlanAnswer {
  PlanRequest request;
  std::optional<PlanAnswer> profile;   // the plan of the profile path alone
  std::optional<PlanAnswer> runs;      // the plan of the runs-CSV path alone
  std::optional<SparkPlanAnswer> spark;  // the plan of the Spark application alone
  std::optional<PartRef> placement;    // the chosen alternative over the placement parts
  std::string placement_because;
  std::vector<PartRef> front;  // fastest first
  std::vector<std::string> warnings;

  const PlanAnswer* PartAnswer(PlanPart part) const;  // profile or runs, or null
  const PlanAlternative* Alternative(const PartRef& ref) const;
};

// How many evidence paths the request names (each by any of its fields; a loaded profile counts
// as the profile path).
int EvidencePaths(const PlanRequest& request);

// The request of one path alone: its own fields and the shared constraints (see above).
PlanRequest PartRequest(const PlanRequest& request, PlanPart part);

// For a request naming two or three paths. Failed when no part answers.
Result<CombinedPlanAnswer> AnswerCombinedPlan(const PlanRequest& request);

// Documents already loaded (the service's catalog profile and topology, its inline runs CSV and
// prices).
struct LoadedEvidence {
  const profiles::ProfileDocument* profile = nullptr;  // with topology: the profile path
  const profiles::Topology* topology = nullptr;
  const profiles::RunsTable* runs = nullptr;  // the runs path's table (request.runs_file names it)
  const profiles::PriceFile* prices = nullptr;  // the loaded parts' prices; null = none
};
// The same, the profile part answered over `loaded` (AnswerPlan's loaded overload) instead of
// reading request.profile_file/topology_file/price_file, and the runs part over loaded.runs
// (planner/plan/plan_runs.h) when given; the other parts read their files.
Result<CombinedPlanAnswer> AnswerCombinedPlan(const PlanRequest& request,
                                              const LoadedEvidence& loaded);

// {"evidence": "combined", "objective", "recommendation": {part, alternative, because, plan,
//  spark}, "front": [{part, alternative, runtime_seconds, cost}], "parts": {profile, runs,
//  spark_application} (each the path's own document, or null), "warnings"}.
std::string ToJson(const CombinedPlanAnswer& answer);

}  // namespace perfplan::planner
