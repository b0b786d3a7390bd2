// Internal to profiles/: the fast path of the profile reader (profiles/runtime/profile_reader.h).
//
// yaml-cpp reads about 2 MB/s and keeps a node tree of ~10 KB per profile run, so a profile of
// 200,000 runs took 26 CPU-s and 2 GB. The documents perfplan writes itself are simpler than
// YAML in general: block YAML as WriteProfileYaml writes it (one `key: value` a line, a
// `runs:` list of `- key: value` blocks, `#` comments, plain or double-quoted scalars), or JSON
// (`fit --json`, service requests). This reader takes those in one pass over the text, holding
// nothing but the runs.
//
// It returns a document only when the text is inside that subset *and* has no problem at all;
// for anything else (other YAML syntax, tabs, CR, non-ASCII bytes, an unknown or repeated key, a
// bad value, a cross-field problem the model finds) it returns nullopt and the caller reads the
// text with yaml-cpp, which reports the problems. So problems always come from one reader, and
// the value it returns equals the yaml-cpp path's: each scalar's text and quoting are what
// yaml-cpp would give, and the same checks (yaml_fields.h, profile_node.h) judge them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "profiles/runtime/profile_reader.h"

namespace perfplan::profiles::detail {

// The profile in `text`, or nullopt when the text must be read by yaml-cpp. `file` is stored in
// the document. Linear in the text; no recursion deeper than kPlainMaxDepth.
std::optional<ProfileDocument> ReadPlainProfile(std::string_view text, const std::string& file);

// JSON nested deeper than this (only inside "fit" or "description", which are not read) is left
// to yaml-cpp, whose depth guard reports it.
inline constexpr int kPlainMaxDepth = 64;

}  // namespace perfplan::profiles::detail
