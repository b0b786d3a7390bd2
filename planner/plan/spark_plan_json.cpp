// ToJson(SparkPlanAnswer): one document, each part with the command that answers the same.
#include <nlohmann/json.hpp>

#include "models/json_fields.h"
#include "models/json_text.h"
#include "planner/plan/spark_plan.h"
#include "tuning/model.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

json Interval(const std::optional<models::ConformalInterval>& i) {
  if (!i) return nullptr;
  return {{"low_seconds", i->low_seconds},
          {"high_seconds", i->high_seconds},
          {"short_of_points", i->short_of_points}};
}

}  // namespace

std::string ToJson(const SparkPlanAnswer& a) {
  json options = json::array();
  for (const SparkExecutorOption& o : a.options) {
    options.push_back({{"executors", o.executors},
                       {"whatif_seconds", o.whatif_seconds},
                       {"executor_seconds", o.executor_seconds},
                       {"history_seconds", OrNull(o.history_seconds)},
                       {"history_interval", Interval(o.history_interval)},
                       {"feasible", o.feasible}});
  }
  json history_runs = json::array();
  for (const SparkHistoryRun& r : a.history.runs) {
    history_runs.push_back({{"app_id", r.app_id},
                            {"executors", r.executors},
                            {"seconds", r.seconds},
                            {"completed", r.completed}});
  }
  std::string apps;
  for (const std::string& id : a.tuning.app_ids) apps += (apps.empty() ? "" : ",") + id;
  json tuning = {{"runs", a.tuning.runs},
                 {"needed", a.tuning.needed},
                 {"recommended", a.tuning.recommended},
                 {"note", a.tuning.note},
                 {"command", "perfplan tune recommend --store " + a.store_path + " --apps " +
                                 apps + " --target total_time_seconds"}};
  if (a.tuning.recommendation) {
    const tuning::Recommendation& r = *a.tuning.recommendation;
    tuning["target"] = r.target;
    tuning["model"] = std::string(tuning::ToString(r.kind));
    tuning["cv_mre"] = r.cv_mre;
    tuning["predicted_seconds"] = r.predicted;
    tuning["baseline_predicted_seconds"] = r.baseline_predicted;
    tuning["predicted_gain"] = r.predicted_gain;
    tuning["spark_defaults"] = r.spark_defaults;
    json top = json::array();
    for (const auto& [name, direction] : a.tuning.top_parameters) {
      top.push_back({{"parameter", name}, {"direction", direction}});
    }
    tuning["top_parameters"] = top;
  }
  json worst = json::array();
  for (const auto& [name, score] : a.score.worst) {
    worst.push_back({{"dimension", name}, {"score", score}});
  }
  json stages = json::array();
  for (const SparkStageStragglers& s : a.stragglers.slowest) {
    stages.push_back({{"stage_id", s.stage_id},
                      {"attempt_id", s.attempt_id},
                      {"task_seconds", s.task_seconds},
                      {"h_index", OrNull(s.h_index)},
                      {"speedup", OrNull(s.speedup)},
                      {"max_over_median", OrNull(s.max_over_median)},
                      {"speculation_would_act", s.speculation_would_act},
                      {"median_shuffle_read_bytes", OrNull(s.median_shuffle_read_bytes)},
                      {"max_shuffle_read_bytes", OrNull(s.max_shuffle_read_bytes)},
                      {"aqe_skew_would_act", s.aqe_skew_would_act},
                      {"note", s.note}});
  }
  json source = PERFPLAN_JSON_FIELDS(a.whatif, observed_executors, cores_per_executor,
                                     measured_seconds, predicted_at_observed_seconds,
                                     relative_error_at_observed, critical_path_seconds);
  source["model"] = "executor what-if: the latest run's tasks replayed";
  source["command"] = "perfplan whatif executors " + a.latest_app_id + " --store " + a.store_path;
  json j = {{"evidence", "spark-application"},
            {"inputs", {{"store", a.store_path}, {"app", a.app_name}}},
            {"app_name", a.app_name},
            {"latest_app_id", a.latest_app_id},
            {"recommendation",
             a.chosen ? json({{"executors", a.options[*a.chosen].executors},
                              {"whatif_seconds", a.options[*a.chosen].whatif_seconds},
                              {"because", a.chosen_because},
                              {"spark_defaults", a.tuning.recommendation
                                                     ? json(a.tuning.recommendation->spark_defaults)
                                                     : json::array()}})
                      : json(nullptr)},
            {"executors", {{"source", source}, {"options", options}}},
            {"history",
             {{"runs", history_runs},
              {"completed_runs", a.history.completed_runs},
              {"distinct_executor_counts", a.history.distinct_counts},
              {"needed_runs", kSparkHistoryMinRuns},
              {"needed_counts", kSparkHistoryMinCounts},
              {"fitted", a.history.fitted},
              {"form", a.history.fitted ? json(a.history.form) : json(nullptr)},
              {"scheme", a.history.fitted ? json(a.history.scheme) : json(nullptr)},
              {"cv_error", a.history.fitted ? json(a.history.cv_error) : json(nullptr)},
              {"interval_level", a.history.interval_level},
              {"note", a.history.note}}},
            {"tuning", tuning},
            {"score",
             {{"scored", a.score.scored},
              {"score", a.score.scored ? json(a.score.score) : json(nullptr)},
              {"max_score", a.score.max_score},
              {"comparable_runs", a.score.comparable_runs},
              {"provisional", a.score.provisional},
              {"worst", worst},
              {"note", a.score.note},
              {"command", "perfplan score " + a.latest_app_id + " --store " + a.store_path}}},
            {"stragglers",
             {{"h_job", OrNull(a.stragglers.h_job)},
              {"speedup", OrNull(a.stragglers.speedup)},
              {"stages_used", a.stragglers.stages_used},
              {"slowest_stages", stages},
              {"note", a.stragglers.note},
              {"rules",
               {{"speculation_multiplier", kSpeculationMultiplier},
                {"skewed_partition_factor", kSkewedPartitionFactor},
                {"skewed_partition_threshold_bytes", kSkewedPartitionThresholdBytes}}},
              {"command", "perfplan stragglers " + a.latest_app_id + " --store " + a.store_path}}},
            {"warnings", a.warnings}};
  return JsonLine(j);
}

}  // namespace perfplan::planner
