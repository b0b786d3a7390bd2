#include "tuning/dataset.h"

#include <doctest/doctest.h>

#include "tests/tuning/tuning_fixtures.h"

namespace perfplan::tuning {
namespace {

using testing::Table;

DatasetOptions Target(const std::string& t) {
  DatasetOptions s;
  s.target = t;
  return s;
}

TEST_CASE("Units become numbers and the target column becomes y") {
  auto t = Table({"spark.executor.memory", "spark.locality.wait", "spark.executor.cores", "time"},
                 {{"4g", "3s", "2", "100"}, {"512m", "200ms", "4", "80"}, {"1g", "1m", "8", "60"}});
  Result<Dataset> ds = BuildDataset(t, Target("time"));
  REQUIRE_MESSAGE(ds.ok(), ds.status().message());
  const Dataset& d = ds.value();
  REQUIRE(d.features.size() == 3);
  CHECK(d.features[0].unit == Unit::kBytes);
  CHECK(d.features[1].unit == Unit::kSeconds);
  CHECK(d.features[2].unit == Unit::kNone);
  CHECK(d.features[2].integer);
  CHECK(d.x[1][0] == 512.0 * 1024 * 1024);
  CHECK(d.x[2][1] == 60.0);  // "1m" in a duration column is a minute
  CHECK(d.features[0].min == 512.0 * 1024 * 1024);
  CHECK(d.y == std::vector<double>{100, 80, 60});
  CHECK(d.lines == std::vector<int>{2, 3, 4});
}

TEST_CASE("Categorical parameters are one-hot encoded or rejected by name") {
  auto t = Table({"spark.io.compression.codec", "x", "time"},
                 {{"lz4", "1", "10"}, {"snappy", "2", "12"}, {"lz4", "3", "9"}});
  Result<Dataset> ds = BuildDataset(t, Target("time"));
  REQUIRE(ds.ok());
  REQUIRE(ds.value().features.size() == 3);
  CHECK(ds.value().features[0].name == "spark.io.compression.codec=lz4");
  CHECK(ds.value().features[1].name == "spark.io.compression.codec=snappy");
  CHECK(ds.value().x[1][1] == 1.0);

  DatasetOptions reject = Target("time");
  reject.categorical = CategoricalPolicy::kReject;
  CHECK(BuildDataset(t, reject).status().message() ==
        "runs.csv: categorical parameter column(s) spark.io.compression.codec hold text; encode "
        "them as numbers, ignore them, or allow one-hot encoding");
}

TEST_CASE("Bad input names file, line and column") {
  auto t = Table({"a", "b", "time"},
                 {{"1", "2", "10"}, {"2", "NaN", "11"}, {"3", "4", ""}, {"4", "5", "abc"}});
  CHECK(BuildDataset(t, Target("time")).status().message() ==
        "runs.csv:4: time: missing target value\n"
        "runs.csv:5: time: \"abc\" is not a number; expected a number, true/false, a size (4g, "
        "512m, 64k) or a duration (200ms, 30s, 5min, 1h)\n"
        "runs.csv:3: b: \"NaN\" is not a finite number; expected a measured value");
}

TEST_CASE("A missing target lists the columns") {
  auto t = Table({"a", "time"}, {{"1", "2"}, {"2", "3"}});
  CHECK(BuildDataset(t, Target("runtime")).status().message() ==
        "runs.csv: target column \"runtime\" not found; columns are: a, time");
}

TEST_CASE("Constant columns are an error unless dropped with a warning") {
  auto t = Table({"a", "c", "time"}, {{"1", "7", "2"}, {"2", "7", "3"}, {"3", "7", "5"}});
  CHECK(BuildDataset(t, Target("time")).status().message() ==
        "runs.csv: constant parameter column(s) c: a parameter that never varies carries no "
        "information; ignore it or drop constant columns");
  DatasetOptions s = Target("time");
  s.drop_constant = true;
  Result<Dataset> ds = BuildDataset(t, s);
  REQUIRE(ds.ok());
  CHECK(ds.value().features.size() == 1);
  CHECK(ds.value().warnings == std::vector<std::string>{"dropped constant parameter(s): c"});
}

TEST_CASE("When every parameter is dropped the error names them and what would help") {
  auto t = Table({"a", "c", "m", "time"}, {{"1", "7", "5", "2"}, {"1", "7", "6", "3"}});
  DatasetOptions s = Target("time");
  s.drop_constant = true;
  s.ignore = {"m"};
  CHECK(BuildDataset(t, s).status().message() ==
        "runs.csv: no parameter columns left to model time: dropped as constant over the 2 "
        "run(s): a, c; 1 column(s) ignored as metrics or by request; a model needs runs that "
        "differ in at least one parameter (and, for cross-validation, at least as many runs as "
        "folds: 5 by default)");
}

TEST_CASE("Mixed units in a column are errors") {
  auto t = Table({"spark.executor.memory", "time"}, {{"4g", "1"}, {"512", "2"}});
  CHECK(BuildDataset(t, Target("time")).status().message() ==
        "runs.csv:3: spark.executor.memory: mixes values with and without units; write the unit "
        "on every value (e.g. 512m)");
}

TEST_CASE("Ignored columns are skipped and must exist") {
  auto t = Table({"a", "other_metric", "time"}, {{"1", "5", "2"}, {"2", "6", "3"}});
  DatasetOptions s = Target("time");
  s.ignore = {"other_metric"};
  Result<Dataset> ds = BuildDataset(t, s);
  REQUIRE(ds.ok());
  CHECK(ds.value().features.size() == 1);
  s.ignore = {"nope"};
  CHECK(BuildDataset(t, s).status().message() ==
        "runs.csv: ignored column \"nope\" not found; columns are: a, other_metric, time");
}

TEST_CASE("Failure markers in the target drop runs; other non-positive targets warn") {
  auto t = testing::Table({"a", "time"}, {{"1", "5"}, {"2", "-1"}, {"3", "7"}, {"4", "0.5"}});
  DatasetOptions s;
  s.target = "time";
  Result<Dataset> kept = BuildDataset(t, s);
  REQUIRE(kept.ok());
  CHECK(kept.value().runs() == 4);
  CHECK(kept.value().warnings ==
        std::vector<std::string>{"time is zero or negative at line(s) 3; if these mark failed "
                                 "runs, declare the marker (failed_marker, e.g. -1)"});
  s.failed_markers = {-1};
  Result<Dataset> ds = BuildDataset(t, s);
  REQUIRE(ds.ok());
  CHECK(ds.value().runs() == 3);
  CHECK(ds.value().lines == std::vector<int>{2, 4, 5});
  CHECK(ds.value().warnings ==
        std::vector<std::string>{
            "dropped 1 failed run(s) (target is a failure marker) at line(s) 3"});
}

}  // namespace
}  // namespace perfplan::tuning
