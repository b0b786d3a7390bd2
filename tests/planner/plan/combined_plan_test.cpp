// Specification of planner/plan/combined_plan.h: a plan over a profile, a runs CSV and a Spark
// application at once is made of the plans of each path alone (the same documents), its
// placement is the best of the parts' choices by the objective, its front is the Pareto front of
// both placement parts together (checked against a brute-force dominance test), and a part with
// no answer is a warning while bad input of any part fails the plan.
#include "planner/plan/combined_plan.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "planner/scoring/spark_scoring.h"
#include "profiles/spark/spark_ingest.h"
#include "tests/support/plan_inputs.h"
#include "tests/support/result_checks.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

struct Inputs {
  std::string dir;
  PlanRequest request;  // all three paths, with prices
};

Inputs MakeInputs() {
  Inputs in;
  in.dir = testing::MakeTempDir();
  const std::string examples = testing::SourceDir() + "/examples";
  testing::WriteFile(in.dir + "/runs.csv", testing::TwoTypeRunsCsv("kmeans"));
  testing::WriteFile(in.dir + "/prices.yaml", testing::SitesAndTypesPrices());
  std::vector<std::string> logs;
  for (int i = 0; i < 2; ++i) {
    const std::string id = "app-combined-" + std::to_string(i);
    testing::WriteFile(in.dir + "/" + id, testing::SyntheticEventLog(id, 2, 12 + 4 * i));
    logs.push_back(in.dir + "/" + id);
  }
  {
    const auto store =
        testing::ValueOf(profiles::Store::Open(in.dir + "/s.db", ScoringMigrations()));
    REQUIRE(profiles::spark::IngestEventLogs(*store, logs).ok());
  }
  PlanRequest& r = in.request;
  r.profile_file = examples + "/profiles/kmeans.yaml";
  r.topology_file = examples + "/topology.yaml";
  r.dataset = "sky-survey";
  r.runs_file = in.dir + "/runs.csv";
  r.workload = "kmeans";
  r.store_path = in.dir + "/s.db";
  r.app = "synthetic";
  r.price_file = in.dir + "/prices.yaml";
  return in;
}

// Every front point undominated, every other feasible priced point dominated by a front point.
void CheckFront(const CombinedPlanAnswer& a) {
  struct P {
    PlanPart part;
    std::size_t i;
    double t, c;
  };
  std::vector<P> all;
  for (PlanPart part : {PlanPart::kProfile, PlanPart::kRuns}) {
    const PlanAnswer* p = a.PartAnswer(part);
    if (!p) continue;
    for (std::size_t i = 0; i < p->alternatives.size(); ++i) {
      const PlanAlternative& alt = p->alternatives[i];
      if (alt.feasible && alt.priced) all.push_back({part, i, alt.select.runtime_seconds, alt.cost.cost});
    }
  }
  auto dominates = [](const P& q, const P& p) {
    return q.t <= p.t && q.c <= p.c && (q.t < p.t || q.c < p.c);
  };
  std::size_t expected = 0;
  for (const P& p : all) {
    bool dominated = false;
    for (const P& q : all) dominated |= dominates(q, p);
    bool on_front = false;
    for (const PartRef& ref : a.front) on_front |= ref.part == p.part && ref.alternative == p.i;
    CAPTURE(p.t);
    CAPTURE(p.c);
    CHECK(on_front == !dominated);
    expected += dominated ? 0 : 1;
  }
  CHECK(a.front.size() == expected);
  for (std::size_t k = 1; k < a.front.size(); ++k) {
    CHECK(a.Alternative(a.front[k - 1])->select.runtime_seconds <=
          a.Alternative(a.front[k])->select.runtime_seconds);
  }
}

