#include "planner/plan/spark_plan.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "models/runtime_forms.h"
#include "planner/hindex/stragglers.h"
#include "planner/plan/plan.h"
#include "planner/scoring/spark_scoring.h"
#include "planner/tuning/tune.h"
#include "profiles/spark/history_api.h"
#include "profiles/spark/spark_store.h"

namespace perfplan::planner {
namespace {

constexpr const char* kWorkload = "spark-application";
constexpr const char* kType = "executors";
constexpr const char* kTarget = "total_time_seconds";

// The application's runs (exact name), oldest first; `app` may also be an application id, whose
// name is then used.
Result<std::vector<profiles::spark::ApplicationSummary>> RunsOf(profiles::Store& store,
                                                                const std::string& app,
                                                                std::string* name) {
  auto listed = profiles::spark::ListApplications(store);
  if (!listed.ok()) return listed.status();
  *name = app;
  for (const auto& a : listed.value()) {
    if (a.app_id == app) {
      *name = a.name;
      break;
    }
  }
  std::vector<profiles::spark::ApplicationSummary> runs;
  std::set<std::string> seen;  // latest attempt of each application (the list is latest first)
  for (const auto& a : listed.value()) {
    if (a.name == *name && seen.insert(a.app_id).second) runs.push_back(a);
  }
  if (runs.empty()) {
    std::string known;
    std::set<std::string> names;
    for (const auto& a : listed.value()) names.insert(a.name);
    for (const std::string& n : names) known += (known.empty() ? "" : ", ") + ("\"" + n + "\"");
    return Status::NotFound("app: no Spark application named or with id \"" + app +
                            "\" in the store " + store.path() +
                            (known.empty() ? "" : " (names: " + known + ")"));
  }
  // Oldest first; runs that started in the same millisecond in id order (so "the latest run" is
  // well defined).
  std::stable_sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
    return a.start_time_ms != b.start_time_ms ? a.start_time_ms < b.start_time_ms
                                              : a.app_id < b.app_id;
  });
  return runs;
}

void FitHistory(profiles::Store& store, const std::vector<profiles::spark::ApplicationSummary>& apps,
                SparkPlanAnswer* answer) {
  SparkHistoryFit& h = answer->history;
  std::vector<models::MeasuredRun> runs;
  std::set<int> counts;
  for (const auto& a : apps) {
    // The executor count and duration exactly as the what-if reads them.
    Result<WhatIfAnswer> w = AnswerWhatIfExecutors(store, a.app_id, "", {1});
    if (!w.ok()) {
      answer->warnings.push_back("history: " + a.app_id + " left out: " + w.status().message());
      continue;
    }
    SparkHistoryRun r;
    r.app_id = a.app_id;
    r.executors = w.value().observed_executors;
    r.seconds = w.value().measured_seconds;
    r.completed = a.completed && r.seconds > 0;
    h.runs.push_back(r);
    if (!r.completed) continue;
    ++h.completed_runs;
    counts.insert(r.executors);
    models::MeasuredRun m;
    m.workload = kWorkload;
    m.instance_type = kType;
    m.dataset_bytes = 1;  // one application: the same input in every run
    m.storage_nodes = r.executors;
    m.compute_nodes = r.executors;
    m.bandwidth_bytes_per_second = 1;
    m.runtime_seconds = r.seconds;
    runs.push_back(m);
  }
  h.distinct_counts = counts.size();
  if (h.completed_runs < kSparkHistoryMinRuns || h.distinct_counts < kSparkHistoryMinCounts) {
    h.note = "the history has " + std::to_string(h.completed_runs) + " completed run(s) at " +
             std::to_string(h.distinct_counts) + " executor count(s); a fit needs " +
             std::to_string(kSparkHistoryMinRuns) + " runs at " +
             std::to_string(kSparkHistoryMinCounts) + " or more counts";
    return;
  }
  models::ChoiceOptions options;
  options.candidates = {models::RuntimeForm::kSerialFloor, models::RuntimeForm::kLogNodes,
                        models::RuntimeForm::kCommunication};
  Result<models::ModelChoice> choice = models::ChooseRuntimeForm(runs, {kType}, options);
  if (!choice.ok()) {
    h.note = "no form fits the history: " + choice.status().message();
    return;
  }
  const models::ModelChoice& c = choice.value();
  h.fitted = true;
  h.form = std::string(models::ToString(c.chosen));
  h.scheme = c.scheme;
  for (const models::CandidateScore& s : c.candidates) {
    if (s.form == c.chosen) h.cv_error = s.cv_error;
  }
  h.note = c.reason;
  for (SparkExecutorOption& o : answer->options) {
    models::MeasuredRun target = runs.front();
    target.storage_nodes = target.compute_nodes = o.executors;
    std::optional<double> p = models::PredictForm(c.model, target);
    if (!p) continue;
    o.history_seconds = *p;
    std::vector<models::ConformalPoint> points = models::CalibrationPoints(c, target, *p);
    if (!points.empty()) o.history_interval = models::CvPlusInterval(points, *p, h.interval_level);
  }
}

