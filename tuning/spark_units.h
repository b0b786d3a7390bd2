// Spark's size and duration strings ("4g", "512m", "64k", "200ms", "1h") as numbers with units.
//
// Sizes follow Spark's JavaUtils.byteStringAs (binary multiples: k = 1024 bytes) and are returned
// in bytes; durations follow JavaUtils.timeStringAs and are returned in seconds. "m" alone means
// mebibytes for a size and minutes for a duration, so the caller says which it expects (or the
// parameter name does, see UnitHintFor). Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "models/status.h"

namespace perfplan::tuning {

enum class Unit {
  kNone,     // a plain number (a count, a fraction)
  kBytes,    // parsed from a size string; value in bytes
  kSeconds,  // parsed from a duration string; value in seconds
};

std::string_view ToString(Unit unit);  // "", "bytes", "seconds"

struct Quantity {
  double value = 0;
  Unit unit = Unit::kNone;
};

// What a column is expected to hold when a suffix alone is ambiguous ("5m").
enum class UnitHint { kAuto, kBytes, kSeconds };

// The hint for a well-known Spark property name (e.g. spark.executor.memory -> kBytes,
// spark.network.timeout -> kSeconds); kAuto when the name is not known.
UnitHint UnitHintFor(std::string_view parameter_name);

// Parses a plain number ("0.6", "1e9", "-3"), "true"/"false" (1/0, unit kNone), a size ("4g",
// "512mb", "64k", "100b") or a duration ("200ms", "30s", "5min", "1h", "2d", "10us").
// Fails with InvalidArgument (message: what was seen and what was expected) on anything else, on
// NaN/infinity, and on "m" with hint kAuto (ambiguous). Never throws.
Result<Quantity> ParseSparkQuantity(std::string_view text, UnitHint hint);

// Whether `text` carries a suffix that is only valid for sizes (kBytes), only for durations
// (kSeconds), or neither/ambiguous (kAuto).
UnitHint SuffixKind(std::string_view text);

// Writes a value back as Spark expects it: bytes as the largest exact binary suffix ("4g",
// "512m", "64k", or "1000b"); seconds as "200ms", "30s", "5min", "2h"; plain numbers with up to
// 6 significant digits (integers without a decimal point).
std::string FormatSparkValue(double value, Unit unit);

}  // namespace perfplan::tuning
