#include "models/json_fields.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace perfplan {
namespace {

struct Row {
  std::string name = "a \"quoted\" name";
  std::int64_t bytes = -7;
  std::size_t count = 3;
  double seconds = 0.1;
  bool completed = true;
  std::vector<std::string> warnings = {"w1", "w2"};
  std::map<std::string, std::int64_t> per_node = {{"dn2", 2}, {"dn1", 1}};
};

TEST_CASE("PERFPLAN_JSON_FIELDS writes what the two-names literal writes, key for field") {
  const Row r;
  const nlohmann::json literal = {{"name", r.name},           {"bytes", r.bytes},
                                  {"count", r.count},         {"seconds", r.seconds},
                                  {"completed", r.completed}, {"warnings", r.warnings},
                                  {"per_node", r.per_node}};
  const nlohmann::json fields =
      PERFPLAN_JSON_FIELDS(r, name, bytes, count, seconds, completed, warnings, per_node);
  CHECK(fields == literal);
  CHECK(fields.dump() == literal.dump());
  CHECK(fields.dump() ==
        "{\"bytes\":-7,\"completed\":true,\"count\":3,\"name\":\"a \\\"quoted\\\" name\","
        "\"per_node\":{\"dn1\":1,\"dn2\":2},\"seconds\":0.1,\"warnings\":[\"w1\",\"w2\"]}");
}

TEST_CASE("the order fields are named in does not change the text; one field is an object") {
  const Row r;
  CHECK(PERFPLAN_JSON_FIELDS(r, seconds, name).dump() ==
        PERFPLAN_JSON_FIELDS(r, name, seconds).dump());
  CHECK(PERFPLAN_JSON_FIELDS(r, count).dump() == "{\"count\":3}");
}

TEST_CASE("OrNull writes the value an optional holds, or null") {
  CHECK(OrNull(std::optional<double>(2.5)).dump() == "2.5");
  CHECK(OrNull(std::optional<double>()).dump() == "null");
  CHECK(OrNull(std::optional<std::int64_t>(-3)).dump() == "-3");
  CHECK(OrNull(std::optional<bool>(false)).dump() == "false");
  CHECK(OrNull(std::optional<std::string>("x")).dump() == "\"x\"");
}

}  // namespace
}  // namespace perfplan
