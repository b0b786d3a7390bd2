// Specification of profiles/runtime/topology.h: sites, links, datasets and reference runs, with
// every problem (unknown sites, unreachable replicas, bad numbers) reported at once.
#include <doctest/doctest.h>

#include "profiles/runtime/topology.h"
#include "tests/support/problem_lines.h"

namespace perfplan::profiles {
namespace {

constexpr double kExact = 1e-12;

using testing::ProblemLines;

const char* kTopology = R"(schema_version: 1
sites:
  - name: store
    scaling: {disk: 2}
  - name: comp
    local_bandwidth_bytes_per_second: 1e9
    nodes:
      - {name: fast, count: 2, cores: 8, speed: 1.5}
      - {count: 3}
  - name: other
    scaling: {compute: 3}
    nodes: [{count: 1}]
links:
  - {from: store, to: comp, bandwidth_bytes_per_second: 1e8, latency_seconds: 0.01}
  - {from: comp, to: other, bandwidth_bytes_per_second: 1e7}
datasets:
  - name: d
    dataset_bytes: 1e9
    replicas:
      - {site: store, storage_nodes: 2}
reference_runs:
  - {application: a, site: comp, disk_seconds: 10, network_seconds: 10, compute_seconds: 10}
  - {application: a, site: other, disk_seconds: 20, network_seconds: 5, compute_seconds: 40}
)";

TEST_CASE("a topology is read into sites, links, datasets and reference runs") {
  Loaded<Topology> t = ParseTopology(kTopology, "t.yaml");
  REQUIRE(t.ok());
  REQUIRE(t.value.sites.size() == 3);
  const Site& comp = t.value.sites[1];
  CHECK(comp.local_bandwidth_bytes_per_second == 1e9);
  CHECK(comp.ComputeNodeCount() == 5);
  CHECK(comp.nodes[0].name == "fast");
  CHECK(comp.nodes[0].speed == 1.5);
  CHECK(comp.nodes[1].name == "comp-1");  // default name: site and group index
  CHECK(t.value.links[0].latency_seconds == 0.01);
  REQUIRE(t.value.FindDataset("d"));
  CHECK(t.value.FindDataset("d")->replicas[0].storage_nodes == 2);
  CHECK(t.value.reference_runs.at("other").size() == 1);
}

TEST_CASE("site scaling comes from reference runs when both sites have them") {
  Loaded<Topology> t = ParseTopology(kTopology, "t.yaml");
  REQUIRE(t.ok());
  Result<models::ScalingFactors> f = SiteScaling(t.value, "comp", "other");
  REQUIRE(f.ok());
  CHECK(f.value().disk == doctest::Approx(2).epsilon(kExact));
  CHECK(f.value().network == doctest::Approx(0.5).epsilon(kExact));
  CHECK(f.value().compute == doctest::Approx(4).epsilon(kExact));
  // No reference runs at "store": the ratio of the declared scaling.
  Result<models::ScalingFactors> declared = SiteScaling(t.value, "comp", "store");
  REQUIRE(declared.ok());
  CHECK(declared.value().disk == 2);
  CHECK(declared.value().compute == 1);
  CHECK(SiteScaling(t.value, "comp", "mars").status().message() == "unknown site \"mars\"");
}

TEST_CASE("every problem in a topology is reported with its line and field") {
  const char* text = R"(schema_version: 1
sites:
  - name: store
  - name: comp
    nodes: [{count: 0, speed: -1}]
  - name: comp
links:
  - {from: store, to: nowhere, bandwidth_bytes_per_second: 0}
datasets:
  - name: d
    dataset_bytes: 1e9
    replicas:
      - {site: stor, storage_nodes: 2}
      - {site: store, storage_nodes: -2}
)";
  CHECK(ProblemLines(ParseTopology(text, "t.yaml")) ==
        std::vector<std::string>{
            "t.yaml:5: sites[1].nodes[0].count: must be >= 1, got 0",
            "t.yaml:5: sites[1].nodes[0].speed: must be > 0, got -1",
            "t.yaml:6: sites[2].name: duplicate site name \"comp\"",
            "t.yaml:8: links[0].to: unknown site \"nowhere\"",
            "t.yaml:8: links[0].bandwidth_bytes_per_second: must be > 0, got 0",
            "t.yaml:13: datasets[0].replicas[0].site: unknown site \"stor\"; did you mean "
            "\"store\"?",
            "t.yaml:14: datasets[0].replicas[1].storage_nodes: must be >= 1, got -2",
        });
}

