// The versions of the third-party libraries perfplan's evidence layer is built with, for
// `perfplan --version` and bug reports. Run-time versions where the library reports one
// (SQLite, zlib, zstd, lz4), else the version of the headers it was compiled against.
// Pure; thread-safe.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace perfplan::profiles {

// (library, version) pairs in a fixed order: sqlite, zlib, zstd, lz4, nlohmann_json, simdjson,
// pugixml, yaml-cpp.
std::vector<std::pair<std::string, std::string>> LibraryVersions();

}  // namespace perfplan::profiles
