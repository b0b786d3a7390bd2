#include "planner/plan/combined_plan.h"

#include <nlohmann/json.hpp>

#include "models/enum_names.h"
#include "models/json_text.h"
#include "models/plan_cost.h"
#include "planner/plan/plan_runs.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

bool HasProfile(const PlanRequest& r) {
  return !r.profile_file.empty() || !r.topology_file.empty() || !r.dataset.empty();
}
bool HasRuns(const PlanRequest& r) { return !r.runs_file.empty() || !r.workload.empty(); }
bool HasSpark(const PlanRequest& r) { return !r.store_path.empty() || !r.app.empty(); }

// The value the objective minimises.
double ObjectiveValue(const PlanAlternative& a, PlanObjective objective) {
  switch (objective) {
    case PlanObjective::kTime:
      return a.select.runtime_seconds;
    case PlanObjective::kNodeSeconds:
      return a.select.node_seconds;
    case PlanObjective::kCost:
      return a.cost.cost;
  }
  return a.select.runtime_seconds;
}

// A part's answer, or nullopt with a warning when the part has no answer (Failed); bad input
// (any other error) is returned.
template <typename Answer>
Status Keep(Result<Answer> result, PlanPart part, std::optional<Answer>* out,
            std::vector<std::string>* warnings) {
  if (result.ok()) {
    *out = std::move(result).value();
    return Status::Ok();
  }
  if (result.status().code() != StatusCode::kFailed) return result.status();
  warnings->push_back(std::string(ToString(part)) + ": no plan: " + result.status().message());
  return Status::Ok();
}

}  // namespace

constexpr models::EnumName<PlanPart> kPartNames[] = {{PlanPart::kProfile, "profile"},
                                                     {PlanPart::kRuns, "runs"},
                                                     {PlanPart::kSpark, "spark-application"}};

std::string_view ToString(PlanPart part) { return models::NameOf(kPartNames, part); }

const PlanAnswer* CombinedPlanAnswer::PartAnswer(PlanPart part) const {
  if (part == PlanPart::kProfile) return profile ? &*profile : nullptr;
  if (part == PlanPart::kRuns) return runs ? &*runs : nullptr;
  return nullptr;
}

const PlanAlternative* CombinedPlanAnswer::Alternative(const PartRef& ref) const {
  const PlanAnswer* a = PartAnswer(ref.part);
  if (!a || ref.alternative >= a->alternatives.size()) return nullptr;
  return &a->alternatives[ref.alternative];
}

int EvidencePaths(const PlanRequest& request) {
  return static_cast<int>(HasProfile(request)) + static_cast<int>(HasRuns(request)) +
         static_cast<int>(HasSpark(request));
}

PlanRequest PartRequest(const PlanRequest& r, PlanPart part) {
  PlanRequest p;
  p.objective = r.objective;
  p.deadline_seconds = r.deadline_seconds;
  p.max_nodes = r.max_nodes;
  if (part != PlanPart::kSpark) {  // the placement parts are priced
    p.price_file = r.price_file;
    p.budget = r.budget;
  }
  switch (part) {
    case PlanPart::kProfile:
      p.profile_file = r.profile_file;
      p.topology_file = r.topology_file;
      p.dataset = r.dataset;
      p.profiled_site = r.profiled_site;
      p.variant = r.variant;
      p.allowed_sites = r.allowed_sites;
      break;
    case PlanPart::kRuns:
      p.runs_file = r.runs_file;
      p.workload = r.workload;
      p.dataset_bytes = r.dataset_bytes;
      p.node_counts = r.node_counts;
      p.allowed_types = r.allowed_types;
      break;
    case PlanPart::kSpark:
      p.store_path = r.store_path;
      p.app = r.app;
      // The Spark path prices nothing: planned by time under a cost objective.
      if (p.objective == PlanObjective::kCost) p.objective = PlanObjective::kTime;
      break;
  }
  return p;
}

Result<CombinedPlanAnswer> AnswerCombinedPlan(const PlanRequest& request) {
  return AnswerCombinedPlan(request, LoadedEvidence{});
}

