#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "models/executor_timeline.h"
#include "models/json_fields.h"
#include "models/json_text.h"
#include "planner/output/skip_report.h"
#include "planner/spark/executor_timeline_answer.h"
#include "planner/spark/spark_api.h"
#include "profiles/spark/spark_executor_timeline.h"

namespace perfplan::planner {

std::string ToJson(const profiles::spark::IngestSummary& summary) {
  nlohmann::json apps = nlohmann::json::array();
  for (const auto& a : summary.applications) {
    apps.push_back(
        PERFPLAN_JSON_FIELDS(a, app_id, attempt_id, source, events, completed, unchanged));
  }
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& s : summary.skipped) {
    skipped.push_back(PERFPLAN_JSON_FIELDS(s, file, line, reason));
  }
  nlohmann::json doc = PERFPLAN_JSON_FIELDS(summary, events, lines, bytes_read, skipped_total);
  doc["applications"] = summary.applications.size();
  doc["applications_ingested"] = apps;
  doc["skipped"] = skipped;
  doc["skipped_reasons"] = SkipReasonsJson(summary.skipped_reasons);
  return JsonLine(doc);
}

namespace {

nlohmann::json AppJson(const profiles::spark::ApplicationSummary& a) {
  nlohmann::json j = PERFPLAN_JSON_FIELDS(a, app_id, attempt_id, name, user, spark_version,
                                          start_time_ms, completed, jobs, stages, tasks,
                                          failed_tasks, executors, events, skipped_lines, source);
  j["end_time_ms"] = nullptr;
  j["duration_seconds"] = nullptr;
  if (a.end_time_ms) {
    j["end_time_ms"] = *a.end_time_ms;
    j["duration_seconds"] = static_cast<double>(*a.end_time_ms - a.start_time_ms) / 1000.0;
  }
  return j;
}

}  // namespace

Result<WhatIfOnTimeline> AnswerWhatIfOnTimeline(profiles::Store& store, const std::string& app_id,
                                                const std::string& attempt_id,
                                                const std::vector<int>& counts) {
  auto timeline = profiles::spark::LoadExecutorTimeline(store, app_id, attempt_id);
  if (!timeline.ok()) return timeline.status();
  const models::TimelineApplication& t = timeline.value();
  const models::TimelineApplication& a = t;  // the descriptive fields, one pass over the tasks
  WhatIfOnTimeline out;
  WhatIfAnswer& answer = out.whatif;
  answer.app_id = app_id;
  answer.attempt_id = attempt_id;
  // Unlimited executors: one slot per task attempt. Replayed first: a count with at least as many
  // slots as it ever kept busy answers as it does (models::WhatIfSlots), so is not replayed again,
  // and neither is a count with the slots of one replayed before (the observed count among them).
  std::size_t tasks = 1;
  for (const models::TimelineJob& job : t.jobs) {
    for (const models::TimelineStage& s : job.stages) tasks += s.task_seconds.size();
  }
  const int unlimited = static_cast<int>(std::min<std::size_t>(tasks, std::size_t{1} << 30));
  auto critical = models::ReplayWithExecutors(t, unlimited);
  if (!critical.ok()) {  // the first error in the order the counts, then the critical path, ran
    for (int n : counts) {
      auto p = models::ReplayWithExecutors(t, n);
      if (!p.ok()) return p.status();
    }
    return critical.status();
  }
  const int critical_slots = models::WhatIfSlots(t, unlimited);
  const std::size_t busiest = critical.value().most_running;
  std::map<int, models::TimelineReplay> by_slots;
  auto replay_with = [&](int n) -> Result<models::TimelineReplay> {
    if (n < 1) return models::ReplayWithExecutors(t, n);  // its error
    const int slots = models::WhatIfSlots(t, n);
    if (slots == critical_slots ||
        (busiest < static_cast<std::size_t>(critical_slots) &&
         static_cast<std::size_t>(slots) >= busiest)) {
      return critical.value();
    }
    if (auto it = by_slots.find(slots); it != by_slots.end()) return it->second;
    auto p = models::ReplayWithExecutors(t, n);
    if (p.ok()) by_slots.emplace(slots, p.value());
    return p;
  };
  for (int n : counts) {
    auto p = replay_with(n);
    if (!p.ok()) return p.status();
    answer.points.emplace_back(n, p.value().seconds);
  }
  answer.critical_path_seconds = critical.value().seconds;
  answer.measured_seconds = a.measured_seconds;
  answer.driver_seconds = a.driver_seconds;
  answer.observed_executors = a.observed_executors;
  answer.cores_per_executor = a.cores_per_executor;
  auto at_observed = models::ReplayOnTimeline(t);
  if (!at_observed.ok()) return at_observed.status();
  answer.predicted_at_observed_seconds = at_observed.value().seconds;
  if (a.measured_seconds > 0) {
    answer.relative_error_at_observed =
        (answer.predicted_at_observed_seconds - a.measured_seconds) / a.measured_seconds;
  }
  out.timeline.revived_executors = at_observed.value().revived_executors;
  out.timeline.max_concurrent_executors = models::MaxConcurrentExecutors(t.executors);
  out.timeline.timeline_executors = static_cast<int>(t.executors.size());
  auto static_observed = replay_with(a.observed_executors);
  if (!static_observed.ok()) return static_observed.status();
  out.timeline.predicted_static_at_observed_seconds = static_observed.value().seconds;
  return out;
}

