#include "tuning/spark_units.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "models/text.h"

namespace perfplan::tuning {
namespace {

using models::Lower;

struct Suffix {
  std::string_view text;
  Unit unit;
  double factor;
};

constexpr double kKi = 1024.0;
// Longest suffixes first so "ms" is not read as "s", nor "kb" as "b".
constexpr std::array<Suffix, 17> kSuffixes = {{
    {"min", Unit::kSeconds, 60.0},
    {"kb", Unit::kBytes, kKi},
    {"mb", Unit::kBytes, kKi* kKi},
    {"gb", Unit::kBytes, kKi* kKi* kKi},
    {"tb", Unit::kBytes, kKi* kKi* kKi* kKi},
    {"pb", Unit::kBytes, kKi* kKi* kKi* kKi* kKi},
    {"ms", Unit::kSeconds, 1e-3},
    {"us", Unit::kSeconds, 1e-6},
    {"b", Unit::kBytes, 1.0},
    {"k", Unit::kBytes, kKi},
    {"g", Unit::kBytes, kKi* kKi* kKi},
    {"t", Unit::kBytes, kKi* kKi* kKi* kKi},
    {"p", Unit::kBytes, kKi* kKi* kKi* kKi* kKi},
    {"s", Unit::kSeconds, 1.0},
    {"h", Unit::kSeconds, 3600.0},
    {"d", Unit::kSeconds, 86400.0},
    {"m", Unit::kNone, 0.0},  // ambiguous: mebibytes or minutes
}};

bool ParsePlain(std::string_view s, double* out) {
  if (s.empty()) return false;
  if (s.front() == '+') s.remove_prefix(1);
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, *out);
  return ec == std::errc() && ptr == end;
}

}  // namespace

std::string_view ToString(Unit unit) {
  switch (unit) {
    case Unit::kNone:
      return "";
    case Unit::kBytes:
      return "bytes";
    case Unit::kSeconds:
      return "seconds";
  }
  return "";
}

UnitHint UnitHintFor(std::string_view name) {
  const std::string n = Lower(name);
  auto has = [&](std::string_view part) { return n.find(part) != std::string::npos; };
  const bool size_like = (has("memory") && !has("fraction")) || has("maxsizeinflight") ||
                         has("buffer") || has("blocksize") || has("memorymapthreshold") ||
                         has("maxpartitionbytes") || has("offheap.size");
  if (size_like) {
    return UnitHint::kBytes;
  }
  if (has("timeout") || has("interval") || has("wait") || has("heartbeat")) {
    return UnitHint::kSeconds;
  }
  return UnitHint::kAuto;
}

UnitHint SuffixKind(std::string_view text) {
  const std::string s = Lower(text);
  for (const Suffix& suf : kSuffixes) {
    if (s.size() > suf.text.size() &&
        s.compare(s.size() - suf.text.size(), suf.text.size(), suf.text) == 0) {
      double v;
      if (!ParsePlain(std::string_view(s).substr(0, s.size() - suf.text.size()), &v)) continue;
      if (suf.unit == Unit::kBytes) return UnitHint::kBytes;
      if (suf.unit == Unit::kSeconds) return UnitHint::kSeconds;
      return UnitHint::kAuto;
    }
  }
  return UnitHint::kAuto;
}

Result<Quantity> ParseSparkQuantity(std::string_view text, UnitHint hint) {
  const std::string s = Lower(text);
  double v = 0;
  if (s == "true") return Quantity{1.0, Unit::kNone};
  if (s == "false") return Quantity{0.0, Unit::kNone};
  if (ParsePlain(s, &v)) {
    if (!std::isfinite(v)) {
      return Status::InvalidArgument("\"" + std::string(text) +
                                     "\" is not a finite number; expected a measured value");
    }
    return Quantity{v, Unit::kNone};
  }
  for (const Suffix& suf : kSuffixes) {
    if (s.size() <= suf.text.size() ||
        s.compare(s.size() - suf.text.size(), suf.text.size(), suf.text) != 0) {
      continue;
    }
    if (!ParsePlain(std::string_view(s).substr(0, s.size() - suf.text.size()), &v) ||
        !std::isfinite(v)) {
      continue;
    }
    Unit unit = suf.unit;
    double factor = suf.factor;
    if (suf.text == "m") {
      if (hint == UnitHint::kBytes) {
        unit = Unit::kBytes;
        factor = kKi * kKi;
      } else if (hint == UnitHint::kSeconds) {
        unit = Unit::kSeconds;
        factor = 60.0;
      } else {
        return Status::InvalidArgument(
            "\"" + std::string(text) +
            "\" is ambiguous: 'm' means mebibytes for a size and minutes for a duration; write "
            "\"mb\" or \"min\"");
      }
    }
    if (hint == UnitHint::kBytes && unit == Unit::kSeconds) {
      return Status::InvalidArgument("\"" + std::string(text) +
                                     "\" is a duration; expected a size such as 512m or 4g");
    }
    if (hint == UnitHint::kSeconds && unit == Unit::kBytes) {
      return Status::InvalidArgument("\"" + std::string(text) +
                                     "\" is a size; expected a duration such as 200ms or 30s");
    }
    return Quantity{v * factor, unit};
  }
  return Status::InvalidArgument(
      "\"" + std::string(text) +
      "\" is not a number; expected a number, true/false, a size (4g, 512m, 64k) or a duration "
      "(200ms, 30s, 5min, 1h)");
}

std::string FormatSparkValue(double value, Unit unit) {
  char buf[64];
  if (unit == Unit::kBytes) {
    const double bytes = std::round(value);
    static constexpr std::array<std::pair<const char*, double>, 5> kSteps = {{
        {"p", kKi * kKi * kKi * kKi * kKi},
        {"t", kKi * kKi * kKi * kKi},
        {"g", kKi * kKi * kKi},
        {"m", kKi * kKi},
        {"k", kKi},
    }};
    for (const auto& [suffix, factor] : kSteps) {
      if (bytes >= factor && std::fmod(bytes, factor) == 0) {
        std::snprintf(buf, sizeof buf, "%.0f%s", bytes / factor, suffix);
        return buf;
      }
    }
    std::snprintf(buf, sizeof buf, "%.0fb", bytes);
    return buf;
  }
  if (unit == Unit::kSeconds) {
    const double ms = std::round(value * 1000.0);
    if (ms != 0 && std::fmod(ms, 3600000.0) == 0) {
      std::snprintf(buf, sizeof buf, "%.0fh", ms / 3600000.0);
    } else if (ms != 0 && std::fmod(ms, 60000.0) == 0) {
      std::snprintf(buf, sizeof buf, "%.0fmin", ms / 60000.0);
    } else if (ms != 0 && std::fmod(ms, 1000.0) == 0) {
      std::snprintf(buf, sizeof buf, "%.0fs", ms / 1000.0);
    } else {
      std::snprintf(buf, sizeof buf, "%.0fms", ms);
    }
    return buf;
  }
  if (value == std::round(value) && std::fabs(value) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", value);
  } else {
    std::snprintf(buf, sizeof buf, "%.6g", value);
  }
  return buf;
}

}  // namespace perfplan::tuning
