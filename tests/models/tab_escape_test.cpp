#include "models/tab_escape.h"

#include <doctest/doctest.h>

namespace perfplan::models {
namespace {

TEST_CASE("UnescapeTabs reads back \\t, \\n and \\\\; any other escaped byte is itself") {
  CHECK(UnescapeTabs("plain") == "plain");
  CHECK(UnescapeTabs("a\\tb\\nc\\\\d") == "a\tb\nc\\d");
  CHECK(UnescapeTabs("\\e\\\"") == "e\"");
  CHECK(UnescapeTabs("end\\") == "end\\");  // a lone trailing backslash stays
  CHECK(UnescapeTabs("") == "");
}

}  // namespace
}  // namespace perfplan::models
