// A small documented table of cloud instance types (the nine Amazon EC2 types of the Scout data),
// so models and importers know what an instance type is: vCPUs, memory and network bandwidth.
//
// Figures: vCPUs and memory from the EC2 instance-type pages. Network: EC2 publishes classes, not
// numbers, for c4/m4 ("Moderate", "High"); the table uses 0.5 Gbit/s for Moderate and 1 Gbit/s for
// High, and the published baselines for r4 ("up to 10 Gigabit": 0.75, 1.25, 2.5 Gbit/s). These
// are approximations, documented in docs/fit.md. Static data; thread-safe.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace perfplan::models {

struct InstanceType {
  std::string_view name;  // e.g. "c4.large"
  int vcpus = 0;
  double memory_bytes = 0;
  double network_bytes_per_second = 0;
};

// Every known type, in table order.
const std::vector<InstanceType>& InstanceTypes();
// The type called `name`, or nullopt.
std::optional<InstanceType> FindInstanceType(std::string_view name);

}  // namespace perfplan::models
