#include "models/csv_field.h"

#include <doctest/doctest.h>

#include <string_view>
#include <utility>

namespace perfplan::models {
namespace {

TEST_CASE("QuoteCsvField quotes a field with a comma, quote, CR or LF and doubles its quotes") {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"plain", "plain"},
      {"", ""},
      {"a,b", "\"a,b\""},
      {"say \"hi\"", "\"say \"\"hi\"\"\""},
      {"two\nlines", "\"two\nlines\""},
      {"cr\r", "\"cr\r\""},
      {"tab\tstays", "tab\tstays"},  // only RFC 4180's four characters need quotes
  };
  for (const auto& [text, field] : cases) {
    CAPTURE(text);
    CHECK(QuoteCsvField(text) == field);
  }
}

}  // namespace
}  // namespace perfplan::models
