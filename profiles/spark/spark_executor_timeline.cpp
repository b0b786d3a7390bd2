#include "profiles/spark/spark_executor_timeline.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "profiles/spark/spark_store.h"

namespace perfplan::profiles::spark {
namespace {

double Seconds(std::int64_t ms, std::int64_t start_ms) {
  return static_cast<double>(ms - start_ms) / 1000.0;
}

std::vector<int> IntArray(const std::string& text) {
  std::vector<int> out;
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_array()) return out;
  for (const auto& v : j) {
    if (v.is_number_integer()) out.push_back(v.get<int>());
  }
  return out;
}

// The cpus a task of this resource profile asks for ("Task Resource Requests" → cpus → Amount);
// 0 when the profile does not say.
double TaskCpus(const std::string& task_resources_json) {
  auto j = nlohmann::json::parse(task_resources_json, nullptr, false);
  if (!j.is_object()) return 0;
  auto it = j.find("cpus");
  if (it == j.end() || !it->is_object()) return 0;
  auto amount = it->find("Amount");
  return amount != it->end() && amount->is_number() ? amount->get<double>() : 0;
}

}  // namespace

Result<models::TimelineApplication> LoadExecutorTimeline(Store& store, const std::string& app_id,
                                                         const std::string& attempt_id) {
  auto key_or = FindAttemptKey(store, app_id, attempt_id);
  if (!key_or.ok()) return key_or.status();
  const std::int64_t key = key_or.value();
  auto prepare = [&](const char* sql) -> Result<Statement> {
    auto q = store.Prepare(sql);
    if (q.ok()) q.value().Bind(1, key);
    return q;
  };
  std::int64_t start_ms = 0, end_ms = 0;
  bool completed = false;
  {
    auto q = prepare(
        "SELECT start_time_ms, end_time_ms, completed FROM spark_attempts WHERE attempt_key = ?1");
    if (!q.ok()) return q.status();
    if (q.value().Step()) {
      start_ms = q.value().ColumnInt(0);
      end_ms = q.value().ColumnIsNull(1) ? start_ms : q.value().ColumnInt(1);
      completed = q.value().ColumnInt(2) != 0;
    }
  }
  // Task cpus: spark.task.cpus, overridden per resource profile.
  double default_task_cpus = 1;
  {
    auto q = prepare(
        "SELECT value FROM spark_properties WHERE attempt_key = ?1 AND section = 'spark' AND "
        "name = 'spark.task.cpus'");
    if (!q.ok()) return q.status();
    if (q.value().Step()) {
      try {
        default_task_cpus = std::max(1.0, std::stod(q.value().ColumnText(0)));
      } catch (const std::exception&) {
        default_task_cpus = 1;  // Spark would have refused to start; keep the default
      }
    }
  }
  std::map<int, double> profile_task_cpus;
  {
    auto q = prepare(
        "SELECT profile_id, task_resources_json FROM spark_resource_profiles WHERE "
        "attempt_key = ?1");
    if (!q.ok()) return q.status();
    while (q.value().Step()) {
      const double cpus = TaskCpus(q.value().ColumnText(1));
      if (cpus > 0) profile_task_cpus[static_cast<int>(q.value().ColumnInt(0))] = cpus;
    }
  }
  // Stages: first job, parents, resource profile.
  struct StageInfo {
    int job = -1;
    std::vector<int> parents;
    int profile = 0;
  };
  std::map<int, StageInfo> stages;
  {
    auto q = prepare(
        "SELECT stage_id, job_ids_json, parent_ids_json, resource_profile_id FROM spark_stages "
        "WHERE attempt_key = ?1 ORDER BY stage_id, stage_attempt_id");
    if (!q.ok()) return q.status();
    while (q.value().Step()) {
      StageInfo& info = stages[static_cast<int>(q.value().ColumnInt(0))];
      for (int j : IntArray(q.value().ColumnText(1))) {
        if (info.job < 0 || j < info.job) info.job = j;
      }
      info.parents = IntArray(q.value().ColumnText(2));
      if (!q.value().ColumnIsNull(3)) info.profile = static_cast<int>(q.value().ColumnInt(3));
    }
  }
  // Tasks: durations per stage, per job task span, per executor concurrency.
  std::map<int, std::vector<double>> durations;
  std::map<int, std::pair<std::int64_t, std::int64_t>> task_span;  // by job
  std::map<std::string, std::vector<std::pair<std::int64_t, int>>> executor_events;
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> launch_span;  // first, last launch
  std::int64_t last_finish = start_ms;
  {
    auto q = prepare(
        "SELECT stage_id, launch_time_ms, finish_time_ms, executor_id FROM spark_tasks WHERE "
        "attempt_key = ?1 AND finish_time_ms IS NOT NULL ORDER BY stage_id, launch_time_ms, "
        "task_id");
    if (!q.ok()) return q.status();
    while (q.value().Step()) {
      const int stage = static_cast<int>(q.value().ColumnInt(0));
      const std::int64_t launch = q.value().ColumnInt(1), finish = q.value().ColumnInt(2);
      durations[stage].push_back(static_cast<double>(finish - launch) / 1000.0);
      last_finish = std::max(last_finish, finish);
      auto it = stages.find(stage);
      if (it != stages.end() && it->second.job >= 0) {
        auto [span, fresh] = task_span.try_emplace(it->second.job, launch, finish);
        if (!fresh) {
          span->second.first = std::min(span->second.first, launch);
          span->second.second = std::max(span->second.second, finish);
        }
      }
      const std::string executor = q.value().ColumnText(3);
      auto [first_last, fresh_executor] = launch_span.try_emplace(executor, launch, launch);
      if (!fresh_executor) {
        first_last->second.first = std::min(first_last->second.first, launch);
        first_last->second.second = std::max(first_last->second.second, launch);
      }
      auto& events = executor_events[executor];
      events.emplace_back(launch, +1);
      events.emplace_back(finish, -1);
    }
    if (!q.value().Error().ok()) return q.value().Error();
  }
  if (!completed) end_ms = std::max(end_ms, last_finish);
  models::TimelineApplication app;
  app.measured_seconds = std::max(0.0, Seconds(end_ms, start_ms));
  // Jobs in id order.
  std::map<int, models::TimelineJob> jobs;
  std::map<int, std::pair<std::int64_t, std::int64_t>> recorded_span;  // submission, completion
  {
    auto q = prepare(
        "SELECT job_id, submission_time_ms, completion_time_ms FROM spark_jobs WHERE "
        "attempt_key = ?1");
    if (!q.ok()) return q.status();
    while (q.value().Step()) {
      const int id = static_cast<int>(q.value().ColumnInt(0));
      if (!q.value().ColumnIsNull(1) && !q.value().ColumnIsNull(2)) {
        recorded_span[id] = {q.value().ColumnInt(1), q.value().ColumnInt(2)};
      }
      auto span = task_span.find(id);
      const bool has_span = span != task_span.end();
      const std::int64_t submit =
          !q.value().ColumnIsNull(1) ? q.value().ColumnInt(1)
                                     : (has_span ? span->second.first : start_ms);
      std::int64_t end = !q.value().ColumnIsNull(2) ? q.value().ColumnInt(2)
                                                    : (has_span ? span->second.second : submit);
      end = std::max(end, submit);
      models::TimelineJob& job = jobs[id];
      job.job_id = id;
      job.submit_seconds = std::max(0.0, Seconds(submit, start_ms));
      job.end_seconds = std::max(job.submit_seconds, Seconds(end, start_ms));
    }
  }
  for (const auto& [stage, info] : stages) {
    auto d = durations.find(stage);
    if (info.job < 0 || d == durations.end()) continue;  // skipped stage: nothing ran
    auto [it, fresh] = jobs.try_emplace(info.job);
    if (fresh) {  // a job without a JobStart line (cut log): its tasks' span
      const auto& span = task_span[info.job];
      it->second.job_id = info.job;
      it->second.submit_seconds = std::max(0.0, Seconds(span.first, start_ms));
      it->second.end_seconds = std::max(it->second.submit_seconds, Seconds(span.second, start_ms));
    }
    it->second.stages.push_back({stage, info.parents, d->second, info.profile});
  }
  for (auto& [id, job] : jobs) app.jobs.push_back(std::move(job));
  // Driver time as LoadWhatIfApplication defines it: the jobs' task spans, or their recorded
  // submission and completion when the log has both.
  {
    std::map<int, std::pair<std::int64_t, std::int64_t>> spans = task_span;
    for (const auto& [id, span] : recorded_span) spans[id] = span;
    std::vector<std::pair<std::int64_t, std::int64_t>> list;
    for (const auto& [id, span] : spans) list.push_back(span);
    app.driver_seconds = std::max(
        0.0, app.measured_seconds - static_cast<double>(models::UnionLength(std::move(list))) / 1000.0);
  }
  // Executors.
  auto most_running = [&](const std::string& id) {
    auto it = executor_events.find(id);
    if (it == executor_events.end()) return 1;
    std::sort(it->second.begin(), it->second.end());  // finishes (-1) before launches at one ms
    int running = 0, most = 1;
    for (const auto& [t, d] : it->second) {
      running += d;
      most = std::max(most, running);
    }
    return most;
  };
  models::TimelineExecutor driver;
  bool have_driver = false;
  int recorded_cores = 0;  // the largest non-driver Total Cores
  {
    auto q = prepare(
        "SELECT executor_id, total_cores, add_time_ms, remove_time_ms, resource_profile_id FROM "
        "spark_executors WHERE attempt_key = ?1 ORDER BY add_time_ms, executor_id");
    if (!q.ok()) return q.status();
    while (q.value().Step()) {
      Statement& r = q.value();
      models::TimelineExecutor e;
      e.id = r.ColumnText(0);
      if (e.id != "driver" && !r.ColumnIsNull(1)) {
        recorded_cores = std::max(recorded_cores, static_cast<int>(r.ColumnInt(1)));
      }
      e.resource_profile_id = r.ColumnIsNull(4) ? 0 : static_cast<int>(r.ColumnInt(4));
      const int cores = r.ColumnIsNull(1) || r.ColumnInt(1) <= 0 ? most_running(e.id)
                                                                 : static_cast<int>(r.ColumnInt(1));
      auto cpus = profile_task_cpus.find(e.resource_profile_id);
      const double task_cpus = cpus != profile_task_cpus.end() ? cpus->second : default_task_cpus;
      e.slots = std::max(1, static_cast<int>(std::floor(cores / task_cpus + 1e-9)));
      // An executor runs tasks only while registered: a log whose clock put the ExecutorAdded
      // after a task launch on it (or the ExecutorRemoved before one) is read by its tasks.
      std::int64_t add_ms = r.ColumnIsNull(2) ? start_ms : r.ColumnInt(2);
      std::optional<std::int64_t> remove_ms;
      if (!r.ColumnIsNull(3) && r.ColumnInt(3) < end_ms) remove_ms = r.ColumnInt(3);
      if (auto span = launch_span.find(e.id); span != launch_span.end()) {
        add_ms = std::min(add_ms, span->second.first);
        if (remove_ms) remove_ms = std::max(*remove_ms, span->second.second);
      }
      e.add_seconds = std::max(0.0, Seconds(add_ms, start_ms));
      if (remove_ms) e.remove_seconds = std::max(e.add_seconds, Seconds(*remove_ms, start_ms));
      if (e.id == "driver") {
        driver = e;
        have_driver = true;
      } else if (add_ms <= end_ms) {  // one added after the application ended was never in it
        app.executors.push_back(std::move(e));
      }
    }
    if (!q.value().Error().ok()) return q.value().Error();
  }
  // Local mode (or tasks on the driver): the driver runs tasks from the application start.
  if (app.executors.empty() || launch_span.count("driver")) {
    if (!have_driver) {
      driver.id = "driver";
      driver.slots = most_running("driver");
    }
    driver.add_seconds = 0;
    driver.remove_seconds = std::numeric_limits<double>::infinity();
    app.executors.push_back(driver);
  }
  for (const models::TimelineExecutor& e : app.executors) {
    app.static_slots_per_executor = std::max(app.static_slots_per_executor, e.slots);
  }
  int ran_tasks = 0, most_at_once = 1;
  for (const auto& [id, span] : launch_span) {
    if (id != "driver") ++ran_tasks;
    most_at_once = std::max(most_at_once, most_running(id));
  }
  app.observed_executors = std::max(1, ran_tasks);
  app.cores_per_executor = recorded_cores > 0 ? recorded_cores : most_at_once;
  return app;
}

}  // namespace perfplan::profiles::spark
