#include <algorithm>
#include <map>

#include "planner/mapreduce/mapreduce_api.h"
#include "planner/mapreduce/mapreduce_phases.h"

namespace perfplan::planner {
namespace {

using profiles::mapreduce::Attempt;
using profiles::mapreduce::Job;

bool Succeeded(const std::string& status) { return status == "SUCCEEDED" || status == "SUCCESS"; }

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

PhaseSpan Span(const std::string& phase, const std::vector<double>& seconds,
               std::optional<double> wall) {
  PhaseSpan p;
  p.phase = phase;
  p.attempts = seconds.size();
  p.wall_seconds = wall;
  for (double s : seconds) {
    p.attempt_seconds_sum += s;
    p.attempt_seconds_max = std::max(p.attempt_seconds_max, s);
  }
  p.attempt_seconds_median = Median(seconds);
  return p;
}

// Durations of the successful attempts of one phase, in file order.
struct PhaseTimes {
  std::vector<double> map, reduce, shuffle, merge, reduce_only;
  std::optional<std::int64_t> map_first, map_last, reduce_first, reduce_last;
};

void Extend(std::optional<std::int64_t>* first, std::optional<std::int64_t>* last,
            std::optional<std::int64_t> start, std::optional<std::int64_t> finish) {
  if (start && (!*first || *start < **first)) *first = start;
  if (finish && (!*last || *finish > **last)) *last = finish;
}

PhaseTimes Times(const Job& job) {
  PhaseTimes t;
  for (const Attempt& a : job.attempts) {
    if (!Succeeded(a.status)) continue;
    auto d = SecondsBetween(a.start_ms, a.finish_ms);
    if (!d) continue;
    if (a.task_type == "MAP") {
      t.map.push_back(*d);
      Extend(&t.map_first, &t.map_last, a.start_ms, a.finish_ms);
    } else if (a.task_type == "REDUCE") {
      t.reduce.push_back(*d);
      Extend(&t.reduce_first, &t.reduce_last, a.start_ms, a.finish_ms);
      auto sh = SecondsBetween(a.start_ms, a.shuffle_finish_ms);
      auto me = SecondsBetween(a.shuffle_finish_ms, a.sort_finish_ms);
      auto re = SecondsBetween(a.sort_finish_ms, a.finish_ms);
      if (sh && me && re) {
        t.shuffle.push_back(*sh);
        t.merge.push_back(*me);
        t.reduce_only.push_back(*re);
      }
    }
  }
  return t;
}

}  // namespace

std::optional<double> SecondsBetween(std::optional<std::int64_t> a,
                                     std::optional<std::int64_t> b) {
  if (!a || !b || *b < *a) return std::nullopt;
  return static_cast<double>(*b - *a) / 1000.0;
}

std::vector<PhaseDurations> JobPhaseDurations(const Job& job) {
  PhaseTimes t = Times(job);
  return {{"map", std::move(t.map)},
          {"reduce", std::move(t.reduce)},
          {"reduce.shuffle", std::move(t.shuffle)},
          {"reduce.merge", std::move(t.merge)},
          {"reduce.reduce", std::move(t.reduce_only)}};
}

bool IsMapReduceJobId(const std::string& id) { return id.rfind("job_", 0) == 0; }

Result<JobAnswer> AnswerJob(profiles::Store& store, const std::string& job_id,
                            std::size_t slowest) {
  auto summary = profiles::mapreduce::LoadJobSummary(store, job_id);
  if (!summary.ok()) return summary.status();
  auto loaded = profiles::mapreduce::LoadJob(store, job_id);
  if (!loaded.ok()) return loaded.status();
  const Job& job = loaded.value();
  JobAnswer a;
  a.summary = summary.value();
  a.duration_seconds = SecondsBetween(job.submit_ms ? job.submit_ms : job.launch_ms, job.finish_ms);
  a.total_maps = job.total_maps;
  a.total_reduces = job.total_reduces;
  a.finished_maps = job.finished_maps;
  a.finished_reduces = job.finished_reduces;
  a.failed_maps = job.failed_maps;
  a.failed_reduces = job.failed_reduces;
  a.killed_maps = job.killed_maps;
  a.killed_reduces = job.killed_reduces;
  a.diagnostics = job.diagnostics;
  const PhaseTimes t = Times(job);
  a.phases.push_back(Span("map", t.map, SecondsBetween(t.map_first, t.map_last)));
  a.phases.push_back(Span("reduce", t.reduce, SecondsBetween(t.reduce_first, t.reduce_last)));
  a.phases.push_back(Span("reduce.shuffle", t.shuffle, std::nullopt));
  a.phases.push_back(Span("reduce.merge", t.merge, std::nullopt));
  a.phases.push_back(Span("reduce.reduce", t.reduce_only, std::nullopt));

  std::map<std::pair<std::string, std::string>, std::int64_t> counts;
  for (const auto& task : job.tasks) {
    ++counts[{task.task_type, task.status.empty() ? "RUNNING" : task.status}];
  }
  for (const auto& [k, n] : counts) a.task_counts.emplace_back(k.first, k.second, n);
  if (auto it = job.counters.find("total"); it != job.counters.end()) a.counters = it->second;
  for (const Attempt& at : job.attempts) {
    if (at.status == "FAILED" || at.status == "KILLED") a.unsuccessful_attempts.push_back(at);
    if (!Succeeded(at.status)) continue;
    if (auto d = SecondsBetween(at.start_ms, at.finish_ms)) {
      a.slowest.push_back({at.task_id, at.task_type, at.attempt_id, at.host, *d});
    }
  }
  std::stable_sort(a.slowest.begin(), a.slowest.end(),
                   [](const TaskDuration& x, const TaskDuration& y) { return x.seconds > y.seconds; });
  if (a.slowest.size() > slowest) a.slowest.resize(slowest);
  for (const auto& [type, n] : job.event_counts) a.event_counts.emplace_back(type, n);
  a.conf_properties = job.conf.size();
  return a;
}

Result<MapReduceStragglersAnswer> AnswerMapReduceStragglers(profiles::Store& store,
                                                            const std::string& job_id,
                                                            const models::HIndexOptions& options) {
  if (Status s = options.Validate(); !s.ok()) return s;
  auto loaded = profiles::mapreduce::LoadJob(store, job_id);
  if (!loaded.ok()) return loaded.status();
  const PhaseTimes t = Times(loaded.value());
  MapReduceStragglersAnswer a;
  a.job_id = job_id;
  a.phases.emplace_back("map", MeasureStragglers(t.map, options));
  a.phases.emplace_back("reduce", MeasureStragglers(t.reduce, options));
  a.reduce_sub_phases.emplace_back("shuffle", MeasureStragglers(t.shuffle, options));
  a.reduce_sub_phases.emplace_back("merge", MeasureStragglers(t.merge, options));
  a.reduce_sub_phases.emplace_back("reduce", MeasureStragglers(t.reduce_only, options));
  std::vector<StageStragglers> phases = {a.phases[0].second, a.phases[1].second};
  a.phases_used = WeighStragglers(phases, "phase", &a.h_job, &a.h_job_note);
  a.phases[0].second = phases[0];
  a.phases[1].second = phases[1];
  return a;
}

}  // namespace perfplan::planner
