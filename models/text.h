// Small text helpers every layer shares: trimming, ASCII case, and the one number format writers
// use.
//
// Pure functions over std::string_view; no locale (ASCII only, so "I" lowers to "i" everywhere).
// Thread-safe. Layers above models/ include this instead of keeping their own copies.
#pragma once

#include <string>
#include <string_view>

namespace perfplan::models {

// `s` without leading and trailing ASCII whitespace (space, \t, \n, \v, \f, \r).
std::string_view Trim(std::string_view s);

// ASCII lower / upper case; other bytes (UTF-8 sequences included) are left as they are.
std::string Lower(std::string_view s);
std::string Upper(std::string_view s);

// The number format of every perfplan writer (CSV, YAML, JSON export): the fewest significant
// digits that read back to exactly `v` (std::to_chars' shortest round trip), laid out like printf's
// "%g" with at least 6 digits of precision, so 100000 stays "100000" and 1e-05 stays "1e-05".
// "nan", "inf" and "-inf" for the non-finite values.
std::string FormatNumber(double v);

// Fixed-point with `digits` decimals, as printf's "%.*f": FormatFixed(12.345, 1) == "12.3". For
// human text (reports, tables), not for numbers read back.
std::string FormatFixed(double v, int digits);

}  // namespace perfplan::models