TEST_CASE("a replica that cannot reach any compute site is an error") {
  const char* text = R"(schema_version: 1
sites:
  - name: store
  - name: comp
    nodes: [{count: 4}]
datasets:
  - name: d
    dataset_bytes: 1e9
    replicas:
      - {site: store, storage_nodes: 2}
)";
  CHECK(ProblemLines(ParseTopology(text, "t.yaml")) ==
        std::vector<std::string>{"t.yaml:10: datasets[0].replicas[0].site: replica at \"store\" "
                                 "cannot reach any site with compute nodes"});
}

TEST_CASE("unknown keys in a topology get a suggestion") {
  const char* text = R"(schema_version: 1
sites:
  - name: comp
    local_bandwith_bytes_per_second: 1e9
    nodes: [{count: 1, sped: 2}]
)";
  CHECK(ProblemLines(ParseTopology(text, "t.yaml")) ==
        std::vector<std::string>{
            "t.yaml:4: sites[0].local_bandwith_bytes_per_second: unknown key; did you mean "
            "\"local_bandwidth_bytes_per_second\"?",
            "t.yaml:5: sites[0].nodes[0].sped: unknown key; did you mean \"speed\"?"});
}


TEST_CASE("node counts are whole numbers within the documented bounds, never wrapped") {
  // Each of these used to abort (2^31: length_error), allocate gigabytes, or wrap (2^32 + 1 → 1).
  struct Case {
    const char* count;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"2147483648", "t.yaml:4: sites[0].nodes[0].count: must be <= 1000000, got 2147483648"},
      {"4294967297", "t.yaml:4: sites[0].nodes[0].count: must be <= 1000000, got 4294967297"},
      {"1e8", "t.yaml:4: sites[0].nodes[0].count: expected a whole number, got \"1e8\""},
      {"2.5", "t.yaml:4: sites[0].nodes[0].count: expected a whole number, got \"2.5\""},
      {"\"4\"", "t.yaml:4: sites[0].nodes[0].count: expected a whole number, got the string \"4\""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.count);
    const std::string text = std::string("schema_version: 1\nsites:\n  - name: comp\n") +
                             "    nodes: [{count: " + c.count + "}]\n";
    CHECK(ProblemLines(ParseTopology(text, "t.yaml")) == std::vector<std::string>{c.message});
  }
}

TEST_CASE("a site's node groups together stay within the bound") {
  const char* text = R"(schema_version: 1
sites:
  - name: comp
    nodes: [{count: 600000}, {count: 600000}]
)";
  CHECK(ProblemLines(ParseTopology(text, "t.yaml")) ==
        std::vector<std::string>{"t.yaml:4: sites[0].nodes: the site has 1200000 nodes in all; at "
                                 "most 1000000 are supported"});
}

TEST_CASE("fractional storage nodes, quoted numbers and duplicate keys are errors") {
  const char* text = R"(schema_version: 1
sites:
  - name: comp
    local_bandwidth_bytes_per_second: "1e9"
    nodes: [{count: 2}]
    name: again
datasets:
  - name: d
    dataset_bytes: 1e9
    replicas:
      - {site: comp, storage_nodes: 2.5}
)";
  CHECK(ProblemLines(ParseTopology(text, "t.yaml")) ==
        std::vector<std::string>{
            "t.yaml:6: sites[0].name: duplicate key (first given at line 3)",
            "t.yaml:4: sites[0].local_bandwidth_bytes_per_second: expected a number, got the "
            "string \"1e9\"",
            "t.yaml:11: datasets[0].replicas[0].storage_nodes: expected a whole number, got "
            "\"2.5\"",
        });
}

}  // namespace
}  // namespace perfplan::profiles
