#include "planner/plan/plan.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace perfplan::planner {
namespace {

Status ProblemsToStatus(const std::vector<profiles::Problem>& problems) {
  std::string message;
  for (const profiles::Problem& p : problems) {
    if (!message.empty()) message += "\n";
    message += profiles::FormatProblem(p);
  }
  return Status::InvalidArgument(message);
}

std::string Number(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

std::string_view ToString(PlanObjective value) {
  switch (value) {
    case PlanObjective::kTime:
      return "time";
    case PlanObjective::kCost:
      return "cost";
    case PlanObjective::kNodeSeconds:
      return "node-seconds";
  }
  return "time";
}

bool Parse(std::string_view text, PlanObjective* out) {
  for (PlanObjective v :
       {PlanObjective::kTime, PlanObjective::kCost, PlanObjective::kNodeSeconds}) {
    if (text == ToString(v)) {
      *out = v;
      return true;
    }
  }
  return false;
}

Status PlanRequest::Validate() const {
  if (dataset.empty())
    return Status::InvalidArgument("dataset: required (a topology dataset name)");
  if (!(deadline_seconds >= 0)) {
    return Status::InvalidArgument("deadline_seconds: must be >= 0 (0 = none), got " +
                                   Number(deadline_seconds));
  }
  if (!(budget >= 0)) {
    return Status::InvalidArgument("budget: must be >= 0 (0 = none), got " + Number(budget));
  }
  if (max_nodes < 0) {
    return Status::InvalidArgument("max_nodes: must be >= 0 (0 = no limit), got " +
                                   std::to_string(max_nodes));
  }
  return Status::Ok();
}

Result<PlanAnswer> AnswerPlan(const PlanRequest& request) {
  if (Status s = request.Validate(); !s.ok()) return s;
  if (request.profile_file.empty()) return Status::InvalidArgument("profile: required");
  if (request.topology_file.empty()) return Status::InvalidArgument("topology: required");
  profiles::Loaded<profiles::ProfileDocument> doc = profiles::LoadProfile(request.profile_file);
  profiles::Loaded<profiles::Topology> topology = profiles::LoadTopology(request.topology_file);
  profiles::Loaded<profiles::PriceFile> prices;
  if (!request.price_file.empty()) prices = profiles::LoadPriceFile(request.price_file);
  std::vector<profiles::Problem> all = doc.problems;
  all.insert(all.end(), topology.problems.begin(), topology.problems.end());
  all.insert(all.end(), prices.problems.begin(), prices.problems.end());
  if (!all.empty()) return ProblemsToStatus(all);
  return AnswerPlan(doc.value, topology.value, request.price_file.empty() ? nullptr : &prices.value,
                    request);
}

Result<PlanAnswer> AnswerPlan(const profiles::ProfileDocument& profile,
                              const profiles::Topology& topology, const profiles::PriceFile* prices,
                              const PlanRequest& request) {
  if (Status s = request.Validate(); !s.ok()) return s;
  if (!prices && request.objective == PlanObjective::kCost) {
    return Status::InvalidArgument(
        "objective: cost needs prices (--prices FILE, or \"prices\" in a /v1/plan request)");
  }
  if (!prices && request.budget > 0) {
    return Status::InvalidArgument(
        "budget: a budget needs prices (--prices FILE, or \"prices\" in a /v1/plan request)");
  }
  for (const std::string& site : request.allowed_sites) {
    const profiles::Site* s = topology.FindSite(site);
    if (!s) return Status::NotFound("site: unknown site \"" + site + "\" in " + topology.file);
    if (s->ComputeNodeCount() == 0) {
      return Status::InvalidArgument("site: \"" + site + "\" has no compute nodes");
    }
  }

  // The runtime answer is select's, unchanged: same model, same order, same deadline filter.
  SelectRequest select;
  select.variant = request.variant;
  select.options.dataset = request.dataset;
  select.options.objective =
      request.objective == PlanObjective::kNodeSeconds ? Objective::kNodeSeconds : Objective::kTime;
  select.options.max_compute_nodes = request.max_nodes;
  select.options.deadline_seconds = request.deadline_seconds;
  select.options.top = 0;
  select.options.profiled_site = request.profiled_site;
  Result<SelectAnswer> selected = AnswerSelect(profile, topology, select);
  if (!selected.ok()) return selected.status();
  const SelectAnswer& sel = selected.value();

  PlanAnswer answer;
  answer.request = request;
  answer.dataset = sel.selection.dataset;
  answer.dataset_bytes = sel.selection.dataset_bytes;
  answer.evaluated = sel.selection.evaluated;
  answer.over_deadline = sel.selection.over_deadline;
  answer.runtime_source.model =
      "FREERIDE-G runtime model (" + std::string(models::ToString(sel.model.variant)) + " variant)";
  answer.runtime_source.file = profile.file;
  answer.runtime_source.runs = sel.model.runs.size();
  answer.runtime_source.command = "perfplan select";
  answer.runtime_source.notes = sel.model.notes;
  if (prices) {
    answer.currency = prices->currency;
    answer.price_source = prices->file;
  }

  std::vector<std::string> unpriced_sites;
  answer.alternatives.reserve(sel.selection.alternatives.size());
  for (std::size_t i = 0; i < sel.selection.alternatives.size(); ++i) {
    PlanAlternative alt;
    alt.select = sel.selection.alternatives[i];
    alt.select_rank = i + 1;
    if (!request.allowed_sites.empty()) {
      alt.allowed_site = std::find(request.allowed_sites.begin(), request.allowed_sites.end(),
                                   alt.select.compute_site) != request.allowed_sites.end();
    }
    if (prices) {
      const profiles::PriceEntry* entry =
          prices->Find(profiles::PricedKind::kSite, alt.select.compute_site);
      if (entry) {
        alt.priced = true;
        alt.cost =
            models::CostOf(alt.select.runtime_seconds, alt.select.compute_nodes, entry->price);
      } else if (std::find(unpriced_sites.begin(), unpriced_sites.end(), alt.select.compute_site) ==
                 unpriced_sites.end()) {
        unpriced_sites.push_back(alt.select.compute_site);
      }
    }
    if (request.budget > 0 && alt.priced && alt.cost.cost > request.budget)
      alt.within_budget = false;
    const bool needs_price = request.objective == PlanObjective::kCost || request.budget > 0;
    alt.feasible = alt.allowed_site && alt.within_budget && (alt.priced || !needs_price);
    if (!alt.allowed_site) {
      ++answer.excluded_sites;
    } else if (!alt.within_budget) {
      ++answer.over_budget;
    } else if (needs_price && !alt.priced) {
      ++answer.unpriced;
    }
    answer.alternatives.push_back(std::move(alt));
  }
  for (const std::string& site : unpriced_sites) {
    answer.warnings.push_back("no price for compute site \"" + site + "\" in " + prices->file +
                              ": its alternatives have no cost and are not on the front");
  }
  if (!sel.selection.alternatives.empty()) {
    for (const std::string& w : sel.selection.alternatives.front().warnings) {
      answer.warnings.push_back(w);
    }
  }

  // The Pareto front over the feasible, priced alternatives.
  std::vector<std::size_t> candidates;
  std::vector<models::TimeCostPoint> points;
  for (std::size_t i = 0; i < answer.alternatives.size(); ++i) {
    const PlanAlternative& a = answer.alternatives[i];
    if (!a.feasible || !a.priced) continue;
    candidates.push_back(i);
    points.push_back({a.select.runtime_seconds, a.cost.cost});
  }
  for (std::size_t k : models::ParetoFront(points)) {
    answer.front.push_back(candidates[k]);
    answer.alternatives[candidates[k]].on_front = true;
  }

  // The choice.
  for (std::size_t i = 0; i < answer.alternatives.size(); ++i) {
    const PlanAlternative& a = answer.alternatives[i];
    if (!a.feasible) continue;
    if (request.objective != PlanObjective::kCost) {
      answer.chosen = i;
      break;
    }
    // Strictly cheaper only: ties keep the earlier (faster) alternative.
    if (!answer.chosen || a.cost.cost < answer.alternatives[*answer.chosen].cost.cost) {
      answer.chosen = i;
    }
  }
  if (!answer.chosen) {
    std::string why =
        "no alternative meets every constraint: " + std::to_string(answer.alternatives.size()) +
        " within the deadline";
    if (request.max_nodes > 0) why += " and " + std::to_string(request.max_nodes) + " nodes";
    why += ", " + std::to_string(answer.excluded_sites) + " at sites not allowed, " +
           std::to_string(answer.over_budget) + " over the budget, " +
           std::to_string(answer.unpriced) + " without a price";
    return Status::Failed(why);
  }
  const PlanAlternative& c = answer.alternatives[*answer.chosen];
  switch (request.objective) {
    case PlanObjective::kTime:
      answer.chosen_because = "fastest predicted runtime that meets every constraint";
      break;
    case PlanObjective::kNodeSeconds:
      answer.chosen_because = "fewest compute node-seconds that meets every constraint";
      break;
    case PlanObjective::kCost:
      answer.chosen_because = "cheapest billed cost that meets every constraint";
      break;
  }
  if (c.on_front) answer.chosen_because += "; on the time/cost Pareto front";
  return answer;
}

}  // namespace perfplan::planner
