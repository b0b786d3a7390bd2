#include "planner/plan/plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "planner/plan/plan_inputs.h"
#include "planner/plan/plan_runs.h"
#include "planner/runtime/fit_table.h"
#include "models/runtime_calibration.h"
#include "models/runtime_evaluate.h"
#include "models/runtime_forms.h"
#include "planner/runtime/fit_eval.h"
#include "profiles/runtime/runs_csv.h"

namespace perfplan::planner {
namespace {

std::string Number(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// Prices every alternative (already in the objective's order), applies the budget and the
// allowed names, computes the front and makes the choice. Shared by both evidence paths.
Result<PlanAnswer> Finish(const profiles::PriceFile* prices, PlanAnswer answer) {
  const PlanRequest& request = answer.request;
  const bool by_type = answer.evidence == PlanEvidence::kRunsCsv;
  const profiles::PricedKind kind =
      by_type ? profiles::PricedKind::kInstanceType : profiles::PricedKind::kSite;
  const std::vector<std::string>& allowed = by_type ? request.allowed_types : request.allowed_sites;
  if (prices) {
    answer.currency = prices->currency;
    answer.price_source = prices->file;
  }
  std::vector<std::string> unpriced_names;
  // Price entry per name, looked up once (a 10,000-node topology has ~50,000 alternatives over
  // ~500 sites; PriceFile::Find is a linear scan).
  std::unordered_map<std::string, const profiles::PriceEntry*> entries;
  const bool needs_price = request.objective == PlanObjective::kCost || request.budget > 0;
  for (PlanAlternative& alt : answer.alternatives) {
    const std::string& name = by_type ? alt.instance_type : alt.select.compute_site;
    if (!allowed.empty()) {
      alt.allowed_site = std::find(allowed.begin(), allowed.end(), name) != allowed.end();
    }
    if (prices) {
      auto [it, first_time] = entries.try_emplace(name, nullptr);
      if (first_time) {
        it->second = prices->Find(kind, name);
        if (!it->second) unpriced_names.push_back(name);
      }
      if (const profiles::PriceEntry* entry = it->second) {
        alt.priced = true;
        alt.cost =
            models::CostOf(alt.select.runtime_seconds, alt.select.compute_nodes, entry->price);
      }
    }
    alt.within_budget = !(request.budget > 0 && alt.priced && alt.cost.cost > request.budget);
    alt.feasible = alt.allowed_site && alt.within_budget && (alt.priced || !needs_price);
    if (!alt.allowed_site) {
      ++answer.excluded_sites;
    } else if (!alt.within_budget) {
      ++answer.over_budget;
    } else if (needs_price && !alt.priced) {
      ++answer.unpriced;
    }
  }
  for (const std::string& name : unpriced_names) {
    answer.warnings.push_back(
        std::string("no price for ") + (by_type ? "instance type" : "compute site") + " \"" + name +
        "\" in " + prices->file + ": its alternatives have no cost and are not on the front");
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
    why += ", " + std::to_string(answer.excluded_sites) +
           (by_type ? " of instance types not allowed, " : " at sites not allowed, ") +
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

Status NeedPrices(const profiles::PriceFile* prices, const PlanRequest& request) {
  if (!prices && request.objective == PlanObjective::kCost) {
    return Status::InvalidField(
        "objective", "cost needs prices (--prices FILE, or \"prices\" in a /v1/plan request)");
  }
  if (!prices && request.budget > 0) {
    return Status::InvalidField(
        "budget", "a budget needs prices (--prices FILE, or \"prices\" in a /v1/plan request)");
  }
  return Status::Ok();
}

std::string Fraction(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// The runs-CSV path over a table read once: one `perfplan fit` per instance type (the fit of
// that table), predicted at each node count.
Result<PlanAnswer> AnswerPlanFromTable(const profiles::RunsTable& runs,
                                       const profiles::PriceFile* price_file,
                                       const PlanRequest& request) {
  if (Status s = NeedPrices(price_file, request); !s.ok()) return s;

  std::vector<std::string> types;
  std::vector<int> measured_counts;
  double largest_bytes = 0;
  bool storage_follows_compute = true;
  for (const models::MeasuredRun& r : runs.runs) {
    if (r.workload != request.workload) continue;
    if (std::find(types.begin(), types.end(), r.instance_type) == types.end()) {
      types.push_back(r.instance_type);
    }
    measured_counts.push_back(static_cast<int>(std::lround(r.compute_nodes)));
    largest_bytes = std::max(largest_bytes, r.dataset_bytes);
    storage_follows_compute &= r.storage_nodes == r.compute_nodes;
  }
  if (types.empty()) {
    return Status::NotFound("workload: no runs of \"" + request.workload + "\" in " +
                            request.runs_file);
  }
  for (const std::string& t : request.allowed_types) {
    if (std::find(types.begin(), types.end(), t) == types.end()) {
      return Status::NotFound("instance_type: workload " + request.workload + " has no runs on \"" +
                              t + "\"");
    }
  }
  std::vector<int> counts = request.node_counts.empty() ? measured_counts : request.node_counts;
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  if (request.max_nodes > 0) {
    counts.erase(
        std::remove_if(counts.begin(), counts.end(), [&](int c) { return c > request.max_nodes; }),
        counts.end());
  }

  PlanAnswer answer;
  answer.request = request;
  answer.evidence = PlanEvidence::kRunsCsv;
  answer.dataset = request.workload;
  answer.dataset_bytes = request.dataset_bytes > 0 ? request.dataset_bytes : largest_bytes;
  answer.runtime_source.model = "fitted runtime model, one fit per instance type";
  answer.runtime_source.file = request.runs_file;
  answer.runtime_source.command = "perfplan fit";

  std::vector<PlanAlternative> alternatives;
  for (const std::string& type : types) {
    FitRequest fit_request;
    fit_request.runs_file = request.runs_file;
    fit_request.workload = request.workload;
    fit_request.instance_type = type;
    Result<FitAnswer> fit = AnswerFit(fit_request, runs);
    if (!fit.ok()) {
      answer.warnings.push_back(type + ": not fitted: " + fit.status().message());
      continue;
    }
    const models::RuntimeFit& f = fit.value().fit;
    answer.runtime_source.runs += f.runs_used.size();
    answer.runtime_source.notes.push_back(
        type + ": " + std::to_string(f.runs_used.size()) + " runs, " +
        (f.classes_chosen_by_fit ? "leave-one-out" : "in-sample") + " relative squared error " +
        Fraction(f.selection_score) + ", weighted RMS error " + Fraction(f.weighted_rms));
    // The calibration set: the freeride-g form (what the plan predicts with) cross-validated on
    // the same runs, so its held-out errors are the errors of this model.
    std::vector<models::MeasuredRun> used;
    for (std::size_t k : f.runs_used) used.push_back(fit.value().runs[k]);
    models::ChoiceOptions calibration;
    calibration.fit = fit_request.options;
    calibration.candidates = {models::RuntimeForm::kFreerideG};
    Result<models::ModelChoice> cv = models::ChooseRuntimeForm(used, {type}, calibration);
    if (cv.ok()) {
      for (const models::CandidateScore& s : cv.value().candidates) {
        answer.runtime_source.notes.push_back(
            type + ": " + Number(answer.interval_level * 100) + "% CV+ interval from " +
            std::to_string(cv.value().calibration_radius_log.size()) + " held-out run(s) (" +
            cv.value().scheme + ", mean |log error| " + Fraction(s.cv_error) + ")");
      }
    } else {
      answer.warnings.push_back(type + ": no interval: " + cv.status().message());
    }
    if (fit.value().choice && fit.value().choice->chosen != models::RuntimeForm::kFreerideG) {
      answer.runtime_source.notes.push_back(type + ": " + fit.value().choice->reason +
                                            " (the plan predicts with the freeride-g fit, as "
                                            "`perfplan fit` writes it)");
    }
    for (int c : counts) {
      models::RunConfig config = f.reference;
      config.dataset_bytes = answer.dataset_bytes;
      config.compute_nodes = c;
      if (storage_follows_compute) config.storage_nodes = c;
      PlanAlternative alt;
      alt.instance_type = type;
      alt.select.compute_nodes = c;
      alt.select.storage_nodes = config.storage_nodes;
      alt.select.bandwidth_bytes_per_second = config.bandwidth_bytes_per_second;
      alt.select.breakdown = models::PredictFitted(f, config);
      alt.select.runtime_seconds = alt.select.breakdown.TotalSeconds();
      alt.select.node_seconds = alt.select.runtime_seconds * c;
      if (cv.ok() && alt.select.runtime_seconds > 0) {
        models::MeasuredRun target = used.front();
        target.dataset_bytes = config.dataset_bytes;
        target.compute_nodes = config.compute_nodes;
        target.storage_nodes = config.storage_nodes;
        target.bandwidth_bytes_per_second = config.bandwidth_bytes_per_second;
        bool transfer = false;  // never: `used` are runs of the target's own type
        alt.interval_widening = models::WideningFactor(used, target, &transfer);
        std::vector<models::ConformalPoint> points = models::NormalisedCalibrationPoints(
            cv.value(), models::CalibrationDifficulty(cv.value(), used), target,
            alt.select.runtime_seconds, alt.interval_widening);
        if (!points.empty()) {
          alt.interval = models::CvPlusInterval(points, alt.select.runtime_seconds,
                                                answer.interval_level);
        }
      }
      ++answer.evaluated;
      if (request.deadline_seconds > 0 && alt.select.runtime_seconds > request.deadline_seconds) {
        ++answer.over_deadline;
        continue;
      }
      alternatives.push_back(std::move(alt));
    }
  }
  if (answer.runtime_source.runs == 0) {
    std::string why = "no instance type of workload " + request.workload + " could be fitted";
    for (const std::string& w : answer.warnings) why += "\n" + w;
    return Status::Failed(why);
  }
  if (alternatives.empty()) {
    return Status::Failed(
        "no alternative meets the deadline: " + std::to_string(answer.over_deadline) + " over " +
        Number(request.deadline_seconds) + " s");
  }
  const bool by_node_seconds = request.objective == PlanObjective::kNodeSeconds;
  std::stable_sort(alternatives.begin(), alternatives.end(),
                   [&](const PlanAlternative& a, const PlanAlternative& b) {
                     return by_node_seconds ? a.select.node_seconds < b.select.node_seconds
                                            : a.select.runtime_seconds < b.select.runtime_seconds;
                   });
  for (std::size_t i = 0; i < alternatives.size(); ++i) alternatives[i].select_rank = i + 1;
  answer.alternatives = std::move(alternatives);
  return Finish(price_file, std::move(answer));
}

// The runs-CSV path: reads the runs CSV and the price file, every problem at once.
Result<PlanAnswer> AnswerPlanFromRuns(const PlanRequest& request) {
  profiles::Loaded<profiles::RunsTable> table = profiles::LoadRunsCsv(request.runs_file);
  profiles::Loaded<profiles::PriceFile> prices =
      plan_detail::LoadOptionalPrices(request.price_file);
  if (Status s = plan_detail::InputProblems(table, prices); !s.ok()) return s;
  return AnswerPlanFromTable(table.value, request.price_file.empty() ? nullptr : &prices.value,
                             request);
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
  if (evidence() == PlanEvidence::kSparkApp) {
    if (store_path.empty()) return Status::InvalidArgument("store: required with an application");
    if (app.empty()) return Status::InvalidArgument("app: required with a store");
    if (!profile_file.empty() || !topology_file.empty() || !dataset.empty() ||
        !runs_file.empty()) {
      return Status::InvalidArgument(
          "store: give one evidence path: a store and application, a runs CSV and workload, or "
          "a profile, topology and dataset");
    }
  } else if (evidence() == PlanEvidence::kProfile) {
    if (dataset.empty()) {
      return Status::InvalidArgument("dataset: required (a topology dataset name)");
    }
  } else {
    if (workload.empty()) return Status::InvalidArgument("workload: required with a runs CSV");
    if (!profile_file.empty() || !topology_file.empty() || !dataset.empty()) {
      return Status::InvalidArgument(
          "runs: give either a runs CSV and workload, or a profile, topology and dataset");
    }
  }
  if (!(dataset_bytes >= 0)) {
    return Status::InvalidArgument("dataset_bytes: must be >= 0 (0 = the largest measured)");
  }
  for (int n : node_counts) {
    if (n < 1) return Status::InvalidArgument("nodes: must be >= 1, got " + std::to_string(n));
  }
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

Result<PlanAnswer> AnswerPlan(const profiles::RunsTable& runs, const profiles::PriceFile* prices,
                              const PlanRequest& request) {
  if (Status s = request.Validate(); !s.ok()) return s;
  if (request.evidence() != PlanEvidence::kRunsCsv) {
    return Status::InvalidArgument("runs: a plan over a runs table needs a workload, no profile");
  }
  return AnswerPlanFromTable(runs, prices, request);
}

Result<PlanAnswer> AnswerPlan(const PlanRequest& request) {
  if (Status s = request.Validate(); !s.ok()) return s;
  if (request.evidence() == PlanEvidence::kRunsCsv) return AnswerPlanFromRuns(request);
  if (request.evidence() == PlanEvidence::kSparkApp) {
    return Status::InvalidArgument("store: a Spark application plan is AnswerSparkPlan's");
  }
  if (request.profile_file.empty()) return Status::InvalidArgument("profile: required");
  if (request.topology_file.empty()) return Status::InvalidArgument("topology: required");
  profiles::Loaded<profiles::ProfileDocument> doc = profiles::LoadProfile(request.profile_file);
  profiles::Loaded<profiles::Topology> topology = profiles::LoadTopology(request.topology_file);
  profiles::Loaded<profiles::PriceFile> prices =
      plan_detail::LoadOptionalPrices(request.price_file);
  if (Status s = plan_detail::InputProblems(doc, topology, prices); !s.ok()) return s;
  return AnswerPlan(doc.value, topology.value, request.price_file.empty() ? nullptr : &prices.value,
                    request);
}

Result<PlanAnswer> AnswerPlan(const profiles::ProfileDocument& profile,
                              const profiles::Topology& topology, const profiles::PriceFile* prices,
                              const PlanRequest& request) {
  if (Status s = request.Validate(); !s.ok()) return s;
  if (Status s = NeedPrices(prices, request); !s.ok()) return s;
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

  answer.alternatives.reserve(sel.selection.alternatives.size());
  for (std::size_t i = 0; i < sel.selection.alternatives.size(); ++i) {
    PlanAlternative alt;
    alt.select = sel.selection.alternatives[i];
    alt.select_rank = i + 1;
    answer.alternatives.push_back(std::move(alt));
  }
  if (!sel.selection.alternatives.empty()) {
    answer.warnings = sel.selection.alternatives.front().warnings;
  }
  return Finish(prices, std::move(answer));
}

}  // namespace perfplan::planner
