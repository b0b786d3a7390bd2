#include "models/text.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace perfplan::models {
namespace {

TEST_CASE("Trim drops ASCII whitespace at both ends only") {
  CHECK(Trim("  a b \t\r\n") == "a b");
  CHECK(Trim("\v\fx") == "x");
  CHECK(Trim("   ") == "");
  CHECK(Trim("") == "");
  CHECK(Trim("\xc2\xa0x") == "\xc2\xa0x");  // a UTF-8 no-break space is not ASCII whitespace
}

TEST_CASE("Lower and Upper change ASCII letters only") {
  CHECK(Lower("Spark.Executor-MEMORY_1") == "spark.executor-memory_1");
  CHECK(Upper("get_ok") == "GET_OK");
  CHECK(Lower("\xc3\x89") == "\xc3\x89");  // É in UTF-8 stays as it is
}

TEST_CASE("FormatNumber writes the shortest round trip in %g layout") {
  struct Case {
    double v;
    const char* text;
  };
  const Case cases[] = {
      {0, "0"},
      {-0.0, "-0"},
      {1, "1"},
      {0.1, "0.1"},
      {-2.5, "-2.5"},
      {100000, "100000"},
      {1e6, "1e+06"},
      {1234567, "1234567"},
      {1e-5, "1e-05"},
      {0.0001, "0.0001"},
      {1.0 / 3, "0.3333333333333333"},
      {123456789, "123456789"},
      {5e22, "5e+22"},
      {0.1 + 0.2, "0.30000000000000004"},
      {std::numeric_limits<double>::quiet_NaN(), "nan"},
      {std::numeric_limits<double>::infinity(), "inf"},
      {-std::numeric_limits<double>::infinity(), "-inf"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    CHECK(FormatNumber(c.v) == c.text);
  }
}

TEST_CASE("FormatNumber reads back to the same double") {
  const double values[] = {3.141592653589793, 1e-300,    1.7976931348623157e308, 4.9e-324, 123.456,
                           2.0 / 3,           1e15 + 0.5};
  for (double v : values) {
    CAPTURE(v);
    CHECK(std::strtod(FormatNumber(v).c_str(), nullptr) == v);
  }
}

}  // namespace
}  // namespace perfplan::models
