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
  auto store = profiles::Store::Open(f.store, ScoringMigrations());
  REQUIRE(store.ok());
  auto ingested = profiles::spark::IngestEventLogs(*store.value(), paths);
  REQUIRE(ingested.ok());
  return f;
}

PlanRequest Request(const Fixture& f) {
  PlanRequest r;
  r.store_path = f.store;
  r.app = "synthetic";
  return r;
}

// The plan for the application "synthetic" in the fixture's store, which must succeed.
SparkPlanAnswer Planned(const Fixture& f) {
  Result<SparkPlanAnswer> plan = AnswerSparkPlan(Request(f));
  INFO(plan.status().message());
  REQUIRE(plan.ok());
  return plan.value();
}

TEST_CASE("the executor options are the what-if's, and the choice is the fastest replay") {
  const Fixture f = MakeStore(2, {2});
  const SparkPlanAnswer a = Planned(f);
  CHECK(a.app_name == "synthetic");
  CHECK(a.history.runs.size() == 2);
  auto store = profiles::Store::OpenReadOnly(f.store, {profiles::spark::StoreMigrations()});
  REQUIRE(store.ok());
  std::vector<int> counts;
  for (const SparkExecutorOption& o : a.options) counts.push_back(o.executors);
  CHECK(counts == DefaultExecutorCounts(2, 0));
  CHECK(counts == std::vector<int>{1, 2, 4, 8});
  Result<WhatIfAnswer> whatif = AnswerWhatIfExecutors(*store.value(), a.latest_app_id, "", counts);
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
  Result<SparkPlanAnswer> by_ns = AnswerSparkPlan(ns);
  REQUIRE(by_ns.ok());
  for (const SparkExecutorOption& o : by_ns.value().options) {
    CHECK(by_ns.value().options[*by_ns.value().chosen].executor_seconds <= o.executor_seconds);
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
  Result<StragglersAnswer> s = AnswerStragglers(sr);
  REQUIRE(s.ok());
  CHECK(a.stragglers.h_job == s.value().h_job);
  CHECK(a.stragglers.stages_used == s.value().stages_used);
  if (s.value().h_job) {
    CHECK(*a.stragglers.speedup == doctest::Approx(1 / (1 - *s.value().h_job)));
  }
  REQUIRE(a.stragglers.slowest.size() == 2);  // two stages
  CHECK(a.stragglers.slowest[0].task_seconds >= a.stragglers.slowest[1].task_seconds);
  for (const SparkStageStragglers& st : a.stragglers.slowest) {
    const StageStragglers* same = nullptr;
    for (const StageStragglers& x : s.value().stages) {
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
  auto store = profiles::Store::OpenReadOnly(f.store, {profiles::spark::StoreMigrations()});
  REQUIRE(store.ok());
  for (const SparkHistoryRun& r : a.history.runs) {
    Result<WhatIfAnswer> w = AnswerWhatIfExecutors(*store.value(), r.app_id, "", {1});
    REQUIRE(w.ok());
    CHECK(r.seconds == w.value().measured_seconds);
    CHECK(r.executors == w.value().observed_executors);
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
  Result<tuning::Recommendation> rec = AnswerTuneRecommend(source, {});
  REQUIRE(rec.ok());
  CHECK(a.tuning.recommendation->spark_defaults == rec.value().spark_defaults);
  CHECK(a.tuning.recommendation->predicted == rec.value().predicted);
  CHECK(a.tuning.recommendation->cv_mre == rec.value().cv_mre);
  REQUIRE_FALSE(a.tuning.recommendation->spark_defaults.empty());
  CHECK(a.tuning.recommendation->spark_defaults.front().rfind("spark.executor.memory", 0) == 0);
  Result<tuning::Sensitivity> sens = AnswerTuneSensitivity(source, {}, {});
  REQUIRE(sens.ok());
  REQUIRE_FALSE(a.tuning.top_parameters.empty());
  CHECK(a.tuning.top_parameters.front().first == sens.value().parameters.front().name);
  CHECK(a.tuning.top_parameters.front().second == sens.value().parameters.front().direction);
}

TEST_CASE("errors: unknown store and application, prices, deadline, both evidence paths") {
  const Fixture f = MakeStore(1, {1});
  PlanRequest missing;
  missing.store_path = f.store + ".nope";
  missing.app = "synthetic";
  Result<SparkPlanAnswer> none = AnswerSparkPlan(missing);
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().message() ==
        f.store + ".nope: no such store; run `perfplan ingest spark` first");

  PlanRequest unknown = Request(f);
  unknown.app = "PageRank";
  Result<SparkPlanAnswer> u = AnswerSparkPlan(unknown);
  REQUIRE_FALSE(u.ok());
  CHECK(u.status().code() == StatusCode::kNotFound);
  CHECK(u.status().message() == "app: no Spark application named or with id \"PageRank\" in the "
                                "store " + f.store + " (names: \"synthetic\")");

  PlanRequest by_id = Request(f);
  by_id.app = "app-0";
  Result<SparkPlanAnswer> id = AnswerSparkPlan(by_id);
  REQUIRE(id.ok());
  CHECK(id.value().app_name == "synthetic");

  PlanRequest cost = Request(f);
  cost.objective = PlanObjective::kCost;
  Result<SparkPlanAnswer> c = AnswerSparkPlan(cost);
  REQUIRE_FALSE(c.ok());
  CHECK(c.status().field() == "objective");

  PlanRequest tight = Request(f);
  tight.deadline_seconds = 0.001;
  Result<SparkPlanAnswer> t = AnswerSparkPlan(tight);
  REQUIRE_FALSE(t.ok());
  CHECK(t.status().code() == StatusCode::kFailed);

  PlanRequest both = Request(f);
  both.runs_file = "runs.csv";
  CHECK(both.Validate().message() ==
        "store: give one evidence path: a store and application, a runs CSV and workload, or a "
        "profile, topology and dataset");
}

}  // namespace
}  // namespace perfplan::planner
