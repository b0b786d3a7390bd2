#include "models/fifo_replay.h"

#include <doctest/doctest.h>

#include <vector>

#include "tests/support/result_checks.h"

namespace perfplan::models {
namespace {

TEST_CASE("FIFO replay of four jobs on four slots matches the schedule worked by hand") {
  // A: t=0, 10 s on 2 slots  → runs 0–10 (2 slots stay free)
  // B: t=1, 5 s on 3 slots   → needs 3, only 2 free until A ends → runs 10–15, waits 9 s
  // C: t=2, 1 s on 1 slot    → a slot is free at t=2, but FIFO keeps it behind B → 10–11, waits 8
  // D: t=20, 4 s on 8 slots  → wider than the cluster: clamped to 4, runs 20–24
  std::vector<ReplayJob> jobs = {{0, 10, 2}, {1, 5, 3}, {2, 1, 1}, {20, 4, 8}};
  const ReplaySummary s = testing::ValueOf(ReplayFifo(jobs, 4));
  REQUIRE(s.jobs.size() == 4);
  CHECK(s.jobs[0].start_seconds == 0);
  CHECK(s.jobs[1].start_seconds == 10);
  CHECK(s.jobs[1].queue_seconds == 9);
  CHECK(s.jobs[2].start_seconds == 10);
  CHECK(s.jobs[2].end_seconds == 11);
  CHECK(s.jobs[3].start_seconds == 20);
  CHECK(s.jobs[3].slots == 4);
  CHECK(s.clamped_jobs == 1);
  CHECK(s.makespan_seconds == 24);
  CHECK(s.mean_queue_seconds == doctest::Approx(17.0 / 4));
  CHECK(s.p95_queue_seconds == 9);   // nearest rank: ceil(0.95 × 4) = 4th of 0, 0, 8, 9
  CHECK(s.busy_slot_seconds == 52);  // 2·10 + 3·5 + 1·1 + 4·4
  CHECK(s.utilisation == doctest::Approx(52.0 / (4 * 24)));
}

TEST_CASE("jobs are replayed in submit order whatever the input order; ties keep input order") {
  std::vector<ReplayJob> jobs = {{5, 1, 1}, {0, 3, 1}, {0, 2, 1}};
  const ReplaySummary r = testing::ValueOf(ReplayFifo(jobs, 1));
  REQUIRE(r.jobs.size() == 3);
  CHECK(r.jobs[0].job == 1);  // 0–3
  CHECK(r.jobs[1].job == 2);  // 3–5
  CHECK(r.jobs[1].start_seconds == 3);
  CHECK(r.jobs[2].job == 0);  // 5–6, no wait
  CHECK(r.jobs[2].queue_seconds == 0);
  CHECK(r.makespan_seconds == 6);
}

TEST_CASE("a bigger cluster never finishes later on the same jobs") {
  std::vector<ReplayJob> jobs;
  for (int i = 0; i < 50; ++i) jobs.push_back({i * 2.0, 7.0 + i % 5, 1 + i % 6});
  double previous = 1e300;
  for (long long slots : {4, 6, 8, 16, 64}) {
    const ReplaySummary r = testing::ValueOf(ReplayFifo(jobs, slots));
    CHECK(r.makespan_seconds <= previous);
    previous = r.makespan_seconds;
  }
}

TEST_CASE("bad replay input names the job and field") {
  CHECK(ReplayFifo({}, 0).status().message() == "cluster_slots: 0 must be >= 1");
  CHECK(ReplayFifo({{0, -1, 1}}, 2).status().message() ==
        "jobs[0].runtime_seconds: must be a number >= 0");
  CHECK(ReplayFifo({{0, 1, 1}, {0, 1, 0}}, 2).status().message() == "jobs[1].slots: must be >= 1");
  CHECK(ReplayFifo({}, 3).value().jobs.empty());
}

}  // namespace
}  // namespace perfplan::models
