// Resource selection (DESIGN §3.3): rank every feasible (replica, compute site, node count) for a
// dataset by the runtime the model predicts there.
//
// Bandwidth between a replica's site and a compute site is the bottleneck (widest-path) bandwidth
// over the topology's links; a replica used at its own site gets the site's local bandwidth. A
// node set of size k at a site is its k fastest nodes; the slowest of them sets the compute speed.
// Heterogeneity: the disk factor comes from the replica's site, the compute factor from the
// compute site (both relative to the profiled site); network time is scaled by the path's
// bandwidth, not by a factor. Pure: no I/O. Thread-safe for distinct outputs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "models/runtime_model.h"
#include "models/status.h"
#include "profiles/runtime/topology.h"

namespace perfplan::planner {

enum class Objective {
  kTime,         // shortest predicted runtime first
  kNodeSeconds,  // fewest compute node-seconds (runtime × compute nodes) first: the cost view
};
std::string_view ToString(Objective value);
bool Parse(std::string_view text, Objective* out);  // "time" | "node-seconds"

struct SelectOptions {
  std::string dataset;  // name of a topology dataset (required)
  Objective objective = Objective::kTime;
  int max_compute_nodes = 0;    // node budget per alternative; 0 = no budget
  double deadline_seconds = 0;  // drop alternatives slower than this; 0 = no deadline
  int top = 20;                 // alternatives returned, best first; 0 = all
  std::string profiled_site;    // site whose hardware the profile measured ("" = reference)

  Status Validate() const;
};

struct Alternative {
  std::string replica_site;
  std::string compute_site;
  int compute_nodes = 0;
  double storage_nodes = 0;
  double bandwidth_bytes_per_second = 0;  // bottleneck bandwidth replica → compute site
  double latency_seconds = 0;             // summed along the widest path
  double runtime_seconds = 0;
  double node_seconds = 0;         // runtime_seconds × compute_nodes
  models::Breakdown breakdown;     // adds up to runtime_seconds
  models::ScalingFactors scaling;  // hardware factors applied
  std::vector<std::string> warnings;
};

struct Selection {
  std::string dataset;
  double dataset_bytes = 0;
  Objective objective = Objective::kTime;
  std::vector<Alternative> alternatives;  // best first
  std::size_t evaluated = 0;              // alternatives predicted
  std::size_t over_deadline = 0;          // dropped by the deadline filter
};

// Widest-path (max-min) bandwidth from `from_site` to every site, over the topology's links
// (Boost.Graph Dijkstra with (max, min) in place of (min, +)). 0 where unreachable; the source
// itself gets its local bandwidth. `latency_seconds` (optional) receives the summed latency of
// each chosen path.
std::vector<double> WidestPathBandwidths(const profiles::Topology& topology, std::size_t from_site,
                                         std::vector<double>* latency_seconds = nullptr);

// Ranks the alternatives. Fails (NotFound) for an unknown dataset, (InvalidArgument) for bad
// options, and (Failed) when nothing is feasible or nothing meets the deadline.
Result<Selection> Select(const models::ResolvedModel& model, const profiles::Topology& topology,
                         const SelectOptions& options);

}  // namespace perfplan::planner
