// Reads FREERIDE-G profile summaries (YAML or JSON, one schema; docs/profile-format.md).
//
// A profile file describes one application: its reduction classes (or "auto" to infer them) and
// one or more measured profile runs. Reading checks every field's type and range and reports every
// problem with file, line and field; the result is the plain models::RuntimeProfile the model
// consumes, plus the site the runs were measured on (for heterogeneity factors).
#pragma once

#include <string>

#include "models/runtime_model.h"
#include "profiles/problem.h"

namespace perfplan::profiles {

// The profile schema version this build reads and writes.
inline constexpr int kProfileSchemaVersion = 1;

struct ProfileDocument {
  std::string file;  // path it was read from
  models::RuntimeProfile profile;
  std::string profiled_site;  // optional: topology site whose hardware the runs measured
  // True when the one-pass reader of the plain documents perfplan writes read it (block YAML as
  // WriteProfileYaml writes it, or JSON, without problems); false when yaml-cpp did. The value is
  // the same either way; problems always come from yaml-cpp.
  bool read_in_one_pass = false;
};

// Parses profile text (YAML or JSON). `file` is only used in problem reports. Linear in the
// number of runs; a plain document of 200,000 runs takes about a second.
Loaded<ProfileDocument> ParseProfile(const std::string& text, const std::string& file);
// Reads and parses a profile file.
Loaded<ProfileDocument> LoadProfile(const std::string& path);

}  // namespace perfplan::profiles
