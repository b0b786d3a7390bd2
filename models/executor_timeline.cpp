#include "models/executor_timeline.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>

namespace perfplan::models {
namespace {

// Direct predecessors of each job (and of the application end, the last entry) in the interval
// order "k ended before j was submitted", with the recorded gap end(k) → submit(j).
struct Edge {
  std::size_t job;
  double gap;
};

std::vector<std::vector<Edge>> DirectPredecessors(const std::vector<TimelineJob>& jobs,
                                                  double app_end) {
  const std::size_t n = jobs.size();
  std::vector<std::size_t> by_end(n);
  for (std::size_t i = 0; i < n; ++i) by_end[i] = i;
  std::sort(by_end.begin(), by_end.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(jobs[a].end_seconds, a) < std::tie(jobs[b].end_seconds, b);
  });
  // Prefix maxima of submission times over by_end, the two largest with distinct jobs (a job of
  // zero length must not make itself redundant).
  struct Top2 {
    double first = -1, second = -1;  // submissions are >= 0; -1 = none
    std::size_t first_job = SIZE_MAX;
  };
  std::vector<Top2> prefix(n + 1);
  for (std::size_t i = 0; i < n; ++i) {
    Top2 t = prefix[i];
    const double s = jobs[by_end[i]].submit_seconds;
    if (s > t.first) {
      t.second = t.first;
      t.first = s;
      t.first_job = by_end[i];
    } else if (s > t.second) {
      t.second = s;
    }
    prefix[i + 1] = t;
  }
  std::vector<std::vector<Edge>> preds(n + 1);
  // Jobs ended by `submit`: the prefix of by_end before (submit, self) in (end, index) order, so
  // a job of zero length is not its own predecessor. Of those, k is direct when no other one was
  // submitted at or after k's end: end(k) > the latest other submission of the prefix.
  auto fill = [&](double submit, std::size_t self, std::vector<Edge>& out) {
    const std::size_t m = static_cast<std::size_t>(
        std::lower_bound(by_end.begin(), by_end.end(), std::pair{submit, self},
                         [&](std::size_t k, const std::pair<double, std::size_t>& key) {
                           return std::pair{jobs[k].end_seconds, k} < key;
                         }) -
        by_end.begin());
    const Top2& t = prefix[m];
    for (std::size_t i = m; i-- > 0;) {
      const std::size_t k = by_end[i];
      if (jobs[k].end_seconds <= t.first) break;  // by_end order: every earlier one too
      if (k != t.first_job) out.push_back({k, std::max(0.0, submit - jobs[k].end_seconds)});
    }
    if (t.first_job != SIZE_MAX && jobs[t.first_job].end_seconds > t.second) {
      out.push_back({t.first_job, std::max(0.0, submit - jobs[t.first_job].end_seconds)});
    }
  };
  for (std::size_t j = 0; j < n; ++j) fill(jobs[j].submit_seconds, j, preds[j]);
  fill(app_end, n, preds[n]);
  return preds;
}

// A stage index is (job, stage in job); flattened for the simulation.
struct StageRef {
  std::size_t job, stage;
};

Status CheckAcyclic(const TimelineJob& job) {
  std::map<int, std::size_t> index;
  for (std::size_t i = 0; i < job.stages.size(); ++i) index[job.stages[i].stage_id] = i;
  std::vector<int> waiting(job.stages.size(), 0);
  std::vector<std::vector<std::size_t>> children(job.stages.size());
  for (std::size_t i = 0; i < job.stages.size(); ++i) {
    for (int p : job.stages[i].parent_ids) {
      auto it = index.find(p);
      if (it == index.end()) continue;
      ++waiting[i];
      children[it->second].push_back(i);
    }
  }
  std::vector<std::size_t> ready;
  for (std::size_t i = 0; i < waiting.size(); ++i) {
    if (waiting[i] == 0) ready.push_back(i);
  }
  std::size_t seen = 0;
  while (!ready.empty()) {
    std::size_t s = ready.back();
    ready.pop_back();
    ++seen;
    for (std::size_t c : children[s]) {
      if (--waiting[c] == 0) ready.push_back(c);
    }
  }
  if (seen == job.stages.size()) return Status::Ok();
  for (std::size_t i = 0; i < waiting.size(); ++i) {
    if (waiting[i] > 0) {
      return Status::InvalidArgument("stage " + std::to_string(job.stages[i].stage_id) +
                                     " depends on itself through its parent stages");
    }
  }
  return Status::Ok();
}

class Simulation {
 public:
  Simulation(const TimelineApplication& app, std::vector<TimelineExecutor> executors,
             bool match_profiles)
      : app_(app), executors_(std::move(executors)), match_profiles_(match_profiles) {}

