// Spark store helpers shared by the Spark store tests: a store with the Spark schema, and (from
// store_query.h) the first column of a one-row query. Header only; the tests link doctest.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "profiles/spark/spark_store.h"
#include "profiles/store.h"
#include "tests/support/store_query.h"

namespace perfplan::testing {

inline std::unique_ptr<profiles::Store> OpenSparkStore(const std::string& path) {
  auto store = profiles::Store::Open(path, {profiles::spark::StoreMigrations()});
  REQUIRE(store.ok());
  return std::move(store.value());
}

}  // namespace perfplan::testing
