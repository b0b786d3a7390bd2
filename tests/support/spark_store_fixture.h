// Spark store helpers shared by the Spark store tests: a store with the Spark schema, one holding
// every log of the shared data, and (from store_query.h) the first column of a one-row query.
// Header only; the tests link doctest.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "profiles/store.h"
#include "tests/support/store_query.h"
#include "tests/support/test_support.h"

namespace perfplan::testing {

inline std::unique_ptr<profiles::Store> OpenSparkStore(const std::string& path) {
  auto store = profiles::Store::Open(path, {profiles::spark::StoreMigrations()});
  REQUIRE(store.ok());
  return std::move(store.value());
}

// An in-memory store holding every log of ../shared/data/01-spark-eventlogs (the data tests').
inline std::unique_ptr<profiles::Store> SharedSparkStore() {
  auto store = OpenSparkStore(":memory:");
  REQUIRE(profiles::spark::IngestEventLogs(*store, {SharedDataDir() + "/01-spark-eventlogs"}).ok());
  return store;
}

}  // namespace perfplan::testing