void Tune(const PlanRequest& request, const std::vector<profiles::spark::ApplicationSummary>& apps,
          SparkPlanAnswer* answer) {
  SparkTuning& t = answer->tuning;
  TuneModelSource source;
  source.data.store_path = request.store_path;
  for (const auto& a : apps) source.data.store_apps.push_back(a.app_id);
  t.app_ids = source.data.store_apps;
  source.data.dataset.target = kTarget;
  t.runs = apps.size();
  t.needed = static_cast<std::size_t>(source.search.cv.folds);
  if (t.runs < t.needed) {
    t.note = "the application has " + std::to_string(t.runs) + " run(s) in the store; the " +
             "config-sensitivity model needs " + std::to_string(t.needed) +
             " (one per cross-validation fold)";
    return;
  }
  tuning::RecommendOptions settings;
  Result<tuning::Recommendation> rec = AnswerTuneRecommend(source, settings);
  if (!rec.ok()) {
    t.note = "no recommendation: " + rec.status().message();
    return;
  }
  t.recommended = true;
  t.recommendation = std::move(rec).value();
  Result<tuning::Sensitivity> sens = AnswerTuneSensitivity(source, {}, {});
  if (sens.ok()) {
    for (const tuning::ParameterSensitivity& p : sens.value().parameters) {
      if (t.top_parameters.size() == 3) break;
      t.top_parameters.push_back({p.name, p.direction});
    }
  } else {
    answer->warnings.push_back("sensitivity: " + sens.status().message());
  }
}

void Score(const PlanRequest& request, SparkPlanAnswer* answer) {
  SparkScorePart& s = answer->score;
  Result<std::vector<ScoreAnswer>> scores = AnswerScores(request.store_path, answer->latest_app_id);
  if (!scores.ok() || scores.value().empty()) {
    s.note = scores.ok() ? "no score" : scores.status().message();
    return;
  }
  const models::ScoreResult& r = scores.value().front().result;
  s.scored = true;
  s.score = r.score;
  s.max_score = models::kMaxScore;
  s.comparable_runs = r.comparable_runs;
  s.provisional = r.provisional;
  for (std::size_t i : r.worst_first) {
    if (s.worst.size() == 3) break;
    if (r.dimensions[i].score) s.worst.push_back({r.dimensions[i].name, *r.dimensions[i].score});
  }
}

// The median and maximum shuffle-read bytes per task of a stage attempt, from the History
// Server's taskSummary of the store.
void ShuffleReadQuantiles(profiles::Store& store, const std::string& app_id,
                          SparkStageStragglers* stage) {
  const std::string path = "applications/" + app_id + "/stages/" +
                           std::to_string(stage->stage_id) + "/" +
                           std::to_string(stage->attempt_id) + "/taskSummary?quantiles=0.5,1.0";
  Result<std::string> text = profiles::spark::HistoryApi(store, path);
  if (!text.ok()) return;
  const nlohmann::json j = nlohmann::json::parse(text.value(), nullptr, false);
  if (j.is_discarded() || !j.contains("shuffleReadMetrics")) return;
  const nlohmann::json& bytes = j["shuffleReadMetrics"]["readBytes"];
  if (!bytes.is_array() || bytes.size() != 2) return;
  stage->median_shuffle_read_bytes = bytes[0].get<double>();
  stage->max_shuffle_read_bytes = bytes[1].get<double>();
  stage->aqe_skew_would_act =
      *stage->max_shuffle_read_bytes > kSkewedPartitionFactor * *stage->median_shuffle_read_bytes &&
      *stage->max_shuffle_read_bytes > kSkewedPartitionThresholdBytes;
}

void Stragglers(profiles::Store& store, const PlanRequest& request, SparkPlanAnswer* answer) {
  SparkStragglersPart& part = answer->stragglers;
  StragglersRequest r;
  r.store_path = request.store_path;
  r.app_id = answer->latest_app_id;
  Result<StragglersAnswer> s = AnswerStragglers(r);
  if (!s.ok()) {
    part.note = s.status().message();
    return;
  }
  part.h_job = s.value().h_job;
  part.stages_used = s.value().stages_used;
  part.note = s.value().h_job_note;
  if (part.h_job && *part.h_job < 1) part.speedup = 1 / (1 - *part.h_job);
  std::vector<const StageStragglers*> stages;
  for (const StageStragglers& st : s.value().stages) stages.push_back(&st);
  std::stable_sort(stages.begin(), stages.end(), [](const auto* a, const auto* b) {
    return a->task_seconds > b->task_seconds;
  });
  for (const StageStragglers* st : stages) {
    if (part.slowest.size() == kSparkTopStages) break;
    SparkStageStragglers out;
    out.stage_id = st->stage_id;
    out.attempt_id = st->attempt_id;
    out.task_seconds = st->task_seconds;
    out.max_over_median = st->max_over_median;
    out.speculation_would_act = st->max_over_median && *st->max_over_median > kSpeculationMultiplier;
    if (st->result) {
      out.h_index = st->result->h_index;
      if (*out.h_index < 1) out.speedup = 1 / (1 - *out.h_index);
    } else {
      out.note = st->excluded_reason;
    }
    ShuffleReadQuantiles(store, answer->latest_app_id, &out);
    part.slowest.push_back(out);
  }
}

}  // namespace

