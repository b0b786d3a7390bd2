#include "profiles/spark/spark_executor_timeline.h"
#include "profiles/spark/spark_summary_records.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "profiles/detail/rows.h"
#include "profiles/spark/spark_store.h"

namespace perfplan::profiles::spark {
namespace {

using profiles::detail::EachRow;
using profiles::detail::FirstRow;

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
  auto summary_only = IsSummaryOnly(store, key);  // the timeline needs every task
  if (!summary_only.ok()) return summary_only.status();
  if (summary_only.value()) return SummaryOnly(app_id);
  std::int64_t start_ms = 0, end_ms = 0;
  bool completed = false;
  Status s = FirstRow(
      store,
      "SELECT start_time_ms, end_time_ms, completed FROM spark_attempts WHERE attempt_key = ?1",
      [&](const Statement& q) {
        start_ms = q.ColumnInt(0);
        end_ms = q.ColumnIsNull(1) ? start_ms : q.ColumnInt(1);
        completed = q.ColumnInt(2) != 0;
      },
      key);
  if (!s.ok()) return s;
  // Task cpus: spark.task.cpus, overridden per resource profile.
  double default_task_cpus = 1;
  s = FirstRow(
      store,
      "SELECT value FROM spark_properties WHERE attempt_key = ?1 AND section = 'spark' AND "
      "name = 'spark.task.cpus'",
      [&](const Statement& q) {
        try {
          default_task_cpus = std::max(1.0, std::stod(q.ColumnText(0)));
        } catch (const std::exception&) {
          default_task_cpus = 1;  // Spark would have refused to start; keep the default
        }
      },
      key);
  if (!s.ok()) return s;
  std::map<int, double> profile_task_cpus;
  s = EachRow(
      store,
      "SELECT profile_id, task_resources_json FROM spark_resource_profiles WHERE attempt_key = ?1",
      [&](const Statement& q) {
        const double cpus = TaskCpus(q.ColumnText(1));
        if (cpus > 0) profile_task_cpus[static_cast<int>(q.ColumnInt(0))] = cpus;
      },
      key);
  if (!s.ok()) return s;
  // Stages: first job, parents, resource profile.
  struct StageInfo {
    int job = -1;
    std::vector<int> parents;
    int profile = 0;
  };
  std::map<int, StageInfo> stages;
  s = EachRow(
      store,
      "SELECT stage_id, job_ids_json, parent_ids_json, resource_profile_id FROM spark_stages "
      "WHERE attempt_key = ?1 ORDER BY stage_id, stage_attempt_id",
      [&](const Statement& q) {
        StageInfo& info = stages[static_cast<int>(q.ColumnInt(0))];
        for (int j : IntArray(q.ColumnText(1))) {
          if (info.job < 0 || j < info.job) info.job = j;
        }
        info.parents = IntArray(q.ColumnText(2));
        if (!q.ColumnIsNull(3)) info.profile = static_cast<int>(q.ColumnInt(3));
      },
      key);
  if (!s.ok()) return s;
  // Tasks: durations per stage, per job task span, per executor launches and concurrency. One
  // pass over the application's task rows in primary-key order, reading five columns (the stage
  // index does not hold the finish time and executor: ordering by it made SQLite look every row
  // up by key and sort them again); the rows are ordered here, where they mostly come sorted.
  struct TaskRow {
    std::int64_t launch_key;  // launch_time_ms; NULL as the smallest value (SQL orders it first)
    std::int64_t finish;
    std::int64_t task_id;
    int stage;
    int executor;  // index into executors_ran
  };
  struct ExecutorTasks {
    std::string id;
    std::int64_t first_launch = 0, last_launch = 0;
    int most_running = 0;  // 0: not counted yet
  };
  constexpr std::int64_t kNullLaunch = std::numeric_limits<std::int64_t>::min();
  auto launch_of = [](const TaskRow& r) { return r.launch_key == kNullLaunch ? 0 : r.launch_key; };
  std::vector<TaskRow> rows;
  s = FirstRow(
      store, "SELECT SUM(tasks) FROM spark_stage_summaries WHERE attempt_key = ?1",
      [&](const Statement& q) {
        rows.reserve(static_cast<std::size_t>(std::max<std::int64_t>(0, q.ColumnInt(0))));
      },
      key);
  if (!s.ok()) return s;
  std::map<int, std::pair<std::int64_t, std::int64_t>> task_span;  // by job
  std::vector<ExecutorTasks> executors_ran;                        // executors that ran tasks
  std::unordered_map<std::string, int> executor_index;
  std::int64_t last_finish = start_ms;
  // Rows come mostly in stage order and executors repeat: both are looked up only on a change.
  int row_stage = 0, row_job = -1;
  bool have_stage = false;
  std::pair<std::int64_t, std::int64_t>* row_span = nullptr;
  std::string row_executor_id;
  int row_executor = -1;
  s = EachRow(
      store,
      "SELECT stage_id, launch_time_ms, finish_time_ms, executor_id, task_id FROM spark_tasks "
      "WHERE attempt_key = ?1 AND finish_time_ms IS NOT NULL",
      [&](const Statement& q) {
        const int stage = static_cast<int>(q.ColumnInt(0));
        const bool launch_null = q.ColumnIsNull(1);
        const std::int64_t launch = q.ColumnInt(1), finish = q.ColumnInt(2);
        if (!have_stage || stage != row_stage) {
          have_stage = true;
          row_stage = stage;
          auto it = stages.find(stage);
          row_job = it != stages.end() ? it->second.job : -1;
          row_span = nullptr;
        }
        last_finish = std::max(last_finish, finish);
        if (row_job >= 0) {
          if (!row_span) row_span = &task_span.try_emplace(row_job, launch, finish).first->second;
          row_span->first = std::min(row_span->first, launch);
          row_span->second = std::max(row_span->second, finish);
        }
        if (std::string executor_id = q.ColumnText(3);  // short ids: no allocation
            row_executor < 0 || executor_id != row_executor_id) {
          row_executor_id = std::move(executor_id);
          auto [e, fresh] =
              executor_index.try_emplace(row_executor_id, static_cast<int>(executors_ran.size()));
          if (fresh) executors_ran.push_back({row_executor_id, launch, launch, 0});
          row_executor = e->second;
        }
        ExecutorTasks& tasks = executors_ran[static_cast<std::size_t>(row_executor)];
        tasks.first_launch = std::min(tasks.first_launch, launch);
        tasks.last_launch = std::max(tasks.last_launch, launch);
        rows.push_back({launch_null ? kNullLaunch : launch, finish, q.ColumnInt(4), stage,
                        row_executor});
      },
      key);
  if (!s.ok()) return s;
  // Each stage's attempts in (launch, task id) order, all attempts of a stage id together.
  auto before = [](const TaskRow& a, const TaskRow& b) {
    return std::tie(a.stage, a.launch_key, a.task_id) < std::tie(b.stage, b.launch_key, b.task_id);
  };
  if (!std::is_sorted(rows.begin(), rows.end(), before)) {
    std::sort(rows.begin(), rows.end(), before);
  }
  std::map<int, std::vector<double>> durations;
  for (std::size_t i = 0; i < rows.size();) {
    std::size_t j = i;
    while (j < rows.size() && rows[j].stage == rows[i].stage) ++j;
    std::vector<double>& d = durations[rows[i].stage];
    d.reserve(j - i);
    for (; i < j; ++i) {
      d.push_back(static_cast<double>(rows[i].finish - launch_of(rows[i])) / 1000.0);
    }
  }
  if (!completed) end_ms = std::max(end_ms, last_finish);
  models::TimelineApplication app;
  app.measured_seconds = std::max(0.0, Seconds(end_ms, start_ms));
  // Jobs in id order.
  std::map<int, models::TimelineJob> jobs;
  std::map<int, std::pair<std::int64_t, std::int64_t>> recorded_span;  // submission, completion
  s = EachRow(
      store,
      "SELECT job_id, submission_time_ms, completion_time_ms FROM spark_jobs WHERE "
      "attempt_key = ?1",
      [&](const Statement& q) {
        const int id = static_cast<int>(q.ColumnInt(0));
        if (!q.ColumnIsNull(1) && !q.ColumnIsNull(2)) {
          recorded_span[id] = {q.ColumnInt(1), q.ColumnInt(2)};
        }
        auto span = task_span.find(id);
        const bool has_span = span != task_span.end();
        const std::int64_t submit =
            !q.ColumnIsNull(1) ? q.ColumnInt(1) : (has_span ? span->second.first : start_ms);
        std::int64_t end =
            !q.ColumnIsNull(2) ? q.ColumnInt(2) : (has_span ? span->second.second : submit);
        end = std::max(end, submit);
        models::TimelineJob& job = jobs[id];
        job.job_id = id;
        job.submit_seconds = std::max(0.0, Seconds(submit, start_ms));
        job.end_seconds = std::max(job.submit_seconds, Seconds(end, start_ms));
      },
      key);
  if (!s.ok()) return s;
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
    it->second.stages.push_back({stage, info.parents, std::move(d->second), info.profile});
  }
  for (auto& [id, job] : jobs) app.jobs.push_back(std::move(job));
  // Driver time as the static what-if defines it: the jobs' task spans, or their recorded
  // submission and completion when the log has both.
  {
    std::map<int, std::pair<std::int64_t, std::int64_t>> spans = task_span;
    for (const auto& [id, span] : recorded_span) spans[id] = span;
    std::vector<std::pair<std::int64_t, std::int64_t>> list;
    for (const auto& [id, span] : spans) list.push_back(span);
    app.driver_seconds =
        std::max(0.0, app.measured_seconds -
                          static_cast<double>(models::UnionLength(std::move(list))) / 1000.0);
  }
  // Executors. The most tasks seen running at once on one, counted for every executor the first
  // time one is asked for (only when a recorded core count is missing).
  auto find_ran = [&](const std::string& id) -> ExecutorTasks* {
    auto it = executor_index.find(id);
    return it == executor_index.end() ? nullptr
                                      : &executors_ran[static_cast<std::size_t>(it->second)];
  };
  bool counted = false;
  auto most_running = [&](const std::string& id) {
    ExecutorTasks* tasks = find_ran(id);
    if (!tasks) return 1;
    if (!counted) {
      counted = true;
      // (time, +1 launch / -1 finish) of every task, grouped by executor.
      std::vector<std::size_t> offset(executors_ran.size() + 1, 0);
      for (const TaskRow& r : rows) offset[static_cast<std::size_t>(r.executor) + 1] += 2;
      for (std::size_t e = 0; e < executors_ran.size(); ++e) offset[e + 1] += offset[e];
      std::vector<std::pair<std::int64_t, int>> events(offset.back());
      std::vector<std::size_t> fill(offset.begin(), offset.end() - 1);
      for (const TaskRow& r : rows) {
        std::size_t& at = fill[static_cast<std::size_t>(r.executor)];
        events[at++] = {launch_of(r), +1};
        events[at++] = {r.finish, -1};
      }
      for (std::size_t e = 0; e < executors_ran.size(); ++e) {
        const auto first = events.begin() + static_cast<std::ptrdiff_t>(offset[e]);
        const auto last = events.begin() + static_cast<std::ptrdiff_t>(offset[e + 1]);
        std::sort(first, last);  // finishes (-1) before launches
        int running = 0, most = 1;
        for (auto it = first; it != last; ++it) {
          running += it->second;
          most = std::max(most, running);
        }
        executors_ran[e].most_running = most;
      }
    }
    return tasks->most_running;
  };
  models::TimelineExecutor driver;
  bool have_driver = false;
  int recorded_cores = 0;  // the largest non-driver Total Cores
  s = EachRow(
      store,
      "SELECT executor_id, total_cores, add_time_ms, remove_time_ms, resource_profile_id FROM "
      "spark_executors WHERE attempt_key = ?1 ORDER BY add_time_ms, executor_id",
      [&](const Statement& r) {
        models::TimelineExecutor e;
        e.id = r.ColumnText(0);
        if (e.id != "driver" && !r.ColumnIsNull(1)) {
          recorded_cores = std::max(recorded_cores, static_cast<int>(r.ColumnInt(1)));
        }
        e.resource_profile_id = r.ColumnIsNull(4) ? 0 : static_cast<int>(r.ColumnInt(4));
        const int cores = r.ColumnIsNull(1) || r.ColumnInt(1) <= 0
                              ? most_running(e.id)
                              : static_cast<int>(r.ColumnInt(1));
        auto cpus = profile_task_cpus.find(e.resource_profile_id);
        const double task_cpus = cpus != profile_task_cpus.end() ? cpus->second : default_task_cpus;
        e.slots = std::max(1, static_cast<int>(std::floor(cores / task_cpus + 1e-9)));
        // An executor runs tasks only while registered: a log whose clock put the ExecutorAdded
        // after a task launch on it (or the ExecutorRemoved before one) is read by its tasks.
        std::int64_t add_ms = r.ColumnIsNull(2) ? start_ms : r.ColumnInt(2);
        std::optional<std::int64_t> remove_ms;
        if (!r.ColumnIsNull(3) && r.ColumnInt(3) < end_ms) remove_ms = r.ColumnInt(3);
        if (const ExecutorTasks* tasks = find_ran(e.id)) {
          add_ms = std::min(add_ms, tasks->first_launch);
          if (remove_ms) remove_ms = std::max(*remove_ms, tasks->last_launch);
        }
        e.add_seconds = std::max(0.0, Seconds(add_ms, start_ms));
        if (remove_ms) e.remove_seconds = std::max(e.add_seconds, Seconds(*remove_ms, start_ms));
        if (e.id == "driver") {
          driver = e;
          have_driver = true;
        } else if (add_ms <= end_ms) {  // one added after the application ended was never in it
          app.executors.push_back(std::move(e));
        }
      },
      key);
  if (!s.ok()) return s;
  // Local mode (or tasks on the driver): the driver runs tasks from the application start.
  if (app.executors.empty() || find_ran("driver")) {
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
  int ran_tasks = 0;
  for (const ExecutorTasks& tasks : executors_ran) {
    if (tasks.id != "driver") ++ran_tasks;
  }
  app.observed_executors = std::max(1, ran_tasks);
  if (recorded_cores > 0) {
    app.cores_per_executor = recorded_cores;
  } else {
    int most_at_once = 1;
    for (const ExecutorTasks& tasks : executors_ran) {
      most_at_once = std::max(most_at_once, most_running(tasks.id));
    }
    app.cores_per_executor = most_at_once;
  }
  return app;
}

// The static what-if's input is the timeline without its executors: one store pass serves both
// (the jobs that ran a stage, their stages and task durations, and the descriptive fields, which
// LoadExecutorTimeline defines as spark_store.h documents them here).
Result<models::WhatIfApplication> LoadWhatIfApplication(Store& store, const std::string& app_id,
                                                        const std::string& attempt_id) {
  auto timeline = LoadExecutorTimeline(store, app_id, attempt_id);
  if (!timeline.ok()) return timeline.status();
  models::TimelineApplication& t = timeline.value();
  models::WhatIfApplication app;
  for (models::TimelineJob& job : t.jobs) {
    if (job.stages.empty()) continue;  // a job whose stages were all skipped: nothing ran
    models::WhatIfJob& out = app.jobs.emplace_back();
    for (models::TimelineStage& s : job.stages) {
      out.stages.push_back({s.stage_id, std::move(s.parent_ids), std::move(s.task_seconds)});
    }
  }
  app.driver_seconds = t.driver_seconds;
  app.measured_seconds = t.measured_seconds;
  app.observed_executors = t.observed_executors;
  app.cores_per_executor = t.cores_per_executor;
  return app;
}

}  // namespace perfplan::profiles::spark