Result<CombinedPlanAnswer> AnswerCombinedPlan(const PlanRequest& request,
                                              const LoadedEvidence& loaded) {
  const bool loaded_profile = loaded.profile && loaded.topology;
  CombinedPlanAnswer answer;
  answer.request = request;
  // Every part's input is checked before any is answered, so bad input never waits on a slow
  // part, and the first bad field is reported the way the path alone reports it.
  std::vector<PlanPart> parts;
  if (HasProfile(request) || loaded_profile) parts.push_back(PlanPart::kProfile);
  if (HasRuns(request)) parts.push_back(PlanPart::kRuns);
  if (HasSpark(request)) parts.push_back(PlanPart::kSpark);
  for (PlanPart part : parts) {
    if (Status s = PartRequest(request, part).Validate(); !s.ok()) return s;
  }
  for (PlanPart part : parts) {
    const PlanRequest r = PartRequest(request, part);
    Status s = part == PlanPart::kProfile
                   ? Keep(loaded_profile
                              ? AnswerPlan(*loaded.profile, *loaded.topology, loaded.prices, r)
                              : AnswerPlan(r),
                          part, &answer.profile, &answer.warnings)
               : part == PlanPart::kRuns
                   ? Keep(loaded.runs ? AnswerPlan(*loaded.runs, loaded.prices, r) : AnswerPlan(r),
                          part, &answer.runs, &answer.warnings)
                                          : Keep(AnswerSparkPlan(r), part, &answer.spark,
                                                 &answer.warnings);
    if (!s.ok()) return s;
  }
  if (request.objective == PlanObjective::kCost && answer.spark) {
    answer.warnings.push_back(
        "spark-application: planned by time (the Spark application path prices nothing)");
  }

  // The placement: the best of the placement parts' choices by the objective.
  for (PlanPart part : {PlanPart::kProfile, PlanPart::kRuns}) {
    const PlanAnswer* a = answer.PartAnswer(part);
    if (!a || !a->chosen) continue;
    const PlanAlternative& c = a->alternatives[*a->chosen];
    const PlanAlternative* best = answer.placement ? answer.Alternative(*answer.placement) : nullptr;
    const double v = ObjectiveValue(c, request.objective);
    if (!best || v < ObjectiveValue(*best, request.objective) ||
        (v == ObjectiveValue(*best, request.objective) &&
         c.select.runtime_seconds < best->select.runtime_seconds)) {
      answer.placement = PartRef{part, *a->chosen};
      answer.placement_because = std::string(ToString(part)) + " part: " + a->chosen_because;
    }
  }
  if (answer.placement && answer.profile && answer.runs) {
    answer.placement_because += " (the " +
                                std::string(request.objective == PlanObjective::kCost ? "cheaper"
                                            : request.objective == PlanObjective::kTime
                                                ? "faster"
                                                : "fewer node-seconds") +
                                " of the profile's and the runs CSV's choices)";
  }

  // The front over both placement parts.
  std::vector<PartRef> candidates;
  std::vector<models::TimeCostPoint> points;
  for (PlanPart part : {PlanPart::kProfile, PlanPart::kRuns}) {
    const PlanAnswer* a = answer.PartAnswer(part);
    if (!a) continue;
    for (std::size_t i = 0; i < a->alternatives.size(); ++i) {
      const PlanAlternative& alt = a->alternatives[i];
      if (!alt.feasible || !alt.priced) continue;
      candidates.push_back({part, i});
      points.push_back({alt.select.runtime_seconds, alt.cost.cost});
    }
  }
  for (std::size_t k : models::ParetoFront(points)) answer.front.push_back(candidates[k]);

  if (!answer.profile && !answer.runs && !answer.spark) {
    std::string why = "no part of the plan has an answer";
    for (const std::string& w : answer.warnings) why += "; " + w;
    return Status::Failed(why);
  }
  return answer;
}

std::string ToJson(const CombinedPlanAnswer& a) {
  auto part_json = [](const auto& part) {
    return part ? json::parse(ToJson(*part)) : json(nullptr);
  };
  json parts = {{"profile", part_json(a.profile)},
                {"runs", part_json(a.runs)},
                {"spark_application", part_json(a.spark)}};
  json recommendation = nullptr;
  json spark = nullptr;
  if (a.spark && a.spark->chosen) {
    const SparkExecutorOption& o = a.spark->options[*a.spark->chosen];
    spark = {{"app_name", a.spark->app_name},
             {"executors", o.executors},
             {"whatif_seconds", o.whatif_seconds},
             {"because", a.spark->chosen_because},
             {"spark_defaults", a.spark->tuning.recommendation
                                    ? json(a.spark->tuning.recommendation->spark_defaults)
                                    : json::array()}};
  }
  if (a.placement || !spark.is_null()) {
    recommendation = {{"part", a.placement ? json(std::string(ToString(a.placement->part)))
                                           : json(nullptr)},
                      {"alternative", a.placement ? json(a.placement->alternative) : json(nullptr)},
                      {"because", a.placement ? json(a.placement_because) : json(nullptr)},
                      {"plan", a.placement
                                   ? parts[std::string(ToString(a.placement->part))]
                                          ["alternatives"][a.placement->alternative]
                                   : json(nullptr)},
                      {"spark", spark}};
  }
  json front = json::array();
  for (const PartRef& ref : a.front) {
    const PlanAlternative* alt = a.Alternative(ref);
    front.push_back({{"part", std::string(ToString(ref.part))},
                     {"alternative", ref.alternative},
                     {"runtime_seconds", alt->select.runtime_seconds},
                     {"cost", alt->cost.cost}});
  }
  json j = {{"evidence", "combined"},
            {"objective", std::string(ToString(a.request.objective))},
            {"recommendation", recommendation},
            {"front", front},
            {"parts", parts},
            {"warnings", a.warnings}};
  return JsonLine(j);
}

}  // namespace perfplan::planner
