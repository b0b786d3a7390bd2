#include "planner/scoring/spark_scoring.h"

#include <doctest/doctest.h>

namespace perfplan::planner {
namespace {

TEST_CASE("Only tuning properties set to a non-default value make a run non-default") {
  CHECK(NonDefaultTuningProperties({{"spark.master", "local[*]"},
                                    {"spark.app.name", "Spark shell"},
                                    {"spark.executor.memory", " 1g "},
                                    {"spark.sql.shuffle.partitions", "200"}})
            .empty());
  CHECK(NonDefaultTuningProperties({{"spark.executor.memory", "4g"},
                                    {"spark.eventLog.enabled", "true"},
                                    {"spark.executor.instances", "2"}}) ==
        std::vector<std::string>{"spark.executor.memory=4g", "spark.executor.instances=2"});
}

}  // namespace
}  // namespace perfplan::planner
