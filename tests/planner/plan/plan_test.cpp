// Specification of planner/plan/plan.h over the bundled examples: the plan agrees with `select`,
// costs follow the price file's billing terms, the front is the brute-force non-dominated set,
// and every constraint removes what it says.
#include "planner/plan/plan.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "models/runtime_fit.h"
#include "planner/runtime/fit_eval.h"
#include "tests/support/result_checks.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

std::string Example(const std::string& name) { return testing::SourceDir() + "/examples/" + name; }

PlanRequest KmeansRequest() {
  PlanRequest r;
  r.profile_file = Example("profiles/kmeans.yaml");
  r.topology_file = Example("topology.yaml");
  r.dataset = "sky-survey";
  return r;
}

SelectAnswer Select(Objective objective, int max_nodes = 0, double deadline_seconds = 0) {
  SelectRequest s;
  s.profile_file = Example("profiles/kmeans.yaml");
  s.topology_file = Example("topology.yaml");
  s.options.dataset = "sky-survey";
  s.options.objective = objective;
  s.options.max_compute_nodes = max_nodes;
  s.options.deadline_seconds = deadline_seconds;
  s.options.top = 0;
  const SelectAnswer a = testing::ValueOf(AnswerSelect(s));
  return a;
}

// The plan `r` asks for, which must succeed.
PlanAnswer Planned(const PlanRequest& r) { return testing::ValueOf(AnswerPlan(r)); }

bool Same(const Alternative& a, const Alternative& b) {
  return a.replica_site == b.replica_site && a.compute_site == b.compute_site &&
         a.compute_nodes == b.compute_nodes && a.runtime_seconds == b.runtime_seconds;
}

TEST_CASE("without prices, the time plan is select's first alternative, with the same numbers") {
  const PlanAnswer plan = Planned(KmeansRequest());
  const SelectAnswer select = Select(Objective::kTime);
  REQUIRE(plan.alternatives.size() == select.selection.alternatives.size());
  for (std::size_t i = 0; i < select.selection.alternatives.size(); ++i) {
    CHECK(Same(plan.alternatives[i].select, select.selection.alternatives[i]));
    CHECK_FALSE(plan.alternatives[i].priced);
  }
  REQUIRE(plan.chosen.has_value());
  CHECK(*plan.chosen == 0);
  CHECK(plan.front.empty());  // no prices, no cost axis
  CHECK(plan.runtime_source.command == "perfplan select");
  CHECK(plan.runtime_source.runs == select.model.runs.size());
  CHECK(plan.evaluated == select.selection.evaluated);
}

TEST_CASE("the node-seconds plan is select --objective node-seconds' first alternative") {
  PlanRequest r = KmeansRequest();
  r.objective = PlanObjective::kNodeSeconds;
  r.max_nodes = 16;
  const PlanAnswer plan = Planned(r);
  const SelectAnswer select = Select(Objective::kNodeSeconds, 16);
  CHECK(Same(plan.alternatives[*plan.chosen].select, select.selection.alternatives.front()));
  for (const PlanAlternative& a : plan.alternatives) CHECK(a.select.compute_nodes <= 16);
}

TEST_CASE("costs follow the price file: minimum period, increment, discount, per site") {
  PlanRequest r = KmeansRequest();
  r.price_file = Example("prices/grid.yaml");
  const PlanAnswer plan = Planned(r);
  CHECK(plan.currency == "USD");
  std::size_t checked = 0;
  for (const PlanAlternative& a : plan.alternatives) {
    REQUIRE(a.priced);  // every compute site of the topology has a price
    const double t = a.select.runtime_seconds;
    const double n = a.select.compute_nodes;
    double expected = 0;
    // examples/prices/grid.yaml, worked out here independently of models/plan_cost.
    if (a.select.compute_site == "osu-cluster") {
      expected = n * std::ceil(std::max(t, 60.0) - 1e-9) / 3600 * 0.40;
    } else if (a.select.compute_site == "anl-cluster") {
      expected = n * std::ceil(std::max(t, 3600.0) / 3600 - 1e-9) * 0.90;
    } else {
      REQUIRE(a.select.compute_site == "campus-lab");
      expected = n * std::ceil(std::max(t, 60.0) - 1e-9) / 3600 * 0.20 * 0.5;
    }
    CHECK(a.cost.cost == doctest::Approx(expected).epsilon(1e-12));
    ++checked;
  }
  CHECK(checked > 10);
}

