// Catalog: the profiles and the topology a long-running service answers from, loaded and
// validated once at start-up. Immutable after Load(), so any number of threads may read it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/status.h"
#include "profiles/runtime/profile_reader.h"
#include "profiles/runtime/topology.h"

namespace perfplan::planner {

class Catalog {
 public:
  // Loads every profile in `profile_paths` (files, or folders whose *.yaml, *.yml and *.json files
  // are all profiles) and the optional topology. Fails listing every problem, one per line, when
  // any file is invalid or two profiles share an application name.
  static Result<Catalog> Load(const std::vector<std::string>& profile_paths,
                              const std::string& topology_file);

  // The profile of `application`, or null.
  const profiles::ProfileDocument* FindProfile(const std::string& application) const;
  const profiles::Topology* topology() const { return topology_ ? &*topology_ : nullptr; }
  std::vector<std::string> Applications() const;

 private:
  std::map<std::string, profiles::ProfileDocument> profiles_;
  std::optional<profiles::Topology> topology_;
};

}  // namespace perfplan::planner
