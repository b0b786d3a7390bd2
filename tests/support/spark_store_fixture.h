// Spark store helpers shared by the Spark store tests: a store with the Spark schema, and the
// first column of a one-row query (a COUNT(*) mostly). Header only; the tests link doctest.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "profiles/spark/spark_store.h"
#include "profiles/store.h"

namespace perfplan::testing {

inline std::unique_ptr<profiles::Store> OpenSparkStore(const std::string& path) {
  auto store = profiles::Store::Open(path, {profiles::spark::StoreMigrations()});
  REQUIRE(store.ok());
  return std::move(store.value());
}

inline std::int64_t Count(profiles::Store& store, const std::string& sql) {
  auto st = store.Prepare(sql);
  REQUIRE(st.ok());
  REQUIRE(st.value().Step());
  return st.value().ColumnInt(0);
}

}  // namespace perfplan::testing
