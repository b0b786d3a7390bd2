// A pre-parse guard against deeply nested JSON (arrays and objects inside each other).
//
// nlohmann::json parses deep documents iteratively, but copying, comparing or dumping the result
// recurses once per level: a 100,000-deep line overflows the stack (measured under ASan on a
// JSON array of that depth). Callers that take JSON from outside check the depth first and
// reject the input with a message instead.
//
// Pure function of its argument; thread-safe; no allocation.
#pragma once

#include <cstddef>
#include <string_view>

namespace perfplan::profiles {

// Deepest nesting real inputs need is about 10 (Spark events) — 512 leaves ample room.
inline constexpr int kMaxJsonDepth = 512;

// True when `text` opens more than `max_depth` arrays/objects inside each other. Brackets inside
// JSON strings (with backslash escapes) are ignored. Does not validate the JSON: a malformed
// text that stays within the depth returns false and is left to the parser to reject.
inline bool JsonDeeperThan(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

}  // namespace perfplan::profiles
