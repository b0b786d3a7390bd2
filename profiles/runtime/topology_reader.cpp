#include <deque>
#include <set>

#include "profiles/detail/yaml_fields.h"
#include "profiles/runtime/topology.h"

namespace perfplan::profiles {
namespace {

using detail::FieldReader;
using detail::Range;

const std::vector<std::string_view> kTopKeys = {"schema_version", "description", "sites",
                                                "links",          "datasets",    "reference_runs"};
const std::vector<std::string_view> kSiteKeys = {
    "name", "description", "local_bandwidth_bytes_per_second", "scaling", "nodes"};
const std::vector<std::string_view> kScalingKeys = {"disk", "network", "compute"};
const std::vector<std::string_view> kNodeKeys = {"name", "count", "cores", "speed"};
const std::vector<std::string_view> kLinkKeys = {"from", "to", "bandwidth_bytes_per_second",
                                                 "latency_seconds"};
const std::vector<std::string_view> kDatasetKeys = {"name", "dataset_bytes", "replicas"};
const std::vector<std::string_view> kReplicaKeys = {"site", "storage_nodes"};
const std::vector<std::string_view> kReferenceKeys = {"application", "site", "disk_seconds",
                                                      "network_seconds", "compute_seconds"};

int LineOf(const YAML::Node& n) { return n.Mark().line >= 0 ? n.Mark().line + 1 : 0; }

// Calls read(entry, entry_path, i) for each entry of the list under `key` in `map` (at `path`)
// that is a mapping of `allowed` keys, in list order. The list is reported when it is missing and
// required, or not a list; an entry, when it is not a mapping (then skipped). Returns the list.
template <typename Read>
std::optional<YAML::Node> ForEachEntry(FieldReader& r, const YAML::Node& map,
                                       const std::string& path, const char* key, bool required,
                                       const std::vector<std::string_view>& allowed,
                                       const Read& read) {
  std::optional<YAML::Node> list = r.Sequence(map, path, key, required);
  if (!list) return list;
  const std::string list_path = FieldReader::Join(path, key);
  for (std::size_t i = 0; i < list->size(); ++i) {
    const YAML::Node entry = (*list)[i];
    const std::string entry_path = FieldReader::Index(list_path, i);
    if (r.ExpectMap(entry, entry_path, allowed)) read(entry, entry_path, i);
  }
  return list;
}

// The entry's required `name` into *name, reported when an earlier entry of its list (`seen`)
// has it ("duplicate <what> name").
void ReadUniqueName(FieldReader& r, const YAML::Node& entry, const std::string& path,
                    const char* what, std::set<std::string>* seen, std::string* name) {
  if (auto v = r.String(entry, path, "name", true)) {
    *name = *v;
    if (!seen->insert(*name).second) {
      r.Report(entry["name"], FieldReader::Join(path, "name"),
               std::string("duplicate ") + what + " name \"" + *name + "\"");
    }
  }
}

void ReadSites(FieldReader& r, const YAML::Node& root, Topology* t) {
  std::set<std::string> seen;
  auto read_site = [&](const YAML::Node& node, const std::string& path, std::size_t) {
    Site site;
    site.line = LineOf(node);
    ReadUniqueName(r, node, path, "site", &seen, &site.name);
    if (auto v =
            r.Number(node, path, "local_bandwidth_bytes_per_second", Range::kNonNegative, false)) {
      site.local_bandwidth_bytes_per_second = *v;
    }
    if (const YAML::Node sc = node["scaling"]) {
      const std::string sp = FieldReader::Join(path, "scaling");
      if (r.ExpectMap(sc, sp, kScalingKeys)) {
        site.has_scaling = true;
        if (auto v = r.Number(sc, sp, "disk", Range::kPositive, false)) site.scaling.disk = *v;
        if (auto v = r.Number(sc, sp, "network", Range::kPositive, false))
          site.scaling.network = *v;
        if (auto v = r.Number(sc, sp, "compute", Range::kPositive, false))
          site.scaling.compute = *v;
      }
    }
    auto read_group = [&](const YAML::Node& g, const std::string& gp, std::size_t j) {
      NodeGroup group;
      group.name = site.name + "-" + std::to_string(j);
      if (auto v = r.String(g, gp, "name", false)) group.name = *v;
      if (auto v = r.Integer(g, gp, "count", 1, kMaxNodeCount, false)) {
        group.count = static_cast<int>(*v);
      }
      if (auto v = r.Integer(g, gp, "cores", 1, kMaxCoresPerNode, false)) {
        group.cores = static_cast<int>(*v);
      }
      if (auto v = r.Number(g, gp, "speed", Range::kPositive, false)) group.speed = *v;
      site.nodes.push_back(group);
    };
    if (const std::optional<YAML::Node> nodes =
            ForEachEntry(r, node, path, "nodes", false, kNodeKeys, read_group)) {
      long long total = 0;  // summed wide: many groups of kMaxNodeCount would overflow int
      for (const NodeGroup& g : site.nodes) total += g.count;
      if (total > kMaxNodeCount) {
        r.Report(*nodes, FieldReader::Join(path, "nodes"),
                 "the site has " + std::to_string(total) + " nodes in all; at most " +
                     std::to_string(kMaxNodeCount) + " are supported");
      }
    }
    t->sites.push_back(site);
  };
  ForEachEntry(r, root, "", "sites", true, kSiteKeys, read_site);
}

void ReadLinks(FieldReader& r, const YAML::Node& root, Topology* t) {
  auto read_link = [&](const YAML::Node& node, const std::string& path, std::size_t) {
    Link link;
    link.line = LineOf(node);
    for (auto [key, out] : {std::pair{"from", &link.from}, {"to", &link.to}}) {
      if (auto v = r.String(node, path, key, true)) {
        *out = *v;
        if (!t->FindSite(*v)) {
          r.Report(node[key], FieldReader::Join(path, key), "unknown site \"" + *v + "\"");
        }
      }
    }
    if (auto v = r.Number(node, path, "bandwidth_bytes_per_second", Range::kPositive, true)) {
      link.bandwidth_bytes_per_second = *v;
    }
    if (auto v = r.Number(node, path, "latency_seconds", Range::kNonNegative, false)) {
      link.latency_seconds = *v;
    }
    t->links.push_back(link);
  };
  ForEachEntry(r, root, "", "links", false, kLinkKeys, read_link);
}

void ReadDatasets(FieldReader& r, const YAML::Node& root, Topology* t) {
  std::set<std::string> seen;
  auto read_dataset = [&](const YAML::Node& node, const std::string& path, std::size_t) {
    Dataset d;
    d.line = LineOf(node);
    ReadUniqueName(r, node, path, "dataset", &seen, &d.name);
    if (auto v = r.Number(node, path, "dataset_bytes", Range::kPositive, true)) {
      d.dataset_bytes = *v;
    }
    auto read_replica = [&](const YAML::Node& rn, const std::string& rp, std::size_t) {
      Replica rep;
      if (auto v = r.String(rn, rp, "site", true)) {
        rep.site = *v;
        if (!t->FindSite(*v)) {
          std::vector<std::string_view> names;
          for (const Site& s : t->sites) names.push_back(s.name);
          std::string message = "unknown site \"" + *v + "\"";
          const std::string suggestion = SuggestClosest(*v, names);
          if (!suggestion.empty()) message += "; did you mean \"" + suggestion + "\"?";
          r.Report(rn["site"], FieldReader::Join(rp, "site"), message);
        }
      }
      if (auto v = r.Integer(rn, rp, "storage_nodes", 1, kMaxNodeCount, true)) {
        rep.storage_nodes = static_cast<double>(*v);
      }
      d.replicas.push_back(rep);
    };
    // At least one replica (reported after the entries: an empty list has none to report).
    if (const std::optional<YAML::Node> reps =
            ForEachEntry(r, node, path, "replicas", true, kReplicaKeys, read_replica);
        reps && reps->size() == 0) {
      r.Report(*reps, FieldReader::Join(path, "replicas"), "expected at least 1 replica, got 0");
    }
    t->datasets.push_back(d);
  };
  ForEachEntry(r, root, "", "datasets", false, kDatasetKeys, read_dataset);
}

void ReadReferenceRuns(FieldReader& r, const YAML::Node& root, Topology* t) {
  auto read_reference = [&](const YAML::Node& node, const std::string& path, std::size_t) {
    models::ReferenceMeasurement m;
    std::string site;
    if (auto v = r.String(node, path, "application", true)) m.application = *v;
    if (auto v = r.String(node, path, "site", true)) {
      site = *v;
      if (!t->FindSite(site)) {
        r.Report(node["site"], FieldReader::Join(path, "site"), "unknown site \"" + site + "\"");
      }
    }
    if (auto v = r.Number(node, path, "disk_seconds", Range::kNonNegative, true))
      m.disk_seconds = *v;
    if (auto v = r.Number(node, path, "network_seconds", Range::kNonNegative, true)) {
      m.network_seconds = *v;
    }
    if (auto v = r.Number(node, path, "compute_seconds", Range::kNonNegative, true)) {
      m.compute_seconds = *v;
    }
    t->reference_runs[site].push_back(m);
  };
  ForEachEntry(r, root, "", "reference_runs", false, kReferenceKeys, read_reference);
}

// Every replica must reach (over links) at least one site that has compute nodes.
void CheckReachability(FieldReader& r, const YAML::Node& root, const Topology& t) {
  std::map<std::string, std::vector<std::string>> adjacent;
  for (const Link& l : t.links) {
    adjacent[l.from].push_back(l.to);
    adjacent[l.to].push_back(l.from);
  }
  const YAML::Node datasets = root["datasets"];
  for (std::size_t i = 0; i < t.datasets.size(); ++i) {
    for (std::size_t j = 0; j < t.datasets[i].replicas.size(); ++j) {
      const std::string& start = t.datasets[i].replicas[j].site;
      const Site* start_site = t.FindSite(start);
      if (!start_site) continue;  // already reported
      bool reachable =
          start_site->ComputeNodeCount() > 0 && start_site->local_bandwidth_bytes_per_second > 0;
      std::set<std::string> seen = {start};
      std::deque<std::string> queue = {start};
      while (!queue.empty() && !reachable) {
        const std::string here = queue.front();
        queue.pop_front();
        for (const std::string& next : adjacent[here]) {
          if (!seen.insert(next).second) continue;
          const Site* s = t.FindSite(next);
          if (s && s->ComputeNodeCount() > 0) reachable = true;
          queue.push_back(next);
        }
      }
      if (!reachable) {
        const std::string path =
            FieldReader::Index(FieldReader::Join(FieldReader::Index("datasets", i), "replicas"), j);
        r.Report(datasets[i]["replicas"][j], FieldReader::Join(path, "site"),
                 "replica at \"" + start + "\" cannot reach any site with compute nodes");
      }
    }
  }
}

void ReadTopology(FieldReader& r, const YAML::Node& root, Loaded<Topology>& out) {
  r.ExpectMap(root, "", kTopKeys);
  r.SchemaVersion(root, kTopologySchemaVersion);
  ReadSites(r, root, &out.value);
  ReadLinks(r, root, &out.value);
  ReadDatasets(r, root, &out.value);
  ReadReferenceRuns(r, root, &out.value);
  if (out.ok()) CheckReachability(r, root, out.value);
}
}  // namespace

const Site* Topology::FindSite(const std::string& name) const {
  for (const Site& s : sites) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const Dataset* Topology::FindDataset(const std::string& name) const {
  for (const Dataset& d : datasets) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

Loaded<Topology> ParseTopology(const std::string& text, const std::string& file) {
  return detail::ReadDocument<Topology>(text, file, ReadTopology);
}

Loaded<Topology> LoadTopology(const std::string& path) {
  return detail::LoadFile(path, ParseTopology);
}

Result<models::ScalingFactors> SiteScaling(const Topology& t, const std::string& profiled_site,
                                           const std::string& target_site) {
  const Site* target = t.FindSite(target_site);
  if (!target) return Status::NotFound("unknown site \"" + target_site + "\"");
  if (profiled_site.empty()) return target->scaling;
  const Site* profiled = t.FindSite(profiled_site);
  if (!profiled) return Status::NotFound("unknown profiled site \"" + profiled_site + "\"");
  if (profiled_site == target_site) return models::ScalingFactors{};
  auto a = t.reference_runs.find(profiled_site);
  auto b = t.reference_runs.find(target_site);
  if (a != t.reference_runs.end() && b != t.reference_runs.end()) {
    return models::ComputeScalingFactors(a->second, b->second);
  }
  return models::ScalingFactors{target->scaling.disk / profiled->scaling.disk,
                                target->scaling.network / profiled->scaling.network,
                                target->scaling.compute / profiled->scaling.compute};
}

}  // namespace perfplan::profiles
