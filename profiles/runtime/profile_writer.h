// Writes a FREERIDE-G profile (the schema profile_reader.h reads, docs/profile-format.md) as YAML,
// so fitted profiles feed `perfplan predict` and `perfplan select`.
//
// Numbers are written by models::FormatNumber (the shortest text that reads back exactly), so
// ParseProfile(WriteProfileYaml(p)) gives back the same doubles. Every class is written explicitly (never "auto"): a written profile resolves
// without inference, even from one run. Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "models/runtime_model.h"

namespace perfplan::profiles {

// `description` and each of `comments` are optional; comments become leading "# " lines.
std::string WriteProfileYaml(const models::RuntimeProfile& profile,
                             const std::string& profiled_site = "",
                             const std::string& description = "",
                             const std::vector<std::string>& comments = {});

}  // namespace perfplan::profiles
