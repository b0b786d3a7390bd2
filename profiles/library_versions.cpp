#include "profiles/library_versions.h"

#include <lz4.h>
#include <simdjson.h>
#include <sqlite3.h>
#include <zlib.h>
#include <zstd.h>

#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#define PERFPLAN_STRINGIFY2(x) #x
#define PERFPLAN_STRINGIFY(x) PERFPLAN_STRINGIFY2(x)

namespace perfplan::profiles {

std::vector<std::pair<std::string, std::string>> LibraryVersions() {
  return {
      {"sqlite", sqlite3_libversion()},
      {"zlib", zlibVersion()},
      {"zstd", ZSTD_versionString()},
      {"lz4", LZ4_versionString()},
      {"nlohmann_json", std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                            std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                            std::to_string(NLOHMANN_JSON_VERSION_PATCH)},
      {"simdjson", PERFPLAN_STRINGIFY(SIMDJSON_VERSION)},
      {"pugixml",
       std::to_string(PUGIXML_VERSION / 1000) + "." + std::to_string(PUGIXML_VERSION % 1000 / 10)},
      // yaml-cpp 0.7 defines no version macro; PERFPLAN_YAML_CPP_VERSION comes from CMake.
      {"yaml-cpp", PERFPLAN_YAML_CPP_VERSION},
  };
}

}  // namespace perfplan::profiles