TEST_CASE("each part of a combined plan is the plan of that path alone") {
  const Inputs in = MakeInputs();
  CHECK(EvidencePaths(in.request) == 3);
  const CombinedPlanAnswer a = testing::ValueOf(AnswerCombinedPlan(in.request));
  REQUIRE(a.profile.has_value());
  REQUIRE(a.runs.has_value());
  REQUIRE(a.spark.has_value());
  Result<PlanAnswer> profile = AnswerPlan(PartRequest(in.request, PlanPart::kProfile));
  Result<PlanAnswer> runs = AnswerPlan(PartRequest(in.request, PlanPart::kRuns));
  Result<SparkPlanAnswer> spark = AnswerSparkPlan(PartRequest(in.request, PlanPart::kSpark));
  REQUIRE(profile.ok());
  REQUIRE(runs.ok());
  REQUIRE(spark.ok());
  CHECK(ToJson(*a.profile) == ToJson(profile.value()));
  CHECK(ToJson(*a.runs) == ToJson(runs.value()));
  CHECK(ToJson(*a.spark) == ToJson(spark.value()));
  // The part requests carry only their own path's fields.
  CHECK(PartRequest(in.request, PlanPart::kProfile).evidence() == PlanEvidence::kProfile);
  CHECK(PartRequest(in.request, PlanPart::kRuns).evidence() == PlanEvidence::kRunsCsv);
  CHECK(PartRequest(in.request, PlanPart::kSpark).evidence() == PlanEvidence::kSparkApp);

  // Objective time: the faster of the two parts' choices.
  REQUIRE(a.placement.has_value());
  const double tp = profile.value().alternatives[*profile.value().chosen].select.runtime_seconds;
  const double tr = runs.value().alternatives[*runs.value().chosen].select.runtime_seconds;
  CHECK(a.Alternative(*a.placement)->select.runtime_seconds == std::min(tp, tr));
  CHECK(a.placement->part == (tr < tp ? PlanPart::kRuns : PlanPart::kProfile));
  // No feasible alternative of either part is faster.
  for (PlanPart part : {PlanPart::kProfile, PlanPart::kRuns}) {
    for (const PlanAlternative& alt : a.PartAnswer(part)->alternatives) {
      if (alt.feasible) CHECK(alt.select.runtime_seconds >= std::min(tp, tr));
    }
  }
  CheckFront(a);
  CHECK(a.front.size() >= 2);
  // The profile part's own front is not the combined one: here the runs CSV's types are faster
  // and cheaper than every grid alternative, so none of the profile's front points survives.
  CHECK(a.profile->front.size() > 1);
  for (const PartRef& ref : a.front) CHECK(ref.part == PlanPart::kRuns);

  const nlohmann::json j = nlohmann::json::parse(ToJson(a));
  CHECK(j["evidence"] == "combined");
  CHECK(j["parts"]["profile"] == nlohmann::json::parse(ToJson(profile.value())));
  CHECK(j["recommendation"]["part"] == std::string(ToString(a.placement->part)));
  CHECK(j["recommendation"]["spark"]["executors"] ==
        spark.value().options[*spark.value().chosen].executors);
  CHECK(j["front"].size() == a.front.size());
}

TEST_CASE("objective cost: the cheapest choice of all, the Spark part planned by time") {
  Inputs in = MakeInputs();
  in.request.objective = PlanObjective::kCost;
  const CombinedPlanAnswer a = testing::ValueOf(AnswerCombinedPlan(in.request));
  REQUIRE(a.placement.has_value());
  double cheapest = 1e300;
  for (PlanPart part : {PlanPart::kProfile, PlanPart::kRuns}) {
    for (const PlanAlternative& alt : a.PartAnswer(part)->alternatives) {
      if (alt.feasible) cheapest = std::min(cheapest, alt.cost.cost);
    }
  }
  CHECK(a.Alternative(*a.placement)->cost.cost == cheapest);
  REQUIRE(a.spark.has_value());
  PlanRequest by_time = PartRequest(in.request, PlanPart::kSpark);
  CHECK(by_time.objective == PlanObjective::kTime);
  CHECK(by_time.price_file.empty());
  CHECK(std::find(a.warnings.begin(), a.warnings.end(),
                  "spark-application: planned by time (the Spark application path prices "
                  "nothing)") != a.warnings.end());
  CheckFront(a);
}

TEST_CASE("a part with no answer is a warning; bad input in any part fails the plan") {
  Inputs in = MakeInputs();
  in.request.store_path.clear();
  in.request.app.clear();
  const CombinedPlanAnswer full = testing::ValueOf(AnswerCombinedPlan(in.request));
  const double tp = full.profile->alternatives[*full.profile->chosen].select.runtime_seconds;
  const double tr = full.runs->alternatives[*full.runs->chosen].select.runtime_seconds;
  REQUIRE(tp != tr);
  // A deadline between the two parts' fastest runtimes: the slower part has no answer.
  in.request.deadline_seconds = (tp + tr) / 2;
  const CombinedPlanAnswer a = testing::ValueOf(AnswerCombinedPlan(in.request));
  CHECK(a.profile.has_value() == (tp < tr));
  CHECK(a.runs.has_value() == (tr < tp));
  REQUIRE(a.warnings.size() == 1);
  CHECK(a.warnings[0].rfind(tp < tr ? "runs: no plan: " : "profile: no plan: ", 0) == 0);
  REQUIRE(a.placement.has_value());
  CHECK(a.placement->part == (tp < tr ? PlanPart::kProfile : PlanPart::kRuns));

  // Nothing within the deadline anywhere: Failed, naming both parts.
  in.request.deadline_seconds = std::min(tp, tr) / 100;
  const Status none = testing::ErrorOf(AnswerCombinedPlan(in.request));
  CHECK(none.code() == StatusCode::kFailed);
  CHECK(none.message().find("profile: no plan: ") != std::string::npos);
  CHECK(none.message().find("runs: no plan: ") != std::string::npos);

  // Bad input of one part: the path's own error, before any part is answered.
  in.request.deadline_seconds = 0;
  in.request.workload.clear();
  const Status bad = testing::ErrorOf(AnswerCombinedPlan(in.request));
  CHECK(bad.message() == "workload: required with a runs CSV");
  in.request.workload = "kmeans";
  in.request.app = "nope";
  in.request.store_path = in.dir + "/s.db";
  const Status unknown = testing::ErrorOf(AnswerCombinedPlan(in.request));
  CHECK(unknown.code() == StatusCode::kNotFound);
}

}  // namespace
}  // namespace perfplan::planner
