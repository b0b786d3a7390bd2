// The catalog the service tests serve: the profiles and the topology of examples/. Header only
// (the service tests link doctest and perfplan_planner).
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "planner/service/catalog.h"
#include "tests/support/test_support.h"

namespace perfplan::testing {

inline planner::Catalog ExampleCatalog() {
  const std::string examples = SourceDir() + "/examples";
  Result<planner::Catalog> c =
      planner::Catalog::Load({examples + "/profiles"}, examples + "/topology.yaml");
  REQUIRE_MESSAGE(c.ok(), c.status().message());
  return std::move(c).value();
}

}  // namespace perfplan::testing
