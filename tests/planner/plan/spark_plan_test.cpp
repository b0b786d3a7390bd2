// Specification of planner/plan/spark_plan.h: `perfplan plan --store DB --app NAME` answers with
// exactly the numbers of the commands it combines (whatif executors, tune recommend and
// sensitivity, score, stragglers), says how many runs a part has and needs when it cannot
// answer, and fits the history of the application when it ran at several executor counts.
#include "planner/plan/spark_plan.h"

#include <doctest/doctest.h>

#include <sstream>

#include "planner/hindex/stragglers.h"
#include "planner/plan/plan.h"
#include "planner/scoring/spark_scoring.h"
#include "planner/tuning/tune.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "tests/support/result_checks.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

struct Fixture {
  std::string store;
};

// `runs` applications named "synthetic", app-0 … app-(runs−1), oldest first by id; the executor
// count of run i is executors[i % size]; spark.executor.memory varies so tuning has a parameter.
Fixture MakeStore(int runs, const std::vector<int>& executors) {
  const std::string dir = testing::MakeTempDir();
  std::vector<std::string> paths;
  const char* memory[] = {"1g", "2g", "512m", "4g", "3g", "1536m", "2g", "4g"};
  for (int i = 0; i < runs; ++i) {
    const std::string id = "app-" + std::to_string(i);
    std::string log = testing::SyntheticEventLogWithProperties(
        id, 2, 12 + i, {{"spark.executor.memory", memory[i % 8]}, {"spark.master", "yarn"}});
    log = testing::OnExecutors(log, executors[i % executors.size()]);
    testing::WriteFile(dir + "/" + id, log);
    paths.push_back(dir + "/" + id);
  }
  Fixture f{dir + "/s.db"};
  const auto store = testing::ValueOf(profiles::Store::Open(f.store, ScoringMigrations()));
  REQUIRE(profiles::spark::IngestEventLogs(*store, paths).ok());
  return f;
}

PlanRequest Request(const Fixture& f) {
  PlanRequest r;
  r.store_path = f.store;
  r.app = "synthetic";
  return r;
}

// The plan for the application "synthetic" in the fixture's store, which must succeed.
SparkPlanAnswer Planned(const Fixture& f) { return testing::ValueOf(AnswerSparkPlan(Request(f))); }

TEST_CASE("the executor options are the what-if's, and the choice is the fastest replay") {
  const Fixture f = MakeStore(2, {2});
  const SparkPlanAnswer a = Planned(f);
  CHECK(a.app_name == "synthetic");
  CHECK(a.history.runs.size() == 2);
  const auto store = testing::ValueOf(
      profiles::Store::OpenReadOnly(f.store, {profiles::spark::StoreMigrations()}));
  std::vector<int> counts;
  for (const SparkExecutorOption& o : a.options) counts.push_back(o.executors);
  CHECK(counts == DefaultExecutorCounts(2, 0));
  CHECK(counts == std::vector<int>{1, 2, 4, 8});
  Result<WhatIfAnswer> whatif = AnswerWhatIfExecutors(*store, a.latest_app_id, "", counts);
  REQUIRE(whatif.ok());
  REQUIRE(whatif.value().points.size() == a.options.size());
  double fastest = whatif.value().points.front().second;
  for (std::size_t i = 0; i < a.options.size(); ++i) {
    CHECK(a.options[i].whatif_seconds == whatif.value().points[i].second);
    CHECK(a.options[i].executor_seconds == doctest::Approx(whatif.value().points[i].second *
                                                           whatif.value().points[i].first));
    fastest = std::min(fastest, whatif.value().points[i].second);
  }
  REQUIRE(a.chosen.has_value());
  CHECK(a.options[*a.chosen].whatif_seconds == fastest);
  for (std::size_t i = 0; i < *a.chosen; ++i) CHECK(a.options[i].whatif_seconds > fastest);
  CHECK(a.whatif.observed_executors == 2);
  CHECK(a.latest_app_id == "app-1");

  // node-seconds: the fewest executor-seconds, which one executor always has at least as few as
  // any other count here (the replay never speeds up superlinearly).
  PlanRequest ns = Request(f);
  ns.objective = PlanObjective::kNodeSeconds;
  const SparkPlanAnswer by_ns = testing::ValueOf(AnswerSparkPlan(ns));
  for (const SparkExecutorOption& o : by_ns.options) {
    CHECK(by_ns.options[*by_ns.chosen].executor_seconds <= o.executor_seconds);
  }
}

