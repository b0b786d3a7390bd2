// A generated grid topology shared by the runtime and plan benchmarks (not a public API).
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "profiles/runtime/topology.h"

namespace perfplan::bench {

// A grid of `compute_nodes` nodes: sites of 20 heterogeneous nodes, 5 storage sites, a ring of
// links plus random chords, bandwidths from 10 Mb/s to 10 Gb/s.
inline perfplan::profiles::Topology MakeTopology(int compute_nodes, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> log_bw(std::log(1.25e6), std::log(1.25e9));
  perfplan::profiles::Topology t;
  t.file = "generated";
  const int storage_sites = 5;
  const int compute_sites = std::max(1, compute_nodes / 20);
  for (int s = 0; s < storage_sites; ++s) {
    perfplan::profiles::Site site;
    site.name = "storage-" + std::to_string(s);
    t.sites.push_back(site);
  }
  for (int c = 0; c < compute_sites; ++c) {
    perfplan::profiles::Site site;
    site.name = "compute-" + std::to_string(c);
    site.local_bandwidth_bytes_per_second = 1.25e9;
    site.nodes.push_back({"fast", 8, 8, 1.5});
    site.nodes.push_back({"slow", compute_nodes / compute_sites - 8, 4, 1.0});
    t.sites.push_back(site);
  }
  const int n = static_cast<int>(t.sites.size());
  for (int i = 0; i < n; ++i) {
    t.links.push_back({t.sites[i].name, t.sites[(i + 1) % n].name, std::exp(log_bw(rng)), 0.01});
    t.links.push_back({t.sites[i].name, t.sites[rng() % n].name, std::exp(log_bw(rng)), 0.02});
  }
  perfplan::profiles::Dataset d;
  d.name = "data";
  d.dataset_bytes = 8e9;
  for (int s = 0; s < storage_sites; ++s) d.replicas.push_back({t.sites[s].name, 4});
  t.datasets.push_back(d);
  return t;
}

}  // namespace perfplan::bench
