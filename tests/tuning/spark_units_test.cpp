#include "tuning/spark_units.h"

#include <doctest/doctest.h>

namespace perfplan::tuning {
namespace {

TEST_CASE("Spark sizes and durations parse into bytes and seconds") {
  struct Case {
    const char* text;
    UnitHint hint;
    double value;
    Unit unit;
  };
  const Case cases[] = {
      {"4g", UnitHint::kAuto, 4.0 * 1024 * 1024 * 1024, Unit::kBytes},
      {"512m", UnitHint::kBytes, 512.0 * 1024 * 1024, Unit::kBytes},
      {"512MB", UnitHint::kAuto, 512.0 * 1024 * 1024, Unit::kBytes},
      {"64k", UnitHint::kAuto, 65536, Unit::kBytes},
      {"100b", UnitHint::kAuto, 100, Unit::kBytes},
      {"1t", UnitHint::kAuto, 1024.0 * 1024 * 1024 * 1024, Unit::kBytes},
      {"200ms", UnitHint::kAuto, 0.2, Unit::kSeconds},
      {"30s", UnitHint::kAuto, 30, Unit::kSeconds},
      {"5m", UnitHint::kSeconds, 300, Unit::kSeconds},
      {"5min", UnitHint::kAuto, 300, Unit::kSeconds},
      {"1h", UnitHint::kAuto, 3600, Unit::kSeconds},
      {"2d", UnitHint::kAuto, 172800, Unit::kSeconds},
      {"10us", UnitHint::kAuto, 1e-5, Unit::kSeconds},
      {"0.6", UnitHint::kAuto, 0.6, Unit::kNone},
      {"1e9", UnitHint::kBytes, 1e9, Unit::kNone},
      {"true", UnitHint::kAuto, 1, Unit::kNone},
      {"false", UnitHint::kAuto, 0, Unit::kNone},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    Result<Quantity> q = ParseSparkQuantity(c.text, c.hint);
    REQUIRE(q.ok());
    CHECK(q.value().value == doctest::Approx(c.value).epsilon(1e-12));
    CHECK(q.value().unit == c.unit);
  }
}

TEST_CASE("Ambiguous, mismatched and non-numeric values are errors that say what to write") {
  CHECK(ParseSparkQuantity("5m", UnitHint::kAuto).status().message() ==
        "\"5m\" is ambiguous: 'm' means mebibytes for a size and minutes for a duration; write "
        "\"mb\" or \"min\"");
  CHECK(ParseSparkQuantity("30s", UnitHint::kBytes).status().message() ==
        "\"30s\" is a duration; expected a size such as 512m or 4g");
  CHECK(ParseSparkQuantity("4g", UnitHint::kSeconds).status().message() ==
        "\"4g\" is a size; expected a duration such as 200ms or 30s");
  CHECK(ParseSparkQuantity("lz4", UnitHint::kAuto).status().message() ==
        "\"lz4\" is not a number; expected a number, true/false, a size (4g, 512m, 64k) or a "
        "duration (200ms, 30s, 5min, 1h)");
  CHECK(ParseSparkQuantity("NaN", UnitHint::kAuto).status().message() ==
        "\"NaN\" is not a finite number; expected a measured value");
}

TEST_CASE("Property names hint their unit") {
  CHECK(UnitHintFor("spark.executor.memory") == UnitHint::kBytes);
  CHECK(UnitHintFor("spark.reducer.maxSizeInFlight") == UnitHint::kBytes);
  CHECK(UnitHintFor("spark.network.timeout") == UnitHint::kSeconds);
  CHECK(UnitHintFor("spark.locality.wait") == UnitHint::kSeconds);
  CHECK(UnitHintFor("spark.memory.fraction") == UnitHint::kAuto);
  CHECK(UnitHintFor("spark.executor.cores") == UnitHint::kAuto);
}

TEST_CASE("Values are written back with the largest exact Spark suffix") {
  CHECK(FormatSparkValue(4.0 * 1024 * 1024 * 1024, Unit::kBytes) == "4g");
  CHECK(FormatSparkValue(512.0 * 1024 * 1024, Unit::kBytes) == "512m");
  CHECK(FormatSparkValue(65536, Unit::kBytes) == "64k");
  CHECK(FormatSparkValue(1000, Unit::kBytes) == "1000b");
  CHECK(FormatSparkValue(0.2, Unit::kSeconds) == "200ms");
  CHECK(FormatSparkValue(120, Unit::kSeconds) == "2min");
  CHECK(FormatSparkValue(7200, Unit::kSeconds) == "2h");
  CHECK(FormatSparkValue(45, Unit::kSeconds) == "45s");
  CHECK(FormatSparkValue(0.6, Unit::kNone) == "0.6");
  CHECK(FormatSparkValue(200, Unit::kNone) == "200");
}

}  // namespace
}  // namespace perfplan::tuning
