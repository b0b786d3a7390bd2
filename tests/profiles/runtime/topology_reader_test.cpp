// Specification of profiles/runtime/topology.h: sites, links, datasets and reference runs, with every
// problem (unknown sites, unreachable replicas, bad numbers) reported at once.
#include <doctest/doctest.h>

#include "profiles/runtime/topology.h"

namespace perfplan::profiles {
namespace {

constexpr double kExact = 1e-12;

std::vector<std::string> Messages(const Loaded<Topology>& loaded) {
  std::vector<std::string> out;
  for (const Problem& p : loaded.problems) out.push_back(FormatProblem(p));
  return out;
}

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
  CHECK(Messages(ParseTopology(text, "t.yaml")) ==
        std::vector<std::string>{
            "t.yaml:5: sites[1].nodes[0].count: must be >= 1, got 0",
            "t.yaml:5: sites[1].nodes[0].speed: must be > 0, got -1",
            "t.yaml:6: sites[2].name: duplicate site name \"comp\"",
            "t.yaml:8: links[0].to: unknown site \"nowhere\"",
            "t.yaml:8: links[0].bandwidth_bytes_per_second: must be > 0, got 0",
            "t.yaml:13: datasets[0].replicas[0].site: unknown site \"stor\"; did you mean "
            "\"store\"?",
            "t.yaml:14: datasets[0].replicas[1].storage_nodes: must be > 0, got -2",
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
  CHECK(Messages(ParseTopology(text, "t.yaml")) ==
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
  CHECK(Messages(ParseTopology(text, "t.yaml")) ==
        std::vector<std::string>{
            "t.yaml:4: sites[0].local_bandwith_bytes_per_second: unknown key; did you mean "
            "\"local_bandwidth_bytes_per_second\"?",
            "t.yaml:5: sites[0].nodes[0].sped: unknown key; did you mean \"speed\"?"});
}

}  // namespace
}  // namespace perfplan::profiles
