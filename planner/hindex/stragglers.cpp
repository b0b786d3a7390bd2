#include "planner/hindex/stragglers.h"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <utility>

#include "profiles/problem.h"
#include "profiles/spark/spark_store.h"
#include "profiles/store.h"

namespace perfplan::planner {
namespace {

// Y_max / median of the durations, empty when there are none or the median is 0.
std::optional<double> MaxOverMedian(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  const double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  if (median <= 0) return std::nullopt;
  return values.back() / median;
}

// NotFound for an unknown application, with the closest application id in the store.
Status UnknownApplication(profiles::Store& store, const StragglersRequest& request,
                          const Status& status) {
  auto apps = profiles::spark::ListApplications(store);
  if (!apps.ok()) return status;
  std::vector<std::string_view> ids;
  for (const auto& a : apps.value()) ids.push_back(a.app_id);
  const std::string suggestion = profiles::SuggestClosest(request.app_id, ids);
  if (suggestion.empty()) return status;
  return Status::NotFound(status.message() + "; did you mean \"" + suggestion + "\"?");
}

}  // namespace

StageStragglers MeasureStragglers(const std::vector<double>& task_seconds,
                                  const models::HIndexOptions& options) {
  StageStragglers st;
  st.tasks = task_seconds.size();
  st.task_seconds = std::accumulate(task_seconds.begin(), task_seconds.end(), 0.0);
  st.max_over_median = MaxOverMedian(task_seconds);
  const std::size_t omega = models::EffectiveMinSegment(options, st.tasks);
  if (st.tasks < 2 * omega + 2) {
    st.excluded_reason = std::to_string(st.tasks) + " successful tasks; the change point needs " +
                         "at least 2ω + 2 = " + std::to_string(2 * omega + 2) +
                         " (ω = " + std::to_string(omega) + ")";
    return st;
  }
  auto r = models::ComputeHIndex(task_seconds, options);
  if (r.ok()) {
    st.included = true;
    st.result = std::move(r).value();
  } else {
    st.excluded_reason = r.status().message();
  }
  return st;
}

std::size_t WeighStragglers(std::vector<StageStragglers>& entries, const std::string& what,
                            std::optional<double>* h_job, std::string* note) {
  std::vector<models::TaskHIndex> used;
  for (const StageStragglers& st : entries) {
    if (st.included) used.push_back({st.result->h_index, st.task_seconds});
  }
  double used_seconds = 0;
  for (const auto& t : used) used_seconds += t.task_seconds;
  if (used.empty()) {
    *note = "no " + what + " has enough successful tasks for a change point";
  } else if (used_seconds <= 0) {
    *note = "the " + what + "s used have no task time";
  } else {
    auto h = models::JobHIndex(used);
    if (h.ok()) {
      *h_job = h.value();
      for (StageStragglers& st : entries) {
        if (st.included) st.weight = st.task_seconds / used_seconds;
      }
    } else {
      *note = h.status().message();
    }
  }
  return used.size();
}

Result<StragglersAnswer> AnswerStragglers(const StragglersRequest& request) {
  if (Status s = request.options.Validate(); !s.ok()) return s;
  auto store = profiles::Store::OpenReadOnly(request.store_path, {profiles::spark::StoreMigrations()});
  if (!store.ok()) return store.status();
  auto stages =
      profiles::spark::TaskDurationsByStage(*store.value(), request.app_id, request.attempt_id);
  if (!stages.ok()) {
    if (stages.status().code() == StatusCode::kNotFound) {
      return UnknownApplication(*store.value(), request, stages.status());
    }
    return stages.status();
  }

  StragglersAnswer answer;
  answer.app_id = request.app_id;
  answer.attempt_id = request.attempt_id;
  for (const auto& s : stages.value()) {
    StageStragglers st = MeasureStragglers(s.task_duration_seconds, request.options);
    st.stage_id = s.stage_id;
    st.attempt_id = s.stage_attempt_id;
    answer.stages.push_back(std::move(st));
  }
  answer.stages_used =
      WeighStragglers(answer.stages, "stage attempt", &answer.h_job, &answer.h_job_note);
  return answer;
}

}  // namespace perfplan::planner