std::vector<int> DefaultExecutorCounts(int observed, int max_executors) {
  std::vector<int> counts;
  const int top = std::max(8, 2 * observed);
  for (int c = 1; c <= top; c *= 2) counts.push_back(c);
  if (observed >= 1) counts.push_back(observed);
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  if (max_executors > 0) {
    counts.erase(std::remove_if(counts.begin(), counts.end(),
                                [&](int c) { return c > max_executors; }),
                 counts.end());
  }
  return counts;
}

Result<SparkPlanAnswer> AnswerSparkPlan(const PlanRequest& request) {
  if (request.objective == PlanObjective::kCost) {
    return Status::InvalidField("objective",
                                "cost: the Spark application path prices nothing (the store "
                                "records neither sites nor instance types); use time or "
                                "node-seconds");
  }
  if (request.budget > 0 || !request.price_file.empty()) {
    return Status::InvalidField(request.budget > 0 ? "budget" : "prices",
                                "the Spark application path prices nothing (the store records "
                                "neither sites nor instance types)");
  }
  if (!request.allowed_sites.empty() || !request.allowed_types.empty()) {
    return Status::InvalidField(request.allowed_sites.empty() ? "instance_type" : "site",
                                "the Spark application path has no sites or instance types");
  }
  if (!std::filesystem::exists(request.store_path)) {
    return Status::NotFound(request.store_path +
                            ": no such store; run `perfplan ingest spark` first");
  }
  // A store is an SQLite file: a FIFO, device or directory would block or fail inside SQLite.
  if (!std::filesystem::is_regular_file(request.store_path)) {
    return Status::InvalidField("store", request.store_path +
                                             ": not a regular file (a store is an SQLite file)");
  }
  auto store =
      profiles::Store::OpenReadOnly(request.store_path, {profiles::spark::StoreMigrations()});
  if (!store.ok()) return store.status();
  SparkPlanAnswer answer;
  answer.store_path = request.store_path;
  auto apps = RunsOf(*store.value(), request.app, &answer.app_name);
  if (!apps.ok()) return apps.status();
  answer.latest_app_id = apps.value().back().app_id;

  // The executor what-if of the latest run.
  Result<WhatIfAnswer> probe = AnswerWhatIfExecutors(*store.value(), answer.latest_app_id, "", {1});
  if (!probe.ok()) return probe.status();
  std::vector<int> counts = request.node_counts;
  if (counts.empty()) {
    counts = DefaultExecutorCounts(probe.value().observed_executors, request.max_nodes);
  } else if (request.max_nodes > 0) {
    counts.erase(std::remove_if(counts.begin(), counts.end(),
                                [&](int c) { return c > request.max_nodes; }),
                 counts.end());
  }
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  if (counts.empty()) {
    return Status::InvalidField("max_nodes", "no executor count within " +
                                                 std::to_string(request.max_nodes));
  }
  Result<WhatIfAnswer> whatif =
      AnswerWhatIfExecutors(*store.value(), answer.latest_app_id, "", counts);
  if (!whatif.ok()) return whatif.status();
  answer.whatif = std::move(whatif).value();
  for (const auto& [n, t] : answer.whatif.points) {
    SparkExecutorOption o;
    o.executors = n;
    o.whatif_seconds = t;
    o.executor_seconds = t * n;
    o.feasible = !(request.deadline_seconds > 0 && t > request.deadline_seconds);
    answer.options.push_back(o);
  }
  for (std::size_t i = 0; i < answer.options.size(); ++i) {
    const SparkExecutorOption& o = answer.options[i];
    if (!o.feasible) continue;
    if (!answer.chosen) {
      answer.chosen = i;
      continue;
    }
    const SparkExecutorOption& best = answer.options[*answer.chosen];
    const bool better = request.objective == PlanObjective::kNodeSeconds
                            ? o.executor_seconds < best.executor_seconds
                            : o.whatif_seconds < best.whatif_seconds;
    if (better) answer.chosen = i;  // strictly: ties keep the fewer executors
  }
  if (!answer.chosen) {
    return Status::Failed("no executor count meets the deadline: all " +
                          std::to_string(answer.options.size()) + " replays take longer than " +
                          std::to_string(static_cast<long long>(request.deadline_seconds)) + " s");
  }
  answer.chosen_because = request.objective == PlanObjective::kNodeSeconds
                              ? "fewest replayed executor-seconds within the constraints"
                              : "fastest replayed runtime within the constraints (ties go to "
                                "fewer executors)";

  FitHistory(*store.value(), apps.value(), &answer);
  store.value().reset();  // the parts below open the store themselves
  Tune(request, apps.value(), &answer);
  Score(request, &answer);
  {
    auto again =
        profiles::Store::OpenReadOnly(request.store_path, {profiles::spark::StoreMigrations()});
    if (!again.ok()) return again.status();
    Stragglers(*again.value(), request, &answer);
  }
  return answer;
}

}  // namespace perfplan::planner
