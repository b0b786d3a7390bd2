#include "models/executor_whatif.h"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <string>

namespace perfplan::models {
namespace {

// Stage indices of `job` in an order where parents come first; InvalidArgument on a cycle.
Result<std::vector<std::size_t>> TopologicalOrder(const WhatIfJob& job) {
  std::map<int, std::size_t> index;
  for (std::size_t i = 0; i < job.stages.size(); ++i) index[job.stages[i].stage_id] = i;
  std::vector<int> state(job.stages.size(), 0);  // 0 new, 1 visiting, 2 done
  std::vector<std::size_t> order;
  std::function<bool(std::size_t)> visit = [&](std::size_t i) {
    if (state[i] == 2) return true;
    if (state[i] == 1) return false;
    state[i] = 1;
    for (int p : job.stages[i].parent_ids) {
      auto it = index.find(p);
      if (it != index.end() && !visit(it->second)) return false;
    }
    state[i] = 2;
    order.push_back(i);
    return true;
  };
  for (std::size_t i = 0; i < job.stages.size(); ++i) {
    if (!visit(i)) {
      return Status::InvalidArgument("stage " + std::to_string(job.stages[i].stage_id) +
                                     " depends on itself through its parent stages");
    }
  }
  return order;
}

// Makespan of one job on `slots` slots (event-driven list scheduling).
Result<double> SimulateJob(const WhatIfJob& job, long slots) {
  auto order = TopologicalOrder(job);
  if (!order.ok()) return order.status();
  const std::size_t n = job.stages.size();
  std::map<int, std::size_t> index;
  for (std::size_t i = 0; i < n; ++i) index[job.stages[i].stage_id] = i;
  std::vector<int> waiting(n, 0);
  std::vector<std::vector<std::size_t>> children(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int p : job.stages[i].parent_ids) {
      auto it = index.find(p);
      if (it == index.end()) continue;
      ++waiting[i];
      children[it->second].push_back(i);
    }
  }
  // Runnable stages by stage id; next task to hand out per stage; tasks still running per stage.
  std::map<int, std::size_t> runnable;
  std::vector<std::size_t> next_task(n, 0), running(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) runnable[job.stages[i].stage_id] = i;
  }
  // Free slot count plus a min-heap of (finish time, stage) for running tasks.
  using Event = std::pair<double, std::size_t>;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  long free_slots = slots;
  double now = 0, makespan = 0;
  std::size_t done_stages = 0;
  auto finish_stage = [&](std::size_t s) {
    ++done_stages;
    for (std::size_t c : children[s]) {
      if (--waiting[c] == 0) runnable[job.stages[c].stage_id] = c;
    }
  };
  while (done_stages < n) {
    // Hand out tasks while slots are free; empty stages finish at once.
    bool progressed = true;
    while (progressed) {
      progressed = false;
      for (auto it = runnable.begin(); it != runnable.end();) {
        std::size_t s = it->second;
        const auto& tasks = job.stages[s].task_seconds;
        while (free_slots > 0 && next_task[s] < tasks.size()) {
          events.push({now + tasks[next_task[s]++], s});
          ++running[s];
          --free_slots;
        }
        if (next_task[s] == tasks.size()) {
          it = runnable.erase(it);
          if (running[s] == 0) {
            finish_stage(s);
            progressed = true;
          }
        } else {
          ++it;
        }
        if (free_slots == 0) break;
      }
    }
    if (events.empty()) break;  // nothing running and nothing runnable: all done
    auto [t, s] = events.top();
    events.pop();
    now = t;
    makespan = std::max(makespan, t);
    ++free_slots;
    if (--running[s] == 0 && next_task[s] == job.stages[s].task_seconds.size()) finish_stage(s);
  }
  return makespan;
}

}  // namespace

Result<double> PredictWithExecutors(const WhatIfApplication& app, int executors) {
  if (executors < 1) {
    return Status::InvalidArgument("executors must be at least 1, not " +
                                   std::to_string(executors));
  }
  const long slots = static_cast<long>(executors) * std::max(1, app.cores_per_executor);
  double total = app.driver_seconds;
  for (const WhatIfJob& job : app.jobs) {
    auto t = SimulateJob(job, slots);
    if (!t.ok()) return t.status();
    total += t.value();
  }
  return total;
}

Result<double> CriticalPathSeconds(const WhatIfApplication& app) {
  double total = app.driver_seconds;
  for (const WhatIfJob& job : app.jobs) {
    auto order = TopologicalOrder(job);
    if (!order.ok()) return order.status();
    std::map<int, double> finish;  // by stage id
    double longest = 0;
    for (std::size_t i : order.value()) {
      const WhatIfStage& s = job.stages[i];
      double start = 0;
      for (int p : s.parent_ids) {
        auto it = finish.find(p);
        if (it != finish.end()) start = std::max(start, it->second);
      }
      double cost = s.task_seconds.empty()
                        ? 0
                        : *std::max_element(s.task_seconds.begin(), s.task_seconds.end());
      finish[s.stage_id] = start + cost;
      longest = std::max(longest, start + cost);
    }
    total += longest;
  }
  return total;
}

}  // namespace perfplan::models
