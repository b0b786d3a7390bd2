#include "profiles/hdfs/log4j_time_zone.h"

#include <sys/stat.h>

#include <cstdlib>
#include <ctime>
#include <optional>

namespace perfplan::profiles {
namespace {

constexpr std::int64_t kHourMs = 3600 * 1000;

Status BadZone(std::string_view name) {
  return Status::InvalidField(
      "timezone", "\"" + std::string(name) +
                      "\" is not a time zone: expected UTC, an offset such as +05:30 or -08:00, "
                      "or a tz database name such as America/Los_Angeles");
}

// "+05:30", "-08", "+0530" → offset in ms; nullopt when not an offset.
std::optional<std::int64_t> ParseOffset(std::string_view s) {
  if (s.empty() || (s[0] != '+' && s[0] != '-')) return std::nullopt;
  const int sign = s[0] == '-' ? -1 : 1;
  s.remove_prefix(1);
  auto two = [&s](int* out) {
    if (s.size() < 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9') return false;
    *out = (s[0] - '0') * 10 + (s[1] - '0');
    s.remove_prefix(2);
    return true;
  };
  int hours = 0, minutes = 0;
  if (!two(&hours)) return std::nullopt;
  if (!s.empty()) {
    if (s[0] == ':') s.remove_prefix(1);
    if (!two(&minutes) || !s.empty()) return std::nullopt;
  }
  if (hours > 14 || minutes > 59) return std::nullopt;
  return sign * (static_cast<std::int64_t>(hours) * 60 + minutes) * 60 * 1000;
}

bool IsDatabaseZone(const std::string& name) {
  if (name.empty() || name[0] == '/' || name.find("..") != std::string::npos) return false;
  for (char c : name) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '/' || c == '_' || c == '-' || c == '+';
    if (!ok) return false;
  }
  const char* dir = std::getenv("TZDIR");
  const std::string path = std::string(dir && *dir ? dir : "/usr/share/zoneinfo") + "/" + name;
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

// Local minus UTC, in ms, at the wall-clock time `wall_s` of tz database zone `name`.
std::int64_t DatabaseOffsetMs(const std::string& name, std::int64_t wall_s) {
  const char* previous = std::getenv("TZ");
  const std::string saved = previous ? previous : "";
  setenv("TZ", name.c_str(), 1);
  tzset();
  const std::time_t as_utc = static_cast<std::time_t>(wall_s);
  std::tm wall{};
  gmtime_r(&as_utc, &wall);
  wall.tm_isdst = -1;  // let the zone decide
  const std::time_t utc = mktime(&wall);
  if (previous) {
    setenv("TZ", saved.c_str(), 1);
  } else {
    unsetenv("TZ");
  }
  tzset();
  return (wall_s - static_cast<std::int64_t>(utc)) * 1000;
}

}  // namespace

Result<Log4jTimeZone> Log4jTimeZone::Parse(std::string_view name) {
  Log4jTimeZone zone;
  zone.name_ = std::string(name);
  if (name == "UTC" || name == "Z" || name == "GMT") return zone;
  std::string_view offset = name;
  if (offset.substr(0, 3) == "UTC" || offset.substr(0, 3) == "GMT") offset.remove_prefix(3);
  if (std::optional<std::int64_t> ms = ParseOffset(offset)) {
    zone.fixed_offset_ms_ = *ms;
    return zone;
  }
  if (IsDatabaseZone(zone.name_)) {
    zone.database_ = true;
    return zone;
  }
  return BadZone(name);
}

std::int64_t Log4jTimeZone::ToUtc(std::int64_t wall_ms) const {
  if (!database_) return wall_ms - fixed_offset_ms_;
  const std::int64_t hour = wall_ms >= 0 ? wall_ms / kHourMs : -((-wall_ms + kHourMs - 1) / kHourMs);
  auto [it, inserted] = hour_offsets_ms_.try_emplace(hour, 0);
  if (inserted) it->second = DatabaseOffsetMs(name_, hour * kHourMs / 1000);
  return wall_ms - it->second;
}

}  // namespace perfplan::profiles
