#include "models/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace perfplan::models {
namespace {

bool IsSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

char LowerChar(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
char UpperChar(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

}  // namespace

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), LowerChar);
  return out;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), UpperChar);
  return out;
}

std::string FormatFixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string FormatNumber(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  // The shortest round trip's significant digits: the mantissa of its scientific form.
  const std::to_chars_result shortest =
      std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  int digits = 0;
  for (const char* p = buf; p != shortest.ptr && *p != 'e'; ++p) digits += (*p >= '0' && *p <= '9');
  const std::to_chars_result general =
      std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, std::max(digits, 6));
  return std::string(buf, general.ptr);
}

}  // namespace perfplan::models
