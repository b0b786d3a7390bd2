// Log4jTimeZone: the time zone a NameNode or DataNode wrote its log4j timestamps in.
//
// log4j's default pattern ("yyyy-MM-dd HH:mm:ss,SSS") carries no zone: the daemon writes its
// host's local wall clock. ParseLog4jTime reads that wall clock as if it were UTC; this turns it
// into real UTC so that HDFS records can be laid beside Spark event times and Ganglia samples,
// which are epoch milliseconds. Accepted names:
//   "UTC" (the default; also "Z", "GMT"),
//   a fixed offset "+05:30", "-08:00", "UTC+01:00" (hours 0–14, minutes 0–59),
//   a tz database name such as "America/Los_Angeles", read from $TZDIR or /usr/share/zoneinfo
//   (Debian package tzdata), daylight saving included.
// A wall-clock time that occurs twice (the hour repeated when daylight saving ends) is read as
// the first of the two; one that never occurs (the hour skipped when it starts) as if the clock
// had not moved yet. Offsets are looked up once per wall-clock hour and cached.
//
// Not thread-safe (the tz database lookup sets TZ for the process for the duration of a call);
// one zone per ingest.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "models/status.h"

namespace perfplan::profiles {

class Log4jTimeZone {
 public:
  Log4jTimeZone() = default;  // UTC

  // InvalidArgument (field "timezone") naming what was expected when `name` is none of the
  // forms above.
  static Result<Log4jTimeZone> Parse(std::string_view name);

  const std::string& name() const { return name_; }
  bool is_utc() const { return !database_ && fixed_offset_ms_ == 0; }

  // UTC milliseconds of `wall_ms`, a wall-clock time in this zone read as if it were UTC.
  std::int64_t ToUtc(std::int64_t wall_ms) const;

 private:
  std::string name_ = "UTC";
  bool database_ = false;             // a tz database zone, else a fixed offset
  std::int64_t fixed_offset_ms_ = 0;  // local - UTC
  mutable std::unordered_map<std::int64_t, std::int64_t> hour_offsets_ms_;  // wall hour → offset
};

}  // namespace perfplan::profiles