TEST_CASE("two runs: history and tuning say how many runs they have and need") {
  const Fixture f = MakeStore(2, {2});
  const SparkPlanAnswer a = Planned(f);
  CHECK_FALSE(a.history.fitted);
  CHECK(a.history.note ==
        "the history has 2 completed run(s) at 1 executor count(s); a fit needs 3 runs at 2 or "
        "more counts");
  for (const SparkExecutorOption& o : a.options) CHECK_FALSE(o.history_seconds.has_value());
  CHECK_FALSE(a.tuning.recommended);
  CHECK(a.tuning.runs == 2);
  CHECK(a.tuning.needed == 5);
  CHECK(a.tuning.note ==
        "the application has 2 run(s) in the store; the config-sensitivity model needs 5 (one "
        "per cross-validation fold)");
}

TEST_CASE("score and stragglers are the separate commands' answers for the latest run") {
  const Fixture f = MakeStore(3, {1, 2});
  const SparkPlanAnswer a = Planned(f);
  CHECK(a.latest_app_id == "app-2");

  Result<std::vector<ScoreAnswer>> score = AnswerScores(f.store, "app-2");
  REQUIRE(score.ok());
  REQUIRE(a.score.scored);
  CHECK(a.score.score == score.value().front().result.score);
  CHECK(a.score.comparable_runs == score.value().front().result.comparable_runs);
  REQUIRE_FALSE(a.score.worst.empty());
  const models::ScoreResult& r = score.value().front().result;
  CHECK(a.score.worst.front().first == r.dimensions[r.worst_first.front()].name);

  StragglersRequest sr;
  sr.store_path = f.store;
  sr.app_id = "app-2";
  const StragglersAnswer s = testing::ValueOf(AnswerStragglers(sr));
  CHECK(a.stragglers.h_job == s.h_job);
  CHECK(a.stragglers.stages_used == s.stages_used);
  if (s.h_job) {
    CHECK(*a.stragglers.speedup == doctest::Approx(1 / (1 - *s.h_job)));
  }
  REQUIRE(a.stragglers.slowest.size() == 2);  // two stages
  CHECK(a.stragglers.slowest[0].task_seconds >= a.stragglers.slowest[1].task_seconds);
  for (const SparkStageStragglers& st : a.stragglers.slowest) {
    const StageStragglers* same = nullptr;
    for (const StageStragglers& x : s.stages) {
      if (x.stage_id == st.stage_id && x.attempt_id == st.attempt_id) same = &x;
    }
    REQUIRE(same != nullptr);
    CHECK(st.task_seconds == same->task_seconds);
    CHECK(st.max_over_median == same->max_over_median);
    // Task k lasts 100 + 10k ms: the longest of 14 is 230 ms against a median of 165 ms < 1.5×.
    CHECK_FALSE(st.speculation_would_act);
    // No shuffle in the synthetic logs: both quantiles 0, the skew rule cannot act.
    REQUIRE(st.max_shuffle_read_bytes.has_value());
    CHECK(*st.max_shuffle_read_bytes == 0);
    CHECK_FALSE(st.aqe_skew_would_act);
  }
}

