// The change-point flags that `hindex`, `stragglers` and `simulate hindex` share: --degree and
// --omega, and how they set models::HIndexOptions.
#pragma once

#include <cstddef>
#include <string>

#include "models/hindex.h"
#include "planner/cli/command.h"

namespace perfplan::cli {

struct ChangePointFlags {
  std::string degree = "1";  // 1, 2, 3 or auto
  std::size_t omega = 0;     // 0: the default max(10, n/100)
};

inline void AddChangePointFlags(CLI::App& cmd, ChangePointFlags& flags) {
  cmd.add_option("--degree", flags.degree,
                 "Degree p of the change-point fit: 1, 2, 3, or auto (BIC over 1..3)")
      ->check(CLI::IsMember({"1", "2", "3", "auto"}));
  cmd.add_option("--omega", flags.omega,
                 "Minimum segment ω on each side of the change point (default max(10, n/100))")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
}

// The flags' values into `options` (degree or choose_degree, min_segment).
inline void ApplyChangePointFlags(const ChangePointFlags& flags, models::HIndexOptions* options) {
  options->choose_degree = flags.degree == "auto";
  if (!options->choose_degree) options->degree = std::stoi(flags.degree);
  options->min_segment = flags.omega;
}

}  // namespace perfplan::cli
