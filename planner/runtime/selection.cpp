#include "planner/runtime/selection.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <unordered_map>

#include "models/short_number.h"

namespace perfplan::planner {
namespace {

struct EdgeProps {
  double bandwidth = 0;
  double latency = 0;
};
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS,
                                    boost::no_property, EdgeProps>;

// A candidate before its breakdown is computed.
struct Candidate {
  std::size_t replica = 0;
  std::size_t compute_site = 0;
  int nodes = 0;
  double runtime_seconds = 0;
  double node_seconds = 0;
};

}  // namespace

std::string_view ToString(Objective v) { return v == Objective::kTime ? "time" : "node-seconds"; }

bool Parse(std::string_view text, Objective* out) {
  for (auto v : {Objective::kTime, Objective::kNodeSeconds}) {
    if (text == ToString(v)) return *out = v, true;
  }
  return false;
}

Status SelectOptions::Validate() const {
  if (dataset.empty()) return Status::InvalidField("dataset", "required");
  if (max_compute_nodes < 0) {
    return Status::InvalidField("max_compute_nodes", "must be >= 0 (0 = no budget), got " +
                                                         std::to_string(max_compute_nodes));
  }
  if (!std::isfinite(deadline_seconds) || deadline_seconds < 0) {
    return Status::InvalidField("deadline_seconds", "must be >= 0 (0 = no deadline), got " +
                                                        models::FormatShort(deadline_seconds));
  }
  if (top < 0) {
    return Status::InvalidField("top", "must be >= 0 (0 = all), got " + std::to_string(top));
  }
  return Status::Ok();
}

std::vector<double> WidestPathBandwidths(const profiles::Topology& t, std::size_t from_site,
                                         std::vector<double>* latency_seconds) {
  const std::size_t n = t.sites.size();
  Graph g(n);
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < n; ++i) index.emplace(t.sites[i].name, i);
  for (const profiles::Link& l : t.links) {
    auto a = index.find(l.from), b = index.find(l.to);
    if (a == index.end() || b == index.end() || a->second == b->second) continue;
    boost::add_edge(a->second, b->second,
                    EdgeProps{l.bandwidth_bytes_per_second, l.latency_seconds}, g);
  }
  std::vector<double> width(n, 0);
  std::vector<Graph::vertex_descriptor> pred(n);
  const double kInfinite = std::numeric_limits<double>::infinity();
  boost::dijkstra_shortest_paths(
      g, from_site,
      boost::predecessor_map(pred.data())
          .distance_map(width.data())
          .weight_map(boost::get(&EdgeProps::bandwidth, g))
          .distance_compare(std::greater<double>())
          .distance_combine([](double a, double b) { return std::min(a, b); })
          .distance_inf(0.0)
          .distance_zero(kInfinite));
  if (latency_seconds) {
    latency_seconds->assign(n, 0);
    for (std::size_t v = 0; v < n; ++v) {
      double total = 0;
      for (std::size_t u = v; pred[u] != u; u = pred[u]) {
        auto [e, found] = boost::edge(pred[u], u, g);
        if (found) total += g[e].latency;
      }
      (*latency_seconds)[v] = total;
    }
  }
  width[from_site] = t.sites[from_site].local_bandwidth_bytes_per_second;
  return width;
}