TEST_CASE("three runs at two executor counts: the history is fitted, with an interval") {
  const Fixture f = MakeStore(3, {1, 2});
  const SparkPlanAnswer a = Planned(f);
  CHECK(a.history.completed_runs == 3);
  CHECK(a.history.distinct_counts == 2);
  REQUIRE(a.history.fitted);
  CHECK((a.history.form == "serial-floor" || a.history.form == "log-nodes" ||
         a.history.form == "communication"));
  CHECK(a.history.scheme == "leave-one-out");  // fewer than 3 distinct counts
  for (const SparkExecutorOption& o : a.options) {
    REQUIRE(o.history_seconds.has_value());
    REQUIRE(o.history_interval.has_value());
    CHECK(o.history_interval->low_seconds <= *o.history_seconds);
    CHECK(*o.history_seconds <= o.history_interval->high_seconds);
  }
  // The runs' recorded durations are what the what-if reads as measured.
  const auto store = testing::ValueOf(
      profiles::Store::OpenReadOnly(f.store, {profiles::spark::StoreMigrations()}));
  for (const SparkHistoryRun& r : a.history.runs) {
    const WhatIfAnswer w = testing::ValueOf(AnswerWhatIfExecutors(*store, r.app_id, "", {1}));
    CHECK(r.seconds == w.measured_seconds);
    CHECK(r.executors == w.observed_executors);
  }
}

TEST_CASE("enough runs: the parameters are tune recommend's, as spark-defaults.conf lines") {
  const Fixture f = MakeStore(6, {2});
  const SparkPlanAnswer a = Planned(f);
  REQUIRE(a.tuning.recommended);
  TuneModelSource source;
  source.data.store_path = f.store;
  for (int i = 0; i < 6; ++i) source.data.store_apps.push_back("app-" + std::to_string(i));
  source.data.dataset.target = "total_time_seconds";
  const tuning::Recommendation rec = testing::ValueOf(AnswerTuneRecommend(source, {}));
  CHECK(a.tuning.recommendation->spark_defaults == rec.spark_defaults);
  CHECK(a.tuning.recommendation->predicted == rec.predicted);
  CHECK(a.tuning.recommendation->cv_mre == rec.cv_mre);
  REQUIRE_FALSE(a.tuning.recommendation->spark_defaults.empty());
  CHECK(a.tuning.recommendation->spark_defaults.front().rfind("spark.executor.memory", 0) == 0);
  const tuning::Sensitivity sens = testing::ValueOf(AnswerTuneSensitivity(source, {}, {}));
  REQUIRE_FALSE(a.tuning.top_parameters.empty());
  CHECK(a.tuning.top_parameters.front().first == sens.parameters.front().name);
  CHECK(a.tuning.top_parameters.front().second == sens.parameters.front().direction);
}

TEST_CASE("errors: unknown store and application, prices, deadline, both evidence paths") {
  const Fixture f = MakeStore(1, {1});
  PlanRequest missing;
  missing.store_path = f.store + ".nope";
  missing.app = "synthetic";
  const Status none = testing::ErrorOf(AnswerSparkPlan(missing));
  CHECK(none.message() == f.store + ".nope: no such store; run `perfplan ingest spark` first");

  PlanRequest unknown = Request(f);
  unknown.app = "PageRank";
  const Status u = testing::ErrorOf(AnswerSparkPlan(unknown));
  CHECK(u.code() == StatusCode::kNotFound);
  CHECK(u.message() ==
        "app: no Spark application named or with id \"PageRank\" in the "
        "store " +
            f.store + " (names: \"synthetic\")");

  PlanRequest by_id = Request(f);
  by_id.app = "app-0";
  const SparkPlanAnswer id = testing::ValueOf(AnswerSparkPlan(by_id));
  CHECK(id.app_name == "synthetic");

  PlanRequest cost = Request(f);
  cost.objective = PlanObjective::kCost;
  const Status c = testing::ErrorOf(AnswerSparkPlan(cost));
  CHECK(c.field() == "objective");

  PlanRequest tight = Request(f);
  tight.deadline_seconds = 0.001;
  const Status t = testing::ErrorOf(AnswerSparkPlan(tight));
  CHECK(t.code() == StatusCode::kFailed);

  PlanRequest both = Request(f);
  both.runs_file = "runs.csv";
  CHECK(both.Validate().message() ==
        "store: give one evidence path: a store and application, a runs CSV and workload, or a "
        "profile, topology and dataset");
}

}  // namespace
}  // namespace perfplan::planner