Result<WhatIfAnswer> AnswerWhatIfExecutors(profiles::Store& store, const std::string& app_id,
                                           const std::string& attempt_id,
                                           const std::vector<int>& counts) {
  auto answer = AnswerWhatIfOnTimeline(store, app_id, attempt_id, counts);
  if (!answer.ok()) return answer.status();
  return std::move(answer.value().whatif);
}

namespace {

nlohmann::json WhatIfJson(const WhatIfAnswer& a) {
  nlohmann::json points = nlohmann::json::array();
  for (const auto& [n, t] : a.points)
    points.push_back({{"executors", n}, {"predicted_seconds", t}});
  nlohmann::json j =
      PERFPLAN_JSON_FIELDS(a, app_id, attempt_id, critical_path_seconds, measured_seconds,
                           driver_seconds, observed_executors, cores_per_executor,
                           predicted_at_observed_seconds, relative_error_at_observed);
  j["points"] = points;
  return j;
}

}  // namespace

std::string ToJson(const WhatIfAnswer& a) { return JsonLine(WhatIfJson(a)); }

std::string ToJson(const WhatIfOnTimeline& a) {
  nlohmann::json j = WhatIfJson(a.whatif);
  j.update(PERFPLAN_JSON_FIELDS(a.timeline, max_concurrent_executors, timeline_executors,
                                revived_executors, predicted_static_at_observed_seconds));
  return JsonLine(j);
}

std::string ToJson(const std::vector<profiles::spark::ApplicationSummary>& apps) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& a : apps) list.push_back(AppJson(a));
  return JsonLine(nlohmann::json({{"applications", list}}));
}

std::string ToJson(const profiles::spark::ApplicationSummary& app,
                   const std::vector<profiles::spark::StageSummary>& stages) {
  nlohmann::json j = AppJson(app);
  nlohmann::json list = nlohmann::json::array();
  for (const auto& s : stages) {
    nlohmann::json stage = PERFPLAN_JSON_FIELDS(
        s, stage_id, stage_attempt_id, name, status, num_tasks, succeeded_tasks, failed_tasks,
        task_seconds_median, task_seconds_max, task_seconds_sum);
    stage["duration_seconds"] = OrNull(s.duration_seconds);
    list.push_back(std::move(stage));
  }
  j["stages"] = list;
  return JsonLine(j);
}

}  // namespace perfplan::planner