Result<Selection> Select(const models::ResolvedModel& model, const profiles::Topology& t,
                         const SelectOptions& options) {
  if (Status s = options.Validate(); !s.ok()) return s;
  const profiles::Dataset* dataset = t.FindDataset(options.dataset);
  if (!dataset) {
    std::vector<std::string_view> names;
    for (const profiles::Dataset& d : t.datasets) names.push_back(d.name);
    std::string message = "dataset \"" + options.dataset + "\" is not in " + t.file;
    const std::string suggestion = profiles::SuggestClosest(options.dataset, names);
    if (!suggestion.empty()) message += "; did you mean \"" + suggestion + "\"?";
    return Status::NotFound(message);
  }
  if (!options.profiled_site.empty() && !t.FindSite(options.profiled_site)) {
    return Status::NotFound("profiled site \"" + options.profiled_site + "\" is not in " + t.file);
  }

  // Per compute site: node speeds, fastest first, and the site's hardware factor.
  const std::size_t n_sites = t.sites.size();
  std::vector<std::vector<double>> speeds(n_sites);
  std::vector<models::ScalingFactors> site_scaling(n_sites);
  for (std::size_t s = 0; s < n_sites; ++s) {
    for (const profiles::NodeGroup& g : t.sites[s].nodes) {
      speeds[s].insert(speeds[s].end(), g.count, g.speed);
    }
    std::sort(speeds[s].begin(), speeds[s].end(), std::greater<double>());
    Result<models::ScalingFactors> f =
        profiles::SiteScaling(t, options.profiled_site, t.sites[s].name);
    if (!f.ok())
      return Status::InvalidArgument("site \"" + t.sites[s].name + "\": " + f.status().message());
    site_scaling[s] = f.value();
  }

  Selection out;
  out.dataset = dataset->name;
  out.dataset_bytes = dataset->dataset_bytes;
  out.objective = options.objective;
  std::vector<Candidate> candidates;
  std::vector<std::vector<double>> widths, latencies;
  std::vector<std::size_t> replica_site;
  for (std::size_t r = 0; r < dataset->replicas.size(); ++r) {
    const profiles::Replica& rep = dataset->replicas[r];
    std::size_t from = 0;
    while (from < n_sites && t.sites[from].name != rep.site) ++from;
    if (from == n_sites)
      return Status::NotFound("replica site \"" + rep.site + "\" is not in " + t.file);
    replica_site.push_back(from);
    latencies.emplace_back();
    widths.push_back(WidestPathBandwidths(t, from, &latencies.back()));
    for (std::size_t c = 0; c < n_sites; ++c) {
      const double bandwidth = widths.back()[c];
      if (bandwidth <= 0 || speeds[c].empty()) continue;
      const int max_nodes =
          options.max_compute_nodes > 0
              ? std::min<int>(options.max_compute_nodes, static_cast<int>(speeds[c].size()))
              : static_cast<int>(speeds[c].size());
      models::Target target;
      target.dataset_bytes = dataset->dataset_bytes;
      target.storage_nodes = rep.storage_nodes;
      target.bandwidth_bytes_per_second = bandwidth;
      target.scaling.disk = site_scaling[from].disk;
      target.scaling.network = 1;
      for (int k = 1; k <= max_nodes; ++k) {
        target.compute_nodes = k;
        target.scaling.compute = site_scaling[c].compute / speeds[c][k - 1];
        const double runtime = models::PredictRuntimeSeconds(model, target);
        ++out.evaluated;
        if (options.deadline_seconds > 0 && runtime > options.deadline_seconds) {
          ++out.over_deadline;
          continue;
        }
        candidates.push_back({r, c, k, runtime, runtime * k});
      }
    }
  }
  if (out.evaluated == 0) {
    return Status::Failed("no compute site is reachable from any replica of \"" + dataset->name +
                          "\"");
  }
  if (candidates.empty()) {
    return Status::Failed("no alternative meets the deadline of " +
                          models::FormatShort(options.deadline_seconds) + " s (" +
                          std::to_string(out.evaluated) + " evaluated)");
  }

  auto better = [&](const Candidate& a, const Candidate& b) {
    const double ka = options.objective == Objective::kTime ? a.runtime_seconds : a.node_seconds;
    const double kb = options.objective == Objective::kTime ? b.runtime_seconds : b.node_seconds;
    if (ka != kb) return ka < kb;
    const double sa = options.objective == Objective::kTime ? a.node_seconds : a.runtime_seconds;
    const double sb = options.objective == Objective::kTime ? b.node_seconds : b.runtime_seconds;
    if (sa != sb) return sa < sb;
    if (a.replica != b.replica) return a.replica < b.replica;
    if (a.compute_site != b.compute_site) return a.compute_site < b.compute_site;
    return a.nodes < b.nodes;
  };
  const std::size_t keep =
      options.top > 0 ? std::min<std::size_t>(options.top, candidates.size()) : candidates.size();
  std::partial_sort(candidates.begin(), candidates.begin() + keep, candidates.end(), better);
  candidates.resize(keep);

  for (const Candidate& c : candidates) {
    const profiles::Replica& rep = dataset->replicas[c.replica];
    const std::size_t from = replica_site[c.replica];
    models::Target target;
    target.dataset_bytes = dataset->dataset_bytes;
    target.storage_nodes = rep.storage_nodes;
    target.compute_nodes = c.nodes;
    target.bandwidth_bytes_per_second = widths[c.replica][c.compute_site];
    target.scaling = {site_scaling[from].disk, 1,
                      site_scaling[c.compute_site].compute / speeds[c.compute_site][c.nodes - 1]};
    models::Prediction p = models::Predict(model, target);
    Alternative a;
    a.replica_site = rep.site;
    a.compute_site = t.sites[c.compute_site].name;
    a.compute_nodes = c.nodes;
    a.storage_nodes = rep.storage_nodes;
    a.bandwidth_bytes_per_second = target.bandwidth_bytes_per_second;
    a.latency_seconds = latencies[c.replica][c.compute_site];
    a.runtime_seconds = p.runtime_seconds;
    a.node_seconds = p.runtime_seconds * c.nodes;
    a.breakdown = p.breakdown;
    a.scaling = target.scaling;
    a.warnings = std::move(p.warnings);
    out.alternatives.push_back(std::move(a));
  }
  return out;
}

}  // namespace perfplan::planner
