// Reading `perfplan score … --json` in CLI tests.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace perfplan::testing {

// The first dimension of the score's explanation (worst first) that has a score and a key in
// `metric`: the one `tune sensitivity --store` without --target must pick. "" when none.
inline std::string FirstScoredDimension(const nlohmann::json& score,
                                        const std::map<std::string, std::string>& metric) {
  for (const auto& name : score["explanation"]) {
    bool scored = false;
    for (const auto& d : score["dimensions"]) {
      if (d["name"] == name) scored = !d["score"].is_null();
    }
    if (scored && metric.count(name.get<std::string>())) return name.get<std::string>();
  }
  return "";
}

}  // namespace perfplan::testing