TEST_CASE("the cost plan is the cheapest alternative and the front is the non-dominated set") {
  PlanRequest r = KmeansRequest();
  r.price_file = Example("prices/grid.yaml");
  r.objective = PlanObjective::kCost;
  const PlanAnswer a = Planned(r);
  REQUIRE(a.chosen.has_value());
  double cheapest = 1e300;
  for (const PlanAlternative& alt : a.alternatives) cheapest = std::min(cheapest, alt.cost.cost);
  CHECK(a.alternatives[*a.chosen].cost.cost == cheapest);
  std::vector<std::size_t> brute;
  for (std::size_t i = 0; i < a.alternatives.size(); ++i) {
    const PlanAlternative& p = a.alternatives[i];
    bool dominated = false;
    for (const PlanAlternative& q : a.alternatives) {
      dominated |=
          q.select.runtime_seconds <= p.select.runtime_seconds && q.cost.cost <= p.cost.cost &&
          (q.select.runtime_seconds < p.select.runtime_seconds || q.cost.cost < p.cost.cost);
    }
    if (!dominated) brute.push_back(i);
  }
  std::vector<std::size_t> front = a.front;
  std::sort(front.begin(), front.end());
  CHECK(front == brute);
  CHECK(a.alternatives[*a.chosen].on_front);
  CHECK(a.front.size() >= 2);  // the examples trade time for money
}

TEST_CASE("a deadline and a budget leave only alternatives meeting both") {
  PlanRequest r = KmeansRequest();
  r.price_file = Example("prices/grid.yaml");
  r.objective = PlanObjective::kCost;
  const PlanAnswer loose = testing::ValueOf(AnswerPlan(r));
  // A budget just above the cheapest cost keeps the cheapest and drops the dearer ones.
  const double cheapest = loose.alternatives[*loose.chosen].cost.cost;
  r.budget = cheapest * 1.5;
  r.deadline_seconds = 10000;
  const PlanAnswer plan = Planned(r);
  std::size_t over = 0;
  for (const PlanAlternative& alt : plan.alternatives) {
    CHECK(alt.select.runtime_seconds <= 10000);
    over += alt.cost.cost > r.budget;
    CHECK(alt.within_budget == (alt.cost.cost <= r.budget));
    if (alt.on_front) CHECK(alt.feasible);
  }
  CHECK(plan.over_budget == over);
  CHECK(over > 0);
  CHECK(plan.over_deadline == Select(Objective::kTime, 0, 10000).selection.over_deadline);
}

TEST_CASE("allowed sites restrict the choice and the front") {
  PlanRequest r = KmeansRequest();
  r.price_file = Example("prices/grid.yaml");
  r.allowed_sites = {"campus-lab"};
  const PlanAnswer plan = Planned(r);
  CHECK(plan.alternatives[*plan.chosen].select.compute_site == "campus-lab");
  for (std::size_t i : plan.front) {
    CHECK(plan.alternatives[i].select.compute_site == "campus-lab");
  }
  CHECK(plan.excluded_sites > 0);
}

TEST_CASE("a site without a price is warned about and kept off the front") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/p.yaml",
                     "schema_version: 1\ncurrency: EUR\nprices:\n"
                     "  - {site: osu-cluster, price_per_node_hour: 0.4}\n");
  PlanRequest r = KmeansRequest();
  r.price_file = dir + "/p.yaml";
  Result<PlanAnswer> plan = AnswerPlan(r);
  REQUIRE(plan.ok());
  for (std::size_t i : plan.value().front) {
    CHECK(plan.value().alternatives[i].select.compute_site == "osu-cluster");
  }
  CHECK(std::count(plan.value().warnings.begin(), plan.value().warnings.end(),
                   "no price for compute site \"anl-cluster\" in " + dir +
                       "/p.yaml: its alternatives have no cost and are not on the front") == 1);
  // The cost objective can only choose among priced alternatives.
  r.objective = PlanObjective::kCost;
  plan = AnswerPlan(r);
  REQUIRE(plan.ok());
  CHECK(plan.value().alternatives[*plan.value().chosen].select.compute_site == "osu-cluster");
  CHECK(plan.value().unpriced > 0);
}

