// Cluster topology: sites with nodes, links between sites, and where dataset replicas live
// (DESIGN §2, §3.3). Plain data read from YAML (docs/topology-format.md); the planner builds its
// graph from it. Units in names: bytes, seconds, bytes/second.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "models/runtime_model.h"
#include "profiles/problem.h"

namespace perfplan::profiles {

inline constexpr int kTopologySchemaVersion = 1;

// Upper bounds every reader and `validate` check (docs/topology-format.md). Far above any real
// cluster, low enough that the planner's per-node arrays and int sums stay small and exact: a
// count of 2^31 used to abort (length_error) and 2^32 + 1 silently became 1 node.
inline constexpr long long kMaxNodeCount = 1'000'000;  // nodes in a group, a site, a replica
inline constexpr long long kMaxCoresPerNode = 65'536;

// `count` identical nodes of a site.
struct NodeGroup {
  std::string name;  // name prefix; nodes are name-0, name-1, …
  int count = 1;
  int cores = 1;
  // Relative per-node processing throughput (higher is faster), relative to the nodes of the
  // profiled hardware after the site's scaling is applied. 1 = same.
  double speed = 1;
};

struct Site {
  std::string name;
  int line = 0;  // where it is declared, for later messages
  // Bandwidth between storage and compute nodes within the site (used when the replica and the
  // compute nodes are at the same site). 0 = the site cannot serve its own data locally.
  double local_bandwidth_bytes_per_second = 0;
  // Hardware relative to a common reference (time multipliers s_d, s_n, s_c); all 1 if absent.
  models::ScalingFactors scaling;
  bool has_scaling = false;
  std::vector<NodeGroup> nodes;  // compute nodes; empty for storage-only sites
  int ComputeNodeCount() const {
    int n = 0;
    for (const NodeGroup& g : nodes) n += g.count;
    return n;
  }
};

struct Link {
  std::string from, to;  // site names; links are bidirectional
  double bandwidth_bytes_per_second = 0;
  double latency_seconds = 0;
  int line = 0;
};

struct Replica {
  std::string site;
  double storage_nodes = 1;  // nodes holding the replica's chunks (n_x)
};

struct Dataset {
  std::string name;
  double dataset_bytes = 0;
  std::vector<Replica> replicas;
  int line = 0;
};

struct Topology {
  std::string file;
  std::vector<Site> sites;
  std::vector<Link> links;
  std::vector<Dataset> datasets;
  // Reference applications measured per site (site name → measurements), used to derive the
  // heterogeneity factors between the profiled site and another (DESIGN §3.1).
  std::map<std::string, std::vector<models::ReferenceMeasurement>> reference_runs;

  const Site* FindSite(const std::string& name) const;
  const Dataset* FindDataset(const std::string& name) const;
};

// Parses topology text. Checks types, ranges, unique names, that links and replicas name known
// sites, and that every replica reaches at least one site with compute nodes.
Loaded<Topology> ParseTopology(const std::string& text, const std::string& file);
Loaded<Topology> LoadTopology(const std::string& path);

// Scaling factors (s_d, s_n, s_c) of `target_site` relative to `profiled_site`: from reference
// runs measured on both when there are any, else the ratio of the sites' declared scaling, else 1.
// An empty `profiled_site` means the profile's hardware is the common reference.
Result<models::ScalingFactors> SiteScaling(const Topology& topology,
                                           const std::string& profiled_site,
                                           const std::string& target_site);

}  // namespace perfplan::profiles
