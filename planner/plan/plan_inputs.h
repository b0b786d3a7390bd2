// Internal to planner/plan/: reading the input files of a plan or a capacity question so that
// every problem of every file comes back at once, as one InvalidArgument Status (one
// "file:line: field: message" per line). Not a public header.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "models/status.h"
#include "profiles/problem.h"
#include "profiles/runtime/price_file.h"

namespace perfplan::planner::plan_detail {

// The problems of several readers in order, as one InvalidArgument (one FormatProblem line
// each); Ok when every reader succeeded.
template <typename... T>
Status InputProblems(const profiles::Loaded<T>&... loaded) {
  std::string message;
  bool any = false;
  for (const std::vector<profiles::Problem>* problems : {&loaded.problems...}) {
    for (const profiles::Problem& p : *problems) {
      message += (any ? "\n" : "") + profiles::FormatProblem(p);
      any = true;
    }
  }
  return any ? Status::InvalidArgument(message) : Status::Ok();
}

// The price file at `path`, or an empty, problem-free value when `path` is "".
inline profiles::Loaded<profiles::PriceFile> LoadOptionalPrices(const std::string& path) {
  if (path.empty()) return {};
  return profiles::LoadPriceFile(path);
}

}  // namespace perfplan::planner::plan_detail