TEST_CASE("bad plan requests say which field is wrong") {
  PlanRequest r = KmeansRequest();
  r.objective = PlanObjective::kCost;
  CHECK(AnswerPlan(r).status().message() ==
        "objective: cost needs prices (--prices FILE, or \"prices\" in a /v1/plan request)");
  r = KmeansRequest();
  r.allowed_sites = {"nowhere"};
  CHECK(AnswerPlan(r).status().message() ==
        "site: unknown site \"nowhere\" in " + Example("topology.yaml"));
  r = KmeansRequest();
  r.price_file = Example("prices/grid.yaml");
  r.budget = 1e-9;
  Result<PlanAnswer> none = AnswerPlan(r);
  CHECK(none.status().code() == StatusCode::kFailed);
  CHECK(none.status().message().rfind("no alternative meets every constraint: ", 0) == 0);
  r = KmeansRequest();
  r.price_file = "/nonexistent/prices.yaml";
  CHECK(AnswerPlan(r).status().code() == StatusCode::kInvalidArgument);
}

// Workload w on two instance types: t1 runs 50 + 2000/c s, t2 runs 80 + 4000/c s (slower, and
// cheaper in the prices below); t3 has a single run, too few to fit.
std::string RunsCsv() {
  std::string csv =
      "workload,instance_type,dataset_bytes,storage_nodes,compute_nodes,"
      "bandwidth_bytes_per_second,runtime_seconds,completed\n";
  for (int c : {4, 8, 16, 32, 64}) {
    const std::string n = std::to_string(c);
    csv += "w,t1,1e10," + n + "," + n + ",1e8," + std::to_string(50 + 2000.0 / c) + ",true\n";
    csv += "w,t2,1e10," + n + "," + n + ",1e8," + std::to_string(80 + 4000.0 / c) + ",true\n";
  }
  csv += "w,t3,1e10,8,8,1e8,300,true\n";
  return csv;
}

PlanRequest RunsRequest(const std::string& dir) {
  testing::WriteFile(dir + "/runs.csv", RunsCsv());
  testing::WriteFile(dir + "/prices.yaml",
                     "schema_version: 1\ncurrency: EUR\nprices:\n"
                     "  - {instance_type: t1, price_per_node_hour: 2.0}\n"
                     "  - {instance_type: t2, price_per_node_hour: 0.5}\n"
                     "  - {instance_type: t3, price_per_node_hour: 0.1}\n");
  PlanRequest r;
  r.runs_file = dir + "/runs.csv";
  r.workload = "w";
  r.price_file = dir + "/prices.yaml";
  return r;
}

TEST_CASE("runs path: every alternative is what `perfplan fit` then `perfplan predict` give") {
  const std::string dir = testing::MakeTempDir();
  PlanRequest r = RunsRequest(dir);
  const PlanAnswer a = Planned(r);
  CHECK(a.evidence == PlanEvidence::kRunsCsv);
  CHECK(a.runtime_source.command == "perfplan fit");
  CHECK(a.runtime_source.runs == 10);
  REQUIRE(a.alternatives.size() ==
          10);  // 2 fitted types × 5 measured node counts (t3: 8, among them)
  for (const std::string type : {"t1", "t2"}) {
    FitRequest f;
    f.runs_file = r.runs_file;
    f.workload = "w";
    f.instance_type = type;
    const FitAnswer fit = testing::ValueOf(AnswerFit(f));
    const models::ResolvedModel model = testing::ValueOf(models::ResolveModel(fit.profile));
    for (const PlanAlternative& alt : a.alternatives) {
      if (alt.instance_type != type) continue;
      models::Target t;
      t.dataset_bytes = 1e10;
      t.storage_nodes = alt.select.compute_nodes;
      t.compute_nodes = alt.select.compute_nodes;
      t.bandwidth_bytes_per_second = 1e8;
      CAPTURE(alt.select.compute_nodes);
      CHECK(alt.select.runtime_seconds ==
            doctest::Approx(models::Predict(model, t).runtime_seconds).epsilon(1e-9));
    }
  }
  // The exact data are fitted exactly: t1 on 8 nodes takes 50 + 250 s.
  for (const PlanAlternative& alt : a.alternatives) {
    if (alt.instance_type == "t1" && alt.select.compute_nodes == 8) {
      CHECK(alt.select.runtime_seconds == doctest::Approx(300).epsilon(1e-6));
    }
  }
  // Time order; the fastest is t1 on the most nodes measured.
  CHECK(a.alternatives[*a.chosen].instance_type == "t1");
  CHECK(a.alternatives[*a.chosen].select.compute_nodes == 64);
  REQUIRE(a.warnings.size() == 1);
  CHECK(a.warnings[0].rfind("t3: not fitted: ", 0) == 0);
}

