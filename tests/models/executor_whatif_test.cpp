#include "models/executor_whatif.h"

#include <doctest/doctest.h>

#include "tests/support/result_checks.h"

namespace perfplan::models {
namespace {

// Replays are sums of the given durations: exact in binary for these small values.
constexpr double kExact = 1e-12;

WhatIfApplication OneJob(std::vector<WhatIfStage> stages, double driver_seconds = 0) {
  WhatIfApplication app;
  app.jobs.push_back({std::move(stages)});
  app.driver_seconds = driver_seconds;
  return app;
}

TEST_CASE("One stage of equal tasks divides by the number of slots") {
  WhatIfApplication app = OneJob({{0, {}, {1, 1, 1, 1}}});
  for (auto [executors, seconds] : {std::pair{1, 4.0}, {2, 2.0}, {3, 2.0}, {4, 1.0}, {8, 1.0}}) {
    CAPTURE(executors);
    CHECK(PredictWithExecutors(app, executors).value() == doctest::Approx(seconds).epsilon(kExact));
  }
}

TEST_CASE("Cores per executor multiply the slots") {
  WhatIfApplication app = OneJob({{0, {}, {1, 1, 1, 1}}});
  app.cores_per_executor = 2;
  CHECK(PredictWithExecutors(app, 2).value() == doctest::Approx(1.0).epsilon(kExact));
}

TEST_CASE("A child stage waits for its parent; independent stages share the slots") {
  WhatIfApplication chain = OneJob({{0, {}, {2, 2}}, {1, {0}, {1}}}, 0.5);
  CHECK(PredictWithExecutors(chain, 1).value() == doctest::Approx(5.5).epsilon(kExact));
  CHECK(PredictWithExecutors(chain, 2).value() == doctest::Approx(3.5).epsilon(kExact));
  CHECK(CriticalPathSeconds(chain).value() == doctest::Approx(3.5).epsilon(kExact));
  WhatIfApplication parallel = OneJob({{0, {}, {3}}, {1, {}, {1, 1}}});
  CHECK(PredictWithExecutors(parallel, 2).value() == doctest::Approx(3.0).epsilon(kExact));
  CHECK(PredictWithExecutors(parallel, 1).value() == doctest::Approx(5.0).epsilon(kExact));
}

TEST_CASE("Jobs run one after another and parents outside the job are ignored") {
  WhatIfApplication app;
  app.jobs.push_back({{{0, {}, {1, 1}}}});
  app.jobs.push_back({{{1, {0}, {2}}}});  // stage 0 ran in the first job
  CHECK(PredictWithExecutors(app, 2).value() == doctest::Approx(3.0).epsilon(kExact));
  CHECK(CriticalPathSeconds(app).value() == doctest::Approx(3.0).epsilon(kExact));
}

TEST_CASE("Bad inputs are refused with the reason") {
  WhatIfApplication app = OneJob({{0, {1}, {1}}, {1, {0}, {1}}});
  const Status cycle = testing::ErrorOf(PredictWithExecutors(app, 1));
  CHECK(cycle.message() == "stage 0 depends on itself through its parent stages");
  const Status none = testing::ErrorOf(PredictWithExecutors(OneJob({{0, {}, {1}}}), 0));
  CHECK(none.message() == "executors must be at least 1, not 0");
}

}  // namespace
}  // namespace perfplan::models
