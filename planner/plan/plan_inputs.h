// Internal to planner/plan/: reading the input files of a plan or a capacity question so that
// every problem of every file comes back at once, as one InvalidArgument Status (one
// "file:line: field: message" per line). Not a public header.
#pragma once

#include <string>
#include <vector>

#include "models/status.h"
#include "profiles/problem.h"
#include "profiles/runtime/price_file.h"

namespace perfplan::planner::plan_detail {

// Collects the problems of several readers in order.
class InputProblems {
 public:
  template <typename T>
  void Add(const profiles::Loaded<T>& loaded) {
    problems_.insert(problems_.end(), loaded.problems.begin(), loaded.problems.end());
  }
  bool ok() const { return problems_.empty(); }
  Status ToStatus() const {
    std::string message;
    for (const profiles::Problem& p : problems_) {
      if (!message.empty()) message += "\n";
      message += profiles::FormatProblem(p);
    }
    return Status::InvalidArgument(message);
  }

 private:
  std::vector<profiles::Problem> problems_;
};

// The price file at `path`, or an empty, problem-free value when `path` is "".
inline profiles::Loaded<profiles::PriceFile> LoadOptionalPrices(const std::string& path) {
  if (path.empty()) return {};
  return profiles::LoadPriceFile(path);
}

}  // namespace perfplan::planner::plan_detail
