#include "models/runtime_backtest.h"

#include <doctest/doctest.h>

namespace perfplan::models {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

MeasuredRun Run(double nodes, double seconds) {
  MeasuredRun r{"w", "m4.large", 1e10, nodes, nodes, 1e8, seconds};
  r.vcpus = 2;
  r.memory_bytes = 8 * kGiB;
  return r;
}

TEST_CASE("backtest predicts each run from the runs before it, in time order") {
  // Amdahl-shaped history, 40 + 400/m, given out of time order in the vector.
  const double nodes[] = {8, 2, 4, 16, 6, 12};
  const double times[] = {300, 100, 200, 600, 400, 500};
  std::vector<MeasuredRun> rows;
  for (double m : nodes) rows.push_back(Run(m, 40 + 400 / m));
  rows.push_back(Run(3, 200));  // another run at t = 600: not history of the 16-node run
  std::vector<double> t(std::begin(times), std::end(times));
  t.push_back(600);
  rows.back().runtime_seconds = 40 + 400.0 / 3 + 30;  // off the curve by 30 s
  Result<Backtest> bt = BacktestWorkload(rows, t, "w");
  REQUIRE(bt.ok());
  const std::vector<BacktestRow>& r = bt.value().rows;
  REQUIRE(r.size() == 7);
  // Time order: 2, 4, 8 nodes (warm-up), then 6, 12, 16 and the 3-node run.
  CHECK(r[0].row == 1);
  CHECK(r[1].row == 2);
  CHECK(r[2].row == 0);
  CHECK(r[2].note == "warm-up: 2 completed earlier run(s), 3 needed");
  CHECK(!r[2].predicted_seconds);
  for (std::size_t k = 3; k < 6; ++k) {
    CAPTURE(k);
    REQUIRE(r[k].predicted_seconds);
    CHECK(*r[k].ape < 1e-6);
    CHECK(r[k].form == "serial-floor");
    CHECK(*r[k].interval_low_seconds <= *r[k].predicted_seconds);
    CHECK(*r[k].predicted_seconds <= *r[k].interval_high_seconds);
  }
  CHECK(r[3].history_runs == 3);
  CHECK(r[5].history_runs == 5);
  // The 3-node run at t = 600 does not see the 16-node run of the same time.
  CHECK(r[6].history_runs == 5);
  CHECK(*r[6].predicted_seconds == doctest::Approx(40 + 400.0 / 3).epsilon(1e-6));
  CHECK(*r[6].ape == doctest::Approx(30 / (40 + 400.0 / 3 + 30)).epsilon(1e-6));
  CHECK(r[6].rolling_median_ape == doctest::Approx(0).epsilon(1e-6));  // median of 0, 0, 0, 0.17
  CHECK(bt.value().summary.predicted == 4);
}

TEST_CASE("refit every K: each block of K runs is predicted from the runs before the block") {
  // 40 + 400/m with noise, at times 1..12, on a cycle of node counts.
  const double nodes[] = {2, 4, 8, 3, 6, 12, 5, 10, 16, 7, 14, 9};
  const double noise[] = {1.03, 0.98, 1.01, 0.97, 1.04, 0.99, 1.02, 0.96, 1.05, 1.0, 0.98, 1.03};
  std::vector<MeasuredRun> rows;
  std::vector<double> times;
  for (int k = 0; k < 12; ++k) {
    rows.push_back(Run(nodes[k], (40 + 400 / nodes[k]) * noise[k]));
    times.push_back(k + 1);
  }
  BacktestOptions every;
  Result<Backtest> one = BacktestWorkload(rows, times, "w", every);
  every.refit_every = 4;
  Result<Backtest> four = BacktestWorkload(rows, times, "w", every);
  REQUIRE(one.ok());
  REQUIRE(four.ok());
  CHECK(four.value().refit_every == 4);
  const std::vector<BacktestRow>& a = one.value().rows;
  const std::vector<BacktestRow>& b = four.value().rows;
  REQUIRE(b.size() == 12);
  // Warm-up as before; blocks from the 4th run: 4..7, 8..11, 12.
  for (std::size_t k = 0; k < 3; ++k) CHECK(!b[k].predicted_seconds);
  for (std::size_t k = 3; k < 12; ++k) {
    CAPTURE(k);
    const std::size_t block_start = 3 + (k - 3) / 4 * 4;
    CHECK(b[k].history_runs == block_start);
    REQUIRE(b[k].predicted_seconds);
    // Each block's model is the one the 1-by-1 backtest had at the block's first run: predicting
    // this run with only the runs before the block.
    std::vector<MeasuredRun> history(rows.begin(), rows.begin() + block_start);
    history.push_back(rows[k]);
    std::vector<double> history_times(times.begin(), times.begin() + block_start);
    history_times.push_back(times[block_start]);
    Result<Backtest> alone = BacktestWorkload(history, history_times, "w");
    REQUIRE(alone.ok());
    CHECK(*b[k].predicted_seconds ==
          doctest::Approx(*alone.value().rows.back().predicted_seconds).epsilon(1e-12));
    if (k == block_start)
      CHECK(*b[k].predicted_seconds == doctest::Approx(*a[k].predicted_seconds));
  }
  CHECK(four.value().summary.predicted == 9);
}

TEST_CASE("backtest names bad input") {
  std::vector<MeasuredRun> rows = {Run(2, 240)};
  CHECK(BacktestWorkload(rows, {1, 2}, "w").status().message() ==
        "backtest: 1 rows but 2 times");
  CHECK(BacktestWorkload(rows, {1}, "x").status().message() ==
        "backtest: no row has workload x");
  BacktestOptions options;
  options.min_history_runs = 1;
  CHECK(BacktestWorkload(rows, {1}, "w", options).status().message() ==
        "min_history_runs: must be >= 2, got 1");
  options.min_history_runs = 3;
  options.refit_every = 0;
  CHECK(BacktestWorkload(rows, {1}, "w", options).status().message() ==
        "refit_every: must be >= 1, got 0");
}

}  // namespace
}  // namespace perfplan::models
