// Small in-memory run tables for the tuning tests.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "models/run_table.h"
#include "tuning/dataset.h"

namespace perfplan::tuning::testing {

inline models::RunTable Table(const std::vector<std::string>& columns,
                              const std::vector<std::vector<std::string>>& rows) {
  models::RunTable t;
  t.source = "runs.csv";
  for (const auto& c : columns) t.columns.push_back({c, models::DeclaredType::kUnknown, {}});
  int line = 2;
  for (const auto& r : rows) t.rows.push_back({line++, r});
  return t;
}

// A smooth synthetic workload: time falls with executor memory and cores, rises with a bad
// shuffle setting; 3 parameters, n runs on a deterministic low-discrepancy design.
inline Dataset SyntheticDataset(int n) {
  models::RunTable t;
  t.source = "synthetic.csv";
  for (const char* c : {"spark.executor.memory", "spark.executor.cores",
                        "spark.shuffle.compress.ratio", "time_seconds"}) {
    t.columns.push_back({c, models::DeclaredType::kUnknown, {}});
  }
  for (int i = 0; i < n; ++i) {
    const double u1 = std::fmod(0.5 + i * 0.6180339887, 1.0);
    const double u2 = std::fmod(0.5 + i * 0.7548776662, 1.0);
    const double u3 = std::fmod(0.5 + i * 0.5698402910, 1.0);
    const int mem_gb = 1 + static_cast<int>(u1 * 16);
    const int cores = 1 + static_cast<int>(u2 * 8);
    const double ratio = 0.1 + 0.8 * u3;
    const double time = 50 + 400.0 / (mem_gb + 2) + 200.0 / cores + 60 * ratio * ratio;
    t.rows.push_back({i + 2,
                      {std::to_string(mem_gb) + "g", std::to_string(cores), std::to_string(ratio),
                       std::to_string(time)}});
  }
  DatasetOptions s;
  s.target = "time_seconds";
  return BuildDataset(t, s).value();
}

}  // namespace perfplan::tuning::testing
