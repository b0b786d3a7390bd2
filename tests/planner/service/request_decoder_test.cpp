#include "planner/service/request_decoder.h"

#include <doctest/doctest.h>

#include <string>

namespace perfplan::planner {
namespace {

TEST_CASE("A request body nested 100,000 deep is a 400 with a message, not a stack overflow") {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string body = "{\"application\":\"wordcount\",\"x\":" + deep + "}";
  PredictCall predict;
  auto e = DecodePredictCall(body, &predict);
  REQUIRE(e.has_value());
  CHECK(e->http_status == 400);
  CHECK(e->error == "invalid_json");
  CHECK(e->message == "the request body nests arrays/objects deeper than 512 levels");
  SelectCall select;
  e = DecodeSelectCall(deep, &select);
  REQUIRE(e.has_value());
  CHECK(e->message == "the request body nests arrays/objects deeper than 512 levels");
}

TEST_CASE("Brackets inside strings do not count towards the nesting limit") {
  const std::string body = "{\"application\":\"" + std::string(1000, '[') + "\\\"\"}";
  PredictCall predict;
  auto e = DecodePredictCall(body, &predict);
  if (e.has_value()) CHECK(e->message.find("deeper than") == std::string::npos);
}

}  // namespace
}  // namespace perfplan::planner