  Result<TimelineReplay> Run() {
    const std::size_t n_jobs = app_.jobs.size();
    for (const TimelineJob& job : app_.jobs) {
      Status s = CheckAcyclic(job);
      if (!s.ok()) return s;
    }
    preds_ = DirectPredecessors(app_.jobs, app_.measured_seconds);
    successors_.assign(n_jobs + 1, {});
    pending_preds_.assign(n_jobs + 1, 0);
    submit_at_.assign(n_jobs + 1, 0);
    job_end_.assign(n_jobs, 0);
    job_left_.assign(n_jobs, 0);
    for (std::size_t j = 0; j <= n_jobs; ++j) {
      pending_preds_[j] = preds_[j].size();
      submit_at_[j] = j < n_jobs ? app_.jobs[j].submit_seconds : app_.measured_seconds;
      if (!preds_[j].empty()) submit_at_[j] = 0;
      for (const Edge& e : preds_[j]) successors_[e.job].push_back({j, e.gap});
    }
    // Stages, their parents inside the job.
    bool has_tasks = false;
    for (std::size_t j = 0; j < n_jobs; ++j) {
      const TimelineJob& job = app_.jobs[j];
      std::map<int, std::size_t> index;
      const std::size_t base = stages_.size();
      job_base_.push_back(base);
      for (std::size_t i = 0; i < job.stages.size(); ++i) {
        index[job.stages[i].stage_id] = base + i;
        stages_.push_back({j, i});
        if (!job.stages[i].task_seconds.empty()) has_tasks = true;
      }
      job_left_[j] = job.stages.size();
      waiting_.resize(stages_.size(), 0);
      children_.resize(stages_.size());
      for (std::size_t i = 0; i < job.stages.size(); ++i) {
        for (int p : job.stages[i].parent_ids) {
          auto it = index.find(p);
          if (it == index.end()) continue;
          ++waiting_[base + i];
          children_[it->second].push_back(base + i);
        }
      }
    }
    if (has_tasks && executors_.empty()) {
      return Status::InvalidArgument("the application ran tasks but has no executor to replay them on");
    }
    next_task_.assign(stages_.size(), 0);
    running_.assign(stages_.size(), 0);
    alive_.assign(executors_.size(), 0);
    free_.assign(executors_.size(), 0);
    free_bits_.assign((executors_.size() + 63) / 64, 0);
    for (std::size_t e = 0; e < executors_.size(); ++e) {
      Push(executors_[e].add_seconds, kAdd, e, 0);
      if (executors_[e].remove_seconds < std::numeric_limits<double>::infinity()) {
        Push(executors_[e].remove_seconds, kRemove, e, 0);
      }
    }
    for (std::size_t j = 0; j < n_jobs; ++j) {
      if (pending_preds_[j] == 0) Push(submit_at_[j], kSubmit, j, 0);
    }
    if (pending_preds_[n_jobs] == 0) app_end_ = submit_at_[n_jobs], ended_ = true;
    TimelineReplay out;
    while (!ended_) {
      if (events_.empty()) {
        // Nothing runs and nothing will be added: the replay outlived the recorded executors (or
        // no executor has the stage's profile). Keep the removed executors; then ignore profiles.
        bool any_alive = false;
        for (std::size_t e = 0; e < executors_.size(); ++e) any_alive = any_alive || alive_[e];
        if (any_alive && match_profiles_) {
          match_profiles_ = false;
        } else {
          int revived = 0;
          for (std::size_t e = 0; e < executors_.size(); ++e) {
            if (alive_[e]) continue;
            alive_[e] = true;
            free_[e] = std::max(1, executors_[e].slots);
            SetFree(e);
            ++revived;
          }
          if (revived == 0 && !match_profiles_) {
            return Status::Failed("executor timeline replay made no progress");
          }
          if (revived == 0) match_profiles_ = false;
          out.revived_executors += revived;
        }
        Dispatch();
        continue;
      }
      const double t = events_.top().time;
      while (!events_.empty() && events_.top().time == t) {
        const Event ev = events_.Pop();
        now_ = ev.time;
        Handle(ev);
      }
      Dispatch();
    }
    out.seconds = app_end_;
    out.most_running = most_running_;
    for (double e : job_end_) out.seconds = std::max(out.seconds, e);
    return out;
  }

