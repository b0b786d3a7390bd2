#include "models/heuristic_score.h"

#include <doctest/doctest.h>

namespace perfplan::models {
namespace {

// Every expected value below is a ratio of short decimals computed by hand.
constexpr double kTolerance = 1e-12;

PerformanceVector Gamma(std::optional<double> total, std::optional<double> gc,
                        std::optional<double> shuffle_bytes = std::nullopt) {
  PerformanceVector g;
  g[Dimension::kTotalTimeSeconds] = total;
  g[Dimension::kGcTimeShare] = gc;
  g[Dimension::kShuffleBytes] = shuffle_bytes;
  return g;
}

constexpr std::size_t kTotal = Index(Dimension::kTotalTimeSeconds);
constexpr std::size_t kGc = Index(Dimension::kGcTimeShare);
constexpr std::size_t kShuffleBytes = Index(Dimension::kShuffleBytes);

ScoreInput Example() {
  ScoreInput in;
  in.type = TaskType::kComputeIntensive;
  in.gamma = Gamma(80, 0.20, 0);
  in.history = {{"base", Gamma(100, 0.10), true}, {"slow", Gamma(200, 0.30), false}};
  return in;
}

TEST_CASE("Per-dimension scores follow 60 (M - g)/(M - B); zero dimensions give weight to time") {
  ScoreOptions settings;
  settings.epsilon = 0;
  auto r = ComputeScore(Example(), settings);
  REQUIRE(r.ok());
  const ScoreResult& s = r.value();
  // total: B = 100, M = 200, g = 80 -> 60 * 120/100 = 72.
  CHECK(s.dimensions[kTotal].score.value() == doctest::Approx(72).epsilon(kTolerance));
  CHECK(s.dimensions[kTotal].baseline == 100.0);
  CHECK(s.dimensions[kTotal].worst == 200.0);
  // gc: B = .1, M = .3, g = .2 -> 60 * .1/.2 = 30.
  CHECK(s.dimensions[kGc].score.value() == doctest::Approx(30).epsilon(kTolerance));
  // shuffle bytes 0 with no history: scored against itself.
  CHECK(s.dimensions[kShuffleBytes].score == 60.0);
  CHECK(s.dimensions[kShuffleBytes].note == "baseline is also the worst value: scored 60");
  // Compute weights: gc .10 stays; total .20 + every other dimension's weight (.70) = .90.
  CHECK(s.dimensions[kTotal].weight == doctest::Approx(0.9).epsilon(kTolerance));
  CHECK(s.dimensions[kGc].weight == doctest::Approx(0.1).epsilon(kTolerance));
  CHECK(s.dimensions[kShuffleBytes].weight == 0.0);
  // FS = .9 * 72 + .1 * 30 = 67.8.
  CHECK(s.score == doctest::Approx(67.8).epsilon(kTolerance));
  CHECK(s.dimensions[0].note == "no resource data");
  CHECK_FALSE(s.dimensions[0].score.has_value());
  // Worst first: gc 30, shuffle 60, total 72, then the unscored in dimension order.
  REQUIRE(s.worst_first.size() == kDimensions);
  CHECK(s.worst_first[0] == kGc);
  CHECK(s.worst_first[1] == kShuffleBytes);
  CHECK(s.worst_first[2] == kTotal);
  CHECK(s.worst_first[3] == 0);
  CHECK(s.provisional);
  CHECK(s.provisional_reasons ==
        std::vector<std::string>{
            "some dimensions have no value in any run of the history: scored against this run",
            "only 2 run(s) of type compute in the history, fewer than the 12 dimensions"});
}

TEST_CASE("The epsilon step moves each weight toward its share of the normalized gamma") {
  ScoreOptions settings;
  settings.epsilon = 0.5;
  auto r = ComputeScore(Example(), settings);
  REQUIRE(r.ok());
  // Normalized: total (80 - 80)/(200 - 80) = 0, gc (.2 - .1)/(.3 - .1) = .5 -> shares 0 and 1.
  // total .9 + .5 (0 - .9) = .45; gc .1 + .5 (1 - .1) = .55; already summing to 1.
  CHECK(r.value().dimensions[kTotal].weight == doctest::Approx(0.45).epsilon(kTolerance));
  CHECK(r.value().dimensions[kGc].weight == doctest::Approx(0.55).epsilon(kTolerance));
  // FS = .45 * 72 + .55 * 30 = 48.9.
  CHECK(r.value().score == doctest::Approx(48.9).epsilon(kTolerance));
}

TEST_CASE("A higher-is-better dimension takes its worst as the lowest value") {
  struct Case {
    double value, score, worst;
  };
  // History: baseline .8, other .5. g = .6: 60 (.5 - .6)/(.5 - .8) = 20; g = .9: 80;
  // g = .4 is worse than all: M becomes .4 and the score 0.
  const Case cases[] = {{0.6, 20, 0.5}, {0.9, 80, 0.5}, {0.4, 0, 0.4}};
  for (const Case& c : cases) {
    CAPTURE(c.value);
    ScoreInput in;
    in.gamma[Dimension::kExecutorComputeTimeShare] = c.value;
    HistoryRun base{"b", {}, true}, other{"o", {}, false};
    base.gamma[Dimension::kExecutorComputeTimeShare] = 0.8;
    other.gamma[Dimension::kExecutorComputeTimeShare] = 0.5;
    in.history = {base, other};
    auto r = ComputeScore(in);
    REQUIRE(r.ok());
    const DimensionScore& d = r.value().dimensions[Index(Dimension::kExecutorComputeTimeShare)];
    CHECK(d.score.value() == doctest::Approx(c.score).epsilon(kTolerance));
    CHECK(d.worst.value() == c.worst);
  }
}

TEST_CASE("Better than every run in the history scores above 100") {
  ScoreInput in;
  in.gamma = Gamma(20, std::nullopt);
  in.history = {{"base", Gamma(100, std::nullopt), true},
                {"slow", Gamma(200, std::nullopt), false}};
  auto r = ComputeScore(in);
  REQUIRE(r.ok());
  // 60 * (200 - 20)/(200 - 100) = 108; total time is the only dimension, so FS = 108.
  CHECK(r.value().score == doctest::Approx(108).epsilon(kTolerance));
}

TEST_CASE("Without a baseline run the history mean stands in, provisionally") {
  ScoreInput in;
  in.type = TaskType::kIoIntensive;
  in.gamma = Gamma(150, std::nullopt);
  in.history = {{"a", Gamma(100, std::nullopt), false}, {"b", Gamma(200, std::nullopt), false}};
  auto r = ComputeScore(in);
  REQUIRE(r.ok());
  CHECK(r.value().dimensions[kTotal].baseline == 150.0);
  CHECK(r.value().score == doctest::Approx(60).epsilon(kTolerance));
  CHECK(r.value().provisional_reasons.at(0) ==
        "no baseline (default-configuration) run of type io in the history: the baseline is the "
        "mean of the 2 run(s)");
}

TEST_CASE("No history at all scores 60 against the run itself, provisionally") {
  ScoreInput in;
  in.gamma = Gamma(150, 0.1);
  auto r = ComputeScore(in);
  REQUIRE(r.ok());
  CHECK(r.value().score == 60.0);
  CHECK(r.value().provisional_reasons ==
        std::vector<std::string>{
            "no history of type unknown: every dimension is scored against this run itself"});
}

TEST_CASE("A baseline that is also the worst value caps a better run at 100") {
  ScoreInput in;
  in.gamma = Gamma(80, std::nullopt);
  in.history = {{"base", Gamma(100, std::nullopt), true}};
  auto r = ComputeScore(in);
  REQUIRE(r.ok());
  CHECK(r.value().dimensions[kTotal].score == 100.0);
  CHECK(r.value().dimensions[kTotal].note ==
        "baseline is the worst value and this run is better: scored 100");
}

TEST_CASE("A run without any value and bad settings are refused") {
  CHECK(ComputeScore(ScoreInput{}).status().message() ==
        "score: the run has no value in any of the 12 dimensions");
  ScoreOptions bad;
  bad.epsilon = 2;
  CHECK(bad.Validate().message() == "epsilon = 2.000000: must be in [0, 1]");
  ScoreOptions negative;
  negative.io_weights[1] = -1;
  CHECK(negative.Validate().message() ==
        "io_weights[1] (disk_io_bytes_per_second) = -1.000000: weights must be finite and >= 0");
}

}  // namespace
}  // namespace perfplan::models
