#include "profiles/hdfs/log4j_time_zone.h"

#include <doctest/doctest.h>

namespace perfplan::profiles {
namespace {

constexpr std::int64_t kHour = 3600 * 1000;
// Wall-clock times read as if UTC (what ParseLog4jTime gives).
constexpr std::int64_t kJan15Noon = 1705320000000;  // 2024-01-15 12:00:00
constexpr std::int64_t kJul15Noon = 1721044800000;  // 2024-07-15 12:00:00

Log4jTimeZone Zone(std::string_view name) {
  auto zone = Log4jTimeZone::Parse(name);
  REQUIRE_MESSAGE(zone.ok(), zone.status().message());
  return zone.value();
}

TEST_CASE("UTC and its spellings leave times alone") {
  for (const char* name : {"UTC", "Z", "GMT", "+00:00", "UTC+00:00"}) {
    CAPTURE(name);
    CHECK(Zone(name).is_utc());
    CHECK(Zone(name).ToUtc(kJan15Noon) == kJan15Noon);
  }
  CHECK(Log4jTimeZone().name() == "UTC");
}

TEST_CASE("fixed offsets: local minus offset is UTC") {
  CHECK(Zone("-08:00").ToUtc(kJan15Noon) == kJan15Noon + 8 * kHour);
  CHECK(Zone("+05:30").ToUtc(kJan15Noon) == kJan15Noon - 5 * kHour - 30 * 60000);
  CHECK(Zone("UTC+01:00").ToUtc(kJan15Noon) == kJan15Noon - kHour);
  CHECK(Zone("+0930").ToUtc(kJan15Noon) == kJan15Noon - 9 * kHour - 30 * 60000);
  CHECK(Zone("-03").ToUtc(kJan15Noon) == kJan15Noon + 3 * kHour);
}

TEST_CASE("a tz database zone follows daylight saving") {
  const Log4jTimeZone la = Zone("America/Los_Angeles");
  CHECK_FALSE(la.is_utc());
  CHECK(la.ToUtc(kJan15Noon) == kJan15Noon + 8 * kHour);  // PST
  CHECK(la.ToUtc(kJul15Noon) == kJul15Noon + 7 * kHour);  // PDT
  CHECK(Zone("Asia/Kolkata").ToUtc(kJul15Noon) == kJul15Noon - 5 * kHour - 30 * 60000);
  // Cached per hour: the minutes inside an hour keep their distance.
  CHECK(la.ToUtc(kJul15Noon + 59 * 60000) == kJul15Noon + 7 * kHour + 59 * 60000);
}

TEST_CASE("daylight saving's repeated hour is read as its first pass, the skipped one as before") {
  const Log4jTimeZone la = Zone("America/Los_Angeles");
  constexpr std::int64_t kNov3At0130 = 1730597400000;  // 2024-11-03 01:30, happens twice
  constexpr std::int64_t kMar10At0230 = 1710037800000;  // 2024-03-10 02:30, never happens
  CHECK(la.ToUtc(kNov3At0130) == kNov3At0130 + 7 * kHour);   // PDT, the first 01:30
  CHECK(la.ToUtc(kMar10At0230) == kMar10At0230 + 8 * kHour);  // PST, the clock not yet moved
}

TEST_CASE("names that are not zones are refused with what was expected") {
  const std::string expected =
      "is not a time zone: expected UTC, an offset such as +05:30 or -08:00, or a tz database "
      "name such as America/Los_Angeles";
  for (const char* name : {"", "PST8", "+25:00", "+05:61", "Mars/Olympus", "../etc/passwd",
                           "/usr/share/zoneinfo/UTC", "America/Los_Angeles "}) {
    CAPTURE(name);
    const auto zone = Log4jTimeZone::Parse(name);
    REQUIRE_FALSE(zone.ok());
    CHECK(zone.status().field() == "timezone");
    CHECK(zone.status().message() == "timezone: \"" + std::string(name) + "\" " + expected);
  }
}

}  // namespace
}  // namespace perfplan::profiles
