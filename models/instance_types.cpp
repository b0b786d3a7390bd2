#include "models/instance_types.h"

namespace perfplan::models {
namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kGbit = 1e9 / 8;  // bytes per second in one Gbit/s
}  // namespace

const std::vector<InstanceType>& InstanceTypes() {
  static const std::vector<InstanceType> kTypes = {
      {"c4.large", 2, 3.75 * kGiB, 0.5 * kGbit},   {"c4.xlarge", 4, 7.5 * kGiB, 1.0 * kGbit},
      {"c4.2xlarge", 8, 15 * kGiB, 1.0 * kGbit},   {"m4.large", 2, 8 * kGiB, 0.5 * kGbit},
      {"m4.xlarge", 4, 16 * kGiB, 1.0 * kGbit},    {"m4.2xlarge", 8, 32 * kGiB, 1.0 * kGbit},
      {"r4.large", 2, 15.25 * kGiB, 0.75 * kGbit}, {"r4.xlarge", 4, 30.5 * kGiB, 1.25 * kGbit},
      {"r4.2xlarge", 8, 61 * kGiB, 2.5 * kGbit},
  };
  return kTypes;
}

std::optional<InstanceType> FindInstanceType(std::string_view name) {
  for (const InstanceType& t : InstanceTypes()) {
    if (t.name == name) return t;
  }
  return std::nullopt;
}

}  // namespace perfplan::models