TEST_CASE("runs path: every runtime carries the fit's CV+ interval, widened beyond the runs") {
  const std::string dir = testing::MakeTempDir();
  PlanRequest r = RunsRequest(dir);
  r.node_counts = {8, 128};
  const PlanAnswer a = Planned(r);
  CHECK(a.interval_level == 0.9);
  REQUIRE(a.alternatives.size() == 4);
  for (const PlanAlternative& alt : a.alternatives) {
    CAPTURE(alt.instance_type);
    CAPTURE(alt.select.compute_nodes);
    REQUIRE(alt.interval.has_value());
    CHECK(alt.interval->low_seconds <= alt.select.runtime_seconds);
    CHECK(alt.select.runtime_seconds <= alt.interval->high_seconds);
    // 5 held-out errors are fewer than a 90% interval needs (1/α − 1 = 9): the extremes.
    CHECK(alt.interval->short_of_points);
    // Trained on 4…64 nodes: 128 is one doubling beyond, span log 16 → √(1 + log 2 / log 16).
    CHECK(alt.interval_widening ==
          doctest::Approx(alt.select.compute_nodes == 128 ? std::sqrt(1.25) : 1.0).epsilon(1e-12));
  }
  bool noted = false;
  for (const std::string& n : a.runtime_source.notes) {
    noted |= n.rfind("t1: 90% CV+ interval from 5 held-out run(s) (leave-one-node-count-out", 0) == 0;
  }
  CHECK(noted);
}

TEST_CASE("runs path: costs per instance type, the cheapest choice and the front") {
  const std::string dir = testing::MakeTempDir();
  PlanRequest r = RunsRequest(dir);
  r.objective = PlanObjective::kCost;
  Result<PlanAnswer> plan = AnswerPlan(r);
  REQUIRE(plan.ok());
  const PlanAnswer& a = plan.value();
  double cheapest = 1e300;
  for (const PlanAlternative& alt : a.alternatives) {
    REQUIRE(alt.priced);
    const double price = alt.instance_type == "t1" ? 2.0 : 0.5;
    CHECK(alt.cost.cost == doctest::Approx(alt.select.node_seconds / 3600 * price).epsilon(1e-12));
    cheapest = std::min(cheapest, alt.cost.cost);
  }
  CHECK(a.alternatives[*a.chosen].cost.cost == cheapest);
  // 80 + 4000/c on t2 at 0.5/h costs (80c + 4000)/7200: cheapest at the fewest nodes, 4.
  CHECK(a.alternatives[*a.chosen].instance_type == "t2");
  CHECK(a.alternatives[*a.chosen].select.compute_nodes == 4);
  CHECK(a.front.size() >= 2);
  r.allowed_types = {"t1"};
  plan = AnswerPlan(r);
  REQUIRE(plan.ok());
  CHECK(plan.value().alternatives[*plan.value().chosen].instance_type == "t1");
  r.allowed_types = {"t9"};
  CHECK(AnswerPlan(r).status().message() == "instance_type: workload w has no runs on \"t9\"");
  r.allowed_types.clear();
  r.workload = "nope";
  CHECK(AnswerPlan(r).status().message() ==
        "workload: no runs of \"nope\" in " + dir + "/runs.csv");
}

}  // namespace
}  // namespace perfplan::planner