 private:
  enum Kind { kFinish = 0, kRemove = 1, kAdd = 2, kSubmit = 3 };
  // Events are handled in (time, kind, push order). `when` is the time mapped to an integer of the
  // same order (-0 as +0, as they compare), `order` is kind << 62 | push sequence: two integer
  // comparisons without branches decide which of two events comes first.
  struct Event {
    std::uint64_t when;
    std::uint64_t order;
    double time;
    std::uint32_t a, b;
    int kind() const { return static_cast<int>(order >> 62); }
  };
  static std::uint64_t When(double time) {
    const auto bits = std::bit_cast<std::uint64_t>(time + 0.0);  // -0 + 0 = +0
    return bits >> 63 ? ~bits : bits | std::uint64_t{1} << 63;
  }
  static bool Before(const Event& x, const Event& y) {
    return (x.when < y.when) | ((x.when == y.when) & (x.order < y.order));
  }
  // A 4-ary min-heap on a flat vector (half the levels of a binary one; a node's four children
  // are two cache lines). A pop moves the hole down to a leaf along the earliest children, then
  // the last event up from there (it usually belongs low).
  class EventHeap {
   public:
    bool empty() const { return heap_.empty(); }
    const Event& top() const { return heap_.front(); }
    void Push(const Event& ev) {
      std::size_t i = heap_.size();
      heap_.push_back(ev);
      SiftUp(i, ev);
    }
    Event Pop() {
      const Event out = heap_.front();
      const Event last = heap_.back();
      heap_.pop_back();
      const std::size_t n = heap_.size();
      if (n == 0) return out;
      Event* h = heap_.data();
      std::size_t i = 0;
      for (std::size_t c = 1; c < n; c = 4 * i + 1) {
        std::size_t best = c;
        if (c + 3 < n) {
          const std::size_t first = c + Before(h[c + 1], h[c]);
          const std::size_t second = c + 2 + Before(h[c + 3], h[c + 2]);
          best = Before(h[second], h[first]) ? second : first;
        } else {
          for (std::size_t k = c + 1; k < n; ++k) {
            if (Before(h[k], h[best])) best = k;
          }
        }
        h[i] = h[best];
        i = best;
      }
      SiftUp(i, last);
      return out;
    }

   private:
    void SiftUp(std::size_t i, const Event& ev) {
      Event* h = heap_.data();
      while (i > 0) {
        const std::size_t parent = (i - 1) / 4;
        if (!Before(ev, h[parent])) break;
        h[i] = h[parent];
        i = parent;
      }
      h[i] = ev;
    }
    std::vector<Event> heap_;
  };

  void Push(double time, Kind kind, std::size_t a, std::size_t b) {
    events_.Push({When(time), static_cast<std::uint64_t>(kind) << 62 | seq_++, time,
                  static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b)});
  }

  // The executors that are alive with a free slot, as a bitmap taken in index order.
  void SetFree(std::size_t e) {
    std::uint64_t& word = free_bits_[e / 64];
    const std::uint64_t bit = std::uint64_t{1} << (e % 64);
    if (!(word & bit)) ++free_count_;
    word |= bit;
  }
  void ClearFree(std::size_t e) {
    std::uint64_t& word = free_bits_[e / 64];
    const std::uint64_t bit = std::uint64_t{1} << (e % 64);
    if (word & bit) --free_count_;
    word &= ~bit;
  }
  // The first free executor at or after e; kNone when there is none.
  static constexpr std::size_t kNone = SIZE_MAX;
  std::size_t NextFree(std::size_t e) const {
    std::size_t w = e / 64;
    if (w >= free_bits_.size()) return kNone;
    std::uint64_t word = free_bits_[w] & (~std::uint64_t{0} << (e % 64));
    while (word == 0) {
      if (++w == free_bits_.size()) return kNone;
      word = free_bits_[w];
    }
    return w * 64 + static_cast<std::size_t>(std::countr_zero(word));
  }

