// A store test's one-value query: the first column of a query's first row (a COUNT(*) mostly).
// Header only; the tests link doctest.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "profiles/store.h"

namespace perfplan::testing {

inline std::int64_t Count(profiles::Store& store, const std::string& sql) {
  auto st = store.Prepare(sql);
  REQUIRE(st.ok());
  REQUIRE(st.value().Step());
  return st.value().ColumnInt(0);
}

}  // namespace perfplan::testing
