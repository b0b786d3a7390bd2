// Test fixture shared by the History API and SQL listener suites: ingest one event log the test
// wrote into an in-memory store, and read one /api/v1 answer from it as JSON.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "profiles/spark/history_api.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles::spark {

// Writes `log` as file `name` of a fresh folder and ingests it; requires nothing skipped.
inline std::unique_ptr<Store> Ingest(const std::string& name, const std::string& log) {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/" + name, log);
  auto store = Store::Open(":memory:", {StoreMigrations()});
  REQUIRE(store.ok());
  auto summary = IngestEventLogs(*store.value(), {dir});
  REQUIRE(summary.ok());
  for (const auto& s : summary.value().skipped)
    MESSAGE(s.file << ":" << s.line << ": " << s.reason);
  REQUIRE(summary.value().skipped.empty());
  return std::move(store.value());
}

// The History API's answer for `path`, parsed; requires it to succeed.
inline nlohmann::json Get(Store& store, const std::string& path) {
  auto answer = HistoryApi(store, path);
  REQUIRE_MESSAGE(answer.ok(), answer.status().message());
  return nlohmann::json::parse(answer.value());
}

}  // namespace perfplan::profiles::spark