  const TimelineStage& StageOf(std::size_t s) const {
    return app_.jobs[stages_[s].job].stages[stages_[s].stage];
  }

  void Handle(const Event& ev) {
    switch (ev.kind()) {
      case kFinish: {
        const std::size_t e = ev.a, s = ev.b;
        if (alive_[e]) {
          if (free_[e]++ == 0) SetFree(e);
        }
        --running_now_;
        if (--running_[s] == 0 && next_task_[s] == StageOf(s).task_seconds.size()) FinishStage(s);
        break;
      }
      case kRemove:
        alive_[ev.a] = 0;
        ClearFree(ev.a);
        break;
      case kAdd:
        alive_[ev.a] = 1;
        free_[ev.a] = std::max(1, executors_[ev.a].slots);
        SetFree(ev.a);
        break;
      case kSubmit: {
        const std::size_t j = ev.a;
        if (job_left_[j] == 0) {
          FinishJob(j);
          break;
        }
        const std::size_t end = job_base_[j] + app_.jobs[j].stages.size();
        for (std::size_t s = job_base_[j]; s < end; ++s) {
          if (waiting_[s] == 0) MakeRunnable(s);
        }
        break;
      }
    }
  }

  void MakeRunnable(std::size_t s) {
    if (StageOf(s).task_seconds.empty()) {
      FinishStage(s);
      return;
    }
    runnable_.insert({app_.jobs[stages_[s].job].job_id, StageOf(s).stage_id, s});
  }

  void FinishStage(std::size_t s) {
    for (std::size_t c : children_[s]) {
      if (--waiting_[c] == 0) MakeRunnable(c);
    }
    const std::size_t j = stages_[s].job;
    if (--job_left_[j] == 0) FinishJob(j);
  }

  void FinishJob(std::size_t j) {
    job_end_[j] = now_;
    for (const Edge& e : successors_[j]) {
      submit_at_[e.job] = std::max(submit_at_[e.job], now_ + e.gap);
      if (--pending_preds_[e.job] > 0) continue;
      if (e.job == app_.jobs.size()) {
        app_end_ = submit_at_[e.job];
        ended_ = true;
      } else {
        Push(submit_at_[e.job], kSubmit, e.job, 0);
      }
    }
  }

  bool Accepts(std::size_t e, const TimelineStage& st) const {
    return !match_profiles_ || executors_[e].resource_profile_id == st.resource_profile_id;
  }

  // Each runnable stage in FIFO order takes free slots, executors in index order, for its next
  // tasks.
  void Dispatch() {
    for (auto it = runnable_.begin(); it != runnable_.end() && free_count_ > 0;) {
      const std::size_t s = std::get<2>(*it);
      const TimelineStage& st = StageOf(s);
      const double* durations = st.task_seconds.data();
      const std::size_t tasks = st.task_seconds.size();
      std::size_t next = next_task_[s], started = 0;
      std::size_t e = NextFree(0);
      while (next < tasks && e != kNone) {
        if (!Accepts(e, st)) {
          e = NextFree(e + 1);
          continue;
        }
        // This executor's free slots take the stage's next tasks.
        int& free = free_[e];
        while (free > 0 && next < tasks) {
          Push(now_ + durations[next++], kFinish, e, s);
          --free;
          ++started;
        }
        if (free == 0) {
          ClearFree(e);
          e = NextFree(e + 1);
        }
      }
      next_task_[s] = next;
      running_[s] += started;
      running_now_ += started;
      most_running_ = std::max(most_running_, running_now_);
      if (next == tasks) {
        it = runnable_.erase(it);
      } else {
        ++it;
      }
    }
  }

