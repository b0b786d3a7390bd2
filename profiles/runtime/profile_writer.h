// Writes a FREERIDE-G profile (the schema profile_reader.h reads, docs/profile-format.md). One
// emitter: ProfileEntries lists the document's keys and values in the schema's order, and both
// the YAML writer below and the JSON of `perfplan fit --json` (planner/runtime/fit_json.cpp) walk
// that list, so the two spellings of a profile cannot drift apart.
//
// Numbers are written by models::FormatNumber (the shortest text that reads back exactly), so
// ParseProfile(WriteProfileYaml(p)) gives back the same doubles. Every class is written explicitly
// (never "auto"): a written profile resolves without inference, even from one run. Pure;
// thread-safe.
#pragma once

#include <string>
#include <vector>

#include "models/runtime_model.h"

namespace perfplan::profiles {

// One key of a profile document and its value.
struct ProfileEntry {
  enum class Kind {
    kText,    // free text: a quoted string
    kWord,    // a schema word (a class name): written bare in YAML
    kNumber,  // a double
    kCount,   // a double that is a count (nodes, the schema version): no fraction when whole
    kFlag,    // true / false
  };
  std::string key;
  Kind kind = Kind::kNumber;
  std::string text;     // kText, kWord
  double number = 0;    // kNumber, kCount
  bool flag = false;    // kFlag
};

// The document: top-level entries, the reduction_communication mapping (empty when the profile has
// none), then the entries of each run.
struct ProfileEntries {
  std::vector<ProfileEntry> top;
  std::vector<ProfileEntry> reduction_communication;
  std::vector<std::vector<ProfileEntry>> runs;
};

// `profiled_site` and `description` are left out when empty.
ProfileEntries ListProfileEntries(const models::RuntimeProfile& profile,
                                  const std::string& profiled_site = "",
                                  const std::string& description = "");

// `description` and each of `comments` are optional; comments become leading "# " lines.
std::string WriteProfileYaml(const models::RuntimeProfile& profile,
                             const std::string& profiled_site = "",
                             const std::string& description = "",
                             const std::vector<std::string>& comments = {});

}  // namespace perfplan::profiles
