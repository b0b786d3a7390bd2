// Specification of planner/runtime/selection.h on small topologies whose winners are derived by hand.
#include "planner/runtime/selection.h"

#include <doctest/doctest.h>

namespace perfplan::planner {
namespace {

constexpr double kExact = 1e-9;

// store ──1e8── A (2 nodes) ──1e8── B (4 nodes: 2 at speed 2, 2 at speed 0.5)
//   └────1e6───────────────────────┘
// Widest path store→B goes through A: min(1e8, 1e8) = 1e8 beats the direct 1e6 link.
profiles::Topology SmallTopology() {
  profiles::Loaded<profiles::Topology> t = profiles::ParseTopology(R"(schema_version: 1
sites:
  - name: store
  - name: A
    nodes: [{count: 2}]
  - name: B
    nodes: [{count: 2, speed: 2}, {count: 2, speed: 0.5}]
links:
  - {from: store, to: A, bandwidth_bytes_per_second: 1e8, latency_seconds: 0.01}
  - {from: store, to: B, bandwidth_bytes_per_second: 1e6, latency_seconds: 0.001}
  - {from: A, to: B, bandwidth_bytes_per_second: 1e8, latency_seconds: 0.02}
datasets:
  - name: d
    dataset_bytes: 1e9
    replicas: [{site: store, storage_nodes: 1}]
)",
                                                                   "small.yaml");
  REQUIRE(t.ok());
  return t.value;
}

// Simple model: runtime on k nodes of speed v at 1e8 B/s = 10 + 10 + 100/(k·v).
models::ResolvedModel SimpleModel() {
  models::RuntimeProfile p;
  p.application = "scan";
  models::ProfileRun r;
  r.dataset_bytes = 1e9;
  r.storage_nodes = 1;
  r.compute_nodes = 1;
  r.bandwidth_bytes_per_second = 1e8;
  r.disk_seconds = 10;
  r.network_seconds = 10;
  r.compute_seconds = 100;
  p.runs = {r};
  return models::ResolveModel(p).value();
}

// Options that select for dataset d of SmallTopology(), and the selection with SimpleModel().
SelectOptions OnDataset() {
  SelectOptions options;
  options.dataset = "d";
  return options;
}

Result<Selection> SelectSmall(const SelectOptions& options) {
  return Select(SimpleModel(), SmallTopology(), options);
}

TEST_CASE("widest-path bandwidth takes the best bottleneck, with the path's latency") {
  const profiles::Topology t = SmallTopology();
  std::vector<double> latency;
  const std::vector<double> width = WidestPathBandwidths(t, 0, &latency);
  CHECK(width == std::vector<double>{0, 1e8, 1e8});  // store has no local bandwidth
  CHECK(latency[1] == doctest::Approx(0.01).epsilon(kExact));
  CHECK(latency[2] == doctest::Approx(0.03).epsilon(kExact));  // via A
}

TEST_CASE("the time objective ranks the fastest node set first") {
  SelectOptions options = OnDataset();
  options.top = 0;
  Result<Selection> s = SelectSmall(options);
  REQUIRE(s.ok());
  CHECK(s.value().evaluated == 6);  // 2 node counts at A + 4 at B
  REQUIRE(s.value().alternatives.size() == 6);
  const Alternative& best = s.value().alternatives[0];
  // B with its 2 fast nodes: 20 + 100/(2·2) = 45. A third node (speed 0.5) would slow the set to
  // 100/(3·0.5) = 66.7.
  CHECK(best.compute_site == "B");
  CHECK(best.compute_nodes == 2);
  CHECK(best.runtime_seconds == doctest::Approx(45).epsilon(kExact));
  CHECK(best.breakdown.TotalSeconds() == doctest::Approx(best.runtime_seconds).epsilon(kExact));
  CHECK(best.node_seconds == doctest::Approx(90).epsilon(kExact));
  CHECK(best.bandwidth_bytes_per_second == 1e8);
  CHECK(best.latency_seconds == doctest::Approx(0.03).epsilon(kExact));
  CHECK(best.scaling.compute == doctest::Approx(0.5).epsilon(kExact));
  // Next: A with 2 nodes and B with 1 fast node tie on nothing: 70 (node-s 140) vs 70 (70).
  CHECK(s.value().alternatives[1].compute_site == "B");
  CHECK(s.value().alternatives[1].compute_nodes == 1);
  CHECK(s.value().alternatives[1].runtime_seconds == doctest::Approx(70).epsilon(kExact));
  for (std::size_t i = 1; i < s.value().alternatives.size(); ++i) {
    CHECK(s.value().alternatives[i - 1].runtime_seconds <=
          s.value().alternatives[i].runtime_seconds);
  }
}

TEST_CASE("the node-seconds objective ranks the cheapest node set first") {
  SelectOptions options = OnDataset();
  options.objective = Objective::kNodeSeconds;
  Result<Selection> s = SelectSmall(options);
  REQUIRE(s.ok());
  // One fast node of B: (20 + 50)·1 = 70 node-seconds; A's single node costs 120.
  const Alternative& best = s.value().alternatives[0];
  CHECK(best.compute_site == "B");
  CHECK(best.compute_nodes == 1);
  CHECK(best.node_seconds == doctest::Approx(70).epsilon(kExact));
}

TEST_CASE("a node budget and a deadline restrict the alternatives") {
  SelectOptions options = OnDataset();
  options.max_compute_nodes = 1;
  Result<Selection> budget = SelectSmall(options);
  REQUIRE(budget.ok());
  CHECK(budget.value().evaluated == 2);
  CHECK(budget.value().alternatives[0].compute_site == "B");
  CHECK(budget.value().alternatives[0].runtime_seconds == doctest::Approx(70).epsilon(kExact));

  options.max_compute_nodes = 0;
  options.deadline_seconds = 50;
  Result<Selection> deadline = SelectSmall(options);
  REQUIRE(deadline.ok());
  CHECK(deadline.value().alternatives.size() == 1);
  CHECK(deadline.value().over_deadline == 5);

  options.deadline_seconds = 10;
  Result<Selection> none = SelectSmall(options);
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().code() == StatusCode::kFailed);
  CHECK(none.status().message() == "no alternative meets the deadline of 10 s (6 evaluated)");
}