  const TimelineApplication& app_;
  std::vector<TimelineExecutor> executors_;
  bool match_profiles_;
  std::vector<std::vector<Edge>> preds_, successors_;
  std::vector<std::size_t> pending_preds_, job_left_;
  std::vector<double> submit_at_, job_end_;
  std::vector<StageRef> stages_;
  std::vector<std::size_t> job_base_;  // first stage index of each job
  std::vector<int> waiting_;
  std::vector<std::vector<std::size_t>> children_;
  std::vector<std::size_t> next_task_, running_;
  std::vector<char> alive_;
  std::vector<int> free_;
  std::vector<std::uint64_t> free_bits_;  // SetFree / ClearFree / NextFree
  std::size_t free_count_ = 0;
  std::set<std::tuple<int, int, std::size_t>> runnable_;
  EventHeap events_;
  std::uint64_t seq_ = 0;
  std::size_t running_now_ = 0, most_running_ = 0;  // task attempts running, and at most
  double now_ = 0, app_end_ = 0;
  bool ended_ = false;
};

}  // namespace

Result<TimelineReplay> ReplayOnTimeline(const TimelineApplication& app) {
  return Simulation(app, app.executors, true).Run();
}

Result<TimelineReplay> ReplayWithExecutors(const TimelineApplication& app, int executors) {
  if (executors < 1) {
    return Status::InvalidArgument("executors must be at least 1, not " +
                                   std::to_string(executors));
  }
  // N identical executors that are never removed are one executor with N times the slots.
  double first_add = std::numeric_limits<double>::infinity();
  for (const TimelineExecutor& e : app.executors) first_add = std::min(first_add, e.add_seconds);
  TimelineExecutor pool;
  pool.id = "what-if";
  pool.add_seconds = app.executors.empty() ? 0 : first_add;
  pool.slots = WhatIfSlots(app, executors);
  return Simulation(app, {pool}, false).Run();
}

int WhatIfSlots(const TimelineApplication& app, int executors) {
  const long slots = static_cast<long>(executors) * std::max(1, app.static_slots_per_executor);
  return static_cast<int>(std::min<long>(slots, std::numeric_limits<int>::max()));
}

std::int64_t UnionLength(std::vector<std::pair<std::int64_t, std::int64_t>> spans) {
  std::sort(spans.begin(), spans.end());
  std::int64_t covered = 0, cur_start = 0, cur_end = -1;
  for (const auto& [a, b] : spans) {
    if (a > cur_end) {
      if (cur_end >= cur_start) covered += cur_end - cur_start;
      cur_start = a;
      cur_end = b;
    } else {
      cur_end = std::max(cur_end, b);
    }
  }
  if (cur_end >= cur_start) covered += cur_end - cur_start;
  return covered;
}

StageBounds BoundStages(const TimelineApplication& app, double slots) {
  StageBounds out;
  for (const TimelineJob& job : app.jobs) {
    for (const TimelineStage& stage : job.stages) {
      if (stage.task_seconds.empty()) continue;
      ++out.stages;
      double work = 0, longest = 0;
      for (double t : stage.task_seconds) {
        work += t;
        longest = std::max(longest, t);
      }
      const double per_slot = work / slots;
      if (per_slot > longest) {
        out.work_bound_seconds += per_slot;
        ++out.work_bound_stages;
      } else {
        out.span_bound_seconds += longest;
      }
    }
  }
  return out;
}

int MaxConcurrentExecutors(const std::vector<TimelineExecutor>& executors) {
  std::vector<std::pair<double, int>> events;
  for (const TimelineExecutor& e : executors) {
    events.emplace_back(e.add_seconds, +1);
    if (e.remove_seconds < std::numeric_limits<double>::infinity()) {
      events.emplace_back(e.remove_seconds, -1);
    }
  }
  std::sort(events.begin(), events.end());  // a removal (-1) sorts before an add at the same time
  int alive = 0, most = 0;
  for (const auto& [t, d] : events) {
    alive += d;
    most = std::max(most, alive);
  }
  return most;
}

}  // namespace perfplan::models
