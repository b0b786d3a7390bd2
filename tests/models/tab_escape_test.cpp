#include "models/tab_escape.h"

#include <doctest/doctest.h>

#include <string_view>
#include <utility>

namespace perfplan::models {
namespace {

TEST_CASE("UnescapeTabs reads back \\t, \\n and \\\\; any other escaped byte is itself") {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"plain", "plain"},
      {"a\\tb\\nc\\\\d", "a\tb\nc\\d"},
      {"\\e\\\"", "e\""},
      {"end\\", "end\\"},  // a lone trailing backslash stays
      {"", ""},
  };
  for (const auto& [escaped, text] : cases) {
    CAPTURE(escaped);
    CHECK(UnescapeTabs(escaped) == text);
  }
}

}  // namespace
}  // namespace perfplan::models
