// Reader for a parameter ranges file (`tune ... --ranges FILE`): the real range of each parameter
// of a data set published with normalised values, so they can be turned back into settings
// (x_true = max(x · max, min), the convention of HiBench-derived tuning data sets).
//
// YAML (or JSON), either form:
//   spark.executor.memory: {min: 1024, max: 8192, default: 1024}
// or under a `parameters:` key, with an optional `schema_version: 1`. `min` and `max` are
// required numbers with min <= max; `default` is optional and must lie in [min, max]. Every
// problem names the file, line and field. Stateless; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "profiles/problem.h"

namespace perfplan::profiles {

struct ParameterRange {
  std::string name;
  double min = 0;
  double max = 0;
  bool has_default = false;
  double default_value = 0;
  int line = 0;
};

struct RangesFile {
  std::string file;
  std::vector<ParameterRange> parameters;  // file order
};

Loaded<RangesFile> ParseRangesFile(const std::string& text, const std::string& file);
// Reads `path` (the input-file checks of every reader) and parses it.
Loaded<RangesFile> ReadRangesFile(const std::string& path);

}  // namespace perfplan::profiles
