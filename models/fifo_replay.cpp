#include "models/fifo_replay.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>

namespace perfplan::models {

Result<ReplaySummary> ReplayFifo(const std::vector<ReplayJob>& jobs, long long cluster_slots) {
  if (cluster_slots < 1) {
    return Status::InvalidArgument("cluster_slots: " + std::to_string(cluster_slots) +
                                   " must be >= 1");
  }
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const ReplayJob& j = jobs[i];
    const std::string at = "jobs[" + std::to_string(i) + "].";
    if (!std::isfinite(j.submit_seconds) || j.submit_seconds < 0) {
      return Status::InvalidArgument(at + "submit_seconds: must be a number >= 0");
    }
    if (!std::isfinite(j.runtime_seconds) || j.runtime_seconds < 0) {
      return Status::InvalidArgument(at + "runtime_seconds: must be a number >= 0");
    }
    if (j.slots < 1) return Status::InvalidArgument(at + "slots: must be >= 1");
  }
  ReplaySummary s;
  s.cluster_slots = cluster_slots;
  if (jobs.empty()) return s;

  std::vector<std::size_t> order(jobs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return jobs[a].submit_seconds < jobs[b].submit_seconds;
  });

  // free_at → how many slots become free then. Every slot is free at time 0.
  std::map<double, long long> free_runs{{0.0, cluster_slots}};
  double previous_start = 0;
  double last_end = 0;
  s.first_submit_seconds = jobs[order.front()].submit_seconds;
  s.jobs.reserve(jobs.size());
  std::vector<double> queues;
  queues.reserve(jobs.size());
  for (std::size_t index : order) {
    const ReplayJob& job = jobs[index];
    long long need = job.slots;
    if (need > cluster_slots) {
      need = cluster_slots;
      ++s.clamped_jobs;
    }
    // The time the need-th earliest slot frees up.
    long long seen = 0;
    double slots_free_at = 0;
    for (const auto& [t, count] : free_runs) {
      seen += count;
      if (seen >= need) {
        slots_free_at = t;
        break;
      }
    }
    const double start = std::max({job.submit_seconds, previous_start, slots_free_at});
    const double end = start + job.runtime_seconds;
    // Take `need` slots, earliest-free first (all of them are free by `start`).
    long long take = need;
    while (take > 0) {
      auto it = free_runs.begin();
      const long long used = std::min(take, it->second);
      it->second -= used;
      take -= used;
      if (it->second == 0) free_runs.erase(it);
    }
    free_runs[end] += need;
    previous_start = start;
    last_end = std::max(last_end, end);
    const double queue = start - job.submit_seconds;
    s.jobs.push_back({index, start, end, queue, need});
    queues.push_back(queue);
    s.busy_slot_seconds += static_cast<double>(need) * job.runtime_seconds;
  }
  s.makespan_seconds = last_end - s.first_submit_seconds;
  s.mean_queue_seconds =
      std::accumulate(queues.begin(), queues.end(), 0.0) / static_cast<double>(queues.size());
  std::sort(queues.begin(), queues.end());
  const std::size_t rank =
      static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(queues.size())));
  s.p95_queue_seconds = queues[std::max<std::size_t>(rank, 1) - 1];
  s.max_queue_seconds = queues.back();
  if (s.makespan_seconds > 0) {
    s.utilisation = s.busy_slot_seconds / (static_cast<double>(cluster_slots) * s.makespan_seconds);
  }
  return s;
}

}  // namespace perfplan::models
