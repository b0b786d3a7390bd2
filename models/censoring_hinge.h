// The censoring hinge of the runtime fits (models/runtime_fit.cpp, models/runtime_forms.cpp): a
// censored run (a timeout or failure) is a lower bound on its runtime, so it enters a fit only
// once the fit predicts it below its bound, and then as a row at its bound.
#pragma once

#include <cstddef>
#include <vector>

#include "models/runtime_fit.h"
#include "models/status.h"

namespace perfplan::models {

// run(i) is the i-th of `count` runs; solve(pinned) fits the completed runs and the censored runs
// with pinned[i] set, each at its bound (its runtime_seconds); predicted(i) is that fit's runtime
// for run i. A censored run is pinned once the fit predicts it below its bound; each round pins
// every such run and solves again, until none is added or `max_iterations` solves were made.
// *pinned holds the runs pinned at the last solve. The runs may be the censored ones only (a
// leave-one-out that solves from normal equations looks at nothing else).
template <typename Run, typename Solve, typename Predicted>
Status FitWithCensoringHinge(std::size_t count, Run run, int max_iterations, Solve solve,
                             Predicted predicted, std::vector<bool>* pinned) {
  pinned->assign(count, false);
  for (int iteration = 0;; ++iteration) {
    if (Status s = solve(*pinned); !s.ok()) return s;
    bool added = false;
    for (std::size_t i = 0; i < count; ++i) {
      const MeasuredRun& r = run(i);
      if (r.completed || (*pinned)[i]) continue;
      if (predicted(i) < r.runtime_seconds * (1 - 1e-9)) (*pinned)[i] = added = true;
    }
    if (!added || iteration + 1 >= max_iterations) return Status::Ok();
  }
}

// The same over runs held by pointer, the pinned runs not wanted (the pooled forms).
template <typename Solve, typename Predicted>
Status FitWithCensoringHinge(const std::vector<const MeasuredRun*>& runs, int max_iterations,
                             Solve solve, Predicted predicted) {
  std::vector<bool> pinned;
  return FitWithCensoringHinge(
      runs.size(), [&](std::size_t i) -> const MeasuredRun& { return *runs[i]; }, max_iterations,
      solve, predicted, &pinned);
}

}  // namespace perfplan::models