TEST_CASE("a replica at a compute site uses the site's local bandwidth") {
  profiles::Topology t = SmallTopology();
  t.sites[1].local_bandwidth_bytes_per_second = 1e9;
  t.datasets[0].replicas.push_back({"A", 1});
  SelectOptions options = OnDataset();
  options.top = 0;
  Result<Selection> s = Select(SimpleModel(), t, options);
  REQUIRE(s.ok());
  CHECK(s.value().evaluated == 12);  // 6 node sets for each of the two replicas
  // Local at A on 2 nodes: network 10·(1e8/1e9) = 1 → 10 + 1 + 50 = 61, where fetching from store
  // costs 10 + 10 + 50 = 70.
  int local = 0;
  for (const Alternative& a : s.value().alternatives) {
    if (a.replica_site != "A" || a.compute_site != "A" || a.compute_nodes != 2) continue;
    ++local;
    CHECK(a.bandwidth_bytes_per_second == 1e9);
    CHECK(a.latency_seconds == 0);
    CHECK(a.runtime_seconds == doctest::Approx(61).epsilon(kExact));
  }
  CHECK(local == 1);
}

TEST_CASE("site hardware factors come from the replica's and the compute site's scaling") {
  profiles::Topology t = SmallTopology();
  t.sites[0].scaling.disk = 3;  // storage three times slower than the profiled hardware
  t.sites[1].scaling.compute = 2;
  SelectOptions options = OnDataset();
  options.max_compute_nodes = 1;
  options.top = 0;
  Result<Selection> s = Select(SimpleModel(), t, options);
  REQUIRE(s.ok());
  for (const Alternative& a : s.value().alternatives) {
    CAPTURE(a.compute_site);
    CHECK(a.breakdown.disk_seconds == doctest::Approx(30).epsilon(kExact));
    CHECK(a.breakdown.compute_seconds ==
          doctest::Approx(a.compute_site == "A" ? 200 : 50).epsilon(kExact));
  }
}

TEST_CASE("bad selection requests are rejected with what to fix") {
  SelectOptions options;
  options.dataset = "e";
  Result<Selection> unknown = SelectSmall(options);
  CHECK(unknown.status().code() == StatusCode::kNotFound);
  CHECK(unknown.status().message() == "dataset \"e\" is not in small.yaml; did you mean \"d\"?");
  options.dataset = "d";
  options.max_compute_nodes = -1;
  CHECK(SelectSmall(options).status().message() ==
        "max_compute_nodes: must be >= 0 (0 = no budget), got -1");
  options.max_compute_nodes = 0;
  options.profiled_site = "Z";
  CHECK(SelectSmall(options).status().message() == "profiled site \"Z\" is not in small.yaml");
}

TEST_CASE("objective names round-trip") {
  Objective o = Objective::kTime;
  REQUIRE(Parse("node-seconds", &o));
  CHECK(o == Objective::kNodeSeconds);
  CHECK(ToString(o) == "node-seconds");
  CHECK_FALSE(Parse("cost", &o));
}

}  // namespace
}  // namespace perfplan::planner
