// The profile reader (profiles/runtime/profile_reader.h) over a document yaml-cpp has already
// parsed: `validate` parses a file once to tell a profile from a topology and reads the profile
// from that tree instead of parsing the text again (half the time and half the memory on a
// profile of 200,000 runs). Same problems and value as ParseProfile on the document's text.
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

#include "profiles/problem.h"
#include "profiles/runtime/profile_reader.h"

namespace perfplan::profiles::detail {

Loaded<ProfileDocument> ParseProfileNode(const YAML::Node& root, const std::string& file);

}  // namespace perfplan::profiles::detail
