// What a test takes from a Result: its value when the call must succeed, its error when it must
// fail. Each REQUIREs that outcome first (ValueOf shows the error's message when there is one), so
// a case reads as its specification:
//   const GangliaSnapshot s = testing::ValueOf(ParseGangliaXml(text, "grid.xml"));
//   const Status e = testing::ErrorOf(ParseGangliaXml("<html/>", "page"));
//   CHECK(e.message() == "page: root element is <html> (expected GANGLIA_XML ...)");
// Header only.
#pragma once

#include <doctest/doctest.h>

#include <utility>

#include "models/status.h"

namespace perfplan::testing {

template <typename T>
T ValueOf(Result<T> result) {
  INFO(result.status().message());
  REQUIRE(result.ok());
  return std::move(result).value();
}

template <typename T>
Status ErrorOf(const Result<T>& result) {
  REQUIRE_FALSE(result.ok());
  return result.status();
}

}  // namespace perfplan::testing
