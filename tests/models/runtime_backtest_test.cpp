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
}

}  // namespace
}  // namespace perfplan::models
