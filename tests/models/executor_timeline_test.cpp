#include "models/executor_timeline.h"

#include <doctest/doctest.h>

#include <limits>
#include <vector>

namespace perfplan::models {
namespace {

// Replays add the given durations: exact in binary for these small values.
constexpr double kExact = 1e-12;
constexpr double kNever = std::numeric_limits<double>::infinity();

TimelineExecutor Exec(double add, double remove = kNever, int slots = 1, int profile = 0) {
  TimelineExecutor e;
  e.add_seconds = add;
  e.remove_seconds = remove;
  e.slots = slots;
  e.resource_profile_id = profile;
  return e;
}

TimelineApplication OneJob(std::vector<TimelineStage> stages, double job_end, double measured,
                           std::vector<TimelineExecutor> executors) {
  TimelineApplication app;
  app.jobs.push_back({0, 0.0, job_end, std::move(stages)});
  app.measured_seconds = measured;
  app.executors = std::move(executors);
  return app;
}

double Timeline(const TimelineApplication& app) { return ReplayOnTimeline(app).value().seconds; }
double Static(const TimelineApplication& app, int n) {
  return ReplayWithExecutors(app, n).value().seconds;
}

TEST_CASE("Executors that are alive the whole run: the tasks divide over their slots") {
  TimelineApplication app = OneJob({{0, {}, {1, 1, 1, 1}}}, 2, 2, {Exec(0), Exec(0)});
  CHECK(Timeline(app) == doctest::Approx(2.0).epsilon(kExact));
  app.executors = {Exec(0, kNever, 2), Exec(0, kNever, 2)};
  CHECK(Timeline(app) == doctest::Approx(1.0).epsilon(kExact));
}

TEST_CASE("An executor takes tasks from its add time, and none after its remove time") {
  // Added at 1 s: the four tasks run 1..3 on two slots.
  TimelineApplication late = OneJob({{0, {}, {1, 1, 1, 1}}}, 3, 3, {Exec(1), Exec(1)});
  CHECK(Timeline(late) == doctest::Approx(3.0).epsilon(kExact));
  // The second executor is lost at 1 s: its first task finishes, then the first executor alone.
  TimelineApplication lost = OneJob({{0, {}, {1, 1, 1, 1}}}, 3, 3, {Exec(0), Exec(0, 1)});
  CHECK(Timeline(lost) == doctest::Approx(3.0).epsilon(kExact));
  CHECK(ReplayOnTimeline(lost).value().revived_executors == 0);
}

TEST_CASE("Executors added and lost one after another replay with the ones alive, not all of them") {
  // Dynamic allocation: 4 executors over the run, one alive at a time, each for 1 s.
  TimelineApplication app =
      OneJob({{0, {}, {1, 1, 1, 1}}}, 4, 4, {Exec(0, 1), Exec(1, 2), Exec(2, 3), Exec(3, 4)});
  app.static_slots_per_executor = 1;
  CHECK(MaxConcurrentExecutors(app.executors) == 1);
  CHECK(Timeline(app) == doctest::Approx(4.0).epsilon(kExact));
  CHECK(Static(app, 4) == doctest::Approx(1.0).epsilon(kExact));
}

TEST_CASE("The N-executor what-if starts when the first executor was added") {
  TimelineApplication app = OneJob({{0, {}, {2, 2}}}, 3, 3, {Exec(1), Exec(1.5)});
  CHECK(Static(app, 2) == doctest::Approx(3.0).epsilon(kExact));
  CHECK(Static(app, 1) == doctest::Approx(5.0).epsilon(kExact));
  CHECK(Timeline(app) == doctest::Approx(3.5).epsilon(kExact));
}

TEST_CASE("Driver gaps are kept and move with the jobs they follow") {
  // Job 0 at 1..3 (two 1 s tasks on one slot), job 1 submitted 1 s after it ended, app end 1 s
  // after job 1.
  TimelineApplication app;
  app.jobs.push_back({0, 1.0, 3.0, {{0, {}, {1, 1}}}});
  app.jobs.push_back({1, 4.0, 5.0, {{1, {}, {1}}}});
  app.measured_seconds = 6;
  app.executors = {Exec(0)};
  app.static_slots_per_executor = 1;
  CHECK(Timeline(app) == doctest::Approx(6.0).epsilon(kExact));
  // Two slots: job 0 takes 1 s, everything after it moves 1 s earlier.
  CHECK(Static(app, 2) == doctest::Approx(5.0).epsilon(kExact));
}

TEST_CASE("Jobs that overlapped in the recording overlap in the replay and share the slots") {
  // Job 1 was submitted at 0.5 s while job 0 still ran: they are not sequential.
  TimelineApplication app;
  app.jobs.push_back({0, 0.0, 2.0, {{0, {}, {2}}}});
  app.jobs.push_back({1, 0.5, 2.5, {{1, {}, {2}}}});
  app.measured_seconds = 2.5;
  app.executors = {Exec(0, kNever, 2)};
  CHECK(Timeline(app) == doctest::Approx(2.5).epsilon(kExact));
  // One slot: job 1 waits for it (FIFO by job id), 0..2 then 2..4.
  app.executors = {Exec(0)};
  CHECK(Timeline(app) == doctest::Approx(4.0).epsilon(kExact));
}

TEST_CASE("FIFO: a free slot takes the lowest job id, then the lowest stage id") {
  // Job 1 (submitted first) holds its place only while job 0 has nothing runnable.
  TimelineApplication app;
  app.jobs.push_back({0, 1.0, 3.0, {{5, {}, {1}}}});
  app.jobs.push_back({1, 0.0, 4.0, {{3, {}, {1, 1, 1}}}});
  app.measured_seconds = 4;
  app.executors = {Exec(0)};
  // Job 1 runs 0..1, job 0's stage takes the slot at 1 (lower job id), job 1 finishes 2..4.
  CHECK(Timeline(app) == doctest::Approx(4.0).epsilon(kExact));
  // Inside a job, runnable stages in stage-id order; a child waits for its parent. On 3 slots
  // stage 0 goes first, so stage 1 (the parent of the long stage 2) ends at 2, not 1.
  TimelineApplication chain =
      OneJob({{2, {1}, {3}}, {1, {}, {1, 1}}, {0, {}, {1, 1}}}, 5, 5, {Exec(0, kNever, 3)});
  CHECK(Timeline(chain) == doctest::Approx(5.0).epsilon(kExact));
}

TEST_CASE("A stage's tasks run only on executors of its resource profile") {
  TimelineApplication app =
      OneJob({{0, {}, {1, 1}, 0}, {1, {0}, {1, 1}, 1}}, 4, 4, {Exec(0, kNever, 1, 0), Exec(0, kNever, 1, 1)});
  // Stage 0 only on the profile-0 executor (2 s), stage 1 only on the profile-1 one (2 s).
  CHECK(Timeline(app) == doctest::Approx(4.0).epsilon(kExact));
  // The N-executor what-if ignores profiles.
  app.static_slots_per_executor = 1;
  CHECK(Static(app, 2) == doctest::Approx(2.0).epsilon(kExact));
}

TEST_CASE("When the replay outlives the recorded executors, the removed ones are kept") {
  TimelineApplication app = OneJob({{0, {}, {1, 1, 1}}}, 1.5, 1.5, {Exec(0, 1.5)});
  TimelineReplay r = ReplayOnTimeline(app).value();
  CHECK(r.seconds == doctest::Approx(3.0).epsilon(kExact));
  CHECK(r.revived_executors == 1);
}

TEST_CASE("Free slots are taken in executor order across many executors, removed ones skipped") {
  // 130 one-slot executors (three words of the free-slot bitmap), 260 tasks of 1 s: the first 130
  // run at 0..1; executors 0..63 are removed at 0.5 s, so the 66 others run 66 tasks at 1..2 and
  // the last 64 at 2..3.
  std::vector<TimelineExecutor> executors;
  for (int e = 0; e < 130; ++e) executors.push_back(Exec(0, e < 64 ? 0.5 : kNever));
  TimelineApplication app = OneJob({{0, {}, std::vector<double>(260, 1.0)}}, 3, 3, executors);
  const TimelineReplay r = ReplayOnTimeline(app).value();
  CHECK(r.seconds == doctest::Approx(3.0).epsilon(kExact));
  CHECK(r.most_running == 130);
  CHECK(r.revived_executors == 0);
}

TEST_CASE("A what-if with at least the slots the unlimited replay kept busy answers as it") {
  // Two jobs one after another: 4 tasks, then 3; at most 4 run at once with unlimited slots.
  TimelineApplication app;
  app.jobs.push_back({0, 0.0, 1.0, {{0, {}, {1, 0.5, 1, 0.25}}}});
  app.jobs.push_back({1, 1.0, 2.0, {{1, {}, {1, 1, 1}}}});
  app.measured_seconds = 2;
  app.executors = {Exec(0)};
  app.static_slots_per_executor = 2;
  CHECK(WhatIfSlots(app, 3) == 6);
  CHECK(WhatIfSlots(app, std::numeric_limits<int>::max()) == std::numeric_limits<int>::max());
  const TimelineReplay unlimited = ReplayWithExecutors(app, 100).value();
  CHECK(unlimited.most_running == 4);
  CHECK(unlimited.seconds == doctest::Approx(2.0).epsilon(kExact));
  CHECK(ReplayWithExecutors(app, 2).value().seconds == unlimited.seconds);  // 4 slots
  // 2 slots: job 0 runs 0..1 and 0..0.5, 0.5..1.5, 1..1.25; job 1 from 1.5: twice 1.5..2.5, then
  // 2.5..3.5.
  const TimelineReplay one = ReplayWithExecutors(app, 1).value();
  CHECK(one.most_running == 2);
  CHECK(one.seconds == doctest::Approx(3.5).epsilon(kExact));
}

TEST_CASE("Concurrent executors: a removal at the instant of an add is not counted with it") {
  CHECK(MaxConcurrentExecutors({Exec(0, 1), Exec(1, 2), Exec(1.5)}) == 2);
  CHECK(MaxConcurrentExecutors({}) == 0);
}

TEST_CASE("The union of job spans counts overlapping time once") {
  CHECK(UnionLength({{5, 6}, {0, 2}, {1, 3}}) == 4);
  CHECK(UnionLength({{0, 10}, {2, 3}}) == 10);
  CHECK(UnionLength({}) == 0);
}

TEST_CASE("Stages bound by their work over the slots, or by their longest task") {
  TimelineApplication app = OneJob({{0, {}, {10, 10, 10}},                          // 30/8 < 10
                                    {1, {0}, std::vector<double>(16, 1.0)},         // 16/8 > 1
                                    {2, {1}, std::vector<double>(8, 1.0)},          // 8/8 = 1
                                    {3, {2}, {}}},                                  // ran nothing
                                   20, 20, {Exec(0, kNever, 8)});
  app.jobs.push_back({1, 20, 30, {{4, {}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}}});  // 55/8 < 10
  StageBounds at8 = BoundStages(app, 8);
  CHECK(at8.work_bound_seconds == 2);
  CHECK(at8.span_bound_seconds == 10 + 1 + 10);
  CHECK(at8.work_bound_stages == 1);
  CHECK(at8.stages == 4);
  // On 4 slots the 8 one-second tasks and the 55 s stage outgrow one wave as well.
  StageBounds at4 = BoundStages(app, 4);
  CHECK(at4.work_bound_seconds == 4 + 2 + 13.75);
  CHECK(at4.span_bound_seconds == 10);
  CHECK(at4.work_bound_stages == 3);
}

TEST_CASE("Bad input is refused with a reason") {
  TimelineApplication cycle = OneJob({{0, {1}, {1}}, {1, {0}, {1}}}, 2, 2, {Exec(0)});
  auto r = ReplayOnTimeline(cycle);
  REQUIRE(!r.ok());
  CHECK(r.status().message() == "stage 0 depends on itself through its parent stages");
  TimelineApplication none = OneJob({{0, {}, {1}}}, 1, 1, {});
  CHECK(ReplayOnTimeline(none).status().message() ==
        "the application ran tasks but has no executor to replay them on");
  CHECK(ReplayWithExecutors(none, 0).status().message() == "executors must be at least 1, not 0");
  // No jobs at all: the recorded duration.
  TimelineApplication empty;
  empty.measured_seconds = 3;
  CHECK(Timeline(empty) == doctest::Approx(3.0).epsilon(kExact));
}

}  // namespace
}  // namespace perfplan::models
