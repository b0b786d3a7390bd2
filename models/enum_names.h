// One table of an enum's names serves both directions, so the name a writer prints and the name a
// reader accepts are spelled once:
//   constexpr EnumName<Codec> kCodecNames[] = {{Codec::kPlain, "plain"}, {Codec::kGzip, "gzip"}};
//   std::string_view ToString(Codec c) { return NameOf(kCodecNames, c); }
//   bool Parse(std::string_view text, Codec* out) { return ParseName(kCodecNames, text, out); }
// Header only.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace perfplan::models {

template <typename E>
using EnumName = std::pair<E, std::string_view>;

// The name of `value` in `names`; "?" for a value the table lacks (only a cast makes one).
template <typename E, std::size_t N>
constexpr std::string_view NameOf(const EnumName<E> (&names)[N], E value) {
  for (const auto& [v, name] : names) {
    if (v == value) return name;
  }
  return "?";
}

// The value `text` names in `names` (exact, case-sensitive), else nullopt.
template <typename E, std::size_t N>
constexpr std::optional<E> ValueNamed(const EnumName<E> (&names)[N], std::string_view text) {
  for (const auto& [v, name] : names) {
    if (name == text) return v;
  }
  return std::nullopt;
}

// The same as a Parse(text, &out): true with *out set when `text` names a value, else false and
// *out untouched.
template <typename E, std::size_t N>
bool ParseName(const EnumName<E> (&names)[N], std::string_view text, E* out) {
  const std::optional<E> value = ValueNamed(names, text);
  if (value) *out = *value;
  return value.has_value();
}

}  // namespace perfplan::models
